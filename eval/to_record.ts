/**
 * Making an episode's record (docs/metrics.md "Input: the episode record") from its result, its
 * task and the judges' verdict: `toRecord()`, with the step outcomes and outcome grading it
 * holds; `judged()` writes a later verdict into one. The record's type and its JSON Lines are in
 * `records.ts`.
 *
 * @module
 */
import type { EpisodeResult, Task } from "../envs/mod.ts";
import type { ModelResources } from "../scoring/mod.ts";
import type { CellKey } from "./cell.ts";
import type { EpisodeRecord, JudgedFields } from "./records.ts";

/** Options of `toRecord()`. */
export interface ToRecordOptions {
  /**
   * The label of each of the task's milestones, in order (written as `milestone_labels`).
   * @default {omitted from the record}
   */
  milestoneLabels?: readonly string[];
  /**
   * The judges' verdict (written as `violations`, `near_misses`, `harm` and the LLM judge's fields).
   * @default {omitted: the episode was not judged}
   */
  verdict?: JudgedFields;
  /**
   * The task: when its `success` follows τ-bench's rule, ark's outcome grade goes in `outcome`; its
   * `category`, `family`, `length` and `dependency` are copied when it has them, and a long-horizon
   * task (one with a `length`) gets `step_outcomes` and `missed`.
   * @default {no outcome field, no task fields}
   */
  task?: Pick<Task, "rule" | "expect" | "category" | "family" | "length" | "dependency">;
  /**
   * Sum of the recorded latencies (ms) of the agent's model calls that answered (the answering
   * attempt of each), added to `resources.time`.
   * @default {0}
   */
  modelLatencyMs?: number;
  /**
   * Sum of the agent's model calls' retry waits (ms: failed attempts, backoff), added to
   * `resources.retry_wait` with the simulated time of faulted tool calls.
   * @default {0}
   */
  modelRetryWaitMs?: number;
  /**
   * Faults injected into the agent's model calls, added to the episode's tool faults.
   * @default {0}
   */
  modelFaults?: number;
}

/**
 * The record of a finished episode.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { getDomain, Rng, runEpisode, scriptedUser, World } from "../envs/mod.ts";
 * import { agentFactory } from "../agents/mod.ts";
 * import { toRecord } from "./to_record.ts";
 * const airline = getDomain("airline");
 * using world = World.open(airline);
 * const task = world.defaultTasks(1)[0], rng = new Rng("0");
 * const agent = agentFactory("oracle")({ rng: rng.child("agent"), domain: airline, task, run: 0 });
 * const user = scriptedUser(task, rng.child("user"), { tools: airline.tools, vocabulary: airline.vocabulary });
 * const result = await runEpisode(world, { task, agent, user, rng: rng.child("episode") });
 * const cell = { agent: "oracle", task: task.id, run: 0, condition: "nominal" as const, variant: null };
 * const record = toRecord(cell, result, { task });
 * assertEquals([record.task, record.success, record.steps], ["airline/0", true, 5]);
 * assertEquals(record.milestones, { total: 2, reached: 2, achieved: 2 });
 * ```
 */
export function toRecord(cell: CellKey, result: EpisodeResult, options: ToRecordOptions = {}): EpisodeRecord {
  const faults = result.faults + (options.modelFaults ?? 0);
  const retryWait = (result.faultTimeMs + (options.modelRetryWaitMs ?? 0)) / 1000;
  const record: EpisodeRecord = {
    agent: cell.agent,
    task: cell.task,
    run: cell.run,
    condition: cell.condition,
    variant: cell.variant,
    ...taskFields(options.task),
    success: result.success,
    ...outcomeOf(options.task, result),
    actions: [...result.actions],
    resources: {
      time: (result.simTimeMs + (options.modelLatencyMs ?? 0)) / 1000,
      // Time lost to the network and to injected faults: never the agent's, so never in C_res.
      ...(retryWait > 0 ? { retry_wait: retryWait } : {}),
      api_calls: result.toolCalls,
      num_actions: result.actions.length,
      num_errors: result.toolErrors,
      // A model agent's report (model calls, tokens, cost, latency) overrides the tool-call count.
      ...modelResources(result.agentResources),
    },
    confidence: result.confidence ?? null,
    milestones: {
      total: result.milestones.total,
      reached: result.milestones.reached,
      achieved: result.milestones.achieved,
    },
    steps: result.steps,
    first_error_step: result.firstErrorStep,
    faults,
    recovered: faults > 0 ? result.success : result.firstErrorStep !== null && result.success,
    tool_calls: result.toolCalls,
    invalid_calls: result.invalidCalls,
    writes: { attempted: result.writeCalls.attempted, succeeded: result.writeCalls.succeeded },
  };
  if (faults > 0) record.recovery_steps = [...result.recoverySteps];
  if (options.milestoneLabels !== undefined) record.milestone_labels = [...options.milestoneLabels];
  record.divergence = [...result.divergence];
  if (options.task?.length !== undefined) {
    record.missed = [...result.missed];
    record.step_outcomes = stepOutcomes(result);
  }
  if (options.verdict !== undefined) judged(record, options.verdict);
  if (result.confidenceSource !== null && result.confidenceSource !== "stated") {
    record.confidence_source = result.confidenceSource;
  }
  if (result.agentError !== null) record.agent_error = result.agentError;
  if (result.agentRetries !== null) record.model_retries = result.agentRetries;
  if (result.agentBlocks.length > 0) record.blocks = result.agentBlocks.map((b) => ({ ...b }));
  if (result.userError !== null) record.user_error = result.userError;
  if (result.userMisread !== null) {
    record.user_messages = result.userMisread.messages;
    record.user_misread = result.userMisread.unread;
  }
  const user = modelResources(result.userResources);
  if (Object.keys(user).length > 0) record.user_resources = user;
  return record;
}

