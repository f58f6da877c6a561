/**
 * Long-horizon reliability (docs/metrics.md "Long horizon"): the decay curve of
 * milestones reached with a bootstrap band over tasks, the hazard and the
 * fragile step, the decay rate, the steady state, the mean path length of
 * failures, variance amplification and error recovery; overall, per task
 * length class and per condition.
 *
 * Where records carry ark's long-horizon fields (`length`, `dependency`, `family`,
 * `step_outcomes`), the profile adds: every group per length class × dependency kind
 * (`by_length_dependency`, keyed `"<length>/<kind>"`); in every group the completion share
 * (mean achieved / total) and the meltdown rate and onset, with intervals; the length
 * robustness `R_len` per family and dependency kind (`r_len`); the runs per length class
 * (`runs_by_length`); and R∞ only for one length class of at least 20 milestones
 * (`R_INF_MIN_LENGTH`), never for a group that pools lengths. Completion share and meltdown are
 * taken over the long-horizon records only (those with a `length`), and α is fitted on `missed`,
 * which ark writes for those alone. Records without those fields give the profile they always gave.
 *
 * Within one length class the curve is exactly docs/metrics.md's fraction of episodes
 * with `reached ≥ t`. Where classes are mixed (the overall and per-condition
 * views) it is the product of `1 − h(t)` over the episodes still at risk, so the
 * end of a shorter class is not read as failures (a perfect agent stays at 1).
 *
 * The fragile step is per condition, never pooled: a group that mixes conditions
 * (overall, each length class) takes it from its nominal records.
 *
 * @module
 */
import type { EpisodeRecord } from "./record.ts";
import { type Unit, units } from "./_stats.ts";
import { bootstrapOptions } from "./_fit.ts";
import { type Group, layout } from "./_decay_cells.ts";
import { taskRows } from "./_decay_rows.ts";
import { emptyGroup, summarize } from "./_decay_figures.ts";
import { fingerprints, pointEstimates, resampleGroups } from "./_decay_resample.ts";
import type { DrawCache, ScoringContext } from "./_draws.ts";
import { LONG_NAMES, longFigures } from "./_decay_long.ts";
import { lengthRobustness, runsByLength } from "./_decay_length.ts";
import type { DecayGroup, LengthRobustness, LengthRuns } from "./_decay_types.ts";

// The steps, in the order decayProfile() takes them: lay the records out as cells (milestone total ×
// condition) and groups in one accumulator vector (_decay_cells), turn each task into a sparse row of
// that vector with its variance amplification (_decay_rows, _decay_alpha), add the rows up for the
// point estimate and for every resample, and read back each group's survivors and decay curve
// (_decay_curve), hazard (_decay_hazard) and fragile step (_decay_fragile); then fit λ and R∞ and
// summarize each group's figures with their intervals and the reason for each null (_decay_figures).
export { MIN_AT_RISK } from "./_decay_fragile.ts";
export { MELTDOWN_RUN, meltdownStep } from "./_decay_long.ts";

export type {
  CurvePoint,
  DecayGroup,
  FragileStep,
  HazardPoint,
  HeadlineName,
  LengthRobustness,
  LengthRuns,
  LongHeadlineName,
  SteadyState,
} from "./_decay_types.ts";

/** R∞ is reported only for length classes of at least this many milestones (docs/metrics.md "Steady state"). */
export const R_INF_MIN_LENGTH = 20;
export { wilsonInterval } from "./_decay_hazard.ts";

/** Options of `decayProfile()`. */
export interface DecayOptions {
  /**
   * Seed of the bootstrap.
   * @default {"0"}
   */
  seed?: string;
  /**
   * Bootstrap resamples of task ids; 0 leaves the bands and intervals `null`.
   * @default {1000}
   */
  resamples?: number;
}

/** The decay figures overall, per task length class (milestone total) and per condition. */
export interface DecayProfile extends DecayGroup {
  /** By milestone total. */
  by_length: Record<string, DecayGroup>;
  /** By condition. */
  by_condition: Record<string, DecayGroup>;
  /**
   * By length class × dependency kind, keyed `"<milestone total>/<strong|weak>"`.
   * @default {absent: no record has a dependency}
   */
  by_length_dependency?: Record<string, DecayGroup>;
  /**
   * Episodes, tasks and runs per task of each length class: of the records with a `length` (the
   * long-horizon tasks), or by milestone total when none has one.
   * @default {absent: no record carries the long-horizon fields}
   */
  runs_by_length?: Record<string, LengthRuns>;
  /**
   * `R_len` by family, then dependency kind (`"any"` for records without one); null, with the
   * reason in `reasons.r_len`, when no record has a family.
   * @default {absent: no record carries the long-horizon fields}
   */
  r_len?: Record<string, Record<string, LengthRobustness>> | null;
}

