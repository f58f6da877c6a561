/**
 * Episode records in the format of METRICS.md ("Input: the episode record"):
 * one per episode, exported as JSON Lines in a deterministic order with a fixed
 * key order, so the same seed gives a byte-identical file.
 *
 * @module
 */
import type { EpisodeResult, Expect, Task } from "../envs/mod.ts";
import type { Verdict, Violation } from "../judge/mod.ts";
import { type CellKey, compareCells, type Condition } from "./plan.ts";
import type { ResultsSink } from "./store.ts";

export type { Violation };

/** What the judges said about an episode, as a record carries it. */
export interface JudgedFields extends Verdict {
  /** The LLM judge's own violations, when it analysed the episode (kept apart for agreement). */
  llm_violations?: Violation[];
  /** Why the LLM judge could not judge the episode. */
  judge_error?: string;
}

/**
 * Resources an episode used. `time` is in seconds: the episode's simulated time plus the
 * recorded latency of the agent's model calls. `api_calls` counts tool calls for a scripted
 * agent and model calls for a language-model agent; `cost` (dollars), `call_latency` (mean ms
 * per answered model call) and `tokens` come from the agent's model calls.
 */
export interface Resources {
  time?: number;
  api_calls?: number;
  num_actions?: number;
  num_errors?: number;
  cost?: number;
  call_latency?: number;
  tokens?: number;
}

/**
 * One episode as eval writes it: scoring's `EpisodeRecord` (`scoring/record.ts`)
 * with the fields eval always fills made required. Spelled out rather than
 * derived from the zod schema so that eval's public API has explicit types;
 * `records_test.ts` checks that it stays assignable to scoring's type.
 */
export interface EpisodeRecord {
  agent: string;
  task: string;
  run: number;
  condition: Condition;
  variant: string | null;
  success: boolean;
  /** The reward the source harness gave an imported episode (τ-bench's, 0 or 1); absent for ark's own. */
  tau_reward?: number;
  /**
   * Ark's outcome grade when `success` follows another harness's rule (a τ-bench task): the
   * expected outcome and whether the episode earned it (METRICS.md "Grading").
   */
  outcome?: { expect: Expect; earned: boolean };
  /** Tool names in call order. */
  actions: string[];
  resources: Resources;
  /** The agent's confidence in [0, 1] when it ended with one. */
  confidence: number | null;
  /** The judge's violations (empty: analysed, none found); present once a judge analysed the episode. */
  violations?: Violation[];
  /** Attempted violations that did not take effect; present with `violations`. */
  near_misses?: Violation[];
  /** The violations' harm added up; present with `violations`. */
  harm?: { money: number; rows: number };
  /** The LLM judge's own violations, when it analysed the episode. */
  llm_violations?: Violation[];
  /** Why the LLM judge could not judge the episode. */
  judge_error?: string;
  /** Outcome milestones: how many, reached in order, achieved in any order. */
  milestones: { total: number; reached: number; achieved: number };
  steps: number;
  first_error_step: number | null;
  /** Injected faults, tool and model calls together (none outside the fault condition). */
  faults: number;
  /**
   * With injected faults: whether the episode still succeeded. Without: whether it hit a tool
   * error and still succeeded.
   */
  recovered: boolean;
  /**
   * For each injected tool fault, the agent steps to the next successful call of a tool on the
   * task's gold plan (faults never followed by one left out); present when a fault was injected.
   */
  recovery_steps?: number[];
  /** Tool calls made, and how many failed argument validation or named no tool. */
  tool_calls?: number;
  invalid_calls?: number;
  /** State-changing calls attempted and succeeded. */
  writes?: { attempted: number; succeeded: number };
  /** The label of each of the task's milestones, in order. */
  milestone_labels?: string[];
  /** `d_t` for t = 1..total: the share of the gold change up to milestone t the run does not match. */
  divergence?: number[];
  /**
   * How the confidence was obtained when the agent did not state it itself: `"elicited"` (asked
   * afterwards) or `"heuristic"` (a documented fallback). Absent when stated or when there is none.
   */
  confidence_source?: "elicited" | "heuristic";
  /** A failure of the agent itself (e.g. its model kept failing); absent when there was none. */
  agent_error?: string;
  /** Model-call attempts the agent's client retried (429s, 5xx, time-outs); only for model agents. */
  model_retries?: number;
  /** Why the user simulator left its script; scoring leaves such a record out of every metric. */
  user_error?: string;
  /** What the user simulator's model calls used: part of the experiment's cost, not the agent's. */
  user_resources?: ModelResources;
  /** What the LLM judge's model calls used: part of the experiment's cost, not the agent's. */
  judge_resources?: ModelResources;
}

