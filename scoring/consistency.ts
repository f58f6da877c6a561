/**
 * Consistency (docs/metrics.md "Consistency"): outcome (C_out), trajectory
 * (C_traj_d, C_traj_s), resources (C_res) and their aggregate R_con, over
 * nominal records only. A task is one agent's runs of one task id.
 *
 * @module
 */
import type { EpisodeRecord } from "./record.ts";
import { jsdBits, levenshtein, mean, sampleStd, units } from "./_stats.ts";

/** The resources C_res looks at (tokens are not a resource). */
export const RESOURCE_KEYS = ["cost", "time", "api_calls", "num_actions", "num_errors", "call_latency"] as const;

/** Resources of one run, as in a record. */
export type RunResources = NonNullable<EpisodeRecord["resources"]>;

/** The consistency scores; `null` where no task has the data, with the reason in `reasons`. */
export interface ConsistencyScores {
  /** Outcome consistency: the mean over tasks of `(2p − 1)²`, p a task's success rate, in [0, 1]. */
  C_out: number | null;
  /**
   * Trajectory distribution: the mean over tasks of 1 − the mean pairwise JSD (bits) of the action
   * counts of successful runs, in [0, 1] (see `trajectoryTerms()`).
   */
  C_traj_d: number | null;
  /**
   * Trajectory sequence: the mean over tasks of 1 − the mean pairwise Levenshtein distance over the
   * longer length of the action sequences of successful runs, in [0, 1].
   */
  C_traj_s: number | null;
  /** Resource consistency: the mean over tasks of `exp(−mean CV)` of the resources, in (0, 1]. */
  C_res: number | null;
  /** The aggregate ⅓·C_out + ⅓·(C_traj_d + C_traj_s)/2 + ⅓·C_res, over the terms that exist (see `rCon()`). */
  R_con: number | null;
  /** Why each `null` score is null. */
  reasons: Record<string, string>;
}

/**
 * One task's outcome-consistency term `(2p − 1)²` from its runs and successes.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { cOutTerm } from "./consistency.ts";
 * assertEquals(cOutTerm(4, 3), 0.25); // (2·0.75 − 1)²
 * ```
 */
export function cOutTerm(runs: number, successes: number): number {
  if (!(runs > 0)) throw new RangeError(`Cannot compute C_out of "${runs}" runs: expected at least 1`);
  return (2 * successes / runs - 1) ** 2;
}

/**
 * One task's trajectory terms from the action sequences of its successful runs:
 * `d = 1 − mean pairwise JSD` (bits) of action-name frequencies and
 * `s = 1 − mean pairwise Levenshtein / longer length`. Empty sequences are
 * dropped; `null` when fewer than two remain.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { trajectoryTerms } from "./consistency.ts";
 * assertEquals(trajectoryTerms([["a", "b"], ["a", "b"], []]), { d: 1, s: 1 });
 * ```
 */
export function trajectoryTerms(sequences: readonly (readonly string[])[]): { d: number; s: number } | null {
  // Identical sequences are at distance 0 from each other: compare each distinct pair once, weighted.
  const ids = new Map<string, number>(), distinct = new Map<string, number>();
  const coded: Int32Array[] = [], times: number[] = [];
  let runs = 0;
  for (const seq of sequences) {
    if (seq.length === 0) continue;
    runs++;
    const code = new Int32Array(seq.length);
    for (let i = 0; i < seq.length; i++) {
      let id = ids.get(seq[i]);
      if (id === undefined) ids.set(seq[i], id = ids.size);
      code[i] = id;
    }
    const key = code.join(",");
    const seen = distinct.get(key);
    if (seen !== undefined) times[seen]++;
    else {
      distinct.set(key, coded.length);
      coded.push(code);
      times.push(1);
    }
  }
  if (runs < 2) return null;
  const counts = coded.map((code) => {
    const c = new Float64Array(ids.size);
    for (const id of code) c[id]++;
    return c;
  });
  let jsd = 0, lev = 0;
  for (let i = 0; i < coded.length; i++) {
    for (let j = i + 1; j < coded.length; j++) {
      const pairs = times[i] * times[j];
      jsd += pairs * jsdBits(counts[i], counts[j]);
      lev += pairs * levenshtein(coded[i], coded[j]) / Math.max(coded[i].length, coded[j].length);
    }
  }
  const pairs = runs * (runs - 1) / 2;
  return { d: 1 - jsd / pairs, s: 1 - lev / pairs };
}

