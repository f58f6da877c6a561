/**
 * The conversation of an episode: a message, the structured meaning a scripted speaker gives it
 * (the playbook protocol, `Intent`) and how a simulated user read the agent's message it answers.
 *
 * @module
 */
import type { Json } from "./json.ts";
import type { ToolCall } from "./tool.ts";

/**
 * Structured meaning of a message, so scripted agents and users can act without
 * parsing language. Language-model agents see only the text. This is the playbook protocol
 * between a domain's playbook (`Solver`) and the scripted user (`scriptedUser()`), described
 * whole in docs/domains.md "The playbook protocol": the user opens with `request`; the agent
 * asks, proposes, refuses, informs or hands over; the user provides, says it does not know,
 * confirms, declines or stops. A message without an intent (or with another one) gets a nudge
 * from the scripted user, a `provide` with no facts; a nudge that would be its `patience`-th reply
 * without progress (nudges, `unknown`s, `decline`s) is a `stop`, unsatisfied, instead.
 */
export type Intent =
  /**
   * User → agent, the opening: what they want (`goal`, the task's `goal`) and the facts they
   * volunteer (the task's `volunteered` facts).
   */
  | {
    kind: "request";
    goal: string;
    facts: Record<string, Json>;
    /**
     * Further changes asked for in the same opening (the task's `also`), each with its own goal and
     * facts: a playbook handles them in turn after the first.
     */
    also?: { goal: string; facts: Record<string, Json> }[];
  }
  /**
   * Agent → user: asks for facts it needs (field names from the task's facts). The scripted user
   * answers `provide` with those it knows, or `unknown` when it knows none of them.
   */
  | { kind: "ask"; fields: string[] }
  /** User → agent: gives facts (none when it is only nudging the agent on). */
  | { kind: "provide"; facts: Record<string, Json> }
  /** User → agent: it does not know, or will not give, the asked fields. */
  | { kind: "unknown"; fields: string[] }
  /**
   * Agent → user: proposes a write and waits for an explicit yes. The scripted user confirms
   * only a call of a tool that writes whose name and arguments deep-equal (key order aside) a
   * gold call not confirmed yet; it declines anything else.
   */
  | { kind: "propose"; call: ToolCall }
  /** User → agent: yes to the proposal just made. */
  | { kind: "confirm" }
  /**
   * User → agent: no to the proposal just made; the agent makes no change. `facts` are the user's
   * corrections, when the proposal stated one of its facts otherwise (a playbook may propose again
   * with them).
   */
  | { kind: "decline"; facts?: Record<string, Json> }
  /**
   * Agent → user: refuses the request, naming the rule in the text (where the grader looks for
   * the task's `outputs`). The scripted user stops, satisfied when the task expects a refusal.
   */
  | { kind: "refuse"; reason: string }
  /**
   * Agent → user: reports the outcome of what it did, or the facts asked for (`{ outcome:
   * "not_done" }` when it gives up). The scripted user stops, satisfied, when the task expects
   * `inform`, or `act` and it confirmed every gold write (at least one); otherwise it nudges.
   */
  | { kind: "inform"; facts?: Record<string, Json> }
  /**
   * Agent → user: hands over to a human in words. The scripted user stops, satisfied when the
   * task expects a transfer; the hand-over itself is a call of a tool declared `handsOver`.
   */
  | { kind: "transfer" }
  /** User → agent: ends the conversation, and the episode with it. */
  | { kind: "stop"; satisfied: boolean };

/** One message of the conversation. */
export interface Message {
  /** Who says it. */
  role: "user" | "agent";
  /** What is said, as a language agent or user reads it. */
  text: string;
  /** What it means for scripted agents and the scripted user; absent from language models' messages. */
  intent?: Intent;
  /** For a simulated user's reply: how it read the agent's message it answers. */
  read?: UserRead;
}

/**
 * How a simulated user read the agent's message it answers (an event's `read`): what it took the
 * message to be, the facts it took it to ask for or to state, and the change it took it to propose.
 */
export interface UserRead {
  /**
   * What the message was to the user: a request for facts, a proposal, a claim that the request was
   * done, a refusal, a hand-over, information, a greeting, or nothing it could read (`unread`).
   */
  kind: "ask" | "propose" | "done" | "refuse" | "transfer" | "inform" | "greet" | "unread";
  /** The facts it took the message to ask for (`ask`) or to state as its own (`propose`). */
  fields: string[];
  /** The change it took a proposal to make (a name of the domain's vocabulary), else `null`. */
  action: string | null;
  /**
   * The facts a proposal stated otherwise than the user knows them, or that it could not check (a
   * value it does not have); the user declines such a proposal unless it is trusting.
   * @default {none}
   */
  conflicts?: string[];
}
