// Curve fits and bootstrap helpers of the long-horizon and abstention figures. Private to scoring/.
// Internally a figure that does not exist is NaN (or Infinity for an infinite decay rate);
// the public modules turn those into `null` with a reason before anything leaves them.
import { selectQuantiles } from "./_stats.ts";

/** A 95% percentile bootstrap interval `[lo, hi]`. */
export type Bounds = [number, number];

/** Bootstrap options with their defaults applied and checked. */
export function bootstrapOptions(
  options: { seed?: string; resamples?: number },
  what: string,
): { seed: string; resamples: number } {
  const seed = options.seed ?? "0", resamples = options.resamples ?? 1000;
  if (typeof seed !== "string") {
    throw new TypeError(`Cannot bootstrap ${what} with seed ${JSON.stringify(seed)}: the seed must be a string`);
  }
  if (!(Number.isInteger(resamples) && resamples >= 0)) {
    throw new RangeError(`Cannot bootstrap ${what} with "${resamples}" resamples: expected an integer ≥ 0`);
  }
  return { seed, resamples };
}

/**
 * Fills `weights` with how often each of its `weights.length` clusters is drawn
 * in one bootstrap resample (that many draws with replacement).
 */
export function drawWeights(random: () => number, weights: Int32Array): Int32Array {
  const n = weights.length;
  weights.fill(0);
  for (let i = 0; i < n; i++) weights[Math.floor(random() * n)]++;
  return weights;
}

/**
 * The 95% percentile interval (numpy's linear quantiles at 2.5% and 97.5%) of
 * the finite values; NaN marks a resample where the figure was undefined and is
 * skipped. `null` when no value is finite.
 */
export function percentileInterval(values: Float64Array): Bounds | null {
  if (scratch.length < values.length) scratch = new Float64Array(values.length);
  let n = 0;
  for (let i = 0; i < values.length; i++) if (Number.isFinite(values[i])) scratch[n++] = values[i];
  if (n === 0) return null;
  const [lo, hi] = selectQuantiles(scratch, n, QUANTILES);
  return [lo, hi];
}

const QUANTILES = [0.025, 0.975];
// The finite values of the interval being taken, reused between calls.
let scratch = new Float64Array(0);

/**
 * Least-squares decay rate of `ln R(t) ≈ −λ t` (a line through the origin) over
 * the t ≥ 1 where `R(t) > 0`: `λ = −Σ t ln R(t) / Σ t²`. `R(0) = 1` adds nothing.
 * Infinity when `R(1) = 0` (nothing survives one step), NaN when the curve stops at t = 0.
 */
export function fitDecayRate(curve: ArrayLike<number>): number {
  if (curve.length < 2) return NaN;
  if (!(curve[1] > 0)) return Infinity;
  let num = 0, den = 0, last = NaN, log = NaN;
  for (let t = 1; t < curve.length && curve[t] > 0; t++) {
    // Curves are flat between the milestones where episodes fail: the logarithm is the last one.
    if (curve[t] !== last) last = curve[t], log = Math.log(last);
    num += t * log;
    den += t * t;
  }
  return Math.max(0, -num / den); // max(0, −0) is +0: the JSON stays "0"
}

/** A fit of `R(t) ≈ R∞ + (1 − R∞) q^t`, where `q = e^{−λ}`. */
export interface SteadyStateFit {
  rInf: number;
  q: number;
  /** Root mean square residual over the curve's points t = 0..max. */
  rmse: number;
}

const GRID = 64;
const GOLDEN_STEPS = 48;
const PHI = (Math.sqrt(5) - 1) / 2;

// R∞ for a fixed q in closed form: with g = 1 − q^t and y = R(t) − q^t the model is y = R∞·g.
function solve(curve: ArrayLike<number>, q: number): { rInf: number; sse: number } {
  let sgg = 0, sgy = 0, syy = 0, p = 1;
  for (let t = 1; t < curve.length; t++) {
    p *= q;
    const g = 1 - p, y = curve[t] - p;
    sgg += g * g;
    sgy += g * y;
    syy += y * y;
  }
  // q = 1 leaves R∞ free (the model is R ≡ 1); nothing decays, so it is 1.
  const rInf = sgg > 0 ? Math.min(1, Math.max(0, sgy / sgg)) : 1;
  return { rInf, sse: Math.max(0, syy - 2 * rInf * sgy + rInf * rInf * sgg) };
}

/**
 * Least squares over both parameters of `R(t) ≈ R∞ + (1 − R∞) q^t`, with
 * `q ∈ [0, 1]` (so λ ≥ 0, q = 0 being λ = ∞) and `R∞ ∈ [0, 1]`: a grid over q
 * (ties go to the larger q, the slower decay) refined by golden-section search
 * in the best cell, R∞ solved in closed form for each q and clamped. The curve
 * needs points beyond t = 1 for R∞ to be identified; the caller checks that.
 */
export function fitSteadyState(curve: ArrayLike<number>): SteadyStateFit {
  let bestQ = 1, best = solve(curve, 1);
  for (let i = 1; i <= GRID; i++) {
    const q = 1 - i / GRID, s = solve(curve, q);
    if (s.sse < best.sse) [bestQ, best] = [q, s];
  }
  let a = Math.max(0, bestQ - 1 / GRID), b = Math.min(1, bestQ + 1 / GRID);
  let c = b - PHI * (b - a), d = a + PHI * (b - a);
  let fc = solve(curve, c).sse, fd = solve(curve, d).sse;
  for (let i = 0; i < GOLDEN_STEPS; i++) {
    if (fc <= fd) {
      b = d, d = c, fd = fc;
      c = b - PHI * (b - a), fc = solve(curve, c).sse;
    } else {
      a = c, c = d, fc = fd;
      d = a + PHI * (b - a), fd = solve(curve, d).sse;
    }
  }
  const refined = solve(curve, (a + b) / 2);
  if (refined.sse < best.sse) [bestQ, best] = [(a + b) / 2, refined];
  // The residuals once more, directly, for a clean RMSE near zero.
  let sse = 0, p = 1;
  for (let t = 1; t < curve.length; t++) {
    p *= bestQ;
    const r = curve[t] - best.rInf - (1 - best.rInf) * p;
    sse += r * r;
  }
  return { rInf: best.rInf, q: bestQ, rmse: Math.sqrt(sse / curve.length) };
}

/**
 * `fitSteadyState()` remembering its fits: a curve bit for bit equal to one fitted before gets the
 * same fit without refitting. Bootstrap resamples of a group of few tasks repeat their curves often.
 */
export function rememberedFits(): (curve: Float64Array) => SteadyStateFit {
  const seen = new Map<number, { bits: Uint32Array; fit: SteadyStateFit }[]>();
  return (curve) => {
    const bits = new Uint32Array(curve.buffer, curve.byteOffset, curve.length * 2);
    let h = 0x811c9dc5;
    for (let i = 0; i < bits.length; i++) h = Math.imul(h ^ bits[i], 0x01000193);
    let same = seen.get(h);
    if (same === undefined) seen.set(h, same = []);
    for (const entry of same) if (equalBits(entry.bits, bits)) return entry.fit;
    const fit = fitSteadyState(curve);
    same.push({ bits: bits.slice(), fit });
    return fit;
  };
}

function equalBits(a: Uint32Array, b: Uint32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
