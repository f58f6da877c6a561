/**
 * Percentile bootstrap over tasks (docs/metrics.md "Uncertainty"), made fast by
 * reducing records once to per-task sufficient statistics (`scoring/task_table.ts`): a resample only
 * reweights T rows of a table (and makes one pass over the confidences,
 * sorted once, for AUROC), so 1,000 resamples of a million records take seconds.
 *
 * @module
 */
import { selectQuantiles } from "./_stats.ts";
import { resampler } from "./_draws.ts";

/** Options of `bootstrap()`. */
export interface BootstrapOptions {
  /**
   * Seed of the resampling.
   * @default {"0"}
   */
  seed?: string;
  /**
   * Number of resamples.
   * @default {1000}
   */
  resamples?: number;
}

/**
 * 95% percentile intervals of a statistic of `clusters` clusters: each
 * resample draws `clusters` clusters with replacement (multinomial weights,
 * seeded) and calls `statistic(weights)`, which returns one value per figure
 * (NaN where undefined). An interval leaves out the resamples where its
 * figure is undefined, and is null when no resample defined it.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { bootstrap } from "./bootstrap.ts";
 * const values = [0, 1, 2, 3];
 * const meanOf = (w: Float64Array) => [values.reduce((s, v, i) => s + w[i] * v, 0) / 4];
 * const [[lo, hi]] = bootstrap(4, meanOf, { seed: "x" }) as [number, number][];
 * assertEquals(lo <= 1.5 && 1.5 <= hi, true);
 * ```
 */
export function bootstrap(
  clusters: number,
  statistic: (weights: Float64Array) => ArrayLike<number>,
  options: BootstrapOptions = {},
): ([number, number] | null)[] {
  const resamples = options.resamples ?? 1000;
  if (!(Number.isInteger(resamples) && resamples >= 1)) {
    throw new RangeError(`Invalid resamples "${resamples}": expected a whole number of at least 1`);
  }
  const draw = resampler(options.seed ?? "0", clusters, { resamples }), weights = new Float64Array(clusters);
  return bootstrapDraws(resamples, (b) => {
    weights.set(draw(b));
    return statistic(weights);
  });
}

/**
 * `bootstrap()`'s intervals from the statistic of each resample b = 0, 1, … (asked once each, in
 * order), whatever draws its weights. Not re-exported by mod.ts: scoring's profiles share their draws.
 */
export function bootstrapDraws(
  resamples: number,
  statisticOf: (b: number) => ArrayLike<number>,
): ([number, number] | null)[] {
  let samples: Float64Array[] = [];
  for (let r = 0; r < resamples; r++) {
    const values = statisticOf(r);
    if (r === 0) samples = Array.from({ length: values.length }, () => new Float64Array(resamples));
    for (let f = 0; f < values.length; f++) samples[f][r] = values[f];
  }
  return samples.map((v) => percentileInterval(v));
}

/** Options of `percentileInterval()`. */
export interface PercentileOptions {
  /**
   * Lower quantile.
   * @default {0.025}
   */
  lower?: number;
  /**
   * Upper quantile.
   * @default {0.975}
   */
  upper?: number;
}

/**
 * The percentile interval `[q_lower, q_upper]` of the values that are not NaN,
 * quantiles interpolated linearly between order statistics at position
 * q·(n − 1) (numpy's default); null when all are NaN.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { percentileInterval } from "./bootstrap.ts";
 * assertEquals(percentileInterval([1, 2, 3, 4, 5], { lower: 0.25, upper: 0.75 }), [2, 4]); // positions 0.25·4 = 1 and 0.75·4 = 3
 * ```
 */
export function percentileInterval(
  values: ArrayLike<number>,
  options: PercentileOptions = {},
): [number, number] | null {
  const { lower = 0.025, upper = 0.975 } = options;
  const kept = new Float64Array(values.length);
  let n = 0;
  for (let i = 0; i < values.length; i++) if (!Number.isNaN(values[i])) kept[n++] = values[i];
  if (n === 0) return null;
  const [lo, hi] = selectQuantiles(kept, n, [lower, upper]);
  return [lo, hi];
}
