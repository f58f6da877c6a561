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
import { type Boot, HEADLINES, headlineValues, type Point } from "./_decay_figures.ts";
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
  const drawn = boots.map((boot) => HEADLINES.map((h) => boot.draws[h])), values = new Float64Array(HEADLINES.length);
  // A group's figures depend on the weights of its own task ids alone: a group of few tasks meets the
  // same weights again and again, and takes that resample's figures.
  const keyOf = weightsKey(rows.clusters);
  const seen = groups.map((g) => keyOf.fits(g.clusters.length) ? new Map<number, number>() : null);
  // Groups of the same cells (a view of one condition is also its condition's group) share one set of draws.
  const first = groups.map((g) => groups.findIndex((o) => sameCells(o, g)));
  const shared = groups.map((_, k) =>
    context !== undefined && prints?.[k] ? keptResult(context, prints[k]!) as Boot | undefined : undefined
  );
  const live = groups.flatMap((_, k) => first[k] === k && shared[k] === undefined ? [k] : []);
  const tally = groups.map(emptyTally);
  const draw = resampler(`${seed}\u001fdecay`, rows.clusters, { resamples, cache: context?.draws });
  for (let b = 0; b < resamples; b++) {
    const weights = draw(b);
    accumulate(rows, weights, acc);
    for (const k of live) {
      const g = groups[k], { columns, survivors, completed, curve } = boots[k], out = drawn[k];
      const memo = seen[k], key = memo === null ? 0 : keyOf(g.clusters, weights), same = memo?.get(key);
      if (same !== undefined) {
        for (let t = 0; t <= g.maxT; t++) columns[t * resamples + b] = columns[t * resamples + same];
        for (let h = 0; h < out.length; h++) out[h][b] = out[h][same];
        continue;
      }
      memo?.set(key, b);
      const s = groupTally(g, acc, survivors, completed, tally[k]);
      productLimit(survivors, completed, curve);
      for (let t = 0; t <= g.maxT; t++) columns[t * resamples + b] = curve[t];
      if (s.n > 0) headlineValues(curve, s, fits[k], values);
      for (let h = 0; h < out.length; h++) out[h][b] = s.n > 0 ? values[h] : NaN;
    }
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

// A key of the weights of some clusters, as one number: their digits in base clusters + 1 (no weight
// exceeds the clusters drawn), for as many clusters as a double holds exactly (`fits`).
function weightsKey(clusters: number): ((of: readonly number[], weights: Int32Array) => number) & {
  fits: (n: number) => boolean;
} {
  const base = clusters + 1;
  let most = 0;
  for (let p = base; base > 1 && p <= Number.MAX_SAFE_INTEGER; p *= base) most++;
  const key = (of: readonly number[], weights: Int32Array) => {
    let k = 0;
    for (let i = of.length - 1; i >= 0; i--) k = k * base + weights[of[i]];
    return k;
  };
  return Object.assign(key, { fits: (n: number) => n <= Math.min(most, REMEMBERED_TASKS) });
}
