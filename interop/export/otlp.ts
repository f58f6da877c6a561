/**
 * Trajectories as OpenTelemetry traces in OTLP/JSON, following the GenAI semantic conventions, so
 * an experiment's episodes open in the tracing tools teams already use.
 *
 * The file is JSON Lines as the OTLP file exporter writes it: one `ExportTraceServiceRequest` per
 * line (`resourceSpans` → `scopeSpans` → `spans`), one line per episode, each line one trace. Ids are
 * lower-case hex, times are nanoseconds since the Unix epoch as decimal strings, integers as
 * `intValue` strings (the protobuf JSON mapping of 64-bit integers).
 *
 * Each episode is a trace of:
 * - a root span `invoke_agent <agent>`, kind INTERNAL ("Invoke agent internal span" of
 *   docs/gen-ai/gen-ai-agent-spans.md): `gen_ai.operation.name` `invoke_agent`, `gen_ai.provider.name`
 *   (the model's provider for a language-model agent, `_OTHER` for any other agent),
 *   `gen_ai.agent.name` (the agent's spec), `gen_ai.request.model` for a language-model agent, and the
 *   record's scalar fields as `ark.<column>` (the columns of the CSV export: `ark.task`, `ark.run`,
 *   `ark.condition`, `ark.success`, `ark.resources.time`, `ark.violations`, …). An episode whose agent
 *   failed gets `error.type` `agent_error` and an error status;
 * - a child span per tool call `execute_tool <tool>`, kind INTERNAL ("Execute tool span" of
 *   docs/gen-ai/gen-ai-spans.md): `gen_ai.operation.name` `execute_tool`, `gen_ai.tool.name`,
 *   `gen_ai.tool.type` `function`, `gen_ai.tool.call.arguments` and, for a call that succeeded with a
 *   result of at most `maxResultChars` characters of JSON, `gen_ai.tool.call.result` (both as JSON
 *   text, which the conventions allow on spans); a failed call has `error.type` (its error code) and
 *   an error status with its message. ark adds `ark.step`, `ark.fault` (an injected fault),
 *   `ark.tool.world_arguments` (arguments a perturbed interface changed), `ark.tool.rows_changed` and,
 *   for a result left out, `ark.tool.call.result_chars`;
 * - the messages as events of the root span, named as the conventions' message events were
 *   (`gen_ai.user.message`, `gen_ai.assistant.message`, semantic conventions v1.36.0
 *   docs/gen-ai/gen-ai-events.md) with the text as `content`, plus `ark.step` and `ark.intent`; the
 *   agent's end is an event `ark.end` with `ark.confidence`.
 *
 * Nothing depends on the clock: the trace id and span ids derive from the cell key (agent, task, run,
 * condition, variant) and each event's position, and time starts at `OTLP_EPOCH_MS` for every
 * episode and advances by each event's simulated `latency_ms`. The same store gives the same file,
 * byte for byte.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { episodeTrace } from "./otlp.ts";
 * const record = { agent: "oracle", task: "t/0", run: 0, condition: "nominal" as const, variant: null, success: true };
 * const events = [{ step: 1, actor: "tool" as const, kind: "tool" as const, tool: "lookup", args: {}, result: 1, latency_ms: 5 }];
 * const spans = episodeTrace(record, events).resourceSpans[0].scopeSpans[0].spans;
 * assertEquals(spans.map((s) => s.name), ["invoke_agent oracle", "execute_tool lookup"]);
 * ```
 *
 * @module
 */
import { createHash } from "node:crypto";
import type { EpisodeEvent } from "../../envs/mod.ts";
import { modelSpec } from "../../agents/mod.ts";
import { cellKey } from "../../eval/plan.ts";
import { ARK_VERSION } from "../../eval/store.ts";
import { type AnyRecord, type ColumnType, recordCells, recordColumns } from "./csv.ts";

/** Where every episode's time starts: 2025-01-01T00:00:00Z, in milliseconds since the Unix epoch. */
export const OTLP_EPOCH_MS = 1735689600000;

/** An attribute's value (OTLP `AnyValue`, the kinds this export writes). */
export type OtlpValue =
  | { stringValue: string }
  | { intValue: string }
  | { doubleValue: number }
  | { boolValue: boolean };

/** An attribute (OTLP `KeyValue`). */
export interface OtlpAttribute {
  /** The attribute's name, e.g. `gen_ai.tool.name`. */
  key: string;
  /** Its value. */
  value: OtlpValue;
}

/** An event of a span (OTLP `Span.Event`). */
export interface OtlpEvent {
  /** When it happened, nanoseconds since the Unix epoch. */
  timeUnixNano: string;
  /** Its name, e.g. `gen_ai.user.message`. */
  name: string;
  /** Its attributes. */
  attributes: OtlpAttribute[];
}

/** A span's status: unset (`{}`) or an error (`code` 2) with a message. */
export interface OtlpStatus {
  /** 2 for an error; absent for unset. */
  code?: 2;
  /** What went wrong. */
  message?: string;
}