/**
 * One task's resource term `exp(−mean CV)` over the resources with at least two
 * usable values (values ≤ 0 dropped, except `num_errors`, which keeps zeros and
 * counts only when its mean is > 0); `null` when no resource qualifies.
 *
 * @example
 * ```ts
 * import { assertAlmostEquals } from "@std/assert";
 * import { cResTerm } from "./consistency.ts";
 * // time 1 and 3: mean 2, sample std √2, CV 0.7071…
 * assertAlmostEquals(cResTerm([{ time: 1 }, { time: 3 }])!, Math.exp(-Math.SQRT2 / 2)); // 0.4930…
 * ```
 */
export function cResTerm(runs: readonly (RunResources | undefined)[]): number | null {
  let cvSum = 0, used = 0;
  for (const key of RESOURCE_KEYS) {
    const values: number[] = [];
    for (const r of runs) {
      const v = r?.[key];
      // A null (a cost without a price) is unknown, like an absent value.
      if (typeof v === "number" && (v > 0 || (key === "num_errors" && v === 0))) values.push(v);
    }
    if (values.length < 2) continue;
    const m = mean(values);
    if (!(m > 0)) continue;
    cvSum += sampleStd(values) / m;
    used++;
  }
  return used === 0 ? null : Math.exp(-cvSum / used);
}

/**
 * R_con = ⅓·C_out + ⅓·(C_traj_d + C_traj_s)/2 + ⅓·C_res, the weights
 * renormalised over the terms that exist; `null` when none does.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { rCon } from "./consistency.ts";
 * assertEquals(rCon({ C_out: 0.5, C_traj_d: null, C_traj_s: null, C_res: 1 }), 0.75);
 * ```
 */
export function rCon(parts: Pick<ConsistencyScores, "C_out" | "C_traj_d" | "C_traj_s" | "C_res">): number | null {
  const terms: number[] = [];
  if (parts.C_out !== null) terms.push(parts.C_out);
  if (parts.C_traj_d !== null && parts.C_traj_s !== null) terms.push((parts.C_traj_d + parts.C_traj_s) / 2);
  if (parts.C_res !== null) terms.push(parts.C_res);
  return terms.length === 0 ? null : mean(terms);
}

/** Reasons for null consistency scores, shared with the profile. */
export const CONSISTENCY_REASONS: Readonly<Record<"C_out" | "C_out_one_run" | "C_traj" | "C_res", string>> = Object
  .freeze({
    C_out: "no nominal records",
    C_out_one_run: "one run per task: consistency needs at least two",
    C_traj: "no task has two successful nominal runs with at least one action",
    C_res: "no task has a resource with two usable nominal values",
  });

/**
 * Every consistency score of a set of records (nominal ones only), tasks
 * being (agent, task id) pairs.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { consistency } from "./consistency.ts";
 * const run = (run: number, success: boolean) =>
 *   ({ agent: "a", task: "t/1", run, condition: "nominal" as const, success });
 * assertEquals(consistency([run(0, true), run(1, false)]).C_out, 0); // (2·0.5 − 1)²
 * ```
 */
export function consistency(records: readonly EpisodeRecord[]): ConsistencyScores {
  const nominal = records.filter((r) => r.condition === "nominal");
  const out: number[] = [], trajD: number[] = [], trajS: number[] = [], res: number[] = [];
  for (const u of units(nominal)) {
    out.push(cOutTerm(u.runs.length, u.runs.filter((r) => r.success).length));
    const traj = trajectoryTerms(u.runs.filter((r) => r.success).map((r) => r.actions ?? []));
    if (traj !== null) {
      trajD.push(traj.d);
      trajS.push(traj.s);
    }
    const c = cResTerm(u.runs.map((r) => r.resources));
    if (c !== null) res.push(c);
  }
  const orNull = (xs: number[]) => xs.length === 0 ? null : mean(xs);
  // With one run of every task, (2p − 1)² is 1 whatever the outcome: nothing is measured.
  const oneRun = nominal.length > 0 && units(nominal).every((u) => u.runs.length < 2);
  const scores = {
    C_out: oneRun ? null : orNull(out),
    C_traj_d: orNull(trajD),
    C_traj_s: orNull(trajS),
    C_res: orNull(res),
  };
  const reasons: Record<string, string> = {};
  if (scores.C_out === null) reasons.C_out = oneRun ? CONSISTENCY_REASONS.C_out_one_run : CONSISTENCY_REASONS.C_out;
  if (scores.C_traj_d === null) {
    reasons.C_traj_d = CONSISTENCY_REASONS.C_traj;
    reasons.C_traj_s = CONSISTENCY_REASONS.C_traj;
  }
  if (scores.C_res === null) reasons.C_res = CONSISTENCY_REASONS.C_res;
  const R_con = rCon(scores);
  if (R_con === null) {
    reasons.R_con = oneRun ? CONSISTENCY_REASONS.C_out_one_run : "no consistency term: no nominal records";
  }
  return { ...scores, R_con, reasons };
}
