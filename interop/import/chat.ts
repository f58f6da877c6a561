/**
 * A transcript in OpenAI's chat format (what τ-bench records, and what most agent frameworks can
 * write) turned into ark's events: user and assistant messages, tool calls with their arguments
 * parsed, and each call replayed in order in an ark world so its result is ark's own. The result the
 * transcript recorded for each call is kept beside it, to measure how faithfully ark reproduces the
 * other harness's world.
 *
 * @module
 */
import { z } from "zod";
import {
  type EpisodeEvent,
  jsonEqual,
  replayTrajectory,
  type ReplayTrajectoryOptions,
  type World,
} from "../../envs/mod.ts";
import type { Json } from "../../envs/mod.ts";

/** One message of a chat transcript (OpenAI's chat format; other fields are ignored). */
export interface ChatMessage {
  /** Who speaks: system and developer messages are the other harness's prompt (dropped). */
  role: "system" | "developer" | "user" | "assistant" | "tool";
  /** The text, or text parts. */
  content?: string | null | { type?: string; text?: string }[];
  /** An assistant's tool calls; `arguments` is JSON text (an object is read as is). */
  tool_calls?: { id?: string; function: { name: string; arguments?: string | Record<string, unknown> | null } }[];
  /** For a tool result: the id of the call it answers. */
  tool_call_id?: string;
  /** For a tool result: the tool's name. */
  name?: string;
}

const part = z.object({ type: z.string().optional(), text: z.string().optional() });

/** The zod schema of a chat transcript's messages. */
export const chatMessages: z.ZodType<ChatMessage[]> = z.array(z.object({
  role: z.enum(["system", "developer", "user", "assistant", "tool"]),
  content: z.union([z.string(), z.null(), z.array(part)]).optional(),
  tool_calls: z.array(z.object({
    id: z.string().optional(),
    function: z.object({
      name: z.string(),
      arguments: z.union([z.string(), z.record(z.string(), z.unknown()), z.null()]).optional(),
    }),
  })).nullable().optional().transform((v) => v ?? undefined),
  tool_call_id: z.string().optional(),
  name: z.string().optional(),
}));

/** A transcript that cannot be replayed: a call of a tool the world lacks, or arguments that are not JSON. */
export class TranscriptError extends Error {
  /** Makes the error with a one-line message. */
  constructor(message: string) {
    super(message);
    this.name = "TranscriptError";
  }
}

/** A tool call's result as the transcript recorded it and as ark computes it. */
export interface CallCheck {
  /** The call's event index in the episode's events. */
  event: number;
  /** The agent step of the call. */
  step: number;
  /** The tool called. */
  tool: string;
  /** The call's arguments, parsed from the transcript. */
  args: unknown;
  /** The recorded tool message's content; `null` when the transcript holds none for the call. */
  recorded: string | null;
  /** Ark's result in the transcript's convention: the JSON text, or "Error: " and the message. */
  ark: string;
  /** Whether they are equal (parsed JSON compared, error texts exactly); `null` when nothing was recorded. */
  equal: boolean | null;
}

/** A replayed transcript: ark's events and, for each tool call, the recorded result beside ark's. */
export interface ReplayedChat {
  /** The transcript as ark's episode events, each call with ark's result. */
  events: EpisodeEvent[];
  /** One check per tool call, in order. */
  calls: CallCheck[];
}

/**
 * Replays a chat transcript in `world` (a fresh episode; the world is left as it was). System
 * messages are the other harness's prompt and are dropped; the text of an assistant turn that also
 * calls tools is dropped too (the call is the turn's action and the user never sees the text, as in
 * τ-bench). Throws a `TranscriptError` on arguments that are not JSON, and on a call of an unknown
 * tool unless `options.unknownTools` is `"error"`: then it is a failed call (ark's `unknown_tool`
 * error, no change), as τ²-bench replays a hallucinated tool name.
 * Pass the transcript's task (`options.task`) so that its tools draw from the task's own context,
 * as its gold replay does (see `replayTrajectory()`).
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { getDomain, World } from "../../envs/mod.ts";
 * import { replayChat } from "./chat.ts";
 * using world = World.open(getDomain("airline"));
 * const { events, calls } = replayChat(world, [
 *   { role: "user", content: "Hi, I'm mia_li_3668" },
 *   { role: "assistant", tool_calls: [{ id: "c1", function: { name: "get_user_details", arguments: '{"user_id":"mia_li_3668"}' } }] },
 *   { role: "tool", tool_call_id: "c1", content: '{"name": "Mia Li"}' },
 * ]);
 * // ark's generated world holds no such user: the call is replayed and found to differ.
 * assertEquals([events.length, calls[0].tool, calls[0].ark, calls[0].equal], [2, "get_user_details", "Error: user not found", false]);
 * ```
 */
