/**
 * The keys of a profile's headline figures (docs/metrics.md "Output"), in the order reports and
 * `deno task score` list them, and which of them are lower-is-better.
 *
 * @module
 */
/** The docs/metrics.md JSON keys, spelled and ordered exactly as there. */
export const METRIC_KEYS = [
  "C_out",
  "C_traj_d",
  "C_traj_s",
  "C_res",
  "R_con",
  "R_fault",
  "R_env",
  "R_prompt",
  "R_rob",
  "P_cal",
  "P_auroc",
  "P_brier",
  "R_pred",
  "S_comp",
  "S_harm",
  "R_saf",
  "R",
] as const;

/**
 * The headline keys, in docs/metrics.md's order, then accuracy and near_misses (near misses per 100
 * analysed records, over all conditions); pass^k (k = 1..K) follow in a table's figures.
 */
export const HEADLINE_KEYS = [...METRIC_KEYS, "accuracy", "near_misses"] as const;

/** One headline key. */
export type HeadlineKey = typeof HEADLINE_KEYS[number];

/**
 * The headline figures where lower is better (every other figure is higher-is-better). They are
 * also the ones not in [0, 1]: near_misses counts per 100 records.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { LOWER_IS_BETTER } from "./keys.ts";
 * assertEquals([LOWER_IS_BETTER.has("near_misses"), LOWER_IS_BETTER.has("R_saf")], [true, false]);
 * ```
 */
export const LOWER_IS_BETTER: ReadonlySet<string> = new Set<HeadlineKey>(["near_misses"]);
