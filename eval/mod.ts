/**
 * Experiments: the config (flags or a JSON file) and plan (domain × agent × task ×
 * condition × variant × run cells with child seeds), the conditions (faults,
 * perturbations, paraphrases),
 * the runner (concurrent episodes, a cost budget), the language models of a run
 * behind a model cache (live or replayed) and the checks before it starts, the
 * results store (SQLite, resumable) and its in-memory fake, episode records as
 * JSON Lines, model usage, and shards. The reports and the comparison of two
 * experiments live in `report/`; other tools' formats in `interop/`.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { MemoryResults, resolveConfig, runExperiment, sortRecords } from "./mod.ts";
 * const sink = new MemoryResults();
 * const config = resolveConfig({ domains: ["airline"], agents: ["oracle"], tasks: 2, runs: 2, suite: "tasks", conditions: { fault: false, env: false, prompt: false } });
 * await runExperiment(config, { sink });
 * assertEquals(sortRecords(sink.records()).map((r) => [r.task, r.run]), [["airline/0", 0], ["airline/0", 1], ["airline/1", 0], ["airline/1", 1]]);
 * ```
 *
 * @module
 */
export {
  type Cell,
  type CellKey,
  cellKey,
  compareCells,
  LONG_TASK_MILESTONES,
  type LooseCellKey,
  planCells,
  type PlannedTask,
  runsOf,
  taskIndex,
} from "./plan.ts";
export {
  type EpisodeRecord,
  type JudgedFields,
  type ModelResources,
  recordLine,
  recordsJsonl,
  type Resources,
  sortRecords,
  type Violation,
  writeRecordsJsonl,
} from "./records.ts";
export { toRecord, type ToRecordOptions } from "./to_record.ts";
export { type AppendingSink, appendingSink } from "./records_append.ts";
export {
  REPLAY_SETTINGS,
  replayConfig,
  type ReplayConfigOptions,
  replayStorePath,
  RERUN_SETTINGS,
  rerunConfig,
  type RerunConfigOptions,
  rerunStorePath,
} from "./rerun.ts";
export { episodeCost, type Progress, runExperiment, type RunOptions, type RunSummary } from "./run.ts";
export {
  baseUrlOf,
  KEY_VARS,
  MODEL_CACHE_FILE,
  modelSpecs,
  replayCachePath,
  RunModels,
  type RunModelsOptions,
  unpricedModels,
} from "./models.ts";
export { isLoopback, preflight, PreflightError, type PreflightOptions } from "./preflight.ts";
export {
  formatDollars,
  formatUsage,
  type ModelUsage,
  summarizeUsage,
  totalCost,
  type UsageOptions,
  type UsageSummary,
} from "./usage.ts";
export {
  ARK_VERSION,
  type FinishedEpisode,
  MemoryResults,
  type ResultsSink,
  ResultsStore,
  ResultsStoreError,
} from "./store.ts";
export {
  ANTHROPIC_BASE_URL,
  checkConfig,
  type CheckOptions,
  type Condition,
  CONDITIONS,
  type ConditionsConfig,
  configIdentity,
  DEFAULT_AGENTS,
  type ExperimentConfig,
  type GivenText,
  type ImportSource,
  type ImportWorld,
  judgeSpec,
  loadConfigFile,
  mergeConfigs,
  OPENAI_BASE_URL,
  paraphraseModel,
  resolveConfig,
  type ResolvedConditions,
  type ResolvedConfig,
  scriptedTrust,
  type Suite,
  suiteParts,
  SUITES,
  userSpec,
} from "./config.ts";
export * from "./conditions/mod.ts";
export {
  cellText,
  claimShard,
  experimentCells,
  mergeModelCaches,
  type MergeOptions,
  mergeShards,
  type MergeSummary,
  parseShard,
  readShardFile,
  type Shard,
  SHARD_FILE,
  ShardError,
  shardOf,
  shardOut,
  shardText,
} from "./shard.ts";
export { type TextModeAgreement, textModeAgreement, type Verdictful } from "./text_mode.ts";
