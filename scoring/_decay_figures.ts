// The decay figures of one group: the headline values of a curve and a tally (λ fit, R∞ fit, mean
// path length, α, error recovery), then the group's summary with its bands, intervals and the
// reason for each null. Internally an undefined figure is NaN (λ = Infinity when nothing passes
// milestone 1); the summary turns those into `null` with a reason. Private to scoring/.
import type { CurvePoint, DecayGroup, HeadlineName, SteadyState } from "./_decay_types.ts";
import { fitDecayRate, fitSteadyState, percentileInterval, type SteadyStateFit } from "./_fit.ts";
import { fitAmplification } from "./_decay_alpha.ts";
import type { Group, Tally } from "./_decay_cells.ts";
import { productLimit } from "./_decay_curve.ts";
import type { Fragile } from "./_decay_fragile.ts";
import { hazards } from "./_decay_hazard.ts";

/** The figures that carry a bootstrap interval, in the order reasons list them. */
export const HEADLINES: readonly HeadlineName[] = [
  "per_step_reliability",
  "r_inf",
  "mean_path_length",
  "alpha",
  "beta",
  "error_recovery_rate",
  "recovery_cost",
];

/** A curve's fits and the headline values of it and its tally. */
export interface Headlines {
  /** λ of `ln R(t) ≈ −λ t`. */
  lambda: number;
  /** The fit `R(t) ≈ R∞ + (1 − R∞) q^t`; null for a curve shorter than t = 2. */
  fit: SteadyStateFit | null;
  values: Record<HeadlineName, number>;
}

/**
 * The headline figures of one tally; NaN where undefined, λ = Infinity when nothing passes milestone 1.
 * `steady` fits R∞ (null: not fitted, R∞ NaN, where nobody reads it).
 */
export function headlines(
  curve: Float64Array,
  s: Tally,
  steady: ((curve: Float64Array) => SteadyStateFit) | null = fitSteadyState,
): Headlines {
  const lambda = fitDecayRate(curve);
  const fit = curve.length > 2 && steady !== null ? steady(curve) : null;
  const out = new Float64Array(HEADLINES.length);
  valuesOf(s, { lambda, fit }, out);
  return { lambda, fit, values: Object.fromEntries(HEADLINES.map((h, i) => [h, out[i]])) as Headlines["values"] };
}

/** `headlines()`'s values, in HEADLINES order, into `out` (nothing allocated but the fits'): for every resample. */
export function headlineValues(
  curve: Float64Array,
  s: Tally,
  steady: ((curve: Float64Array) => SteadyStateFit) | null,
  out: Float64Array,
): void {
  const lambda = fitDecayRate(curve);
  valuesOf(s, { lambda, fit: curve.length > 2 && steady !== null ? steady(curve) : null }, out);
}

function valuesOf(s: Tally, fits: { lambda: number; fit: SteadyStateFit | null }, out: Float64Array): void {
  const { alpha, beta } = fitAmplification([s.pairs, s.sx, s.sy, s.sxx, s.sxy]);
  out[0] = Math.exp(-fits.lambda);
  out[1] = fits.fit === null ? NaN : fits.fit.rInf;
  out[2] = s.failedReached / s.failed;
  out[3] = alpha;
  out[4] = beta;
  out[5] = s.recovered / s.faulted;
  out[6] = s.recoverySum / s.recoveryCount;
}

/** A group's point estimate: its survivor counts, tally and fragile step. */
export interface Point {
  survivors: Float64Array;
  completed: Float64Array;
  tally: Tally;
  fragile: Fragile;
}

/** A group's bootstrap draws: R(t) of resample b at `columns[t * resamples + b]`, each headline's in `draws`. */
export interface Boot {
  columns: Float64Array;
  draws: Record<string, Float64Array>;
}

/** The decay figures of one group from its point estimate and its bootstrap draws. */
export function summarize(group: Group, point: Point, boot: Boot, resamples: number): DecayGroup {
  const { survivors, completed, tally, fragile } = point;
  const curve = productLimit(survivors, completed, new Float64Array(survivors.length));
  const reasons: Record<string, string> = { ...fragile.reasons };
  const { lambda, fit, values } = headlines(curve, tally);
  const hazard = hazards(survivors, completed);
  if (hazard.some((p) => p.h === null)) reasons.hazard = "h(t) is null where no episode reached t − 1";
  if (resamples === 0) reasons.band = "resamples is 0";
  const { figures, ci } = intervals(values, { boot, resamples, why: whyNull(group), reasons });
  if (lambda === Infinity) reasons.lambda = "infinite: no episode reached milestone 1";
  else if (Number.isNaN(lambda)) reasons.lambda = whyNull(group).per_step_reliability;
  if (fit !== null && fit.q === 0) reasons["r_inf.lambda"] = "infinite: the fit drops to R∞ after one step";
  const note = startNote(curve, lambda);

  return {
    n: tally.n,
    tasks: group.tasks,
    curve: curveBand(curve, boot, resamples),
    hazard,
    fragile_step: fragile.step,
    lambda: Number.isFinite(lambda) ? lambda : null,
    per_step_reliability: figures.per_step_reliability,
    r_inf: fit === null ? null : steadyState(fit),
    mean_path_length: figures.mean_path_length,
    alpha: figures.alpha,
    beta: figures.beta,
    error_recovery_rate: figures.error_recovery_rate,
    recovery_cost: figures.recovery_cost,
    ci,
    reasons,
    ...(note === null ? {} : { notes: { lambda: note } }),
  };
}

