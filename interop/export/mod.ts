/**
 * Exports of an experiment for other tools: its records as CSV (RFC 4180, for spreadsheets and
 * pandas) and its trajectories as OpenTelemetry traces in OTLP/JSON following the GenAI semantic
 * conventions (for tracing tools). `deno task export` writes them.
 *
 * @example
 * ```ts
 * import { assert } from "@std/assert";
 * import { recordsCsv } from "./mod.ts";
 * assert(recordsCsv([]).startsWith("agent,task,run,condition,variant,"));
 * ```
 *
 * @module
 */
export {
  type AnyRecord,
  type Cell,
  type ColumnType,
  csvField,
  RECORD_COLUMNS,
  recordCells,
  recordColumns,
  recordsCsv,
} from "./csv.ts";
export {
  episodeTrace,
  OTLP_EPOCH_MS,
  type OtlpAttribute,
  type OtlpEvent,
  otlpLines,
  type OtlpOptions,
  type OtlpSpan,
  type OtlpStatus,
  type OtlpValue,
  traceIdOf,
  type TraceRequest,
} from "./otlp.ts";
