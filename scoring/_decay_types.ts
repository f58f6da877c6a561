// The figures' shapes of the long-horizon decay (scoring/decay.ts exports them): declared apart so the helpers
// that compute them (`_decay_*.ts`) import their types from here and decay.ts imports the helpers, one way.

import type { EpisodeRecord } from "./record.ts";

/** One point of the decay curve: `R(t)` with its 95% band. */
export interface CurvePoint {
  /** Milestone number, from 0. */
  t: number;
  /** `R(t)`. */
  R: number;
  /** The band's lower bound; null without resamples. */
  lo: number | null;
  /** The band's upper bound; null without resamples. */
  hi: number | null;
}

/**
 * `h(t) = 1 − R(t)/R(t−1)`; `at_risk` = episodes that reached t − 1 and had a milestone t to
 * attempt (in a group mixing lengths, those that completed a task of t − 1 milestones are out).
 */
export interface HazardPoint {
  /** Milestone number, from 1. */
  t: number;
  /** `h(t)`; null when no episode was at risk. */
  h: number | null;
  /** Episodes at risk at t. */
  at_risk: number;
  /** Wilson 95% interval of h(t) from the episodes at risk; null when none is. */
  ci: [number, number] | null;
}

/**
 * The milestone with the highest hazard among those at least 10 episodes attempted, under one
 * condition (never pooled across conditions).
 */
export interface FragileStep {
  /** Milestone number, from 1. */
  t: number;
  /** Its label, when every record that lists `milestone_labels` (else `milestone_tools`) names the same one. */
  label: string | null;
  /** `h(t)` over the condition's episodes. */
  hazard: number;
  /** Wilson 95% interval of the hazard. */
  ci: [number, number] | null;
  /** The condition's episodes at risk at t (at least `MIN_AT_RISK`). */
  at_risk: number;
  /** The condition whose records it was computed from. */
  condition: EpisodeRecord["condition"];
}

/** The fit `R(t) ≈ R∞ + (1 − R∞) e^{−λ t}`. */
export interface SteadyState {
  /** R∞ in [0, 1]. */
  value: number;
  /** λ ≥ 0 of this fit; `null` when infinite (the curve drops to R∞ in one step). */
  lambda: number | null;
  /** Root mean square residual over the curve's points t = 0..max. */
  rmse: number;
}

/** The decay figures of one group of episodes; `null` where undefined, with the reason in `reasons`. */
export interface DecayGroup {
  /** Episodes (records with `milestones`). */
  n: number;
  /** Task ids: what the bootstrap resamples. */
  tasks: number;
  /** `R(t)` for t = 0..the largest milestone total; empty without episodes. */
  curve: CurvePoint[];
  /** For t = 1..max, over every record of the group. */
  hazard: HazardPoint[];
  /**
   * Under one condition: a group that mixes conditions takes it from its nominal records (or its
   * only condition's), else it is null with the reason; `by_condition.<c>` from c's records.
   */
  fragile_step: FragileStep | null;
  /** λ ≥ 0 of `ln R(t) ≈ −λ t`. */
  lambda: number | null;
  /** `e^{−λ}` in [0, 1]; 0 when λ is infinite. */
  per_step_reliability: number | null;
  /**
   * The steady state R∞ of the fit `R(t) ≈ R∞ + (1 − R∞) e^{−λ t}`; where records carry the
   * long-horizon fields, null in a length-class group of fewer than `R_INF_MIN_LENGTH` milestones.
   */
  r_inf: SteadyState | null;
  /** Mean `reached` of the failed episodes, in [0, max]. */
  mean_path_length: number | null;
  /**
   * Variance amplification α of the least-squares fit `V_{t+1} = (1 + α)·V_t + β` over t, pooling
   * the group's tasks, with `V_t` the variance of `m_t` (records' `missed`) over one task's runs:
   * ≈ 0 for independent errors, > 0 when errors cascade.
   */
  alpha: number | null;
  /** The additive term β of the same fit: the variance one milestone adds (> 0 for independent errors). */
  beta: number | null;
  /** Share of episodes with faults that succeeded. */
  error_recovery_rate: number | null;
  /** Mean extra steps from an injected fault to the next on-plan action, ≥ 0. */
  recovery_cost: number | null;
  /**
   * Mean `achieved / total` over the episodes with milestones (long-horizon records only).
   * @default {absent: no record carries the long-horizon fields}
   */
  completion_share?: number | null;
  /**
   * Share of the episodes with `step_outcomes` that melt down (see `meltdownStep()`).
   * @default {absent: no record carries the long-horizon fields}
   */
  meltdown_rate?: number | null;
  /**
   * Median `s / steps` over the episodes that melt down at step s.
   * @default {absent: no record carries the long-horizon fields}
   */
  meltdown_onset?: number | null;
  /** 95% percentile bootstrap intervals `[lo, hi]` over tasks (the long-horizon ones where present). */
  ci: Record<HeadlineName, [number, number] | null> & Partial<Record<LongHeadlineName, [number, number] | null>>;
  /** Why each `null` is null, keyed by field (`"band"` for the curve's lo/hi). */
  reasons: Record<string, string>;
  /**
   * Caveats of a figure that is not null, keyed by field: `lambda` when at least half of the
   * curve's drop is at milestone 1 (failures sit at the start, which a steady decay misreads).
   * @default {absent: no caveat}
   */
  notes?: Record<string, string>;
}

/** The long-horizon figures that carry a bootstrap interval, where records carry ark's long-horizon fields. */
export type LongHeadlineName = "completion_share" | "meltdown_rate" | "meltdown_onset";

/** The figures that carry a bootstrap interval. */
export type HeadlineName =
  | "per_step_reliability"
  | "r_inf"
  | "mean_path_length"
  | "alpha"
  | "beta"
  | "error_recovery_rate"
  | "recovery_cost";

/** `R_len` of one family under one dependency kind (over nominal records). */
export interface LengthRobustness {
  /** `min(Acc_longest / Acc_shortest, 1)`; null with `reason`. */
  value: number | null;
  /** 95% percentile bootstrap interval over the family's task ids. */
  ci: [number, number] | null;
  /** The shortest length class. */
  shortest: number;
  /** The longest length class. */
  longest: number;
  /** Nominal accuracy by length class (null: no nominal record). */
  accuracy: Record<string, number | null>;
  /** Why `value` is null. */
  reason?: string;
}

/** How much one length class ran. */
export interface LengthRuns {
  /** Records of the class. */
  episodes: number;
  /** Its task ids. */
  tasks: number;
  /** Runs of one agent on one task under one condition and variant: the fewest and the most. */
  runs: { min: number; max: number };
}
