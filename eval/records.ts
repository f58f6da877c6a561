/**
 * Episode records in the format of docs/metrics.md ("Input: the episode record"):
 * one per episode, exported as JSON Lines in a deterministic order with a fixed
 * key order, so the same seed gives a byte-identical file. A record is made by `toRecord()`
 * (`to_record.ts`).
 *
 * @module
 */
import type { Verdict } from "../judge/mod.ts";
import type { EpisodeRecord as ScoringRecord, Milestones, Violation } from "../scoring/mod.ts";
import { type CellKey, cellKey, compareCells, type LooseCellKey } from "./cell.ts";

export type { ModelResources, Resources, Violation } from "../scoring/mod.ts";

/** What the judges said about an episode, as a record carries it. */
export interface JudgedFields extends Verdict {
  /** The LLM judge's own violations, when it analysed the episode (kept apart for agreement). */
  llm_violations?: Verdict["violations"];
  /**
   * The LLM judge's findings dropped because the step each cites does not hold its quote
   * (violations, a refusal, a named precondition); absent when none was.
   */
  llm_dropped?: number;
  /** Why the LLM judge could not judge the episode: it is unjudged by it (docs/metrics.md "Unjudged episodes"). */
  judge_error?: string;
}

/**
 * One episode as eval writes it: scoring's `EpisodeRecord` (`scoring/record.ts`, the one
 * definition of the record) with the fields eval always fills made required, every milestone
 * count among them, and `recovered` never null. `records_test.ts` checks that it stays
 * assignable to scoring's type.
 */
export interface EpisodeRecord
  extends
    Omit<ScoringRecord, "variant" | "actions" | "resources" | "confidence" | "steps" | "first_error_step" | "faults">,
    Required<
      Pick<ScoringRecord, "variant" | "actions" | "resources" | "confidence" | "steps" | "first_error_step" | "faults">
    > {
  /** Outcome milestones: how many, reached in order, achieved in any order. */
  milestones: Required<Milestones>;
  /**
   * With injected faults: whether the episode still succeeded. Without: whether it hit a tool
   * error and still succeeded.
   */
  recovered: boolean;
}

const KEYS = [
  "agent",
  "task",
  "run",
  "condition",
  "variant",
  "category",
  "family",
  "length",
  "dependency",
  "success",
  "tau_reward",
  "outcome",
  "actions",
  "resources",
  "confidence",
  "confidence_source",
  "violations",
  "near_misses",
  "harm",
  "llm_violations",
  "llm_dropped",
  "judge_error",
  "judge_policy",
  "milestones",
  "steps",
  "first_error_step",
  "faults",
  "recovered",
  "recovery_steps",
  "tool_calls",
  "invalid_calls",
  "writes",
  "milestone_labels",
  "divergence",
  "missed",
  "step_outcomes",
  "agent_error",
  "model_retries",
  "blocks",
  "abstention",
  "user_error",
  "user_messages",
  "user_misread",
  "user_resources",
  "judge_resources",
] as const;
const ABSTENTION_KEYS = ["scenario", "gap", "outcome", "missing", "reason", "correct", "pair", "template", "condition"];
const RESOURCE_KEYS = [
  "cost",
  "time",
  "retry_wait",
  "api_calls",
  "num_actions",
  "num_errors",
  "call_latency",
  "tokens",
] as const;
const VIOLATION_KEYS = ["constraint", "severity", "step", "evidence", "source", "harm"] as const;

const HARM_KEYS = ["money", "rows"];
const MILESTONE_KEYS = ["total", "reached", "achieved"];
const OUTCOME_KEYS = ["expect", "earned"];
const WRITE_KEYS = ["attempted", "succeeded"];
const BLOCK_KEYS = ["step", "tool", "label", "missing"];
// A key list as a line writes it: each key's `"key":`, and the set of them.
interface Layout {
  keys: readonly string[];
  heads: string[];
  listed: Set<string>;
  // How the value of a key is written, where not as JSON.stringify() writes it (by index in keys).
  writers: (((value: unknown) => string | undefined) | undefined)[];
  // Keys whose writer runs even on an undefined value (as the record's required objects).
  always: Set<string>;
}

