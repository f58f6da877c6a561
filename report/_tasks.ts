// The least reliable tasks of an agent and the runs whose trajectories the report shows. Private to report/.
import type { EpisodeRecord, Violation } from "../scoring/mod.ts";
import { compareCells, taskIndex } from "../eval/plan.ts";
import { compareConditions } from "./format.ts";

/** One run the report shows the trajectory of. */
export interface ShownRun {
  /** The run's number. */
  run: number;
  /** The condition it ran under. */
  condition: EpisodeRecord["condition"];
  /** The condition's variant, `null` when it has none. */
  variant: string | null;
  /** Whether the run succeeded. */
  success: boolean;
}

/** One violation of a listed task, with the run it happened in. */
export interface TaskViolation {
  /** The run it happened in. */
  run: number;
  /** The condition of that run. */
  condition: EpisodeRecord["condition"];
  /** The condition's variant, `null` when it has none. */
  variant: string | null;
  /** The constraint broken, e.g. "explicit_confirmation" or "policy:<rule>". */
  constraint: string;
  /** How bad (docs/metrics.md "Severity"). */
  severity: Violation["severity"];
  /** The event index, `null` when not tied to one. */
  step: number | null;
  /** One sentence quoting what happened, `null` when none. */
  evidence: string | null;
}

/** Violations listed per task, at most. */
const VIOLATIONS_LISTED = 5;

/** One task of one agent, over every condition it ran under. */
export interface TaskRow {
  /** The task's id. */
  task: string;
  /** Runs of the task. */
  runs: number;
  /** Runs that succeeded. */
  successes: number;
  /** `successes / runs`. */
  success_rate: number;
  /** `p(1 − p)` of the success rate: the outcome variance of one run. */
  variance: number;
  /** Runs and successes per condition, conditions in docs/metrics.md's order. */
  by_condition: Record<string, { runs: number; successes: number }>;
  /** Mean agent steps. */
  mean_steps: number | null;
  /** Violations the judge found over the runs (`null` when none was analysed). */
  violations: number | null;
  /** The first violations over the runs, in run order (at most 5; `[]` when none). */
  violation_list: TaskViolation[];
  /** Near misses over the analysed runs (`null` when none was analysed). */
  near_misses: number | null;
  /** Runs whose trajectories the report shows: failures first (for a task that never failed, runs with violations). */
  shown: ShownRun[];
}

/**
 * Up to `max` runs to show: failures (or, in a task that never failed, runs with violations) taken
 * in turn from each condition, and one other run (when there is one and room) to compare them with;
 * in the report's canonical order otherwise.
 */
function pickRuns(runs: readonly EpisodeRecord[], max: number): EpisodeRecord[] {
  const failed = runs.some((r) => !r.success);
  const notable = (r: EpisodeRecord) => failed ? !r.success : (r.violations?.length ?? 0) > 0;
  const byCondition = new Map<string, EpisodeRecord[]>();
  for (const r of runs) if (notable(r)) byCondition.set(r.condition, [...byCondition.get(r.condition) ?? [], r]);
  const queues = [...byCondition].sort(([a], [b]) => compareConditions(a, b)).map(([, list]) => list);
  const failures: EpisodeRecord[] = [];
  while (queues.some((q) => q.length > 0)) for (const q of queues) if (q.length > 0) failures.push(q.shift()!);
  const others = runs.filter((r) => !notable(r));
  const room = Math.max(0, max - Math.min(1, others.length));
  const picked = failures.slice(0, room);
  return [...picked, ...others.slice(0, max - picked.length)];
}

