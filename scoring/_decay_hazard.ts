// The hazard h(t) of each milestone, with its Wilson interval. Private to scoring/; `decay.ts`
// re-exports `wilsonInterval()`.
import type { HazardPoint } from "./_decay_types.ts";

/** z of a two-sided 95% interval. */
const Z95 = 1.959963984540054;

/**
 * h(t) = 1 − S(t)/S(t−1) from the survivor counts S. An episode that completed a task of
 * t − 1 milestones had no milestone t to miss, so it is not at risk at t: within one length
 * class this changes nothing, and in a mixed group the end of a class is not taken for failures.
 */
export function hazards(survivors: Float64Array, completed: Float64Array): HazardPoint[] {
  const out: HazardPoint[] = [];
  for (let t = 1; t < survivors.length; t++) {
    const atRisk = survivors[t - 1] - completed[t - 1];
    out.push({
      t,
      h: atRisk > 0 ? 1 - survivors[t] / atRisk : null,
      at_risk: atRisk,
      ci: atRisk > 0 ? wilsonInterval(atRisk - survivors[t], atRisk) : null,
    });
  }
  return out;
}

/**
 * The Wilson score 95% interval (z = 1.959963984540054) of a proportion `k / n`, for n > 0:
 * `(p̂ + z²/2n ± z·√(p̂(1 − p̂)/n + z²/4n²)) / (1 + z²/n)`; exactly 0 at k = 0 and 1 at k = n.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { wilsonInterval } from "./decay.ts";
 * // With 6 of 20: p̂ = 0.3, centre (0.3 + 0.09604) / 1.19207 = 0.33223, half-width 0.18675
 * assertEquals(wilsonInterval(6, 20).map((x) => x.toFixed(4)), ["0.1455", "0.5190"]);
 * ```
 */
export function wilsonInterval(k: number, n: number): [number, number] {
  if (!(n > 0 && k >= 0 && k <= n)) {
    throw new RangeError(`Invalid proportion "${k}" of "${n}": expected 0 ≤ k ≤ n and n > 0`);
  }
  const p = k / n, z2 = Z95 * Z95;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (Z95 * Math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  // At k = 0 (k = n) the lower (upper) bound is exactly 0 (1); computed, it is off by rounding.
  return [k === 0 ? 0 : Math.max(0, centre - half), k === n ? 1 : Math.min(1, centre + half)];
}
