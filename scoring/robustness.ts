/**
 * Robustness (docs/metrics.md "Robustness"): accuracy under injected faults,
 * environment perturbations and prompt paraphrases relative to nominal
 * accuracy, each pooled over all task × run records of its condition.
 *
 * @module
 */
import type { EpisodeRecord } from "./record.ts";

/** docs/metrics.md's ε: a nominal accuracy below it makes a ratio undefined. */
export const EPSILON = 1e-8;

/** The perturbed conditions and the score each one gives. */
export const PERTURBATIONS = [["fault", "R_fault"], ["env", "R_env"], ["prompt", "R_prompt"]] as const;

/** The robustness scores; `null` where undefined, with the reason in `reasons`. */
export interface RobustnessScores {
  /** Accuracy under injected faults / nominal accuracy, capped at 1. */
  R_fault: number | null;
  /** Accuracy under environment perturbations / nominal accuracy, capped at 1. */
  R_env: number | null;
  /** Accuracy under prompt paraphrases / nominal accuracy, capped at 1. */
  R_prompt: number | null;
  /** The robustness aggregate: the mean of the three ratios that exist (see `rRob()`). */
  R_rob: number | null;
  /** Why each `null` score is null. */
  reasons: Record<string, string>;
}

/** Successes and records of one condition. */
export interface Tally {
  /** Records of the condition. */
  n: number;
  /** Those that succeeded. */
  successes: number;
}

/**
 * `min(Acc_c / Acc_nominal, 1)` from the two tallies, or the reason it is
 * undefined (a string naming the condition).
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { robustnessRatio } from "./robustness.ts";
 * assertEquals(robustnessRatio({ name: "fault", n: 10, successes: 4 }, { n: 10, successes: 8 }), 0.5); // 0.4 / 0.8
 * ```
 */
export function robustnessRatio(condition: Tally & { name: string }, nominal: Tally): number | string {
  if (nominal.n === 0) return "no nominal records";
  if (condition.n === 0) return `no ${condition.name} records`;
  const accNominal = nominal.successes / nominal.n;
  if (accNominal < EPSILON) return "nominal accuracy is 0";
  return Math.min(condition.successes / condition.n / accNominal, 1);
}

/**
 * R_rob: the mean of the ratios that exist, or `null`.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { rRob } from "./robustness.ts";
 * assertEquals(rRob([0.5, null, 1]), 0.75);
 * ```
 */
export function rRob(ratios: readonly (number | null)[]): number | null {
  const present = ratios.filter((r): r is number => r !== null);
  return present.length === 0 ? null : present.reduce((a, b) => a + b, 0) / present.length;
}

/**
 * Every robustness score of a set of records.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { robustness } from "./robustness.ts";
 * const r = (condition: "nominal" | "fault", run: number, success: boolean) =>
 *   ({ agent: "a", task: "t/1", run, condition, success });
 * const scores = robustness([r("nominal", 0, true), r("nominal", 1, true), r("fault", 0, true), r("fault", 1, false)]);
 * assertEquals(scores.R_fault, 0.5); // min(0.5 / 1, 1)
 * ```
 */
export function robustness(records: readonly EpisodeRecord[]): RobustnessScores {
  const tally = (condition: string): Tally => {
    let n = 0, successes = 0;
    for (const r of records) {
      if (r.condition !== condition) continue;
      n++;
      if (r.success) successes++;
    }
    return { n, successes };
  };
  const nominal = tally("nominal");
  const reasons: Record<string, string> = {};
  const scores: Record<string, number | null> = {};
  for (const [condition, key] of PERTURBATIONS) {
    const ratio = robustnessRatio({ name: condition, ...tally(condition) }, nominal);
    if (typeof ratio === "string") reasons[key] = ratio;
    scores[key] = typeof ratio === "string" ? null : ratio;
  }
  const R_rob = rRob([scores.R_fault, scores.R_env, scores.R_prompt]);
  if (R_rob === null) reasons.R_rob = ROBUSTNESS_NONE;
  return { R_fault: scores.R_fault, R_env: scores.R_env, R_prompt: scores.R_prompt, R_rob, reasons };
}

/** Reason for a null R_rob. */
export const ROBUSTNESS_NONE = "no robustness term: R_fault, R_env and R_prompt are all null";