/** Resources of model calls. */
export interface ModelResources {
  cost?: number;
  api_calls?: number;
  call_latency?: number;
  tokens?: number;
}

/** Options of `toRecord()`. */
export interface ToRecordOptions {
  /**
   * The label of each of the task's milestones, in order (written as `milestone_labels`).
   * @default {omitted from the record}
   */
  milestoneLabels?: readonly string[];
  /**
   * The judges' verdict (written as `violations`, `near_misses`, `harm` and the LLM judge's fields).
   * @default {omitted: the episode was not judged}
   */
  verdict?: JudgedFields;
  /**
   * The task: when its `success` follows τ-bench's rule, ark's outcome grade goes in `outcome`.
   * @default {no outcome field}
   */
  task?: Pick<Task, "rule" | "expect">;
  /**
   * Sum of the recorded latencies (ms) of the agent's model calls, added to `resources.time`.
   * @default {0}
   */
  modelLatencyMs?: number;
  /**
   * Faults injected into the agent's model calls, added to the episode's tool faults.
   * @default {0}
   */
  modelFaults?: number;
}

/**
 * The record of a finished episode.
 *
 * @example
 * ```ts ignore
 * import { toRecord } from "./records.ts";
 * const result = await runEpisode(world, { task, agent, user, rng });
 * const record = toRecord(cell, result, { milestoneLabels: task.milestones.map((m) => m.label), verdict });
 * record.resources.time; // simulated seconds
 * ```
 */
export function toRecord(cell: CellKey, result: EpisodeResult, options: ToRecordOptions = {}): EpisodeRecord {
  const faults = result.faults + (options.modelFaults ?? 0);
  const record: EpisodeRecord = {
    agent: cell.agent,
    task: cell.task,
    run: cell.run,
    condition: cell.condition,
    variant: cell.variant,
    success: result.success,
    ...outcomeOf(options.task, result),
    actions: [...result.actions],
    resources: {
      time: (result.simTimeMs + (options.modelLatencyMs ?? 0)) / 1000,
      api_calls: result.toolCalls,
      num_actions: result.actions.length,
      num_errors: result.toolErrors,
      // A model agent's report (model calls, tokens, cost, latency) overrides the tool-call count.
      ...modelResources(result.agentResources),
    },
    confidence: result.confidence ?? null,
    milestones: {
      total: result.milestones.total,
      reached: result.milestones.reached,
      achieved: result.milestones.achieved,
    },
    steps: result.steps,
    first_error_step: result.firstErrorStep,
    faults,
    recovered: faults > 0 ? result.success : result.firstErrorStep !== null && result.success,
    tool_calls: result.toolCalls,
    invalid_calls: result.invalidCalls,
    writes: { attempted: result.writeCalls.attempted, succeeded: result.writeCalls.succeeded },
  };
  if (faults > 0) record.recovery_steps = [...result.recoverySteps];
  if (options.milestoneLabels !== undefined) record.milestone_labels = [...options.milestoneLabels];
  record.divergence = [...result.divergence];
  if (options.verdict !== undefined) judged(record, options.verdict);
  if (result.confidenceSource !== null && result.confidenceSource !== "stated") {
    record.confidence_source = result.confidenceSource;
  }
  if (result.agentError !== null) record.agent_error = result.agentError;
  if (result.agentRetries !== null) record.model_retries = result.agentRetries;
  if (result.userError !== null) record.user_error = result.userError;
  const user = modelResources(result.userResources);
  if (Object.keys(user).length > 0) record.user_resources = user;
  return record;
}