function layout(
  keys: readonly string[],
  writers: Record<string, (value: unknown) => string | undefined> = {},
  always: readonly string[] = [],
): Layout {
  return {
    keys,
    heads: keys.map((k) => `${JSON.stringify(k)}:`),
    listed: new Set(keys),
    writers: keys.map((k) => writers[k]),
    always: new Set(always),
  };
}

// A value's JSON as JSON.stringify() writes it (undefined for what it leaves out), primitives without a call.
function json(value: unknown): string | undefined {
  switch (typeof value) {
    case "number":
      return Number.isFinite(value) ? String(value) : "null";
    case "boolean":
      return value ? "true" : "false";
    case "object":
      if (value === null) return "null";
  }
  return JSON.stringify(value);
}

// The JSON of an object's defined fields, those of the layout first in that order, then any others
// sorted (only those are sorted: a record's line is written once per episode while it runs). It is
// the text JSON.stringify() gives of such a copy of the object, written without making the copy.
function orderedJson(object: object, layout: Layout): string {
  const value = object as Record<string, unknown>;
  const { keys, heads, writers, always } = layout;
  let out = "";
  for (let i = 0; i < keys.length; i++) {
    const item = value[keys[i]];
    const writer = writers[i];
    if (item === undefined && (writer === undefined || !always.has(keys[i]))) continue;
    const text = writer === undefined ? json(item) : writer(item);
    if (text !== undefined) out += (out === "" ? "{" : ",") + heads[i] + text;
  }
  let others: string[] | undefined;
  for (const k of Object.keys(value)) if (!layout.listed.has(k)) (others ??= []).push(k);
  if (others !== undefined) {
    // (A copy made key by key skips the names an object inherits, such as "constructor".)
    for (const k of others.sort()) {
      if (k in Object.prototype || value[k] === undefined) continue;
      const text = json(value[k]);
      if (text !== undefined) out += (out === "" ? "{" : ",") + `${JSON.stringify(k)}:` + text;
    }
  }
  return out === "" ? "{}" : out + "}";
}

// An object written in a layout when it is one (truthy), else as it is.
const orderedIf = (layout: Layout) => (value: unknown): string | undefined =>
  value ? orderedJson(value as object, layout) : json(value);

// A list's JSON with each item written by `write` (as `list?.map(write)` would be stringified).
const listOf = (write: (item: never) => string) => (value: unknown): string | undefined => {
  if (value === null || value === undefined) return undefined;
  const items = (value as { map(f: (item: never) => string): string[] }).map(write);
  let out = "[";
  for (let i = 0; i < items.length; i++) out += (i === 0 ? "" : ",") + (i in items ? items[i] : "null");
  return out + "]";
};

const HARM = layout(HARM_KEYS);
const RESOURCES = layout(RESOURCE_KEYS);
const MILESTONES = layout(MILESTONE_KEYS);
const BLOCK = layout(BLOCK_KEYS);
const VIOLATION = layout(VIOLATION_KEYS, { harm: orderedIf(HARM) });
const violationLine = listOf((v: Violation) => orderedJson(v, VIOLATION));
const RECORD = layout(KEYS, {
  resources: (v) => orderedJson(v as object, RESOURCES),
  // (Absent from an imported transcript's record, which had no world to set milestones.)
  milestones: orderedIf(MILESTONES),
  harm: orderedIf(HARM),
  outcome: orderedIf(layout(OUTCOME_KEYS)),
  writes: orderedIf(layout(WRITE_KEYS)),
  user_resources: orderedIf(RESOURCES),
  judge_resources: orderedIf(RESOURCES),
  violations: violationLine,
  near_misses: violationLine,
  llm_violations: violationLine,
  blocks: listOf((b: object) => orderedJson(b, BLOCK)),
  abstention: orderedIf(layout(ABSTENTION_KEYS)),
}, ["resources", "milestones"]);