/**
 * The decay profile of the records that carry `milestones` (others are ignored).
 *
 * The bootstrap resamples task ids with replacement, so all runs of a task
 * (every agent, every condition) move together, and one resample serves every
 * group, so the groups' bands are jointly consistent; a percentile interval
 * skips the resamples where its figure is undefined (as for a group none of
 * whose tasks was drawn). Variance amplification is fitted within tasks, i.e.
 * one agent's runs of one task id: `V_t` is the sample variance of `m_t` (the
 * records' `missed`) over its runs, and α and β are the least-squares fit of
 * `V_{t+1} = (1 + α)·V_t + β` over every (task, t) pair of the group. The same
 * records and seed give the same digits in any record order.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { decayProfile } from "./decay.ts";
 * const r = (task: string, run: number, reached: number) =>
 *   ({ agent: "a", task, run, condition: "nominal" as const, success: reached === 2, milestones: { total: 2, reached } });
 * const p = decayProfile([r("t/0", 0, 2), r("t/0", 1, 1), r("t/1", 0, 0), r("t/1", 1, 2)], { resamples: 100 });
 * assertEquals(p.curve.map((c) => c.R), [1, 0.75, 0.5]); // [4/4, 3/4, 2/4]
 * ```
 */
export function decayProfile(records: readonly EpisodeRecord[], options: DecayOptions = {}): DecayProfile {
  return decayWith(records, options);
}

/**
 * `decayProfile()` sharing its draws through `context` when given (see `scoreViews()`), and taking
 * `units` as `units(records)` when given. Not re-exported by mod.ts.
 */
export function decayWith(
  records: readonly EpisodeRecord[],
  options: DecayOptions & { units?: readonly Unit[] },
  context?: ScoringContext,
): DecayProfile {
  const { seed, resamples } = bootstrapOptions(options, "the decay curve");
  const kept = records.filter((r) => r.milestones !== undefined);
  if (kept.length === 0) return { ...emptyGroup("no record has milestones"), by_length: {}, by_condition: {} };
  const { groups, size, cellOf } = layout(kept);
  // The records grouped by the caller are these when every one has milestones.
  const tasks = options.units !== undefined && kept.length === records.length ? options.units : units(kept);
  const rows = taskRows(tasks, groups, cellOf);
  const acc = new Float64Array(size);
  const points = pointEstimates(groups, rows, acc);
  const long = kept.some((r) =>
    r.length !== undefined || r.dependency !== undefined || r.family !== undefined || r.step_outcomes !== undefined
  );
  // R∞'s draws only where its interval is kept: steadyStateRule() drops it from the other groups.
  const fitted = groups.map((g) => !long || steadyStateWhy(g) === null);
  const prints = context === undefined
    ? undefined
    : fingerprints(tasks, groups, { cellOf, ids: context.ids, seed, resamples, clusters: rows.clusters, fitted });
  const boots = resampleGroups(groups, rows, { acc, seed, resamples, fitted, context, prints });
  const cache = context?.draws;
  const summary = (k: number) => {
    const plain = summarize(groups[k], points[k], boots[k], resamples);
    return long ? extend(steadyStateRule(plain, groups[k]), groups[k], { seed, resamples, cache }) : plain;
  };
  const keyed = (prefix: string) =>
    Object.fromEntries(
      groups.flatMap((g, k) => g.key.startsWith(prefix) ? [[g.key.slice(prefix.length), summary(k)]] : []),
    );
  const profile: DecayProfile = { ...summary(0), by_length: keyed("length/"), by_condition: keyed("condition/") };
  if (kept.some((r) => r.dependency !== undefined)) profile.by_length_dependency = keyed("ld/");
  if (!long) return profile;
  profile.runs_by_length = runsByLength(kept);
  profile.r_len = lengthRobustness(kept, { seed, resamples, cache });
  if (profile.r_len === null) profile.reasons = { ...profile.reasons, r_len: "no record has a family" };
  return profile;
}

// A group's figures with the long-horizon ones added, over its long-horizon tasks' records only
// (those with a `length`): completion share and meltdown are never pooled with short tasks.
function extend(
  group: DecayGroup,
  g: Group,
  options: { seed: string; resamples: number; cache?: DrawCache },
): DecayGroup {
  const records = g.cells.flatMap((c) => c.records).filter((r) => r.length !== undefined);
  const { ci, reasons, ...figures } = group;
  const more = longFigures(records, { ...options, seed: `${options.seed}\u001f${g.key}` });
  if (records.length === 0) {
    for (const name of LONG_NAMES) more.reasons[name] = "no long-horizon task (a record with a length) in the group";
  }
  return {
    ...figures,
    completion_share: more.completion_share,
    meltdown_rate: more.meltdown_rate,
    meltdown_onset: more.meltdown_onset,
    ci: { ...ci, ...more.ci },
    reasons: { ...reasons, ...more.reasons },
  };
}

// R∞ only for one length class of at least R_INF_MIN_LENGTH milestones: never for a group that
// pools lengths (a mixed curve has no one steady state), nor for a short class.
function steadyStateRule(out: DecayGroup, g: Group): DecayGroup {
  if (out.r_inf === null && out.reasons.r_inf !== undefined) return out;
  const why = steadyStateWhy(g);
  if (why === null) return out;
  out.r_inf = null;
  out.ci.r_inf = null;
  delete out.reasons["ci.r_inf"];
  delete out.reasons["r_inf.lambda"];
  out.reasons.r_inf = why;
  return out;
}

// Why a group of long-horizon records reports no R∞, or null when it does.
function steadyStateWhy(g: Group): string | null {
  const lengths = new Set(g.cells.map((c) => c.total));
  return lengths.size > 1
    ? `reported for one length class only, never for a group that pools lengths (this one has ${lengths.size})`
    : g.maxT < R_INF_MIN_LENGTH
    ? `reported for length classes of at least ${R_INF_MIN_LENGTH} milestones only (this one has ${g.maxT})`
    : null;
}
