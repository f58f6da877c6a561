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
import type { Domain } from "./domain.ts";
import type { AgentReading, AgentReadingContext, UserReading } from "./reading.ts";
import { type ResolvedVocabulary, vocabularyOf } from "./vocabulary.ts";
import { readAgent } from "./_read_agent.ts";
import { readUser } from "./_read_user.ts";

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