export function replayChat(
  world: World,
  messages: readonly ChatMessage[],
  options: ReplayTrajectoryOptions & { unknownTools?: "refuse" | "error" } = {},
): ReplayedChat {
  const events: EpisodeEvent[] = [];
  const recordedAt = new Map<number, string | null>();
  // Calls awaiting their answer by id, oldest first (an id a transcript gives two calls answers both, in order).
  const pending = new Map<string, number[]>();
  const unanswered: number[] = [];
  let step = 0;
  messages.forEach((m, index) => {
    const at = `message ${index + 1}`;
    if (m.role === "user") {
      events.push({ step, actor: "user", kind: "message", text: text(m.content), latency_ms: 0 });
    } else if (m.role === "assistant" && (m.tool_calls?.length ?? 0) > 0) {
      for (const c of m.tool_calls!) {
        step++;
        const name = c.function.name;
        if (world.tool(name) === undefined && options.unknownTools !== "error") {
          throw new TranscriptError(
            `${at} calls tool "${name}", which the ${world.domain.name} world does not have ` +
              `(its tools: ${world.domain.tools.map((t) => t.name).join(", ")})`,
          );
        }
        const args = parseArguments(c.function.arguments, `${at}: the arguments of "${name}"`);
        recordedAt.set(events.length, null);
        if (c.id !== undefined) pending.set(c.id, [...pending.get(c.id) ?? [], events.length]);
        else unanswered.push(events.length);
        events.push({ step, actor: "tool", kind: "tool", tool: name, args, latency_ms: 0 });
      }
    } else if (m.role === "assistant") {
      step++;
      events.push({ step, actor: "agent", kind: "message", text: text(m.content), latency_ms: 0 });
    } else if (m.role === "tool") {
      // The recorded answer of a call: by its id, else the oldest call not yet answered.
      const id = m.tool_call_id;
      const waiting = id === undefined ? undefined : pending.get(id);
      const event = waiting !== undefined ? waiting.shift() : unanswered.shift();
      if (id !== undefined && waiting?.length === 0) pending.delete(id);
      if (event !== undefined) recordedAt.set(event, text(m.content));
    }
  });
  const replayed = replayTrajectory(world, events, options);
  const calls: CallCheck[] = [];
  replayed.forEach((e, event) => {
    if (e.kind !== "tool") return;
    const recorded = recordedAt.get(event) ?? null;
    const ark = e.error !== undefined ? `Error: ${e.error.message}` : JSON.stringify(e.result ?? null);
    calls.push({
      event,
      step: e.step,
      tool: e.tool!,
      args: e.args,
      recorded,
      ark,
      equal: recorded === null ? null : sameResult(recorded, e),
    });
  });
  return { events: replayed, calls };
}

// A recorded result equals ark's: an error text exactly ("Error: " and ark's message), else the
// parsed JSON (or the plain text, for a tool that returns text) equals ark's result.
function sameResult(recorded: string, e: EpisodeEvent): boolean {
  if (e.error !== undefined) return recorded === `Error: ${e.error.message}`;
  let parsed: Json;
  try {
    parsed = JSON.parse(recorded);
  } catch {
    return typeof e.result === "string" && e.result === recorded;
  }
  return jsonEqual(parsed, e.result ?? null) || (typeof e.result === "string" && e.result === recorded);
}

function parseArguments(raw: string | Record<string, unknown> | null | undefined, what: string): unknown {
  if (raw === null || raw === undefined || raw === "") return {};
  if (typeof raw !== "string") return raw;
  try {
    return JSON.parse(raw);
  } catch (err) {
    const shown = raw.length > 60 ? `${raw.slice(0, 57)}...` : raw;
    throw new TranscriptError(`${what} are not JSON (${(err as Error).message}): ${JSON.stringify(shown)}`);
  }
}

function text(content: ChatMessage["content"]): string {
  if (content === null || content === undefined) return "";
  if (typeof content === "string") return content;
  return content.map((p) => p.text ?? "").join("");
}

/**
 * An episode's events as a chat transcript, what `replayChat()` reads back: user and agent
 * messages, each tool call as an assistant turn with `tool_calls` followed by its `tool` result (the
 * JSON text, or "Error: " and the message). Faulted calls (they never reached the world) and the end
 * event are left out.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { chatTranscript } from "./chat.ts";
 * assertEquals(chatTranscript([{ step: 0, actor: "user", kind: "message", text: "Hi", latency_ms: 0 }]), [{ role: "user", content: "Hi" }]);
 * ```
 */
export function chatTranscript(events: readonly EpisodeEvent[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  events.forEach((e, i) => {
    if (e.kind === "message") out.push({ role: e.actor === "user" ? "user" : "assistant", content: e.text ?? "" });
    if (e.kind !== "tool" || e.fault !== undefined) return;
    const id = `call_${i}`;
    out.push({
      role: "assistant",
      content: null,
      tool_calls: [{ id, function: { name: e.tool!, arguments: JSON.stringify(e.args ?? {}) } }],
    });
    const content = e.error !== undefined ? `Error: ${e.error.message}` : JSON.stringify(e.result ?? null);
    out.push({ role: "tool", tool_call_id: id, name: e.tool, content });
  });
  return out;
}
