/**
 * The events of an episode, in order: the record the episode loop writes and the grader and the
 * judge read.
 *
 * @module
 */
import type { RowChange } from "./changeset.ts";
import type { Json } from "./json.ts";
import type { Intent, UserRead } from "./message.ts";
import type { ToolErrorCode } from "./tool.ts";

/** One event of an episode, in order. */
export interface EpisodeEvent {
  /** The agent step it belongs to: 0 for the user's opening, then 1, 2, … (a user's reply shares its step). */
  step: number;
  /** Who acted: the user, the agent (a message or the end), or a tool (a call's outcome). */
  actor: "user" | "agent" | "tool";
  /** What happened: a message, a tool call, or the agent ending the episode. */
  kind: "message" | "tool" | "end";
  /** For tool events: the tool's name. */
  tool?: string;
  /** For tool events: the arguments as the agent gave them. */
  args?: unknown;
  /** For tool events: the tool's output, when the call succeeded. */
  result?: Json;
  /** For tool events: why the call failed, when it did. */
  error?: { code: ToolErrorCode; message: string };
  /** For messages: the text said; for an end: the error that stopped the agent, when there was one. */
  text?: string;
  /** For messages: the structured meaning, when the speaker gave one. */
  intent?: Intent;
  /** For a simulated user's message: how it read the agent's message it answers. */
  read?: UserRead;
  /** For an end: the confidence the agent stated, as stated. */
  confidence?: number;
  /** The fault a condition injected into this tool call, if any (a faulted call never reached the world). */
  fault?: string;
  /** The arguments as the world received them, when a condition changed them (a perturbed interface). */
  world_args?: unknown;
  /** The rows this call changed in the world, when it changed any (net of the call, full rows). */
  changes?: RowChange[];
  /** Simulated latency of the step, in milliseconds. */
  latency_ms: number;
}
