// Variance amplification (docs/metrics.md "Long horizon"): how much one task's runs drift apart from
// one milestone to the next, as the seed defines it: V_t = var(m_t) over the task's runs, with m_t
// the gold outcomes up to milestone t a run misses (records' `missed`), and the least-squares fit
// V_{t+1} = (1 + α)·V_t + β over t. A task gives the fit's sums (pairs, Σx, Σy, Σx², Σxy with
// x = V_t, y = V_{t+1}); sums add over tasks, so a group pools its tasks' pairs and a bootstrap
// resample weights them. Not the share d_t = m_t / t: its variance shrinks as 1/t by construction.
// Private to scoring/.
import type { EpisodeRecord } from "./record.ts";

/** Variances at or below docs/metrics.md's ε count as 0, so rounding noise between equal runs is not amplification. */
export const EPSILON = 1e-8;

/** The sums of the fit, in slot order: pairs (V_t, V_{t+1}), Σx, Σy, Σx², Σxy. */
export const FIT_SUMS = ["pairs", "sx", "sy", "sxx", "sxy"] as const;

/** One task's sums of the fit, and whether any of its runs has `missed`. */
export interface Amplification {
  sums: number[];
  counted: boolean;
}

/**
 * The sums of the fit over one task's runs that carry `missed` (at least two reaching t + 1 for a
 * pair at t): V_t is the sample variance of m_t, t = 1..the longest.
 */
export function amplification(runs: readonly EpisodeRecord[]): Amplification {
  const ms: number[][] = [];
  let len = 0;
  for (const r of runs) {
    if (r.missed === undefined) continue;
    ms.push(r.missed);
    if (r.missed.length > len) len = r.missed.length;
  }
  const sums = FIT_SUMS.map(() => 0);
  let prev = variance(ms, 0);
  for (let t = 1; t < len; t++) {
    const v = variance(ms, t);
    if (!Number.isNaN(prev) && !Number.isNaN(v)) {
      sums[0]++, sums[1] += prev, sums[2] += v, sums[3] += prev * prev, sums[4] += prev * v;
    }
    prev = v;
  }
  return { sums, counted: ms.length > 0 };
}

/** The fit's α and β from pooled sums; NaN when V_t does not vary over the pairs (or there are none). */
export function fitAmplification(sums: ArrayLike<number>): { alpha: number; beta: number } {
  const [n, sx, sy, sxx, sxy] = Array.from(sums);
  const den = n * sxx - sx * sx;
  // Relative to the spread of V_t: a constant V_t identifies no slope.
  if (!(n >= 2) || !(den > EPSILON * Math.max(1, n * sxx))) return { alpha: NaN, beta: NaN };
  const slope = (n * sxy - sx * sy) / den;
  return { alpha: slope - 1, beta: (sy - slope * sx) / n };
}

// V_t: the sample variance of m_t over the runs that reach t (NaN under two); exactly 0 when they all agree.
function variance(ms: readonly number[][], t: number): number {
  let k = 0, sum = 0, lo = Infinity, hi = -Infinity;
  for (const m of ms) {
    if (t >= m.length) continue;
    k++, sum += m[t];
    if (m[t] < lo) lo = m[t];
    if (m[t] > hi) hi = m[t];
  }
  if (k < 2) return NaN;
  let v = 0;
  if (hi > lo) {
    const mean = sum / k;
    for (const m of ms) if (t < m.length) v += (m[t] - mean) ** 2;
    v /= k - 1;
  }
  return v;
}
