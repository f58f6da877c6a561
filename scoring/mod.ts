/**
 * Scoring: the reliability profile of episode records (docs/metrics.md), from
 * records produced by anyone. `scoreRecords()` gives one profile per group with
 * bootstrap intervals, `scoreViews()` every view a report shows (overall, per condition, per
 * domain, per category) in one pass; the per-dimension functions score a set of records directly.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { scoreRecords } from "./mod.ts";
 * const r = (run: number, success: boolean) =>
 *   ({ agent: "a", task: "t/1", run, condition: "nominal" as const, success });
 * assertEquals(scoreRecords([r(0, true), r(1, true)], { resamples: 10 }).a.C_out, 1);
 * ```
 *
 * @module
 */
export {
  type AbstentionOutcome,
  type EpisodeRecord,
  type Harm,
  type Milestones,
  type ModelResources,
  recordDomain,
  type Resources,
  SEVERITY_WEIGHTS,
  taskDomain,
  type Violation,
} from "./record.ts";
export { EpisodeRecordSchema } from "./record_schema.ts";
export {
  DEPENDENCIES,
  type Dependency,
  type Gap,
  GAPS,
  TASK_CATEGORIES,
  type TaskCategory,
} from "../vocabulary/mod.ts";
export {
  consistency,
  type ConsistencyScores,
  cOutTerm,
  cResTerm,
  rCon,
  RESOURCE_KEYS,
  type RunResources,
  trajectoryTerms,
} from "./consistency.ts";
export { EPSILON, robustness, robustnessRatio, type RobustnessScores, rRob, type Tally } from "./robustness.ts";
export {
  BIN_EDGES,
  calibrationBin,
  type ConfidenceColumns,
  eceFromBins,
  predictability,
  type PredictabilityScores,
  rankConfidences,
  type RankedConfidences,
  weightedAuroc,
} from "./predictability.ts";
export {
  type ConstraintSafety,
  type ExceedancePoint,
  isUnjudged,
  recordHarm,
  safety,
  safetyFromTally,
  type SafetyProfile,
  safetyProfile,
  type SafetyProfileOptions,
  type SafetyScores,
  type SafetyTally,
  unjudgedReason,
  worstWeight,
} from "./safety.ts";
export {
  AGREEMENT_REASONS,
  agreementOf,
  type AgreementOptions,
  type ConstraintAgreement,
  type JudgeAgreement,
  judgeAgreement,
} from "./agreement.ts";
export {
  capability,
  type CapabilityScores,
  operational,
  type OperationalFigures,
  passAtKTerm,
  passHatKTerm,
  type RunCounts,
} from "./capability.ts";
export { bootstrap, type BootstrapOptions, percentileInterval, type PercentileOptions } from "./bootstrap.ts";
export { HEADLINE_KEYS, type HeadlineKey, LOWER_IS_BETTER, METRIC_KEYS } from "./keys.ts";
export {
  buildTable,
  figureKeys,
  type FigureOptions,
  tableFigures,
  type TableOptions,
  tablePassAtK,
  type TaskTable,
} from "./task_table.ts";
export {
  domainOf,
  type GroupBy,
  type HeadlineScores,
  headlineScores,
  type Interval,
  type Profile,
  type ResolvedScoreOptions,
  resolveScoreOptions,
  type ScoreOptions,
  scoreRecords,
} from "./profile.ts";
export { type ScoredViews, scoreViews, type ViewOptions } from "./views.ts";
export {
  type CurvePoint,
  type DecayGroup,
  type DecayOptions,
  type DecayProfile,
  decayProfile,
  type FragileStep,
  type HazardPoint,
  type HeadlineName,
  type LengthRobustness,
  type LengthRuns,
  type LongHeadlineName,
  MELTDOWN_RUN,
  meltdownStep,
  MIN_AT_RISK,
  R_INF_MIN_LENGTH,
  type SteadyState,
  wilsonInterval,
} from "./decay.ts";
export {
  type AbstentionOptions,
  type AbstentionProfile,
  abstentionProfile,
  type AbstentionRates,
  isBlock,
  isInformed,
  namesMissing,
  unsafeViolation,
} from "./abstention.ts";
export { type CategoryOptions, type CategoryRow, categoryTable } from "./categories.ts";
export { type Misread, MISREAD_LIMIT, misreadWarning, misreadWarnings, userMisread } from "./misread.ts";
