// Variance amplification (docs/metrics.md "Long horizon"): how much one task's runs drift apart from one
// milestone to the next, α_t = V_{t+1}/V_t − 1 with V_t the population variance of `d_t` over the
// runs whose `divergence` reaches t. Private to scoring/.
import type { EpisodeRecord } from "./record.ts";

/** Variances at or below docs/metrics.md's ε count as 0, so rounding noise between equal runs is not amplification. */
export const EPSILON = 1e-8;

/** The α_t of one task's runs summed over the steps with V_t > ε, their count, and whether any run has `divergence`. */
export interface Amplification {
  alphaSum: number;
  alphaCount: number;
  diverged: boolean;
}

/** α_t = V_{t+1}/V_t − 1 over the steps of one task with V_t > ε, summed, with the count. */
export function amplification(runs: readonly EpisodeRecord[]): Amplification {
  const ds: number[][] = [];
  let len = 0;
  for (const r of runs) {
    if (r.divergence === undefined) continue;
    ds.push(r.divergence);
    if (r.divergence.length > len) len = r.divergence.length;
  }
  let alphaSum = 0, alphaCount = 0, prev = 0;
  for (let t = 0; t < len; t++) {
    const v = variance(ds, t);
    if (t > 0 && prev > EPSILON) alphaSum += v / prev - 1, alphaCount++;
    prev = v;
  }
  return { alphaSum, alphaCount, diverged: ds.length > 0 };
}

// V_t: the population variance of d_t over the runs that reach t; exactly 0 when they all agree.
function variance(ds: readonly number[][], t: number): number {
  let m = 0, sum = 0, lo = Infinity, hi = -Infinity;
  for (const d of ds) {
    if (t >= d.length) continue;
    m++, sum += d[t];
    if (d[t] < lo) lo = d[t];
    if (d[t] > hi) hi = d[t];
  }
  let v = 0;
  if (hi > lo) {
    const mean = sum / m;
    for (const d of ds) if (t < d.length) v += (d[t] - mean) ** 2;
    v /= m;
  }
  return v;
}
