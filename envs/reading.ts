/**
 * What the text readers make of a message (`readAgentMessage()`, `readUserMessage()` of
 * `reader.ts`): an agent's message's asks, proposal, claims and refusals, and a customer's reply's
 * approval, facts and end.
 *
 * @module
 */

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