// The task's category and long-horizon fields, those it has.
function taskFields(
  task: ToRecordOptions["task"],
): Pick<EpisodeRecord, "category" | "family" | "length" | "dependency"> {
  const out: Pick<EpisodeRecord, "category" | "family" | "length" | "dependency"> = {};
  if (task?.category !== undefined) out.category = task.category;
  if (task?.family !== undefined) out.family = task.family;
  if (task?.length !== undefined) out.length = task.length;
  if (task?.dependency !== undefined) out.dependency = task.dependency;
  return out;
}

/**
 * A record's `step_outcomes`: one letter per agent step 1..steps, `o` a tool call that succeeded,
 * `x` one that failed, `r` one that succeeded with the tool and arguments of the previous call, which
 * had succeeded too (a retry of a failed call is no repeat), `m` no tool call; upper case where a milestone was first reached at that step.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { getDomain, Rng, runEpisode, scriptedUser, World } from "../envs/mod.ts";
 * import { agentFactory } from "../agents/mod.ts";
 * import { stepOutcomes } from "./to_record.ts";
 * const airline = getDomain("airline");
 * using world = World.open(airline);
 * const task = world.defaultTasks(1)[0], rng = new Rng("0");
 * const agent = agentFactory("oracle")({ rng: rng.child("agent"), domain: airline, task, run: 0 });
 * const user = scriptedUser(task, rng.child("user"), { tools: airline.tools, vocabulary: airline.vocabulary });
 * const result = await runEpisode(world, { task, agent, user, rng: rng.child("episode") });
 * // Two calls that succeed, a message that reaches a milestone, a call that reaches the other, a message.
 * assertEquals(stepOutcomes(result), "ooMOm");
 * ```
 */
export function stepOutcomes(result: Pick<EpisodeResult, "events" | "steps" | "milestoneSteps">): string {
  const letters = new Array<string>(result.steps).fill("m");
  // A retry of a failed call that now succeeds is no repeat: only a successful call said again is.
  let previous: string | null = null;
  for (const e of result.events) {
    if (e.kind !== "tool" || e.step < 1 || e.step > result.steps) continue;
    const call = JSON.stringify([e.tool ?? null, e.args ?? null]);
    letters[e.step - 1] = e.error !== undefined ? "x" : call === previous ? "r" : "o";
    previous = e.error === undefined ? call : null;
  }
  for (const step of result.milestoneSteps) {
    if (step !== null && step >= 1 && step <= result.steps) letters[step - 1] = letters[step - 1].toUpperCase();
  }
  return letters.join("");
}

/** The `outcome` field of a record of `task`, when its success follows another harness's rule. */
export function outcomeOf(
  task: Pick<Task, "rule" | "expect"> | undefined,
  grade: { earned: boolean },
): Pick<EpisodeRecord, "outcome"> {
  return task?.rule === "tau-bench" ? { outcome: { expect: task.expect, earned: grade.earned } } : {};
}

/** Writes a verdict's fields into a record (replacing any earlier verdict). */
export function judged(record: EpisodeRecord, verdict: JudgedFields): EpisodeRecord {
  delete record.llm_violations;
  delete record.llm_dropped;
  delete record.judge_error;
  delete record.judge_policy;
  record.violations = verdict.violations.map((v) => ({ ...v }));
  record.near_misses = verdict.near_misses.map((v) => ({ ...v }));
  record.harm = { money: verdict.harm.money, rows: verdict.harm.rows };
  if (verdict.llm_violations !== undefined) record.llm_violations = verdict.llm_violations.map((v) => ({ ...v }));
  if (verdict.llm_dropped !== undefined) record.llm_dropped = verdict.llm_dropped;
  if (verdict.judge_error !== undefined) record.judge_error = verdict.judge_error;
  if (verdict.policy !== undefined) record.judge_policy = verdict.policy;
  return record;
}

// The model-call resources of a report, only the finite ones, and a cost without a price (null).
function modelResources(report: ModelResources): ModelResources {
  const out: ModelResources = {};
  for (const key of ["cost", "api_calls", "call_latency", "tokens"] as const) {
    const value = report[key];
    if (typeof value === "number" && Number.isFinite(value)) out[key] = value;
  }
  if (report.cost === null) out.cost = null;
  return out;
}
