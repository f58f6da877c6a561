// The layout of the decay figures' accumulator vector: records grouped into cells (one milestone
// total under one condition and one dependency kind), cells into groups (overall, each length
// class, each condition, each length class × dependency kind), and each cell's and group's slots in
// the vector. Private to scoring/.
import { type Condition, CONDITIONS, DEPENDENCIES } from "../vocabulary/mod.ts";
import type { EpisodeRecord } from "./record.ts";
import { FIT_SUMS } from "./_decay_alpha.ts";

/** The sums a cell keeps after its histogram of `reached`, in slot order. */
export const SUMS = ["failed", "failedReached", "faulted", "recovered", "recoverySum", "recoveryCount"] as const;

/** A group's sums read back from the vector, with its episode count and the sums of its α fit. */
export type Tally = Record<(typeof SUMS)[number] | "n" | (typeof FIT_SUMS)[number], number>;

/** The dependency kinds in the order cells and groups list them ("" for records without one). */
export const DEPENDENCY_ORDER = ["", ...DEPENDENCIES] as const;

/**
 * The records of one milestone total under one condition and one dependency kind. Every cell keeps its histogram of
 * `reached` (total + 1 slots) and its SUMS in one accumulator vector, from `base` on.
 */
export interface Cell {
  total: number;
  condition: string;
  /** The records' `dependency`, "" for none. */
  dependency: string;
  base: number;
  records: EpisodeRecord[];
  /** The `reached` values its records have, ascending: the only slots of its histogram that are ever not 0. */
  reached: number[];
  /** Indexes of the groups it belongs to. */
  groups: number[];
  /** Milestone index → the one label its records name there, null if they disagree, undefined if none does. */
  labels: Map<number, string | null | undefined>;
}

/**
 * Overall, one length class or one condition: a union of cells. Variance amplification is fitted
 * on variances within a task, which do not add up over cells: each group has its own slots (the
 * sums of its fit, `FIT_SUMS`) at `alpha`.
 */
export interface Group {
  key: string;
  cells: Cell[];
  maxT: number;
  alpha: number;
  tasks: number;
  /** The indexes of its task ids (the clusters of the bootstrap), ascending. */
  clusters: number[];
  /** Whether a record of the group has `missed` (m_t). */
  counted: boolean;
}

/**
 * The groups (overall, lengths, conditions, then `length × dependency` keyed `ld/<total>/<kind>`
 * where records carry a dependency), the vector's size, and the cell of a record. */
export interface Layout {
  groups: Group[];
  size: number;
  cellOf: (r: EpisodeRecord) => Cell;
}

/** The cells of some records (each must carry `milestones`), their groups and their slots in the vector. */
export function layout(records: readonly EpisodeRecord[]): Layout {
  const { cells, cellOf } = cellsOf(records);
  let size = 0;
  for (const c of cells) c.base = size, size += c.total + 1 + SUMS.length;
  const group = (key: string, members: Cell[]): Group => {
    const alpha = size;
    size += FIT_SUMS.length;
    return {
      key,
      cells: members,
      maxT: Math.max(...members.map((c) => c.total)),
      alpha,
      tasks: 0,
      clusters: [],
      counted: false,
    };
  };
  const lengths = [...new Set(cells.map((c) => c.total))];
  const groups = [
    group("all", cells),
    ...lengths.map((l) => group(`length/${l}`, cells.filter((c) => c.total === l))),
    ...CONDITIONS.filter((x) => cells.some((c) => c.condition === x))
      .map((x) => group(`condition/${x}`, cells.filter((c) => c.condition === x))),
    ...lengths.flatMap((l) =>
      DEPENDENCY_ORDER.filter((d) => d !== "" && cells.some((c) => c.total === l && c.dependency === d))
        .map((d) => group(`ld/${l}/${d}`, cells.filter((c) => c.total === l && c.dependency === d)))
    ),
  ];
  groups.forEach((g, k) => g.cells.forEach((c) => c.groups.push(k)));
  return { groups, size, cellOf };
}

// The records by milestone total, condition and dependency kind; cells sorted that way.
function cellsOf(records: readonly EpisodeRecord[]): { cells: Cell[]; cellOf: (r: EpisodeRecord) => Cell } {
  // The cells by total, condition and dependency kind, in maps (no key text made for each record),
  // and in the order they were met.
  const byTotal = new Map<number, Map<string, Map<string, Cell>>>(), met: Cell[] = [];
  const find = (total: number, condition: string, dependency: string) =>
    byTotal.get(total)?.get(condition)?.get(dependency);
  for (const r of records) {
    const { total, reached } = r.milestones!;
    if (reached > total) {
      throw new RangeError(
        `Cannot score the milestones of task "${r.task}" run ${r.run}: reached ${reached} exceeds total ${total}`,
      );
    }
    const dependency = r.dependency ?? "";
    let cell = find(total, r.condition, dependency);
    if (cell === undefined) {
      cell = {
        total,
        condition: r.condition,
        dependency,
        base: 0,
        records: [],
        reached: [],
        groups: [],
        labels: new Map(),
      };
      let byCondition = byTotal.get(total);
      if (byCondition === undefined) byTotal.set(total, byCondition = new Map());
      let byDependency = byCondition.get(r.condition);
      if (byDependency === undefined) byCondition.set(r.condition, byDependency = new Map());
      byDependency.set(dependency, cell);
      met.push(cell);
    }
    cell.records.push(r);
  }
  for (const cell of met) {
    cell.reached = [...new Set(cell.records.map((r) => r.milestones!.reached))].sort((a, b) => a - b);
  }
  const order = (c: string) => CONDITIONS.indexOf(c as Condition);
  const kind = (d: string) => DEPENDENCY_ORDER.indexOf(d as typeof DEPENDENCY_ORDER[number]);
  const cells = [...met].sort((a, b) =>
    a.total - b.total || order(a.condition) - order(b.condition) || kind(a.dependency) - kind(b.dependency)
  );
  return { cells, cellOf: (r) => find(r.milestones!.total, r.condition, r.dependency ?? "")! };
}
