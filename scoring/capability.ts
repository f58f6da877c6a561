/**
 * Capability beside reliability (docs/metrics.md "Capability beside reliability"
 * and "Task-level operational figures"): nominal accuracy, pass@k and pass^k
 * (the τ-bench estimator) for k = 1..K, and the operational figures.
 *
 * @module
 */
import type { EpisodeRecord } from "./record.ts";
import { binomRatio, compareText, units } from "./_stats.ts";

/** Capability figures over nominal records; k runs from 1 to the most nominal runs of any task. */
export interface CapabilityScores {
  /** Successful nominal records / nominal records, in [0, 1]; null without nominal records. */
  accuracy: number | null;
  /** `1 − C(n−c, k)/C(n, k)` averaged over the tasks with at least k runs, by k ("1", "2", …). */
  pass_at_k: Record<string, number>;
  /** `C(c, k)/C(n, k)` averaged over the tasks with at least k runs, by k. */
  pass_hat_k: Record<string, number>;
}

/** Operational figures over every record of a group; `null` where no record carries the field. */
export interface OperationalFigures {
  /** Tool calls that passed argument validation / all tool calls (`tool_calls`, `invalid_calls`). */
  tool_call_accuracy: number | null;
  /** Successful write calls / attempted ones (`writes`). */
  critical_step_success: number | null;
  /** Violations by constraint, then severity (over records with a `violations` array). */
  violation_count: Record<string, Record<string, number>> | null;
  /** Mean `resources.time` of successful episodes, in seconds. */
  mean_time: number | null;
}

/** A task's nominal runs and successes. */
export interface RunCounts {
  /** Nominal runs of the task (n). */
  runs: number;
  /** Those that succeeded (c), at most `runs`. */
  successes: number;
}

/**
 * pass@k of one task with n runs and c successes: `1 − C(n−c, k)/C(n, k)`.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { passAtKTerm } from "./capability.ts";
 * assertEquals(passAtKTerm({ runs: 4, successes: 1 }, 2), 0.5); // 1 − C(3,2)/C(4,2) = 1 − 3/6
 * ```
 */
export function passAtKTerm(task: RunCounts, k: number): number {
  checkK(task, k);
  return 1 - binomRatio({ n: task.runs, c: task.runs - task.successes }, k);
}

/**
 * pass^k of one task with n runs and c successes: `C(c, k)/C(n, k)`.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { passHatKTerm } from "./capability.ts";
 * assertEquals(passHatKTerm({ runs: 4, successes: 2 }, 2), 1 / 6); // C(2,2)/C(4,2)
 * ```
 */
export function passHatKTerm(task: RunCounts, k: number): number {
  checkK(task, k);
  return binomRatio({ n: task.runs, c: task.successes }, k);
}

function checkK(task: RunCounts, k: number): void {
  const { runs: n, successes: c } = task;
  if (!(Number.isInteger(k) && k >= 1 && k <= n)) {
    throw new RangeError(`Invalid k "${k}": expected a whole number from 1 to the runs "${n}"`);
  }
  if (!(Number.isInteger(c) && c >= 0 && c <= n)) {
    throw new RangeError(`Invalid successes "${c}": expected a whole number from 0 to the runs "${n}"`);
  }
}

/**
 * Accuracy, pass@k and pass^k of a set of records (nominal ones), tasks being
 * (agent, task id) pairs; tasks with fewer than k runs are left out of pass@k and pass^k.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { capability } from "./capability.ts";
 * const r = (run: number, success: boolean) => ({ agent: "a", task: "t/1", run, condition: "nominal" as const, success });
 * assertEquals(capability([r(0, true), r(1, false)]).pass_hat_k, { "1": 0.5, "2": 0 });
 * ```
 */
export function capability(records: readonly EpisodeRecord[]): CapabilityScores {
  const tasks = units(records.filter((r) => r.condition === "nominal"))
    .map((u): RunCounts => ({ runs: u.runs.length, successes: u.runs.filter((r) => r.success).length }));
  const pass_at_k: Record<string, number> = {}, pass_hat_k: Record<string, number> = {};
  const K = Math.max(0, ...tasks.map((t) => t.runs));
  for (let k = 1; k <= K; k++) {
    const eligible = tasks.filter((t) => t.runs >= k);
    pass_at_k[k] = eligible.reduce((s, t) => s + passAtKTerm(t, k), 0) / eligible.length;
    pass_hat_k[k] = eligible.reduce((s, t) => s + passHatKTerm(t, k), 0) / eligible.length;
  }
  const n = tasks.reduce((s, t) => s + t.runs, 0);
  const accuracy = n === 0 ? null : tasks.reduce((s, t) => s + t.successes, 0) / n;
  return { accuracy, pass_at_k, pass_hat_k };
}

/** Reasons for null operational figures. */
export const OPERATIONAL_REASONS: Readonly<Record<keyof OperationalFigures, string>> = Object.freeze({
  tool_call_accuracy: "no record has tool_calls, or no tool call was made",
  critical_step_success: "no record has writes, or no write was attempted",
  violation_count: "no record was analysed by a judge (none has a violations array)",
  mean_time: "no successful record has resources.time",
});

/**
 * The operational figures of a set of records (every condition).
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { operational } from "./capability.ts";
 * const r = { agent: "a", task: "t/1", run: 0, condition: "nominal" as const, success: true,
 *   tool_calls: 4, invalid_calls: 1, writes: { attempted: 2, succeeded: 1 }, resources: { time: 12 } };
 * assertEquals(operational([r]), { tool_call_accuracy: 0.75, critical_step_success: 0.5, violation_count: null, mean_time: 12 });
 * ```
 */
export function operational(records: readonly EpisodeRecord[]): OperationalFigures {
  let calls = 0, invalid = 0, attempted = 0, succeeded = 0, analysed = 0;
  const counts = new Map<string, Map<string, number>>();
  // Integer sums are exact in any order; times are summed in a fixed order below.
  const times: number[] = [];
  for (const r of records) {
    if (r.tool_calls !== undefined) {
      calls += r.tool_calls;
      invalid += Math.min(r.invalid_calls ?? 0, r.tool_calls);
    }
    if (r.writes !== undefined) {
      attempted += r.writes.attempted;
      succeeded += Math.min(r.writes.succeeded, r.writes.attempted);
    }
    if (r.success && r.resources?.time !== undefined) times.push(r.resources.time);
    if (Array.isArray(r.violations)) {
      analysed++;
      for (const v of r.violations) {
        const bySeverity = counts.get(v.constraint) ?? new Map<string, number>();
        bySeverity.set(v.severity, (bySeverity.get(v.severity) ?? 0) + 1);
        counts.set(v.constraint, bySeverity);
      }
    }
  }
  const timeSum = times.sort((a, b) => a - b).reduce((s, t) => s + t, 0);
  const sorted = <T>(m: Map<string, T>) => [...m].sort(([a], [b]) => compareText(a, b));
  return {
    tool_call_accuracy: calls > 0 ? (calls - invalid) / calls : null,
    critical_step_success: attempted > 0 ? succeeded / attempted : null,
    violation_count: analysed > 0
      ? Object.fromEntries(sorted(counts).map(([c, bySeverity]) => [c, Object.fromEntries(sorted(bySeverity))]))
      : null,
    mean_time: times.length > 0 ? timeSum / times.length : null,
  };
}
