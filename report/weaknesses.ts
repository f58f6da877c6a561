/**
 * The three biggest weaknesses of an agent's reliability profile: its lowest
 * component metrics, its most fragile step (with the label of that milestone,
 * under nominal conditions: it is never pooled across conditions) and its most
 * frequent violation (constraint × severity).
 *
 * @module
 */
import { type EpisodeRecord, type Interval, type Profile, SEVERITY_WEIGHTS } from "../scoring/mod.ts";
import { compareText } from "./format.ts";

/** The component metrics (docs/metrics.md keys that are not aggregates), in docs/metrics.md's order. */
export const COMPONENT_KEYS = [
  "C_out",
  "C_traj_d",
  "C_traj_s",
  "C_res",
  "R_fault",
  "R_env",
  "R_prompt",
  "P_cal",
  "P_auroc",
  "P_brier",
  "S_comp",
  "S_harm",
] as const;

/** A component metric below 1. */
export interface LowMetric {
  /** The metric's docs/metrics.md key. */
  key: typeof COMPONENT_KEYS[number];
  /** Its value, below 1. */
  value: number;
  /** Its 95% interval. */
  ci: Interval;
}

/** The milestone with the highest hazard under one condition (nominal for the headline), and its label. */
export interface FragileWeakness {
  /** Milestone number, from 1. */
  t: number;
  /**
   * The milestone's label (`milestone_labels`, else `milestone_tools`): the one every record names
   * there, else the one most of the episodes of `condition` that stopped there name.
   */
  label: string | null;
  /** Of the episodes that stopped at this milestone and name it, how many name `label` (when not named by all records). */
  label_share: { named: number; of: number } | null;
  /** `h(t)` over the condition's episodes. */
  hazard: number;
  /** Wilson 95% interval of the hazard. */
  ci: Interval;
  /** The condition's episodes at risk at t. */
  at_risk: number;
  /** The condition the step was found under. */
  condition: EpisodeRecord["condition"];
}

/** The most frequent violation. */
export interface ViolationWeakness {
  /** The constraint broken. */
  constraint: string;
  /** How bad (docs/metrics.md "Severity"). */
  severity: string;
  /** How many times it was found. */
  count: number;
}

/** An agent's three biggest weaknesses; each is `null` with the reason in `reasons` when there is none. */
export interface Weaknesses {
  /** Up to three component metrics below 1, lowest first (`[]` when none is). */
  lowest: LowMetric[];
  /** The most fragile milestone. */
  fragile_step: FragileWeakness | null;
  /** The most frequent violation (constraint × severity). */
  violation: ViolationWeakness | null;
  /** Why `lowest` is empty or another weakness is null, by key. */
  reasons: Record<string, string>;
}

/** Options of `weaknesses()`. */
export interface WeaknessOptions {
  /**
   * The agent's records, to name the label of a fragile step whose records do not all agree on it.
   * @default {[]}
   */
  records?: readonly EpisodeRecord[];
  /**
   * How many low metrics to list.
   * @default {3}
   */
  lowest?: number;
}

/**
 * The weaknesses of one profile: the lowest component metrics below 1 (ties in docs/metrics.md order),
 * the fragile step of `decay.fragile_step` (nominal records' when the profile has any), and the most frequent violation of
 * `operational.violation_count` (ties: the heavier severity, then the constraint's name).
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { scoreRecords } from "../scoring/mod.ts";
 * import { weaknesses } from "./weaknesses.ts";
 * const r = (run: number, success: boolean) => ({ agent: "a", task: "t/1", run, condition: "nominal" as const, success });
 * assertEquals(weaknesses(scoreRecords([r(0, true), r(1, false)], { resamples: 10 }).a).lowest.map((m) => m.key), ["C_out"]);
 * ```
 */
export function weaknesses(profile: Profile, options: WeaknessOptions = {}): Weaknesses {
  const reasons: Record<string, string> = {};
  const lowest = COMPONENT_KEYS
    .map((key, i) => ({ key, i, value: profile[key] }))
    .filter((m): m is { key: LowMetric["key"]; i: number; value: number } => m.value !== null && m.value < 1 - 1e-12)
    .sort((a, b) => a.value - b.value || a.i - b.i)
    .slice(0, options.lowest ?? 3)
    .map(({ key, value }) => ({ key, value, ci: profile.ci[key] }));
  if (lowest.length === 0) {
    reasons.lowest = COMPONENT_KEYS.some((key) => profile[key] !== null)
      ? "every component metric that could be computed is 1"
      : "no component metric could be computed";
  }

  let fragile_step: FragileWeakness | null = null;
  const step = profile.decay.fragile_step;
  if (step === null) {
    reasons.fragile_step = profile.decay.reasons.fragile_step ?? profile.decay.reasons.curve ??
      "no milestone was attempted by enough episodes";
  } else {
    const named = step.label ?? stoppedAt(options.records ?? [], step);
    fragile_step = {
      t: step.t,
      label: typeof named === "string" ? named : named?.label ?? null,
      label_share: typeof named === "string" || named === null ? null : { named: named.named, of: named.of },
      hazard: step.hazard,
      ci: step.ci,
      at_risk: step.at_risk,
      condition: step.condition,
    };
  }

  let violation: ViolationWeakness | null = null;
  const counts = profile.operational.violation_count;
  if (counts === null) reasons.violation = profile.reasons.violation_count ?? "no record was analysed by a judge";
  else {
    const weight = (s: string) => SEVERITY_WEIGHTS[s as keyof typeof SEVERITY_WEIGHTS] ?? 0;
    const all = Object.entries(counts).flatMap(([constraint, bySeverity]) =>
      Object.entries(bySeverity).map(([severity, count]) => ({ constraint, severity, count }))
    ).filter((v) => v.count > 0);
    all.sort((a, b) =>
      b.count - a.count || weight(b.severity) - weight(a.severity) || compareText(a.constraint, b.constraint) ||
      compareText(a.severity, b.severity)
    );
    violation = all[0] ?? null;
    if (violation === null) reasons.violation = "no violation found in the analysed episodes";
  }
  return { lowest, fragile_step, violation, reasons };
}

// The label most often named at milestone t by the episodes of the step's condition that stopped
// there (reached t − 1 of at least t).
function stoppedAt(
  records: readonly EpisodeRecord[],
  step: { t: number; condition: string },
): { label: string; named: number; of: number } | null {
  const { t, condition } = step;
  const tally = new Map<string, number>();
  let of = 0;
  for (const r of records) {
    if (r.user_error !== undefined || r.condition !== condition || !r.milestones) continue;
    if (r.milestones.total < t || r.milestones.reached !== t - 1) continue;
    const label = (r.milestone_labels ?? r.milestone_tools)?.[t - 1];
    if (label === undefined) continue;
    of++;
    tally.set(label, (tally.get(label) ?? 0) + 1);
  }
  const best = [...tally].sort(([a, x], [b, y]) => y - x || compareText(a, b))[0];
  return best ? { label: best[0], named: best[1], of } : null;
}
