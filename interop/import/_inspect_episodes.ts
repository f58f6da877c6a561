// An inspect_ai log's samples as ark episodes without a world (the transcripts alone): each
// sample × epoch one record (success from the named scorer, tool calls and their recorded results
// as events, model usage as resources, the sample's error as the agent's) and its events. Private
// to interop/import.
import type { EpisodeEvent, Json, ToolErrorCode } from "../../envs/mod.ts";
import type { EpisodeRecord } from "../../scoring/mod.ts";
import type { InspectLog, InspectMessage, InspectSample } from "./_inspect_log.ts";
import { readScore } from "./_inspect_score.ts";
import type { ChatMessage } from "./chat.ts";

/** One episode made from a sample × epoch. */
export interface InspectEpisode {
  where: string;
  record: EpisodeRecord;
  events: EpisodeEvent[];
  /** The sample's id, for a replay in a domain's world (`<domain>/<id>`). */
  sample: string | number;
  /** The score's value as a number in [0, 1] (inspect's value_to_float()); null for a sample its error halted before scoring. */
  value: number | null;
  /** The transcript the events were made from, in OpenAI's chat shape (for a replay). */
  messages: ChatMessage[];
}

/** A log's episodes, the samples skipped (each named) and what the log held. */
export interface InspectEpisodes {
  episodes: InspectEpisode[];
  skipped: { where: string; reason: string }[];
  /** The scorer read. */
  scorer: string;
  /** Each score value met (as JSON text) and how many samples × epochs have it. */
  values: { value: string; count: number }[];
  /** Tool calls in the transcripts read (each call, and each tool result that answers no call). */
  toolCalls: number;
}

/** The scorers a log names: its header's, else its results', else those of its first scored sample. */
export function logScorers(log: InspectLog): string[] {
  const named = log.header.eval.scorers?.map((s) => s.name) ?? [];
  if (named.length > 0) return named;
  const results = log.header.results?.scores?.map((s) => s.name) ?? [];
  if (results.length > 0) return [...new Set(results)];
  const first = log.samples.find((s) =>
    s.scores !== null && s.scores !== undefined && Object.keys(s.scores).length > 0
  );
  return first === undefined ? [] : Object.keys(first.scores!);
}

/** The ark task id of a sample: `inspect:<task>/<sample id>` ("/" in the task's name read as "."). */
export function inspectTaskId(task: string, sampleId: string | number): string {
  return `inspect:${task.replaceAll("/", ".")}/${sampleId}`;
}

/** The episodes of a log's samples under `scorer` (and `key`, for object values), as `agent`'s. */
export function inspectEpisodes(
  log: InspectLog,
  options: { file: string; scorer: string; key?: string; agent: string },
): InspectEpisodes {
  const episodes: InspectEpisode[] = [], skipped: { where: string; reason: string }[] = [];
  const values = new Map<string, number>();
  let toolCalls = 0;
  for (const sample of log.samples) {
    const where = `${options.file} sample ${JSON.stringify(sample.id)} epoch ${sample.epoch}`;
    const messages = transcript(sample);
    const { events, calls, invalid } = transcriptEvents(messages);
    toolCalls += calls;
    const score = sample.scores?.[options.scorer];
    const failed = sample.error !== null && sample.error !== undefined;
    if (score === undefined && failed) {
      // A sample the error halted before it was scored: the agent's failure, as ark counts its own.
      values.set("(error)", (values.get("(error)") ?? 0) + 1);
      episodes.push({
        where,
        record: record(sample, events, { ...options, success: false, invalid, task: log.header.eval.task }),
        events,
        sample: sample.id,
        value: null,
        messages: messages.map(chatMessage),
      });
      continue;
    }
    if (score === undefined) {
      const has = Object.keys(sample.scores ?? {});
      skipped.push({
        where,
        reason: `no score of "${options.scorer}" (its scores: ${has.length === 0 ? "none" : has.join(", ")})`,
      });
      continue;
    }
    const read = readScore(score.value, options.key);
    if ("skip" in read) {
      skipped.push({ where, reason: `the "${options.scorer}" score: ${read.skip}` });
      continue;
    }
    values.set(read.shown, (values.get(read.shown) ?? 0) + 1);
    episodes.push({
      where,
      record: record(sample, events, { ...options, success: read.success, invalid, task: log.header.eval.task }),
      events,
      sample: sample.id,
      value: read.value,
      messages: messages.map(chatMessage),
    });
  }
  return {
    episodes,
    skipped,
    scorer: options.scorer,
    values: [...values].map(([value, count]) => ({ value, count })).sort((a, b) =>
      b.count - a.count || (a.value < b.value ? -1 : 1)
    ),
    toolCalls,
  };
}

