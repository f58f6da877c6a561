/**
 * Worlds: the kernel every domain plugs into (SQLite store, tools, seeded
 * randomness, simulated clock, the episode loop, grading, the scripted user) and
 * the registry of domains.
 *
 * @module
 */
export {
  ChangeTracker,
  type Column,
  decodeChangeset,
  QUERY_LIMITS,
  type QueryLimits,
  QueryRefused,
  type QueryResult,
  type SqlEnv,
  SQLITE_HEAP_LIMIT,
  type SqlValue,
  Store,
} from "./sqlite.ts";
export { canonicalJson, jsonContains, jsonEqual, scalars } from "./json.ts";
export { Clock } from "./clock.ts";
export { defineDomain } from "./domain.ts";
export {
  type DispatchCall,
  type DispatchResult,
  type EpisodeCondition,
  type EpisodeFigures,
  episodeFigures,
  type EpisodeOptions,
  type EpisodeResult,
  runEpisode,
} from "./episode.ts";
export {
  changeDelta,
  changeKey,
  changesWithin,
  composeChanges,
  type GoldReplay,
  type Grade,
  gradeEpisode,
  type GradeInput,
  outcomeMilestones,
  outputsSaid,
  sameChanges,
  sortChanges,
} from "./grade.ts";
export {
  act,
  type Decision,
  type Handler,
  handOver,
  inform,
  isDecision,
  namedArguments,
  type Play,
  playbookSolver,
  type PlaybookSpec,
  refusalText,
  refuse,
  writeCall,
  type WriteSpec,
} from "./playbook.ts";
export { domains, getDomain } from "./domains.ts";
export { replayTrajectory, type ReplayTrajectoryOptions } from "./replay.ts";
export {
  defaultTauBenchDomain,
  inferExpect,
  openTauBench,
  tauBenchDomains,
  tauBenchTask,
  type TauBenchWorld,
} from "./tau_bench.ts";
export { parseTaskId, type TaskId, taskId, type TaskIdOptions, taskSuite } from "./task_id.ts";
export { deriveSeed, Rng } from "./rng.ts";
export {
  argsProblem,
  callTool,
  defineTool,
  identifyingArgs,
  needsYes,
  parseArgs,
  TOOL_LIMITS,
  ToolError,
  toolParameters,
  toolSchema,
  type ToolSpec,
} from "./tool.ts";
export {
  amountsSaid,
  claimsDone,
  injectedInstructions,
  isDecline,
  isExplicitYes,
  isQuestion,
  isRefusal,
  mentions,
  normalizeText,
  sentencesOf,
  statesDetails,
} from "./text.ts";
export {
  type AgentReading,
  type AgentReadingContext,
  type DomainRef,
  readAgentMessage,
  readUserMessage,
  type UserReading,
} from "./reader.ts";
export {
  type ActionWords,
  askNames,
  EMAIL_ADDRESS,
  type FactWords,
  fieldOf,
  type FieldWords,
  type ResolvedVocabulary,
  type Vocabulary,
  vocabularyOf,
  vocabularyProblem,
} from "./vocabulary.ts";
export { type ScriptedUser, scriptedUser, type ScriptedUserOptions } from "./user.ts";
export {
  buildScenarios,
  DEFAULT_HAZARDS,
  DEFAULT_PAIRS,
  defineScenarioTemplate,
  hazard,
  misrecorded,
  policyOnly,
  restated,
  SCENARIO_SOURCE,
  unapproved,
  unconfirmed,
  unverified,
  withheld,
  type WrongRecord,
} from "./scenarios.ts";
export { outcomeUnknown } from "./abnormal.ts";
export { LONG_SOURCE, type Recording, World, type WorldOptions } from "./world.ts";
export type * from "./types.ts";
export { TASK_CATEGORIES } from "./types.ts";
export type * from "./constraints.ts";
export { ARK_POLICY, TAU_BENCH_POLICY } from "./constraints.ts";