/** The share of a curve's drop at milestone 1 from which λ's fit notes that failures sit at the start. */
export const START_SHARE = 0.5;

// A note when most of the curve's drop is at milestone 1: λ, a line through the origin in ln R(t),
// then reads a failure at the start as a steady decay per milestone.
function startNote(curve: Float64Array, lambda: number): string | null {
  const end = curve.length - 1;
  if (end < 2 || !Number.isFinite(lambda)) return null;
  const drop = 1 - curve[end], first = 1 - curve[1];
  if (!(drop > 0) || first / drop < START_SHARE) return null;
  return `${Math.round((100 * first) / drop)}% of the drop of R(t) is at milestone 1: failures sit at the start, ` +
    "which the fit ln R(t) ≈ −λ·t reads as a steady decay per milestone";
}

// Why each headline figure of a group is undefined, when it is.
function whyNull(group: Group): Record<HeadlineName, string> {
  return {
    per_step_reliability: "the curve stops at t = 0 (no task has milestones)",
    r_inf: "the fit needs the curve up to t = 2 at least",
    mean_path_length: "no episode failed",
    alpha: group.counted
      ? "V_t = var(m_t) does not vary over the milestones (the runs never drift apart), or under two runs per task"
      : "no record has missed (m_t of a long-horizon task)",
    beta: group.counted
      ? "V_t = var(m_t) does not vary over the milestones (the runs never drift apart), or under two runs per task"
      : "no record has missed (m_t of a long-horizon task)",
    error_recovery_rate: "no episode had faults",
    recovery_cost: "no record has recovery_steps",
  };
}

// Each headline as a figure (null where undefined) with its percentile interval; notes in
// `reasons`, in HEADLINES order, why a figure or its interval is null.
function intervals(
  values: Record<HeadlineName, number>,
  options: { boot: Boot; resamples: number; why: Record<HeadlineName, string>; reasons: Record<string, string> },
): { figures: Record<HeadlineName, number | null>; ci: DecayGroup["ci"] } {
  const { boot, resamples, why, reasons } = options;
  const figures = {} as Record<HeadlineName, number | null>;
  const ci = {} as DecayGroup["ci"];
  for (const h of HEADLINES) {
    const defined = Number.isFinite(values[h]);
    figures[h] = defined ? values[h] : null;
    ci[h] = defined && resamples > 0 ? percentileInterval(boot.draws[h]) : null;
    if (!defined) reasons[h] = why[h];
    else if (resamples > 0 && ci[h] === null) reasons[`ci.${h}`] = "undefined in every resample";
  }
  return { figures, ci };
}

// The curve's points with their 95% percentile bands over the resamples.
function curveBand(curve: Float64Array, boot: Boot, resamples: number): CurvePoint[] {
  const bands = resamples === 0 ? null : bandsOf(boot, curve.length, resamples);
  return Array.from(curve, (R, t) => ({ t, R, lo: bands?.[2 * t] ?? null, hi: bands?.[2 * t + 1] ?? null }));
}

// The bands of a group's draws, lo and hi by t (null where no resample defined R(t)), taken once per
// draws: a group that several views hold again (see resampleGroups()) shares its draws between them.
const bandsKept = new WeakMap<Boot, (number | null)[]>();
function bandsOf(boot: Boot, points: number, resamples: number): (number | null)[] {
  const kept = bandsKept.get(boot);
  if (kept !== undefined && kept.length === 2 * points) return kept;
  const bands: (number | null)[] = [];
  for (let t = 0; t < points; t++) {
    const band = percentileInterval(boot.columns.subarray(t * resamples, (t + 1) * resamples));
    bands.push(band?.[0] ?? null, band?.[1] ?? null);
  }
  bandsKept.set(boot, bands);
  return bands;
}

// R∞ of the fit, with its λ = −ln q (null when q = 0: infinite).
function steadyState(fit: SteadyStateFit): SteadyState {
  return { value: fit.rInf, lambda: fit.q > 0 ? Math.max(0, -Math.log(fit.q)) : null, rmse: fit.rmse };
}

/** The figures of a group without episodes, every null for `reason`. */
export function emptyGroup(reason: string): DecayGroup {
  const reasons: Record<string, string> = {};
  for (const key of ["lambda", "fragile_step", ...HEADLINES]) reasons[key] = reason;
  return {
    n: 0,
    tasks: 0,
    curve: [],
    hazard: [],
    fragile_step: null,
    lambda: null,
    per_step_reliability: null,
    r_inf: null,
    mean_path_length: null,
    alpha: null,
    beta: null,
    error_recovery_rate: null,
    recovery_cost: null,
    ci: Object.fromEntries(HEADLINES.map((h) => [h, null])) as DecayGroup["ci"],
    reasons,
  };
}
