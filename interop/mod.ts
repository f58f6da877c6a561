/**
 * Other tools' formats: importing another harness's transcripts (τ-bench's and τ²-bench's results, ark's own JSON
 * Lines) by replaying them in ark's worlds, exporting records (CSV) and traces (OpenTelemetry),
 * exporting τ-bench gold final states, and finding τ-bench's data folder.
 *
 * @module
 */
export {
  type CallCheck,
  type ChatMessage,
  chatTranscript,
  IMPORT_NOTE,
  type ImportedEpisode,
  ImportError,
  type ImportResult,
  INSPECT_SUCCESS_RULE,
  type InspectFile,
  InspectLogError,
  type InspectRead,
  inspectTaskId,
  readArkTranscripts,
  readInspectLogs,
  readTau2BenchResults,
  readTauBenchResults,
  replayChat,
  type ReplayedChat,
  type RewardCheck,
  type RewardRecomputation,
  runImport,
  type RunImportOptions,
  type Tau2Read,
} from "./import/mod.ts";
export * from "./export/mod.ts";
export { goldDomains, goldFinalStates, type GoldOptions, type GoldTask, writeGoldStates } from "./tau_gold.ts";
export { tauBenchFolder, tauBenchRoot } from "./tau_data.ts";