/** One record as one compact JSON line (no newline), keys in docs/metrics.md's order whatever the input's order. */
export function recordLine(record: EpisodeRecord): string {
  return orderedJson(record, RECORD);
}

/** Sorts records by agent, task (index numerically), run, condition and variant; returns a new array. */
export function sortRecords<R extends LooseCellKey>(records: readonly R[]): R[] {
  return [...records].sort(compareCells);
}

/**
 * Records split into the first of each cell (agent, task, run, condition and variant, none when
 * absent), in order, and the rest: a cell scored twice would count twice in every metric. Made for a
 * million records: it keeps a 30-bit hash of each cell key with the first record that had it and
 * builds a key again only where two hashes meet; a key whose hash another key holds is kept whole
 * (about 30 MB for a million records, where a set of their keys takes 150 MB). `hash` is for tests.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { splitDuplicates } from "./records.ts";
 * const r = (run: number, success: boolean) => ({ agent: "a", task: "t/0", run, condition: "nominal" as const, success });
 * const { kept, dropped } = splitDuplicates([r(0, true), r(1, true), r(0, false)]);
 * assertEquals([kept.length, dropped], [2, [r(0, false)]]);
 * ```
 */
export function splitDuplicates<R extends LooseCellKey>(
  records: readonly R[],
  options: { hash?: (key: string) => number } = {},
): { kept: R[]; dropped: R[] } {
  const hash = options.hash ?? fnv1a;
  const first = new Map<number, R>(), others = new Set<string>(), kept: R[] = [], dropped: R[] = [];
  for (const r of records) {
    // cellKey() reads an absent variant as none, as `null`.
    const key = cellKey(r as CellKey);
    const h = hash(key);
    const holder = first.get(h);
    if (holder === undefined) first.set(h, r);
    else if (cellKey(holder as CellKey) === key || others.has(key)) {
      dropped.push(r);
      continue;
    } else others.add(key);
    kept.push(r);
  }
  return { kept, dropped };
}

// FNV-1a over UTF-16 code units, cut to 30 bits (a small integer: no number boxed per key).
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h & 0x3fffffff;
}

/** Records as JSON Lines text, sorted, one record per line, ending with a newline (empty for no records). */
export function recordsJsonl(records: readonly EpisodeRecord[]): string {
  return sortRecords(records).map((r) => recordLine(r) + "\n").join("");
}

/**
 * Writes every record of a results sink to a JSON Lines file, sorted; the file
 * is replaced atomically (written beside it, then renamed). Returns the number of records.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { writeRecordsJsonl } from "./records.ts";
 * const path = Deno.makeTempFileSync({ suffix: ".jsonl" });
 * Deno.writeTextFileSync(path, "a line of an earlier run\n");
 * assertEquals(await writeRecordsJsonl({ records: () => [] }, path), 0);
 * assertEquals(Deno.readTextFileSync(path), "");
 * Deno.removeSync(path);
 * ```
 */
export function writeRecordsJsonl(sink: { records(): EpisodeRecord[] }, path: string): Promise<number> {
  // A failure rejects the promise, as an asynchronous write's would.
  return Promise.resolve().then(() => writeRecordsJsonlSync(sink, path));
}

/** `writeRecordsJsonl()` without awaiting: for a sink that rewrites its file between episodes. */
export function writeRecordsJsonlSync(sink: { records(): EpisodeRecord[] }, path: string): number {
  const records = sink.records();
  const tmp = `${path}.tmp`;
  Deno.writeTextFileSync(tmp, recordsJsonl(records));
  Deno.renameSync(tmp, path);
  return records.length;
}
