/**
 * The user-simulator port: what the episode loop asks of a simulated user (its opening, its replies)
 * and what the simulator reports once the episode is over.
 *
 * @module
 */
import type { Message } from "./message.ts";

/** A user simulator for one episode. */
export interface UserSimulator {
  /** The opening message. */
  open(): Message | Promise<Message>;
  /** The reply to an agent message, or a message whose intent is `stop`. */
  reply(message: Message): Message | Promise<Message>;
  /** Asked once at the end: whether the simulator left its script (such episodes are not the agent's fault). */
  finish?(): UserReport | Promise<UserReport>;
}

/** What a user simulator says about an episode once it is over. */
export interface UserReport {
  /** Why the simulated user left its script (revealed what it was not told, changed the goal, ended too early). */
  error?: string;
  /** Resources the simulator used (model calls); `cost: null` when its model has no price. */
  resources?: { cost?: number | null; api_calls?: number; call_latency?: number; tokens?: number };
  /**
   * The agent's messages the simulator read as text (without an intent), and how many of them it
   * could not read at all: a simulator that cannot read an agent makes its results meaningless.
   * @default {none read as text}
   */
  misread?: { messages: number; unread: number };
}
