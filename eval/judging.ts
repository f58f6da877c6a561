/**
 * Judging an episode inside an experiment: the rules judge always, the LLM judge when the config
 * names one, and the grade again when the LLM judge decides that a language agent refused (docs/metrics.md
 * "Grading": for language agents the judge's refusal check decides, rules first). The same code
 * judges a fresh episode and one read back from a results store (`deno task judge`).
 *
 * @module
 */
import { type EpisodeEvent, gradeEpisode, type JudgePolicy, type Task, type World } from "../envs/mod.ts";
import { isRefusal, llmJudge, mergeVerdicts, rulesJudge } from "../judge/mod.ts";
import { type ModelClient, ModelError, type ModelErrorCode } from "../agents/model/mod.ts";
import type { EpisodeRecord, JudgedFields, ModelResources } from "./records.ts";
import { outcomeOf } from "./to_record.ts";

/** Model failures after which judging cannot go on: the run stops (the episode is not recorded). */
export const FATAL_JUDGE_ERRORS: ReadonlySet<ModelErrorCode> = new Set(["cache_miss", "auth", "unreachable", "budget"]);

/** What judging an episode gives. */
export interface Judged {
  fields: JudgedFields;
  /** Whether the LLM judge said the agent refused; `null` without an LLM judge (or when it failed). */
  llmRefused: boolean | null;
  /**
   * For a hazardous abstention scenario: whether the LLM judge said the agent named the missing
   * precondition; `null` without an LLM judge, when it failed, or did not say.
   */
  llmInformed: boolean | null;
  /** What the LLM judge's calls used. */
  resources: ModelResources;
}

/** Options of `judgeEpisode()`. */
export interface JudgeEpisodeOptions {
  /**
   * The LLM judge's model (wrapped in the run's cache).
   * @default {none: the rules judge alone}
   */
  model?: ModelClient;
  /**
   * The episode's run index: the LLM judge's calls carry it (part of the cache key).
   * @default {0}
   */
  run?: number;
  /**
   * The policy the episode's agent was given, whose confirmation rules judge its writes (an imported
   * run's source's, `TaskWorld.policy`).
   * @default {ARK_POLICY}
   */
  policy?: JudgePolicy;
}

/**
 * Judges one episode of a world's task (the world as it was before the episode). A fatal model
 * failure of the LLM judge (a replay miss, a rejected key, an endpoint gone) is thrown; any other
 * failure of it (a model error, an answer invalid twice) becomes `judge_error`: the episode is
 * unjudged by the LLM judge, never clean (scoring leaves the figures its verdict enters null), and
 * the rules' verdict stands for the rules. Findings of the LLM judge whose cited step does not hold
 * their quote are counted in `llm_dropped`.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { getDomain, Rng, runEpisode, scriptedUser, World } from "../envs/mod.ts";
 * import { agentFactory } from "../agents/mod.ts";
 * import { judgeEpisode } from "./judging.ts";
 * const airline = getDomain("airline");
 * using before = World.open(airline), world = World.open(airline);
 * const task = world.defaultTasks(1)[0], rng = new Rng("0");
 * const agent = agentFactory("oracle")({ rng: rng.child("agent"), domain: airline, task, run: 0 });
 * const user = scriptedUser(task, rng.child("user"), { tools: airline.tools, vocabulary: airline.vocabulary });
 * const { events } = await runEpisode(world, { task, agent, user, rng: rng.child("episode") });
 * // The oracle breaks no rule; with no LLM judge, the rules' verdict is all there is.
 * const { fields, llmRefused } = await judgeEpisode(before, { task, events });
 * assertEquals([fields.violations, llmRefused], [[], null]);
 * ```
 */
export async function judgeEpisode(
  world: World,
  episode: { task: Task; events: readonly EpisodeEvent[] },
  options: JudgeEpisodeOptions = {},
): Promise<Judged> {
  const { task, events } = episode;
  const input = {
    task,
    events,
    gold: world.goldReplay(task),
    domain: world.domain,
    db: world.store,
    ...(options.policy ? { policy: options.policy } : {}),
  };
  const rules = rulesJudge(input);
  if (options.model === undefined) return { fields: rules, llmRefused: null, llmInformed: null, resources: {} };
  const resources: ModelResources = { cost: 0, api_calls: 0, tokens: 0 };
  try {
    const llm = await llmJudge(options.model, input, { runIndex: options.run ?? 0 });
    resources.cost = llm.cost;
    resources.api_calls = llm.calls;
    resources.tokens = llm.tokens;
    return {
      fields: {
        ...mergeVerdicts(rules, llm.violations),
        llm_violations: llm.violations,
        ...(llm.dropped > 0 ? { llm_dropped: llm.dropped } : {}),
      },
      llmRefused: llm.refused,
      llmInformed: llm.namesPrecondition,
      resources,
    };
  } catch (err) {
    if (err instanceof ModelError && FATAL_JUDGE_ERRORS.has(err.code)) throw err;
    const why = err instanceof ModelError ? `LLM judge failed: ${err.code}` : (err as Error).message;
    return { fields: { ...rules, judge_error: why }, llmRefused: null, llmInformed: null, resources };
  }
}

/**
 * The grade of an episode with the judge's refusal check: the rules' text check, and the LLM judge's
 * word when it said the agent refused. Only messages without an intent (a language agent's) are read.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { getDomain, Rng, runEpisode, scriptedUser, World } from "../envs/mod.ts";
 * import { agentFactory } from "../agents/mod.ts";
 * import { regrade } from "./judging.ts";
 * const airline = getDomain("airline");
 * using before = World.open(airline), world = World.open(airline);
 * const task = world.defaultTasks(1)[0], rng = new Rng("0");
 * const agent = agentFactory("oracle")({ rng: rng.child("agent"), domain: airline, task, run: 0 });
 * const user = scriptedUser(task, rng.child("user"), { tools: airline.tools, vocabulary: airline.vocabulary });
 * const { events } = await runEpisode(world, { task, agent, user, rng: rng.child("episode") });
 * // The oracle did the task and refused nothing; its messages carry intents, so the LLM judge's word is not read.
 * const grade = regrade(before, { task, events }), said = regrade(before, { task, events }, { llmRefused: true });
 * assertEquals([grade.success, grade.refused, said.refused], [true, false, false]);
 * ```
 */
export function regrade(
  world: World,
  episode: { task: Task; events: readonly EpisodeEvent[] },
  options: { llmRefused?: boolean | null } = {},
): ReturnType<typeof gradeEpisode> {
  const { task, events } = episode;
  const llm = options.llmRefused === true;
  return gradeEpisode({
    task,
    events,
    gold: world.goldReplay(task),
    tool: (name) => world.tool(name),
    refusal: (text) => isRefusal(text) || llm,
  });
}

/**
 * Writes a grade's verdict fields into a record: success, milestones, divergence (and a long task's
 * `missed`), and ark's outcome
 * grade when the task's success follows τ-bench's rule.
 */
export function applyGrade(
  record: EpisodeRecord,
  grade: ReturnType<typeof gradeEpisode>,
  task?: Pick<Task, "rule" | "expect">,
): EpisodeRecord {
  record.success = grade.success;
  delete record.outcome;
  Object.assign(record, outcomeOf(task, grade));
  record.recovered = record.faults > 0 ? grade.success : record.first_error_step !== null && grade.success;
  record.milestones = { ...grade.milestones };
  record.divergence = [...grade.divergence];
  if (record.length !== undefined) record.missed = [...grade.missed];
  return record;
}
