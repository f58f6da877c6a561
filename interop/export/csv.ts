/**
 * Episode records as CSV (RFC 4180) for spreadsheets and pandas: a header row, then one row per
 * record in the order of `records.jsonl` (agent, task, run, condition, variant), each row ending in
 * CRLF. A field holding a comma, a double quote, CR or LF is quoted, with its quotes doubled.
 *
 * Columns are the record's scalar fields flattened with dots, in the fixed order of
 * `RECORD_COLUMNS` (identity, task fields, outcome, confidence, resources, milestones, steps and
 * errors, calls, safety, abstention, failures, model usage of the user simulator and the judge, the
 * step outcomes, the tool names); then any other scalar field some record carries (a field a newer
 * ark or another producer adds), in alphabetical order. Lists become counts where a count means
 * something: `violations`, `near_misses`, `llm_violations` and `blocks` are how many there are
 * (empty when the episode was not judged), `violations.worst_severity` the worst one's severity, and
 * `actions` the tool names joined by spaces; other lists (`divergence`, `recovery_steps`,
 * `milestone_labels`) are left out. Numbers are written as JSON writes them, booleans as `true` or
 * `false`, and a field that is `null` or absent as an empty cell.
 *
 * @example
 * ```ts
 * import { assert } from "@std/assert";
 * import { recordsCsv } from "./csv.ts";
 * const record = { agent: "a", task: "t/0", run: 0, condition: "nominal" as const, success: true };
 * assert(recordsCsv([record]).split("\r\n")[0].startsWith("agent,task,run,condition,variant"));
 * ```
 *
 * @module
 */
import type { EpisodeRecord as ScoringRecord, Violation } from "../../scoring/mod.ts";
import { SEVERITIES } from "../../vocabulary/mod.ts";
import { sortRecords } from "../../eval/records.ts";

/** A record as any producer writes it: only `agent`, `task`, `run`, `condition` and `success` are sure. */
export type AnyRecord = ScoringRecord;

/** The type of a column's values, which the OTLP export keeps (an integer stays an integer). */
export type ColumnType = "string" | "int" | "double" | "bool";

/** One cell's value: `null` for an empty cell. */
export type Cell = string | number | boolean | null;

interface Column {
  name: string;
  type: ColumnType;
  value: (record: AnyRecord) => unknown;
}

const SEVERITY_ORDER: readonly Violation["severity"][] = SEVERITIES;

