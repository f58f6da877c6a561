// The decay figures' bootstrap: each group's point estimate, and its curve and headline figures in
// every resample of task ids, one resample serving every group. What makes it cheap, with the same
// digits: a group of few task ids reuses the resample that gave its tasks the same weights; groups of
// the same cells share their draws; and with a `ScoringContext`, a group is not resampled again in a
// later view that holds the same records under the same draws (a condition's view holds the group of
// that condition in the profile overall). Private to scoring/.
import type { EpisodeRecord } from "./record.ts";
import type { Unit } from "./_stats.ts";
import { rememberedFits } from "./_fit.ts";
import type { Cell, Group } from "./_decay_cells.ts";
import { DEPENDENCY_ORDER } from "./_decay_cells.ts";
import { accumulate, type Rows } from "./_decay_rows.ts";
import { emptyTally, groupTally, productLimit } from "./_decay_curve.ts";
import { fragileOf } from "./_decay_fragile.ts";
import { type Boot, HEADLINES, headlines, type Point } from "./_decay_figures.ts";
import { keepResult, keptResult, resampler, type ScoringContext } from "./_draws.ts";

/** Each group's point estimate: the resample that draws every task once (left in `acc`). */
export function pointEstimates(groups: readonly Group[], rows: Rows, acc: Float64Array): Point[] {
  accumulate(rows, new Int32Array(rows.clusters).fill(1), acc);
  return groups.map((g) => {
    const survivors = new Float64Array(g.maxT + 1), completed = new Float64Array(g.maxT + 1);
    return { survivors, completed, tally: groupTally(g, acc, survivors, completed), fragile: fragileOf(g, acc) };
  });
}

// Groups of at most this many task ids remember their figures by the weights of their tasks.
const REMEMBERED_TASKS = 8;

/**
 * Each group's curve and headline figures in every bootstrap resample of task ids; one resample
 * serves every group. NaN where a resample drew no task of a group: the percentiles skip it.
 * `prints` are the groups' fingerprints (`fingerprints()`), to share them through `context`.
 */
export function resampleGroups(
  groups: readonly Group[],
  rows: Rows,
  options: {
    acc: Float64Array;
    seed: string;
    resamples: number;
    fitted: readonly boolean[];
    context?: ScoringContext;
    prints?: readonly (Int32Array | null)[];
  },
): Boot[] {
  const { acc, seed, resamples, fitted, context, prints } = options;
  const fits = groups.map((_, k) => fitted[k] ? rememberedFits() : null);
  const boots = groups.map((g) => ({
    columns: new Float64Array((g.maxT + 1) * resamples),
    draws: Object.fromEntries(HEADLINES.map((h) => [h, new Float64Array(resamples)])),
    survivors: new Float64Array(g.maxT + 1),
    completed: new Float64Array(g.maxT + 1),
    curve: new Float64Array(g.maxT + 1),
  }));
  // A group's figures depend on the weights of its own task ids alone: a group of few tasks meets the
  // same weights again and again, and takes that resample's figures.
  const seen = groups.map((g) => g.clusters.length <= REMEMBERED_TASKS ? new Map<string, number>() : null);
  const keyOf = weightsKey(rows.clusters);
  // Groups of the same cells (a view of one condition is also its condition's group) share one set of draws.
  const first = groups.map((g) => groups.findIndex((o) => sameCells(o, g)));
  const shared = groups.map((_, k) =>
    context !== undefined && prints?.[k] ? keptResult(context, prints[k]!) as Boot | undefined : undefined
  );
  const tally = groups.map(emptyTally);
  const draw = resampler(`${seed}\u001fdecay`, rows.clusters, { resamples, cache: context?.draws });
  for (let b = 0; b < resamples; b++) {
    const weights = draw(b);
    accumulate(rows, weights, acc);
    groups.forEach((g, k) => {
      if (first[k] !== k || shared[k] !== undefined) return;
      const { columns, draws, survivors, completed, curve } = boots[k];
      const key = seen[k] === null ? "" : keyOf(g.clusters, weights);
      const same = seen[k]?.get(key);
      if (same !== undefined) {
        for (let t = 0; t <= g.maxT; t++) columns[t * resamples + b] = columns[t * resamples + same];
        for (const h of HEADLINES) draws[h][b] = draws[h][same];
        return;
      }
      seen[k]?.set(key, b);
      const s = groupTally(g, acc, survivors, completed, tally[k]);
      productLimit(survivors, completed, curve);
      for (let t = 0; t <= g.maxT; t++) columns[t * resamples + b] = curve[t];
      const v = s.n > 0 ? headlines(curve, s, fits[k]).values : null;
      for (const h of HEADLINES) draws[h][b] = v === null ? NaN : v[h];
    });
  }
  groups.forEach((_, k) => {
    if (first[k] === k && shared[k] === undefined && context !== undefined && prints?.[k]) {
      keepResult(context, prints[k]!, boots[k]);
    }
  });
  return boots.map((_, k) => shared[first[k]] ?? boots[first[k]]);
}

/**
 * What determines each group's bootstrap draws besides the weights, as numbers: the seed, the
 * resamples, the clusters drawn, whether R∞ is fitted, the group's cell totals and kinds, and each of
 * its runs in task order with its cluster, its record's index in `ids` and its cell. Null for a group
 * with a record `ids` does not know.
 */
export function fingerprints(
  tasks: readonly Unit[],
  groups: readonly Group[],
  options: {
    cellOf: (r: EpisodeRecord) => Cell;
    ids: WeakMap<EpisodeRecord, number>;
    seed: string;
    resamples: number;
    clusters: number;
    fitted: readonly boolean[];
  },
): (Int32Array | null)[] {
  const { cellOf, ids, seed, resamples, clusters, fitted } = options;
  const prints = groups.map((g, k): number[] | null => [
    resamples,
    clusters,
    fitted[k] ? 1 : 0,
    seed.length,
    ...Array.from(seed, (c) => c.codePointAt(0)!),
    g.cells.length,
    ...g.cells.flatMap((c) => [c.total, DEPENDENCY_ORDER.indexOf(c.dependency as never)]),
  ]);
  const cluster = new Map<string, number>();
  for (const { task, runs } of tasks) {
    if (!cluster.has(task)) cluster.set(task, cluster.size);
    for (const r of runs) {
      const cell = cellOf(r), id = ids.get(r);
      for (const k of cell.groups) {
        const print = prints[k];
        if (print === null) continue;
        if (id === undefined) prints[k] = null;
        else print.push(cluster.get(task)!, id, groups[k].cells.indexOf(cell));
      }
    }
  }
  return prints.map((p) => p === null ? null : Int32Array.from(p));
}

function sameCells(a: Group, b: Group): boolean {
  return a.cells.length === b.cells.length && a.cells.every((c, i) => c === b.cells[i]);
}

// A key of the weights of some clusters: one character each while a weight fits in one.
function weightsKey(clusters: number): (of: readonly number[], weights: Int32Array) => string {
  if (clusters >= 0xffff) return (of, weights) => of.map((c) => weights[c]).join(",");
  const codes: number[] = [];
  return (of, weights) => {
    codes.length = of.length;
    for (let i = 0; i < of.length; i++) codes[i] = weights[of[i]];
    return String.fromCharCode(...codes);
  };
}