// The sample's conversation: its messages, else (a log that kept only events) the last model
// call's input, pooled messages resolved, and its output.
function transcript(sample: InspectSample): InspectMessage[] {
  if ((sample.messages?.length ?? 0) > 0) return sample.messages!;
  const model = agentModelEvents(sample).pop() as
    | { input?: InspectMessage[]; output?: { choices?: { message?: InspectMessage }[] } }
    | undefined;
  if (model === undefined) return [];
  const out = model.output?.choices?.[0]?.message;
  return [...(model.input ?? []), ...(out !== undefined ? [out] : [])];
}

// The sample's model events but those a scorer made (inside a `scorer` span, followed up its
// span_begin's parents; in older logs, between a scorer step's begin and end).
function agentModelEvents(sample: InspectSample): Record<string, unknown>[] {
  const events = (sample.events ?? []) as Record<string, unknown>[];
  const spans = new Map<string, { type: unknown; parent: unknown }>();
  for (const e of events) {
    if (e.event === "span_begin" && typeof e.id === "string") spans.set(e.id, { type: e.type, parent: e.parent_id });
  }
  const scorer = (id: unknown): boolean => {
    for (let at = id, hops = 0; typeof at === "string" && hops < 1000; hops++) {
      const span = spans.get(at);
      if (span === undefined) return false;
      if (span.type === "scorer") return true;
      at = span.parent;
    }
    return false;
  };
  let scoring = 0;
  return events.filter((e) => {
    if (e.event === "step" && e.type === "scorer") scoring = Math.max(0, scoring + (e.action === "begin" ? 1 : -1));
    return e.event === "model" && scoring === 0 && !scorer(e.span_id);
  });
}

const ERROR_CODES: Record<string, ToolErrorCode> = {
  parsing: "invalid_args",
  is_a_directory: "invalid_args",
  file_not_found: "not_found",
  permission: "policy",
  approval: "policy",
};

function transcriptEvents(
  messages: readonly InspectMessage[],
): { events: EpisodeEvent[]; calls: number; invalid: number } {
  const events: EpisodeEvent[] = [], pending = new Map<string, number>();
  let step = 0, calls = 0, invalid = 0;
  const answer = (at: number, m: InspectMessage) => {
    const text = contentText(m.content);
    if (m.error !== null && m.error !== undefined) {
      const code = ERROR_CODES[m.error.type ?? ""] ?? "fault";
      events[at].error = { code, message: m.error.message ?? text };
    } else events[at].result = parseResult(text);
  };
  for (const m of messages) {
    if (m.role === "user") {
      events.push({ step, actor: "user", kind: "message", text: contentText(m.content), latency_ms: 0 });
    } else if (m.role === "assistant" && (m.tool_calls?.length ?? 0) > 0) {
      // What the agent said beside its calls, at its first call's step (the same model turn).
      const said = contentText(m.content);
      if (said.trim() !== "") {
        events.push({ step: step + 1, actor: "agent", kind: "message", text: said, latency_ms: 0 });
      }
      for (const c of m.tool_calls!) {
        step++, calls++;
        if (c.parse_error !== null && c.parse_error !== undefined) invalid++;
        if (c.id !== undefined) pending.set(c.id, events.length);
        events.push({ step, actor: "tool", kind: "tool", tool: c.function, args: toArgs(c.arguments), latency_ms: 0 });
      }
    } else if (m.role === "assistant") {
      step++;
      events.push({ step, actor: "agent", kind: "message", text: contentText(m.content), latency_ms: 0 });
    } else if (m.role === "tool") {
      const at = m.tool_call_id !== null && m.tool_call_id !== undefined ? pending.get(m.tool_call_id) : undefined;
      if (at !== undefined) {
        pending.delete(m.tool_call_id!);
        answer(at, m);
        continue;
      }
      // A result whose call the transcript does not hold: the call is known by its result alone.
      step++, calls++;
      events.push({ step, actor: "tool", kind: "tool", tool: m.function ?? "unknown", args: {}, latency_ms: 0 });
      answer(events.length - 1, m);
    }
  }
  return { events, calls, invalid };
}

