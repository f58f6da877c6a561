// The least reliable tasks of an agent and the runs whose trajectories the report shows. Private to eval/report/.
import type { EpisodeRecord } from "../../scoring/mod.ts";
import { compareCells } from "../plan.ts";
import { compareConditions } from "./_format.ts";

/** One run the report shows the trajectory of. */
export interface ShownRun {
  run: number;
  condition: EpisodeRecord["condition"];
  variant: string | null;
  success: boolean;
}

/** One task of one agent, over every condition it ran under. */
export interface TaskRow {
  task: string;
  runs: number;
  successes: number;
  success_rate: number;
  /** `p(1 − p)` of the success rate: the outcome variance of one run. */
  variance: number;
  /** Runs and successes per condition, conditions in METRICS.md's order. */
  by_condition: Record<string, { runs: number; successes: number }>;
  /** Mean agent steps. */
  mean_steps: number | null;
  /** Violations the judge found over the runs (`null` when none was analysed). */
  violations: number | null;
  /** Runs whose trajectories the report shows: failures first. */
  shown: ShownRun[];
}

/**
 * Up to `max` runs to show: failures taken in turn from each condition, and one success (when
 * there is one and room) to compare them with; in the report's canonical order otherwise.
 */
function pickRuns(runs: readonly EpisodeRecord[], max: number): EpisodeRecord[] {
  const byCondition = new Map<string, EpisodeRecord[]>();
  for (const r of runs) if (!r.success) byCondition.set(r.condition, [...byCondition.get(r.condition) ?? [], r]);
  const queues = [...byCondition].sort(([a], [b]) => compareConditions(a, b)).map(([, list]) => list);
  const failures: EpisodeRecord[] = [];
  while (queues.some((q) => q.length > 0)) for (const q of queues) if (q.length > 0) failures.push(q.shift()!);
  const successes = runs.filter((r) => r.success);
  const room = Math.max(0, max - Math.min(1, successes.length));
  const picked = failures.slice(0, room);
  return [...picked, ...successes.slice(0, max - picked.length)];
}

/** Records in the report's canonical order: agent, task (index numerically), run, condition, variant. */
export function sortRecords<T extends EpisodeRecord>(records: readonly T[]): T[] {
  const key = (r: EpisodeRecord) => ({ ...r, variant: r.variant ?? null });
  return [...records].sort((a, b) => compareCells(key(a), key(b)));
}

/**
 * The tasks of one agent's records (sorted, no user errors) with at least one failure, least
 * reliable first: lowest success rate, then highest variance, then most runs, then task order.
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
    if (successes === runs.length) continue;
    const by_condition: TaskRow["by_condition"] = {};
    for (const r of [...runs].sort((a, b) => compareConditions(a.condition, b.condition))) {
      const c = by_condition[r.condition] ??= { runs: 0, successes: 0 };
      c.runs++;
      if (r.success) c.successes++;
    }
    const steps = runs.filter((r) => r.steps !== undefined);
    const analysed = runs.filter((r) => Array.isArray(r.violations));
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
      violations: analysed.length === 0 ? null : analysed.reduce((s, r) => s + r.violations!.length, 0),
      shown,
      order,
    });
  }
  rows.sort((a, b) =>
    a.success_rate - b.success_rate || b.variance - a.variance || b.runs - a.runs || a.order - b.order
  );
  return rows.slice(0, options.limit).map(({ order: _, ...row }) => row);
}
