// Bootstrap draws, and what one scoring of several views of the same records shares between them.
// Every figure resamples its clusters from its own seed: a resample's weights depend on that seed and
// on the number of clusters alone, so figures that resample as many clusters from the same seed (one
// agent's tasks in the profile overall and in each condition's, every agent's tasks) draw the same
// weights. A `DrawCache` draws them once. Private to scoring/.
import type { EpisodeRecord } from "./record.ts";
import { prng } from "./_stats.ts";
import { drawWeights } from "./_fit.ts";

/** The weights of resample b (0, 1, …), each asked once and in order. */
export type Resampler = (b: number) => Int32Array;

// Matrices beyond this many weights are drawn as they are used, not kept.
const MAX_KEPT = 1 << 22;

/** The weights of every resample of a seed and a number of clusters, drawn once. */
export class DrawCache {
  #matrices = new Map<string, Int32Array[]>();

  /** The resamples of `clusters` clusters drawn from `seed`: those of an earlier call when it had the same. */
  resampler(seed: string, clusters: number, resamples: number): Resampler {
    if (clusters * resamples > MAX_KEPT) return resampler(seed, clusters, { resamples });
    const key = `${clusters}\u001f${resamples}\u001f${seed}`;
    let rows = this.#matrices.get(key);
    if (rows === undefined) {
      const matrix = new Int32Array(clusters * resamples), next = resampler(seed, clusters, { resamples });
      rows = Array.from({ length: resamples }, (_, b) => matrix.subarray(b * clusters, (b + 1) * clusters));
      for (const row of rows) row.set(next(0));
      this.#matrices.set(key, rows);
    }
    const kept = rows;
    return (b) => kept[b];
  }
}

/**
 * The resamples of `clusters` clusters drawn from `seed` (`drawWeights()` on `prng(seed)`): from
 * `cache` when given, else drawn as asked (into one array, overwritten by the next).
 */
export function resampler(
  seed: string,
  clusters: number,
  options: { resamples: number; cache?: DrawCache },
): Resampler {
  if (options.cache !== undefined) return options.cache.resampler(seed, clusters, options.resamples);
  const random = prng(seed), weights = new Int32Array(clusters);
  return () => drawWeights(random, weights);
}

/**
 * What the profiles of several views of the same records share: the draws, each view's records
 * known by the index of the record they stand for (a view of one condition scores copies read as
 * nominal), and the decay groups' bootstrap draws by what they were computed from.
 */
export interface ScoringContext {
  draws: DrawCache;
  /** Each record's index among the records scored; a copy has its original's. */
  ids: WeakMap<EpisodeRecord, number>;
  /** Bootstrap results kept by a hash of what determines them, with that to check against. */
  kept: Map<number, { of: Int32Array; value: unknown }[]>;
  /** Whether results are kept for later views, or only looked up. */
  keep: boolean;
}

/** A new context for one scoring of several views. */
export function scoringContext(): ScoringContext {
  return { draws: new DrawCache(), ids: new WeakMap(), kept: new Map(), keep: true };
}

/** The result kept for `of` (a fingerprint of everything that determines it), or undefined. */
export function keptResult(context: ScoringContext, of: Int32Array): unknown {
  for (const entry of context.kept.get(fingerprintHash(of)) ?? []) {
    if (entry.of.length === of.length && entry.of.every((x, i) => x === of[i])) return entry.value;
  }
  return undefined;
}

/** Keeps `value` for `of` when the context keeps results (see `keptResult()`). */
export function keepResult(context: ScoringContext, of: Int32Array, value: unknown): void {
  if (!context.keep) return;
  const h = fingerprintHash(of), same = context.kept.get(h);
  if (same === undefined) context.kept.set(h, [{ of, value }]);
  else same.push({ of, value });
}

function fingerprintHash(of: Int32Array): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < of.length; i++) h = Math.imul(h ^ of[i], 0x01000193);
  return h;
}

/**
 * A statistic of one resample's weights of `clusters` clusters, remembered by those weights while
 * they fit in one number (a few clusters, which meet the same weights again and again): the same
 * result as computing it, since it depends on the weights alone.
 */
export function byWeights<T>(clusters: number, statistic: (weights: Int32Array) => T): (weights: Int32Array) => T {
  // Each weight is a digit in base clusters + 1 (no weight exceeds the clusters drawn).
  const base = clusters + 1;
  if (clusters === 0 || clusters > REMEMBERED_CLUSTERS || base ** clusters > Number.MAX_SAFE_INTEGER) return statistic;
  const seen = new Map<number, T>();
  return (weights) => {
    let key = 0;
    for (let i = clusters - 1; i >= 0; i--) key = key * base + weights[i];
    if (seen.has(key)) return seen.get(key)!;
    const value = statistic(weights);
    seen.set(key, value);
    return value;
  };
}

// Statistics of at most this many clusters are remembered by their weights.
const REMEMBERED_CLUSTERS = 8;