// The value at a dotted path of a record, `undefined` when any step is missing.
function at(record: AnyRecord, path: string): unknown {
  let value: unknown = record;
  for (const key of path.split(".")) {
    if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

const field = (name: string, type: ColumnType): Column => ({ name, type, value: (r) => at(r, name) });
const count = (name: "violations" | "near_misses" | "llm_violations" | "blocks"): Column => ({
  name,
  type: "int",
  value: (r) => r[name]?.length,
});
const group = (prefix: string, fields: [string, ColumnType][]): Column[] =>
  fields.map(([name, type]) => field(`${prefix}.${name}`, type));
const modelUsage: [string, ColumnType][] = [
  ["cost", "double"],
  ["api_calls", "int"],
  ["call_latency", "double"],
  ["tokens", "int"],
];

const COLUMNS: readonly Column[] = [
  field("agent", "string"),
  field("task", "string"),
  field("run", "int"),
  field("condition", "string"),
  field("variant", "string"),
  field("category", "string"),
  field("family", "string"),
  field("length", "int"),
  field("dependency", "string"),
  field("success", "bool"),
  field("tau_reward", "double"),
  ...group("outcome", [["expect", "string"], ["earned", "bool"]]),
  field("confidence", "double"),
  field("confidence_source", "string"),
  ...group("resources", [
    ["time", "double"],
    ["retry_wait", "double"],
    ["api_calls", "int"],
    ["num_actions", "int"],
    ["num_errors", "int"],
    ["cost", "double"],
    ["call_latency", "double"],
    ["tokens", "int"],
  ]),
  ...group("milestones", [["total", "int"], ["reached", "int"], ["achieved", "int"]]),
  field("steps", "int"),
  field("first_error_step", "int"),
  field("faults", "int"),
  field("recovered", "bool"),
  field("tool_calls", "int"),
  field("invalid_calls", "int"),
  ...group("writes", [["attempted", "int"], ["succeeded", "int"]]),
  count("violations"),
  { name: "violations.worst_severity", type: "string", value: (r) => worstSeverity(r.violations) },
  count("near_misses"),
  ...group("harm", [["money", "double"], ["rows", "int"]]),
  count("llm_violations"),
  field("judge_error", "string"),
  ...group("abstention", [
    ["scenario", "string"],
    ["gap", "string"],
    ["hazard", "string"],
    ["outcome", "string"],
    ["response", "string"],
    ["informed", "bool"],
    ["missing", "string"],
    ["reason", "string"],
    ["correct", "bool"],
    ["pair", "string"],
    ["template", "string"],
    ["condition", "string"],
  ]),
  count("blocks"),
  field("agent_error", "string"),
  field("model_retries", "int"),
  field("user_error", "string"),
  ...group("user_resources", modelUsage),
  ...group("judge_resources", modelUsage),
  field("step_outcomes", "string"),
  { name: "actions", type: "string", value: (r) => r.actions?.join(" ") },
];

const BY_NAME = new Map(COLUMNS.map((c) => [c.name, c]));

/** The fixed columns, in the order they come (any other scalar field of the records follows them). */
export const RECORD_COLUMNS: readonly string[] = Object.freeze(COLUMNS.map((c) => c.name));

// Fields a fixed column already reads whole, so no part of them becomes a column of its own.
const READ_WHOLE = new Set(["violations", "near_misses", "llm_violations", "blocks", "actions"]);

function worstSeverity(violations: readonly Violation[] | undefined): string | undefined {
  let worst = -1;
  for (const v of violations ?? []) worst = Math.max(worst, SEVERITY_ORDER.indexOf(v.severity));
  return worst < 0 ? undefined : SEVERITY_ORDER[worst];
}

// The dotted paths of a value's scalar leaves (lists skipped), each with its value.
function scalarPaths(value: Record<string, unknown>, prefix: string, out: Map<string, unknown>): void {
  for (const [key, v] of Object.entries(value)) {
    const path = prefix + key;
    if (prefix === "" && READ_WHOLE.has(key)) continue;
    if (Array.isArray(v)) continue;
    if (v !== null && typeof v === "object") scalarPaths(v as Record<string, unknown>, `${path}.`, out);
    else if (v !== undefined) out.set(path, v);
  }
}

const typeOf = (value: unknown): ColumnType =>
  typeof value === "boolean"
    ? "bool"
    : typeof value === "number"
    ? Number.isInteger(value) ? "int" : "double"
    : "string";

/**
 * The columns of a set of records: `RECORD_COLUMNS`, then every other scalar field some record
 * carries (dotted path), in alphabetical order, each with the type of its values.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { recordColumns } from "./csv.ts";
 * const record = { agent: "a", task: "t/0", run: 0, condition: "nominal" as const, success: true };
 * assertEquals(recordColumns([{ ...record, resources: { gpu_seconds: 1.5 } } as never]).at(-1), { name: "resources.gpu_seconds", type: "double" });
 * ```
 */
export function recordColumns(records: Iterable<AnyRecord>): { name: string; type: ColumnType }[] {
  const fixed = new Set(RECORD_COLUMNS);
  const extra = new Map<string, ColumnType>();
  for (const record of records) {
    const paths = new Map<string, unknown>();
    scalarPaths(record as unknown as Record<string, unknown>, "", paths);
    for (const [path, value] of paths) {
      if (fixed.has(path) || value === null) continue;
      // A field holding both whole and fractional numbers is a double; any other mix is text.
      const type = typeOf(value), seen = extra.get(path);
      if (seen === undefined || seen === type) extra.set(path, type);
      else extra.set(path, [seen, type].every((t) => t === "int" || t === "double") ? "double" : "string");
    }
  }
  const extras = [...extra.keys()].sort().map((name) => ({ name, type: extra.get(name)! }));
  return [...COLUMNS.map(({ name, type }) => ({ name, type })), ...extras];
}

/**
 * A record's cells for the given columns (`recordColumns()`), in their order: the scalar at each
 * column's path (a count or the worst severity for the columns that read a list), `null` where the
 * record has none. A list or an object where a scalar was expected is written as its JSON.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { recordCells } from "./csv.ts";
 * const record = { agent: "a", task: "t/0", run: 0, condition: "nominal" as const, success: true, variant: null };
 * assertEquals(recordCells(record, [{ name: "run" }, { name: "variant" }, { name: "success" }]), [0, null, true]);
 * ```
 */
export function recordCells(record: AnyRecord, columns: readonly { name: string }[]): Cell[] {
  return columns.map(({ name }) => {
    const value = (BY_NAME.get(name) ?? field(name, "string")).value(record);
    if (value === undefined || value === null) return null;
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return value;
    return JSON.stringify(value);
  });
}

/** One CSV field: empty for `null`, a number as JSON writes it, text quoted when it must be (RFC 4180). */
export function csvField(cell: Cell): string {
  if (cell === null) return "";
  const text = typeof cell === "number" ? JSON.stringify(cell) : String(cell);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * The records as CSV text: the header row, then one row per record sorted as `records.jsonl` is
 * (agent, task, run, condition, variant), every row ending in CRLF. The same records, in any order,
 * give the same text.
 *
 * @example
 * ```ts
 * import { assert } from "@std/assert";
 * import { recordsCsv } from "./csv.ts";
 * const record = { agent: "a", task: "t/0", run: 0, condition: "nominal" as const, success: true };
 * assert(recordsCsv([record]).split("\r\n")[1].startsWith("a,t/0,0,nominal,,"));
 * ```
 */
export function recordsCsv(records: readonly AnyRecord[]): string {
  const sorted = sortRecords(records);
  const columns = recordColumns(sorted);
  const lines = [columns.map((c) => csvField(c.name)).join(",")];
  for (const record of sorted) lines.push(recordCells(record, columns).map(csvField).join(","));
  return lines.map((line) => `${line}\r\n`).join("");
}
