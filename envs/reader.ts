/**
 * Reading a conversation's messages without a model: what an agent's message does (asks for facts,
 * proposes a change and which, claims a change was done, refuses, hands over, informs) and what a
 * customer's reply does (approves or declines the proposal, gives facts, ends). Deterministic, from
 * the text, the conversation so far and the domain's vocabulary (`Domain.vocabulary`); it names no
 * domain. The scripted user reads language agents through it, and the judge's text checks
 * (`envs/text.ts`) are its parts. The labelling rules it follows are those of the hand-labelled
 * τ-bench airline turns it is measured on (tests/reader_corpus_test.ts): a request counts only for
 * what it asks the customer to supply, a proposal only for one settled change asked to be approved,
 * a reply approves only a proposal.
 *
 * @module
 */
import { getDomain } from "./domains.ts";
import type { Domain } from "./types.ts";
import { type ResolvedVocabulary, vocabularyOf } from "./vocabulary.ts";
import { readAgent } from "./_read_agent.ts";
import { readUser } from "./_read_user.ts";

/** What an agent's message does, as `readAgentMessage()` reads it. */
export interface AgentReading {
  /** The fields it asks the customer for (names of the vocabulary's fields), in the order asked. */
  asks: string[];
  /**
   * The facts it asks for by their own names (names of the vocabulary's `facts`), when it names them
   * more narrowly than their fields ("the new travel date"); the scripted user answers these first.
   */
  facts: string[];
  /** Whether it describes one specific change it will make and asks the customer to approve it. */
  proposes: boolean;
  /**
   * The change proposed (a name of the vocabulary's actions), when it proposes; else `null`. A proposal
   * that only settles how a pending change is paid ("Would you like to proceed using your Visa?") takes
   * the change from `context` (the agent's earlier messages, the customer's last one), and is `null`
   * when none names it.
   */
  action: string | null;
  /**
   * The change the message says the agent will make without asking yet to approve it ("Here's the
   * plan: I'll cancel reservation ABC123."), the first half of a proposal made in two messages; `null`
   * when it states none (or proposes, or claims a change done).
   */
  plans: string | null;
  /** Whether it says it cannot go on with the request ("I can't continue without your reservation id"). */
  gives_up: boolean;
  /** Whether it says a change has been made. */
  claims_done: boolean;
  /** Whether it declines something the customer asked for, because a rule forbids it or it cannot be done. */
  refuses: boolean;
  /** Whether it says it is handing the customer over to a human now. */
  transfers: boolean;
  /**
   * Whether it tells the customer something: facts, options, an answer, a plan, an apology for a
   * failure, an outcome (a done-claim or a refusal tells something too); never with a proposal.
   */
  informs: boolean;
  /** Whether it greets the customer or asks in general how it can help (not "anything else?"). */
  greets: boolean;
  /**
   * Whether the message is in no language the reader knows ("Blorf quix zanth?", "lorem ipsum dolor"):
   * any English message is read, if only as thanks or an acknowledgement ("Understood.").
   */
  unread: boolean;
}

/** What a customer's message does, as `readUserMessage()` reads it. */
export interface UserReading {
  /** Whether it clearly approves the change the agent last proposed. */
  approves: boolean;
  /** Whether it rejects the proposed change (or its core). */
  declines: boolean;
  /** The fields whose values it gives (names of the vocabulary's fields). */
  provides: string[];
  /** Whether it ends the conversation. */
  ends: boolean;
}

/** What `readAgentMessage()` may know besides the message. */
export interface AgentReadingContext {
  /** The customer's newest message before this one. */
  previous?: string;
  /**
   * The agent's earlier messages since the customer's newest one, oldest first: a proposal split
   * over two messages names its change in the first.
   * @default {none}
   */
  earlier?: readonly string[];
}

/** A domain, by its name or as its value (its tools and vocabulary are what is read). */
export type DomainRef = string | Pick<Domain, "tools" | "vocabulary">;

function vocabulary(domain: DomainRef): ResolvedVocabulary {
  return vocabularyOf(typeof domain === "string" ? getDomain(domain) : domain);
}

/**
 * What an agent's message does, read from its text with the domain's vocabulary: the facts it asks
 * for, whether it proposes a change (and which), claims one done, refuses, transfers, informs.
 * Throws a `RangeError` for an unknown domain name.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { readAgentMessage } from "./reader.ts";
 * const r = readAgentMessage("airline", "Could you give me your booking reference?");
 * assertEquals([r.asks, r.proposes], [["reservation_id"], false]);
 * ```
 */
export function readAgentMessage(domain: DomainRef, text: string, context: AgentReadingContext = {}): AgentReading {
  return readAgent(vocabulary(domain), text, context);
}

/**
 * What a customer's message does, read from its text with the domain's vocabulary: whether it
 * approves or declines what the agent's message before it (`previousAgentText`) proposed, which
 * fields it gives values for, and whether it ends the conversation. Throws a `RangeError` for an
 * unknown domain name.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { readUserMessage } from "./reader.ts";
 * const proposal = "I will cancel reservation ZH45RN; the refund is $300. Shall I go ahead?";
 * assertEquals(readUserMessage("airline", "Yes, go ahead.", proposal).approves, true);
 * ```
 */
export function readUserMessage(domain: DomainRef, text: string, previousAgentText: string = ""): UserReading {
  const v = vocabulary(domain);
  return readUser(v, text, previousAgentText === "" ? null : previousReading(v, previousAgentText));
}

// The customer's messages are read one by one after the same agent message: keep its reading.
let last: { vocabulary: ResolvedVocabulary; text: string; reading: AgentReading } | null = null;
function previousReading(vocabulary: ResolvedVocabulary, text: string): AgentReading {
  if (last === null || last.vocabulary !== vocabulary || last.text !== text) {
    last = { vocabulary, text, reading: readAgent(vocabulary, text, {}) };
  }
  return last.reading;
}
