/**
 * Experiments: the config and plan (agent × task × run cells with child seeds),
 * the runner, the results store (SQLite, resumable) and its in-memory fake,
 * episode records as JSON Lines, and the capability report (accuracy, pass^k).
 *
 * @example
 * ```ts ignore
 * import { MemoryResults, resolveConfig, runExperiment, summarize, formatReport } from "./mod.ts";
 * const sink = new MemoryResults();
 * await runExperiment(resolveConfig({ tasks: 6, runs: 2 }), { sink });
 * console.log(formatReport(summarize(sink.records())));
 * ```
 *
 * @module
 */
export {
  type Cell,
  type CellKey,
  cellKey,
  compareCells,
  type Condition,
  configIdentity,
  DEFAULT_AGENTS,
  type ExperimentConfig,
  planCells,
  resolveConfig,
  type ResolvedConfig,
  taskIndex,
} from "./plan.ts";
export {
  type EpisodeRecord,
  recordLine,
  recordsJsonl,
  type Resources,
  sortRecords,
  toRecord,
  type Violation,
  writeRecordsJsonl,
} from "./records.ts";
export { type AgentSummary, formatReport, passHatK, summarize, type SummarizeOptions } from "./report.ts";
export { type Progress, runExperiment, type RunOptions, type RunSummary } from "./run.ts";
export {
  ARK_VERSION,
  type FinishedEpisode,
  MemoryResults,
  type ResultsSink,
  ResultsStore,
  ResultsStoreError,
} from "./store.ts";