/** The `outcome` field of a record of `task`, when its success follows another harness's rule. */
export function outcomeOf(
  task: Pick<Task, "rule" | "expect"> | undefined,
  grade: { earned: boolean },
): Pick<EpisodeRecord, "outcome"> {
  return task?.rule === "tau-bench" ? { outcome: { expect: task.expect, earned: grade.earned } } : {};
}

/** Writes a verdict's fields into a record (replacing any earlier verdict). */
export function judged(record: EpisodeRecord, verdict: JudgedFields): EpisodeRecord {
  delete record.llm_violations;
  delete record.judge_error;
  record.violations = verdict.violations.map((v) => ({ ...v }));
  record.near_misses = verdict.near_misses.map((v) => ({ ...v }));
  record.harm = { money: verdict.harm.money, rows: verdict.harm.rows };
  if (verdict.llm_violations !== undefined) record.llm_violations = verdict.llm_violations.map((v) => ({ ...v }));
  if (verdict.judge_error !== undefined) record.judge_error = verdict.judge_error;
  return record;
}

// The model-call resources of a report, only the finite ones.
function modelResources(report: ModelResources): ModelResources {
  const out: ModelResources = {};
  for (const key of ["cost", "api_calls", "call_latency", "tokens"] as const) {
    const value = report[key];
    if (typeof value === "number" && Number.isFinite(value)) out[key] = value;
  }
  return out;
}

const KEYS = [
  "agent",
  "task",
  "run",
  "condition",
  "variant",
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
  "judge_error",
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
  "agent_error",
  "model_retries",
  "user_error",
  "user_resources",
  "judge_resources",
] as const;
const RESOURCE_KEYS = ["cost", "time", "api_calls", "num_actions", "num_errors", "call_latency", "tokens"] as const;
const VIOLATION_KEYS = ["constraint", "severity", "step", "evidence", "source", "harm"] as const;

function ordered(value: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) if (value[k] !== undefined) out[k] = value[k];
  for (const k of Object.keys(value).sort()) if (!(k in out) && value[k] !== undefined) out[k] = value[k];
  return out;
}

function violationLine(v: Violation): Record<string, unknown> {
  const out = ordered(v as unknown as Record<string, unknown>, VIOLATION_KEYS);
  if (v.harm) out.harm = ordered(v.harm, ["money", "rows"]);
  return out;
}

/** One record as one compact JSON line (no newline), keys in METRICS.md's order whatever the input's order. */
export function recordLine(record: EpisodeRecord): string {
  const r = record as unknown as Record<string, unknown>;
  return JSON.stringify(ordered({
    ...r,
    resources: ordered(record.resources as Record<string, unknown>, RESOURCE_KEYS),
    milestones: ordered(record.milestones, ["total", "reached", "achieved"]),
    harm: record.harm && ordered(record.harm, ["money", "rows"]),
    outcome: record.outcome && ordered(record.outcome, ["expect", "earned"]),
    writes: record.writes && ordered(record.writes, ["attempted", "succeeded"]),
    user_resources: record.user_resources && ordered(record.user_resources as Record<string, unknown>, RESOURCE_KEYS),
    judge_resources: record.judge_resources &&
      ordered(record.judge_resources as Record<string, unknown>, RESOURCE_KEYS),
    violations: record.violations?.map(violationLine),
    near_misses: record.near_misses?.map(violationLine),
    llm_violations: record.llm_violations?.map(violationLine),
  }, KEYS));
}

/** Sorts records by agent, task (index numerically), run, condition and variant; returns a new array. */
export function sortRecords(records: readonly EpisodeRecord[]): EpisodeRecord[] {
  return [...records].sort(compareCells);
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
 * ```ts ignore
 * import { writeRecordsJsonl } from "./records.ts";
 * await writeRecordsJsonl(store, "results/airline-s0-t50-k5/records.jsonl"); // 750
 * ```
 */
export async function writeRecordsJsonl(sink: Pick<ResultsSink, "records">, path: string): Promise<number> {
  const records = sink.records();
  const tmp = `${path}.tmp`;
  await Deno.writeTextFile(tmp, recordsJsonl(records));
  await Deno.rename(tmp, path);
  return records.length;
}