/** A span (OTLP `Span`). */
export interface OtlpSpan {
  /** The trace's id, 32 hex digits. */
  traceId: string;
  /** The span's id, 16 hex digits. */
  spanId: string;
  /** The parent span's id; absent for the root span. */
  parentSpanId?: string;
  /** The span's name, e.g. `execute_tool lookup`. */
  name: string;
  /** The span kind: 1, INTERNAL. */
  kind: 1;
  /** When it started, nanoseconds since the Unix epoch. */
  startTimeUnixNano: string;
  /** When it ended, nanoseconds since the Unix epoch. */
  endTimeUnixNano: string;
  /** Its attributes. */
  attributes: OtlpAttribute[];
  /** Its events (the root span's: the messages). */
  events: OtlpEvent[];
  /** Its status. */
  status: OtlpStatus;
}

/** One OTLP/JSON `ExportTraceServiceRequest`: one resource, one scope, the spans of one trace. */
export interface TraceRequest {
  /** The spans by resource. */
  resourceSpans: {
    /** The resource: `service.name` `ark`, `service.version`, and the attributes given. */
    resource: { attributes: OtlpAttribute[] };
    /** The spans by instrumentation scope. */
    scopeSpans: {
      /** The scope: `ark` at its version. */
      scope: { name: string; version: string };
      /** The spans, root first, then the tool calls in order. */
      spans: OtlpSpan[];
    }[];
  }[];
}

/** Options of `episodeTrace()` and `otlpLines()`. */
export interface OtlpOptions {
  /**
   * Resource attributes after `service.name` and `service.version`, e.g. `{ "ark.experiment": name }`.
   * @default {}
   */
  resource?: Readonly<Record<string, string>>;
  /**
   * The longest tool result, in characters of JSON, written as `gen_ai.tool.call.result`.
   * @default {2048}
   */
  maxResultChars?: number;
}

const INTERNAL = 1;
const EPOCH_NS = BigInt(OTLP_EPOCH_MS) * 1_000_000n;

const text = (value: string): OtlpValue => ({ stringValue: value });
const int = (value: number): OtlpValue => ({ intValue: String(value) });
const attr = (key: string, value: OtlpValue): OtlpAttribute => ({ key, value });

// A cell as the column's type says, falling back on what the value is.
function typed(cell: string | number | boolean, type: ColumnType): OtlpValue {
  if (typeof cell === "boolean") return { boolValue: cell };
  if (typeof cell === "string") return text(cell);
  return type === "int" && Number.isSafeInteger(cell) ? int(cell) : { doubleValue: cell };
}

// `digits` hex digits of the SHA-256 of the parts: ids that depend on nothing but what they name.
const hexId = (digits: number, ...parts: (string | number)[]): string =>
  createHash("sha256").update(parts.join("\u001f")).digest("hex").slice(0, digits);

const keyOf = (record: Pick<AnyRecord, "agent" | "task" | "run" | "condition" | "variant">): string =>
  cellKey({ ...record, variant: record.variant ?? null });

/**
 * The trace id of an episode: 32 hex digits derived from its cell key (agent, task, run, condition,
 * variant) alone.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { traceIdOf } from "./otlp.ts";
 * assertEquals(traceIdOf({ agent: "oracle", task: "t/0", run: 0, condition: "nominal", variant: null }).length, 32);
 * ```
 */
export function traceIdOf(record: Pick<AnyRecord, "agent" | "task" | "run" | "condition" | "variant">): string {
  return hexId(32, "trace", keyOf(record));
}

// The provider and model of a language-model agent; `null` for any other (or an unknown provider).
function modelOf(agent: string): { provider: string; model: string } | null {
  try {
    return modelSpec(agent);
  } catch (err) {
    if (err instanceof RangeError) return null;
    throw err;
  }
}

function rootAttributes(record: AnyRecord): OtlpAttribute[] {
  const model = modelOf(record.agent);
  const out = [
    attr("gen_ai.operation.name", text("invoke_agent")),
    attr("gen_ai.provider.name", text(model?.provider ?? "_OTHER")),
    attr("gen_ai.agent.name", text(record.agent)),
  ];
  if (model !== null) out.push(attr("gen_ai.request.model", text(model.model)));
  if (record.agent_error !== undefined) out.push(attr("error.type", text("agent_error")));
  const columns = recordColumns([record]);
  recordCells(record, columns).forEach((cell, i) => {
    if (cell !== null && columns[i].name !== "agent") {
      out.push(attr(`ark.${columns[i].name}`, typed(cell, columns[i].type)));
    }
  });
  return out;
}