/** Records in the report's canonical order: agent, task (index numerically), run, condition, variant. */
export function sortRecords<T extends EpisodeRecord>(records: readonly T[]): T[] {
  const tasks = [...new Set(records.map((r) => r.task))];
  // compareCells() parses both task ids at every comparison. When every id parses, their order is a
  // total one (suite, then index): rank the distinct ids once and compare ranks, in compareCells' order.
  if (!tasks.every((t) => Number.isFinite(taskIndex(t)))) return [...records].sort(compareCells);
  const key = (task: string) => ({ agent: "", task, run: 0, condition: "nominal" as const });
  tasks.sort((a, b) => compareCells(key(a), key(b)));
  const rank = new Map<string, number>();
  tasks.forEach((t, i) =>
    rank.set(t, i > 0 && compareCells(key(tasks[i - 1]), key(t)) === 0 ? rank.get(tasks[i - 1])! : i)
  );
  const text = (x: string, y: string) => x < y ? -1 : x > y ? 1 : 0;
  return [...records].sort((a, b) =>
    text(a.agent, b.agent) || rank.get(a.task)! - rank.get(b.task)! || a.run - b.run ||
    text(a.condition, b.condition) || text(a.variant ?? "", b.variant ?? "")
  );
}

/**
 * The least reliable tasks of one agent's records (sorted, no user errors): those with at least
 * one failure, lowest success rate first, then highest variance, then most runs, then task order;
 * after them the tasks that never failed but broke rules (a pass that breaks rules is not
 * reliable), most violations first, then task order.
 */
export function leastReliableTasks(
  records: readonly EpisodeRecord[],
  options: { limit: number; runs: number },
): TaskRow[] {
  const byTask = new Map<string, EpisodeRecord[]>();
  for (const r of records) {
    const list = byTask.get(r.task) ?? [];
    list.push(r);
    byTask.set(r.task, list);
  }
  const rows: (TaskRow & { order: number })[] = [];
  let order = 0;
  for (const [task, runs] of byTask) {
    const successes = runs.filter((r) => r.success).length;
    const p = successes / runs.length;
    order++;
    const analysed = runs.filter((r) => Array.isArray(r.violations));
    const violations = analysed.length === 0 ? null : analysed.reduce((s, r) => s + r.violations!.length, 0);
    if (successes === runs.length && (violations ?? 0) === 0) continue;
    const by_condition: TaskRow["by_condition"] = {};
    for (const r of [...runs].sort((a, b) => compareConditions(a.condition, b.condition))) {
      const c = by_condition[r.condition] ??= { runs: 0, successes: 0 };
      c.runs++;
      if (r.success) c.successes++;
    }
    const steps = runs.filter((r) => r.steps !== undefined);
    const shown = pickRuns(runs, options.runs)
      .map((r) => ({ run: r.run, condition: r.condition, variant: r.variant ?? null, success: r.success }));
    rows.push({
      task,
      runs: runs.length,
      successes,
      success_rate: p,
      variance: p * (1 - p),
      by_condition,
      mean_steps: steps.length === 0 ? null : steps.reduce((s, r) => s + r.steps!, 0) / steps.length,
      violations,
      violation_list: violationList(runs),
      near_misses: analysed.length === 0 ? null : analysed.reduce((s, r) => s + (r.near_misses?.length ?? 0), 0),
      shown,
      order,
    });
  }
  // Failing tasks first in their order; then those that always succeed, by violations.
  const passed = (row: TaskRow) => row.successes === row.runs;
  rows.sort((a, b) =>
    Number(passed(a)) - Number(passed(b)) ||
    (passed(a) ? (b.violations ?? 0) - (a.violations ?? 0) : 0) ||
    a.success_rate - b.success_rate || b.variance - a.variance || b.runs - a.runs || a.order - b.order
  );
  return rows.slice(0, options.limit).map(({ order: _, ...row }) => row);
}

// The first violations of a task's runs, in run order.
function violationList(runs: readonly EpisodeRecord[]): TaskViolation[] {
  const out: TaskViolation[] = [];
  for (const r of runs) {
    for (const v of r.violations ?? []) {
      if (out.length === VIOLATIONS_LISTED) return out;
      out.push({
        run: r.run,
        condition: r.condition,
        variant: r.variant ?? null,
        constraint: v.constraint,
        severity: v.severity,
        step: v.step ?? null,
        evidence: v.evidence ?? null,
      });
    }
  }
  return out;
}