function record(
  sample: InspectSample,
  events: readonly EpisodeEvent[],
  o: { agent: string; task: string; success: boolean; invalid: number; scorer: string },
): EpisodeRecord {
  const tools = events.filter((e) => e.kind === "tool");
  const firstError = tools.find((e) => e.error !== undefined)?.step ?? null;
  const models = agentModelEvents(sample);
  const modelCalls = models.length;
  // The agent's usage: its own model calls' (a grader's calls are not its); a log without model
  // events gives its sample's model_usage.
  const usage =
    (modelCalls > 0
      ? models.map((e) => (e as { output?: { usage?: unknown } }).output?.usage).filter((u) =>
        u !== null && typeof u === "object"
      )
      : Object.values(sample.model_usage ?? {})) as Record<string, unknown>[];
  const num = (v: unknown) => typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : null;
  const tokens = usage.map((u) => num(u.total_tokens) ?? (num(u.input_tokens) ?? 0) + (num(u.output_tokens) ?? 0));
  const costs = usage.map((u) => num(u.total_cost));
  const confidence = num(sample.scores?.[o.scorer]?.metadata?.confidence);
  const steps = events.reduce((n, e) => Math.max(n, e.step), 0);
  const r: EpisodeRecord = {
    agent: o.agent,
    task: inspectTaskId(o.task, sample.id),
    run: sample.epoch - 1,
    condition: "nominal",
    variant: null,
    success: o.success,
    actions: tools.map((e) => e.tool!),
    resources: {
      api_calls: modelCalls > 0
        ? modelCalls
        : new Set(events.filter((e) => e.actor === "agent" || e.actor === "tool").map((e) => e.step)).size,
      num_actions: tools.length,
      num_errors: tools.filter((e) => e.error !== undefined).length,
      ...(usage.length > 0 ? { tokens: tokens.reduce((a, b) => a + b, 0) } : {}),
      ...(usage.length > 0 && costs.every((c) => c !== null) ? { cost: costs.reduce((a, b) => a! + b!, 0) } : {}),
      ...(num(sample.total_time) !== null ? { time: sample.total_time! } : {}),
    },
    confidence: confidence !== null && confidence <= 1 ? confidence : null,
    steps,
    first_error_step: firstError,
    recovered: firstError !== null && o.success,
    tool_calls: tools.length,
    invalid_calls: o.invalid,
  };
  if (sample.error !== null && sample.error !== undefined) r.agent_error = oneLine(sample.error.message);
  return r;
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 300 ? `${line.slice(0, 297)}...` : line;
}

function toArgs(raw: unknown): unknown {
  if (typeof raw !== "string") return raw ?? {};
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

function parseResult(text: string): Json {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

// An inspect message in OpenAI's chat shape, as replayChat() reads it: a tool error as "Error: ...".
function chatMessage(m: InspectMessage): ChatMessage {
  const content = contentText(m.content);
  if (m.role === "tool") {
    const error = m.error?.message;
    return {
      role: "tool",
      content: error !== undefined ? `Error: ${error}` : content,
      ...(m.tool_call_id ? { tool_call_id: m.tool_call_id } : {}),
      ...(m.function ? { name: m.function } : {}),
    };
  }
  if (m.role !== "assistant" || (m.tool_calls?.length ?? 0) === 0) return { role: m.role, content };
  return {
    role: "assistant",
    content,
    tool_calls: m.tool_calls!.map((c) => ({
      ...(c.id !== undefined ? { id: c.id } : {}),
      function: {
        name: c.function,
        arguments: typeof c.arguments === "string" || (c.arguments !== null && typeof c.arguments === "object")
          ? c.arguments as string | Record<string, unknown>
          : null,
      },
    })),
  };
}

function contentText(content: InspectMessage["content"]): string {
  if (content === null || content === undefined) return "";
  if (typeof content === "string") return content;
  return content.map((p) => p.type === "text" && typeof p.text === "string" ? p.text : "").join("");
}
