/**
 * Worlds: the kernel every domain plugs into (SQLite store, tools, seeded
 * randomness, simulated clock, the episode loop, grading, the scripted user) and
 * the registry of domains.
 *
 * @module
 */
export { type Rows, Store } from "./sqlite.ts";
export {
  type Column,
  QUERY_LIMITS,
  type QueryLimits,
  QueryRefused,
  type QueryResult,
  type SqlEnv,
  SQLITE_HEAP_LIMIT,
  type SqlValue,
} from "./query.ts";
export { type ChangeSource, ChangeTracker, decodeChangeset, type RowChange } from "./changeset.ts";
export { canonicalJson, type Json, jsonContains, jsonEqual, scalars } from "./json.ts";
export { Clock } from "./clock.ts";
export { defineDomain, type Domain } from "./domain.ts";
export type {
  Abstained,
  Agent,
  AgentAction,
  AgentContext,
  AgentReport,
  BlockedCall,
  Observation,
  Solver,
  SolverOptions,
  ToolResult,
} from "./agent.ts";
export type { AgentFactory } from "./agent_factory.ts";
export type { Intent, Message, UserRead } from "./message.ts";
export type { UserReport, UserSimulator } from "./user_sim.ts";
export {
  type AbnormalCall,
  type Expect,
  type FurtherRequest,
  type Gap,
  type Milestone,
  type ScenarioInfo,
  type Task,
  TASK_CATEGORIES,
  type TaskCategory,
} from "./task.ts";
export type { HazardBuilder, HazardTwin, ScenarioTemplate } from "./scenario_template.ts";
export type { EpisodeEvent } from "./events.ts";
export type { TauBenchDifference, TauBenchTask } from "./tau_files.ts";
export type { Detail, WriteTerms } from "./terms.ts";
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
  type PlaybookSpec,
  refusalText,
  refuse,
  writeCall,
  type WriteSpec,
} from "./decisions.ts";
export { playbookSolver } from "./playbook.ts";
export { domains, getDomain, type GetDomainOptions } from "./domains.ts";
export { replayTrajectory, type ReplayTrajectoryOptions } from "./replay.ts";
export {
  defaultTauBenchDomain,
  inferExpect,
  openTauBench,
  tauBenchDomains,
  tauBenchTask,
  type TauBenchWorld,
} from "./tau_bench.ts";
export {
  openTau2Bench,
  tau2BenchDomains,
  type Tau2BenchTask,
  tau2BenchTask,
  type Tau2BenchWorld,
} from "./tau2_bench.ts";
export { parseTaskId, type TaskId, taskId, type TaskIdOptions, taskSuite } from "./task_id.ts";
export { deriveSeed, Rng } from "./rng.ts";
export {
  defineTool,
  identifyingArgs,
  needsYes,
  type Tool,
  type ToolCall,
  type ToolContext,
  ToolError,
  type ToolErrorCode,
  toolParameters,
  toolSchema,
  type ToolSpec,
} from "./tool.ts";
export { argsProblem, callTool, parseArgs, TOOL_LIMITS } from "./call.ts";
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
export { type DomainRef, readAgentMessage, readUserMessage } from "./reader.ts";
export type { AgentReading, AgentReadingContext, UserReading } from "./reading.ts";
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
export { LONG_SOURCE, type Recording, World, type WorldImage, type WorldOptions } from "./world.ts";
export type * from "./constraints.ts";
export { ARK_POLICY, TAU2_BENCH_POLICY, TAU_BENCH_POLICY } from "./constraints.ts";