function toolSpan(event: EpisodeEvent, ids: { traceId: string; spanId: string; parentSpanId: string }, times: {
  start: bigint;
  end: bigint;
}, maxResultChars: number): OtlpSpan {
  const attributes = [attr("gen_ai.operation.name", text("execute_tool"))];
  if (event.tool !== undefined) attributes.push(attr("gen_ai.tool.name", text(event.tool)));
  attributes.push(attr("gen_ai.tool.type", text("function")));
  if (event.args !== undefined) attributes.push(attr("gen_ai.tool.call.arguments", text(JSON.stringify(event.args))));
  if (event.result !== undefined && event.error === undefined) {
    const result = JSON.stringify(event.result);
    attributes.push(
      result.length <= maxResultChars
        ? attr("gen_ai.tool.call.result", text(result))
        : attr("ark.tool.call.result_chars", int(result.length)),
    );
  }
  if (event.error !== undefined) attributes.push(attr("error.type", text(event.error.code)));
  attributes.push(attr("ark.step", int(event.step)));
  if (event.fault !== undefined) attributes.push(attr("ark.fault", text(event.fault)));
  if (event.world_args !== undefined) {
    attributes.push(attr("ark.tool.world_arguments", text(JSON.stringify(event.world_args))));
  }
  if (event.changes !== undefined) attributes.push(attr("ark.tool.rows_changed", int(event.changes.length)));
  return {
    ...ids,
    name: event.tool === undefined ? "execute_tool" : `execute_tool ${event.tool}`,
    kind: INTERNAL,
    startTimeUnixNano: String(times.start),
    endTimeUnixNano: String(times.end),
    attributes,
    events: [],
    status: event.error === undefined ? {} : { code: 2, message: event.error.message },
  };
}

// A message or the agent's end as an event of the root span.
function spanEvent(event: EpisodeEvent, time: bigint): OtlpEvent {
  const name = event.kind === "end"
    ? "ark.end"
    : event.actor === "user"
    ? "gen_ai.user.message"
    : "gen_ai.assistant.message";
  const attributes: OtlpAttribute[] = [];
  if (event.text !== undefined) attributes.push(attr("content", text(event.text)));
  attributes.push(attr("ark.step", int(event.step)));
  if (event.intent !== undefined) attributes.push(attr("ark.intent", text(JSON.stringify(event.intent))));
  if (event.confidence !== undefined) attributes.push(attr("ark.confidence", { doubleValue: event.confidence }));
  return { timeUnixNano: String(time), name, attributes };
}

// Nanoseconds of a simulated latency in milliseconds (none for a missing or negative one).
const nanos = (ms: number): bigint => Number.isFinite(ms) && ms > 0 ? BigInt(Math.round(ms * 1e6)) : 0n;

/**
 * One episode as one trace: the `ExportTraceServiceRequest` of its root span, its tool-call spans and
 * its messages (see the module doc).
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { episodeTrace } from "./otlp.ts";
 * const record = { agent: "openai:gpt-4o-mini", task: "t/0", run: 0, condition: "nominal" as const, success: false };
 * const [root] = episodeTrace(record, []).resourceSpans[0].scopeSpans[0].spans;
 * assertEquals(root.attributes.find((a) => a.key === "gen_ai.request.model")?.value, { stringValue: "gpt-4o-mini" });
 * ```
 */
export function episodeTrace(
  record: AnyRecord,
  events: readonly EpisodeEvent[],
  options: OtlpOptions = {},
): TraceRequest {
  const maxResultChars = options.maxResultChars ?? 2048;
  const traceId = traceIdOf(record);
  const key = keyOf(record);
  const rootId = hexId(16, "span", key, 0);
  const spans: OtlpSpan[] = [];
  const messages: OtlpEvent[] = [];
  let time = EPOCH_NS;
  events.forEach((event, i) => {
    const start = time;
    time += nanos(event.latency_ms);
    if (event.kind === "tool") {
      const ids = { traceId, spanId: hexId(16, "span", key, i + 1), parentSpanId: rootId };
      spans.push(toolSpan(event, ids, { start, end: time }, maxResultChars));
    } else messages.push(spanEvent(event, time));
  });
  const root: OtlpSpan = {
    traceId,
    spanId: rootId,
    name: `invoke_agent ${record.agent}`,
    kind: INTERNAL,
    startTimeUnixNano: String(EPOCH_NS),
    endTimeUnixNano: String(time),
    attributes: rootAttributes(record),
    events: messages,
    status: record.agent_error === undefined ? {} : { code: 2, message: record.agent_error },
  };
  const resource = [attr("service.name", text("ark")), attr("service.version", text(ARK_VERSION))];
  for (const [k, v] of Object.entries(options.resource ?? {})) resource.push(attr(k, text(v)));
  return {
    resourceSpans: [{
      resource: { attributes: resource },
      scopeSpans: [{ scope: { name: "ark", version: ARK_VERSION }, spans: [root, ...spans] }],
    }],
  };
}

/**
 * The OTLP/JSON lines of episodes, one `ExportTraceServiceRequest` per episode in the order given,
 * each ending with a newline.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { otlpLines } from "./otlp.ts";
 * const record = { agent: "oracle", task: "t/0", run: 0, condition: "nominal" as const, success: true };
 * assertEquals([...otlpLines([{ record, events: [] }])].length, 1);
 * ```
 */
export function* otlpLines(
  episodes: Iterable<{ record: AnyRecord; events: readonly EpisodeEvent[] }>,
  options: OtlpOptions = {},
): Generator<string> {
  for (const { record, events } of episodes) yield JSON.stringify(episodeTrace(record, events, options)) + "\n";
}
