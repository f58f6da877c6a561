/**
 * Predictability (docs/metrics.md "Predictability"): calibration (P_cal = 1 − ECE
 * over ten fixed bins), discrimination (P_auroc, Mann–Whitney with ties ½) and
 * the Brier score (P_brier = R_pred), over nominal records with a confidence.
 *
 * @module
 */
import type { EpisodeRecord } from "./record.ts";

/** Bin edges `i * 0.1` for i = 0..10, computed in floating point exactly so (`BIN_EDGES[3]` is 0.30000000000000004). */
export const BIN_EDGES: readonly number[] = Object.freeze(Array.from({ length: 11 }, (_, i) => i * 0.1));

/** The predictability scores; `null` where undefined, with the reason in `reasons`. */
export interface PredictabilityScores {
  /** Calibration, `max(0, 1 − ECE)` over ten fixed confidence bins, in [0, 1]. */
  P_cal: number | null;
  /** Discrimination: the AUROC of confidence against success (ties ½), in [0, 1]; null with one class only. */
  P_auroc: number | null;
  /** One minus the mean Brier score `(confidence − success)²`, in [0, 1]. */
  P_brier: number | null;
  /** The predictability aggregate: equal to `P_brier`. */
  R_pred: number | null;
  /** Why each `null` score is null. */
  reasons: Record<string, string>;
}

/**
 * The calibration bin of a confidence: `i` with `BIN_EDGES[i] ≤ c < BIN_EDGES[i + 1]`, and 1.0 in bin 9.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { calibrationBin } from "./predictability.ts";
 * assertEquals(calibrationBin(0.3), 2); // since BIN_EDGES[3] = 0.30000000000000004 > 0.3
 * assertEquals(calibrationBin(1), 9);
 * ```
 */
export function calibrationBin(confidence: number): number {
  if (!(confidence >= 0 && confidence <= 1)) {
    throw new RangeError(`Invalid confidence "${confidence}": expected a number in [0, 1]`);
  }
  let i = Math.min(Math.floor(confidence * 10), 9);
  while (i > 0 && confidence < BIN_EDGES[i]) i--;
  while (i < 9 && confidence >= BIN_EDGES[i + 1]) i++;
  return i;
}

/**
 * ECE from per-bin sums laid out as `[n, Σ confidence, Σ success]` for bins 0..9
 * (30 numbers): `Σ_b (n_b/N)·|mean success_b − mean confidence_b|`; NaN when N = 0.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { eceFromBins } from "./predictability.ts";
 * const bins = new Float64Array(30);
 * // Bin 9 holds two records at 0.9, one a success: |0.5 − 0.9| = 0.4.
 * bins.set([2, 1.8, 1], 27);
 * assertEquals(eceFromBins(bins), 0.4);
 * ```
 */
export function eceFromBins(bins: ArrayLike<number>): number {
  let n = 0, gap = 0;
  for (let b = 0; b < 10; b++) {
    n += bins[3 * b];
    gap += Math.abs(bins[3 * b + 2] - bins[3 * b + 1]);
  }
  return gap / n;
}

/**
 * Confidences sorted ascending, merged into one entry per (confidence,
 * cluster) with its counts of successes and failures, and where each run of
 * equal confidences ends.
 */
export interface RankedConfidences {
  /** The confidence of each entry, ascending. */
  confidence: Float64Array;
  /** Resampling cluster (task) of each entry, an index into the weights given to `weightedAuroc()`. */
  cluster: Int32Array;
  /** Successful records of each entry. */
  successes: Float64Array;
  /** Failed records of each entry. */
  failures: Float64Array;
  /** `tieEnd[i]`: one past the last entry with the same confidence as entry i (set at each run's start). */
  tieEnd: Int32Array;
}

/** Parallel arrays of records to rank: confidence, outcome and resampling cluster of each. */
export interface ConfidenceColumns {
  /** Each record's confidence, in [0, 1]. */
  confidence: ArrayLike<number>;
  /** Whether each record succeeded (a truthy number counts as a success). */
  success: ArrayLike<boolean | number>;
  /** Each record's resampling cluster (task), an index into the weights given to `weightedAuroc()`. */
  cluster: ArrayLike<number>;
}

/**
 * Sorts confidences once for repeated AUROC computations.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { rankConfidences, weightedAuroc } from "./predictability.ts";
 * const ranked = rankConfidences({ confidence: [0.9, 0.2, 0.9], success: [true, false, false], cluster: [0, 0, 0] });
 * assertEquals(weightedAuroc(ranked, new Float64Array([1])), 0.75); // (1 + ½) / 2
 * ```
 */
