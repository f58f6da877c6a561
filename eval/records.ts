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
const known = new WeakMap<readonly string[], Set<string>>();

// The object's defined fields, those of `keys` first in that order, then any others sorted (only
// those are sorted: a record's line is written once per episode while it runs).
function ordered(object: object, keys: readonly string[]): Record<string, unknown> {
  const value = object as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of keys) if (value[k] !== undefined) out[k] = value[k];
  let listed = known.get(keys);
  if (listed === undefined) known.set(keys, listed = new Set(keys));
  let others: string[] | undefined;
  for (const k of Object.keys(value)) if (!listed.has(k)) (others ??= []).push(k);
  if (others !== undefined) {
    for (const k of others.sort()) if (!(k in out) && value[k] !== undefined) out[k] = value[k];
  }
  return out;
}

function violationLine(v: Violation): Record<string, unknown> {
  const out = ordered(v, VIOLATION_KEYS);
  if (v.harm) out.harm = ordered(v.harm, HARM_KEYS);
  return out;
}

/** One record as one compact JSON line (no newline), keys in docs/metrics.md's order whatever the input's order. */
export function recordLine(record: EpisodeRecord): string {
  return JSON.stringify(ordered({
    ...record,
    resources: ordered(record.resources, RESOURCE_KEYS),
    milestones: ordered(record.milestones, MILESTONE_KEYS),
    harm: record.harm && ordered(record.harm, HARM_KEYS),
    outcome: record.outcome && ordered(record.outcome, OUTCOME_KEYS),
    writes: record.writes && ordered(record.writes, WRITE_KEYS),
    user_resources: record.user_resources && ordered(record.user_resources, RESOURCE_KEYS),
    judge_resources: record.judge_resources && ordered(record.judge_resources, RESOURCE_KEYS),
    violations: record.violations?.map(violationLine),
    near_misses: record.near_misses?.map(violationLine),
    llm_violations: record.llm_violations?.map(violationLine),
    blocks: record.blocks?.map((b) => ordered(b, BLOCK_KEYS)),
    abstention: record.abstention && ordered(record.abstention, ABSTENTION_KEYS),
  }, KEYS));
}

/** Sorts records by agent, task (index numerically), run, condition and variant; returns a new array. */
export function sortRecords<R extends LooseCellKey>(records: readonly R[]): R[] {
  return [...records].sort(compareCells);
}

/**
 * Records split into the first of each cell (agent, task, run, condition and variant, none when
 * absent), in order, and the rest: a cell scored twice would count twice in every metric.
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
export function splitDuplicates<R extends LooseCellKey>(records: readonly R[]): { kept: R[]; dropped: R[] } {
  const seen = new Set<string>(), kept: R[] = [], dropped: R[] = [];
  for (const r of records) {
    // cellKey() reads an absent variant as none, as `null`.
    const key = cellKey(r as CellKey);
    if (seen.has(key)) dropped.push(r);
    else {
      seen.add(key);
      kept.push(r);
    }
  }
  return { kept, dropped };
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
