// The decay figures' data as rows: each task's (one agent's runs of one task id) contribution to the
// accumulator vector as sparse (slot, value) entries, and the vector of one bootstrap resample as the
// rows weighted by how often their task id was drawn. Private to scoring/.
import type { EpisodeRecord } from "./record.ts";
import type { Unit } from "./_stats.ts";
import { amplification } from "./_decay_alpha.ts";
import type { Cell, Group } from "./_decay_cells.ts";

/**
 * Each task's entries in task order: row i is `slots`/`values` from `offsets[i]` to `offsets[i + 1]`;
 * `cluster[i]` is the index of its task id, the unit of resampling.
 */
export interface Rows {
  offsets: Int32Array;
  slots: Int32Array;
  values: Float64Array;
  cluster: Int32Array;
  clusters: number;
}

// One task's entries, summed by slot.
type Row = Map<number, number>;

const add = (row: Row, slot: number, value: number) => row.set(slot, (row.get(slot) ?? 0) + value);

/** The rows of some tasks; counts each group's tasks (`Group.tasks`) and notes `missed` (`Group.counted`). */
export function taskRows(tasks: readonly Unit[], groups: Group[], cellOf: (r: EpisodeRecord) => Cell): Rows {
  const offsets = [0], slots: number[] = [], values: number[] = [], cluster: number[] = [];
  const seen: (string | null)[] = groups.map(() => null), ids = new Map<string, number>();
  for (const { task, runs } of tasks) {
    if (!ids.has(task)) ids.set(task, ids.size);
    cluster.push(ids.get(task)!);
    const row: Row = new Map();
    const runCells = runs.map(cellOf);
    runs.forEach((r, i) => addRun(row, r, runCells[i]));
    const present = [...new Set(runCells.flatMap((c) => c.groups))].sort((a, b) => a - b);
    for (const k of present) {
      if (seen[k] !== task) groups[k].tasks++, groups[k].clusters.push(ids.get(task)!), seen[k] = task;
    }
    addAmplification(row, runs, { cells: runCells, groups: present.map((k) => [k, groups[k]]) });
    for (const [slot, value] of row) slots.push(slot), values.push(value);
    offsets.push(slots.length);
  }
  return {
    offsets: Int32Array.from(offsets),
    slots: Int32Array.from(slots),
    values: Float64Array.from(values),
    cluster: Int32Array.from(cluster),
    clusters: ids.size,
  };
}

// A run's entries in its cell: its `reached` in the histogram, then the cell's SUMS.
function addRun(row: Row, r: EpisodeRecord, cell: Cell): void {
  const { total, reached } = r.milestones!, { base } = cell, sums = base + total + 1;
  add(row, base + reached, 1);
  if (!r.success) add(row, sums, 1), add(row, sums + 1, reached);
  if ((r.faults ?? 0) > 0) add(row, sums + 2, 1), add(row, sums + 3, r.success ? 1 : 0);
  for (const steps of r.recovery_steps ?? []) add(row, sums + 4, steps), add(row, sums + 5, 1);
}

// Each group's sums of the α fit over the task's runs in it, when some run has `missed`.
function addAmplification(
  row: Row,
  runs: readonly EpisodeRecord[],
  where: { cells: readonly Cell[]; groups: readonly [number, Group][] },
): void {
  if (!runs.some((r) => r.missed !== undefined)) return;
  const whole = amplification(runs);
  for (const [k, g] of where.groups) {
    const mine = runs.filter((_, i) => where.cells[i].groups.includes(k));
    // A task usually has one length, whose group then holds all its runs.
    const { sums, counted } = mine.length === runs.length ? whole : amplification(mine);
    g.counted ||= counted;
    if (sums[0] > 0) sums.forEach((v, i) => add(row, g.alpha + i, v));
  }
}

/** The accumulator vector of one resample: each task's entries, as many times as its task id was drawn. */
export function accumulate({ offsets, slots, values, cluster }: Rows, weights: Int32Array, acc: Float64Array): void {
  acc.fill(0);
  for (let i = 0; i < cluster.length; i++) {
    const w = weights[cluster[i]];
    if (w === 0) continue;
    for (let j = offsets[i], end = offsets[i + 1]; j < end; j++) acc[slots[j]] += w * values[j];
  }
}