export function rankConfidences(columns: ConfidenceColumns): RankedConfidences {
  const successes = columns.success, n = columns.confidence.length;
  const conf = Float64Array.from(columns.confidence), cl = Int32Array.from(columns.cluster);
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  order.sort((a, b) => conf[a] - conf[b] || cl[a] - cl[b]);
  const confidence = new Float64Array(n), cluster = new Int32Array(n), tieEnd = new Int32Array(n);
  const pos = new Float64Array(n), neg = new Float64Array(n);
  let m = -1;
  for (let i = 0; i < n; i++) {
    const j = order[i];
    if (m < 0 || conf[j] !== confidence[m] || cl[j] !== cluster[m]) {
      m++;
      confidence[m] = conf[j];
      cluster[m] = cl[j];
    }
    if (successes[j]) pos[m]++;
    else neg[m]++;
  }
  const entries = m + 1;
  for (let i = 0; i < entries;) {
    let j = i + 1;
    while (j < entries && confidence[j] === confidence[i]) j++;
    tieEnd[i] = j;
    i = j;
  }
  return {
    confidence: confidence.slice(0, entries),
    cluster: cluster.slice(0, entries),
    successes: pos.slice(0, entries),
    failures: neg.slice(0, entries),
    tieEnd: tieEnd.slice(0, entries),
  };
}

/**
 * Mann–Whitney AUROC with ties ½, each record weighted by its cluster's weight,
 * in one pass over the sorted entries; NaN with one class only.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { rankConfidences, weightedAuroc } from "./predictability.ts";
 * // cluster 0: a success at 0.8; cluster 1: a failure at 0.5 and a success at 0.3
 * const ranked = rankConfidences({ confidence: [0.8, 0.5, 0.3], success: [true, false, true], cluster: [0, 1, 1] });
 * assertEquals(weightedAuroc(ranked, [2, 1]), 2 / 3); // (2·1 + 1·0) / (3 · 1)
 * ```
 */
export function weightedAuroc(ranked: RankedConfidences, weights: ArrayLike<number>): number {
  const { successes, failures, cluster, tieEnd } = ranked;
  const n = cluster.length;
  let negBelow = 0, pos = 0, num = 0;
  for (let i = 0; i < n;) {
    const end = tieEnd[i];
    let gp = 0, gn = 0;
    for (; i < end; i++) {
      const w = weights[cluster[i]];
      gp += w * successes[i];
      gn += w * failures[i];
    }
    num += gp * (negBelow + gn / 2);
    negBelow += gn;
    pos += gp;
  }
  return pos > 0 && negBelow > 0 ? num / (pos * negBelow) : NaN;
}

/** Reasons for null predictability scores, shared with the profile. */
export const PREDICTABILITY_REASONS: Readonly<Record<"none" | "allSucceeded" | "allFailed", string>> = Object.freeze({
  none: "no nominal record has a confidence",
  allSucceeded: "one class only: every record succeeded",
  allFailed: "one class only: every record failed",
});

/**
 * Every predictability score of a set of records (nominal ones with a confidence).
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { predictability } from "./predictability.ts";
 * const r = (run: number, success: boolean, confidence: number) =>
 *   ({ agent: "a", task: "t/1", run, condition: "nominal" as const, success, confidence });
 * assertEquals(predictability([r(0, true, 0.8), r(1, false, 0.4)]).P_brier, 0.9); // 1 − (0.2² + 0.4²)/2
 * ```
 */
export function predictability(records: readonly EpisodeRecord[]): PredictabilityScores {
  const scored = records.filter((r) => r.condition === "nominal" && typeof r.confidence === "number");
  const reasons: Record<string, string> = {};
  if (scored.length === 0) {
    for (const key of ["P_cal", "P_auroc", "P_brier", "R_pred"]) reasons[key] = PREDICTABILITY_REASONS.none;
    return { P_cal: null, P_auroc: null, P_brier: null, R_pred: null, reasons };
  }
  const bins = new Float64Array(30);
  let brier = 0;
  for (const r of scored) {
    const c = r.confidence!, y = r.success ? 1 : 0, b = calibrationBin(c);
    bins[3 * b]++;
    bins[3 * b + 1] += c;
    bins[3 * b + 2] += y;
    brier += (c - y) ** 2;
  }
  const ranked = rankConfidences({
    confidence: scored.map((r) => r.confidence!),
    success: scored.map((r) => r.success),
    cluster: new Int32Array(scored.length),
  });
  const auc = weightedAuroc(ranked, [1]);
  if (Number.isNaN(auc)) {
    reasons.P_auroc = scored[0].success ? PREDICTABILITY_REASONS.allSucceeded : PREDICTABILITY_REASONS.allFailed;
  }
  const P_brier = 1 - brier / scored.length;
  return {
    P_cal: Math.max(0, 1 - eceFromBins(bins)),
    P_auroc: Number.isNaN(auc) ? null : auc,
    P_brier,
    R_pred: P_brier,
    reasons,
  };
}
