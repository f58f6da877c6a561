/**
 * The episode loop: agent ↔ tools ↔ user simulator, every event recorded, then
 * graded against the task's gold change, required outputs and milestones.
 * Its steps are envs/_episode_steps.ts; its types, re-exported here, envs/_episode_types.ts.
 *
 * @module
 */
import { type GoldReplay, gradeEpisode } from "./grade.ts";
import { AbnormalSchedule } from "./abnormal.ts";
import type { World } from "./world.ts";
import type { Observation } from "./agent.ts";
import type { EpisodeEvent } from "./events.ts";
import type { Task } from "./task.ts";
import type { EpisodeFigures, EpisodeOptions, EpisodeResult } from "./_episode_types.ts";
import {
  agentStep,
  type EpisodeReports,
  finishEpisode,
  openConversation,
  type Run,
  startAgent,
} from "./_episode_steps.ts";

export type {
  DispatchCall,
  DispatchResult,
  EpisodeCondition,
  EpisodeFigures,
  EpisodeOptions,
  EpisodeResult,
} from "./_episode_types.ts";

/**
 * Runs one episode on a world and grades it. The world is reset afterwards.
 *
 * The tools see the task's own context (`World.taskContext()`), the one its gold replay has: a
 * generator derived from the task id and a clock at the domain's `now` that the episode's
 * simulated latency does not move (latency is counted on the events and in `simTimeMs`). So a
 * correct run writes exactly the gold's rows, ids and timestamps included.
 *
 * The steps, in order: start the agent, open the conversation with the user's first message, then
 * one agent step at a time (a tool call, a message to the user, or the end) until the agent ends,
 * the user stops, a terminating tool succeeds or `maxSteps` is reached; then ask the agent and the
 * user how it went, and work out the figures from the events.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { domains } from "./domains.ts";
 * import { runEpisode } from "./episode.ts";
 * import { Rng } from "./rng.ts";
 * import { scriptedUser } from "./user.ts";
 * import { World } from "./world.ts";
 * const { airline } = domains;
 * using world = World.open(airline, { seed: "0" });
 * const [task] = world.defaultTasks(1);
 * // The domain's own careful playbook as the agent.
 * const solver = airline.solver({ confirm: true, verify: true });
 * const agent = { name: "playbook", start() {}, step: (obs: Parameters<typeof solver.next>[0]) => solver.next(obs) };
 * const rng = new Rng("0");
 * const user = scriptedUser(task, rng.child("user"), { tools: airline.tools, vocabulary: airline.vocabulary });
 * const result = await runEpisode(world, { task, agent, user, rng });
 * assertEquals(result.success, true);
 * ```
 */
export async function runEpisode(world: World, options: EpisodeOptions): Promise<EpisodeResult> {
  const asked = options.maxSteps ?? 30;
  if (!Number.isInteger(asked) || asked < 1) {
    throw new RangeError(`Cannot run an episode with maxSteps ${asked}: expected a positive integer`);
  }
  // A long task needs its own steps whatever the experiment's limit.
  const maxSteps = Math.max(asked, options.task.maxSteps ?? 0);
  const gold = world.goldReplay(options.task);
  let run: Run;
  let reports: EpisodeReports;
  {
    using recording = world.beginEpisode();
    run = {
      world,
      options,
      ctx: world.taskContext(options.task),
      recording,
      abnormal: new AbnormalSchedule(options.task),
      latency: options.rng.child("latency"),
      events: [],
      endedBy: "max_steps",
      confidence: null,
      confidenceSource: null,
      agentError: null,
    };
    await startAgent(run);
    let obs: Observation | null = await openConversation(run);
    for (let step = 1; step <= maxSteps && obs !== null; step++) obs = await agentStep(run, step, obs);
    reports = await finishEpisode(run);
  }
  return {
    ...episodeFigures(world, { task: options.task, events: run.events, gold, refusal: options.refusal }),
    ...reports,
  };
}

/**
 * The figures of an episode from its events (tool events carrying their results and changed rows):
 * the grade, the calls, invalid calls, errors and writes, the first failing step, the agent steps,
 * the simulated time and the faults. The same for an episode just run and one replayed from another
 * harness's transcript.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { domains } from "./domains.ts";
 * import { episodeFigures } from "./episode.ts";
 * import { World } from "./world.ts";
 * using world = World.open(domains.airline, { seed: "0" });
 * const [task] = world.defaultTasks(1);
 * // A trajectory of no events makes no call and meets no goal.
 * const figures = episodeFigures(world, { task, events: [] });
 * assertEquals([figures.toolCalls, figures.success], [0, false]);
 * ```
 */
export function episodeFigures(
  world: World,
  episode: {
    task: Task;
    events: readonly EpisodeEvent[];
    /** @default {world.goldReplay(task)} */
    gold?: GoldReplay;
    /** @default {no message without an intent refuses} */
    refusal?: (text: string) => boolean;
  },
): EpisodeFigures {
  const { task, events } = episode;
  const gold = episode.gold ?? world.goldReplay(task);
  const toolEvents = events.filter((e) => e.kind === "tool");
  const grade = gradeEpisode({ task, events, gold, tool: (n) => world.tool(n), refusal: episode.refusal });
  const writes = toolEvents.filter((e) => world.tool(e.tool!)?.writes);
  return {
    ...grade,
    events: [...events],
    steps: events.reduce((n, e) => e.actor === "user" ? n : Math.max(n, e.step), 0),
    actions: toolEvents.map((e) => e.tool!),
    toolCalls: toolEvents.length,
    invalidCalls: toolEvents.filter((e) => e.error?.code === "invalid_args" || e.error?.code === "unknown_tool").length,
    toolErrors: toolEvents.filter((e) => e.error).length,
    writeCalls: { attempted: writes.length, succeeded: writes.filter((e) => !e.error).length },
    firstErrorStep: toolEvents.find((e) => e.error !== undefined)?.step ?? null,
    simTimeMs: events.reduce((t, e) => e.fault ? t : t + e.latency_ms, 0),
    faultTimeMs: events.reduce((t, e) => e.fault ? t + e.latency_ms : t, 0),
    ...faultFigures(task, toolEvents),
  };
}

// Faults injected, and for each the steps to the next successful on-plan call.
function faultFigures(task: Task, toolEvents: readonly EpisodeEvent[]): { faults: number; recoverySteps: number[] } {
  const plan = new Set(task.gold.map((c) => c.name));
  const recoverySteps: number[] = [];
  let faults = 0;
  // Walked back from the end: the next successful on-plan call after each event.
  const next = new Array<EpisodeEvent | undefined>(toolEvents.length);
  for (let i = toolEvents.length - 2; i >= 0; i--) {
    const f = toolEvents[i + 1];
    next[i] = !f.error && !f.fault && plan.has(f.tool!) ? f : next[i + 1];
  }
  toolEvents.forEach((e, i) => {
    if (!e.fault) return;
    faults++;
    if (next[i]) recoverySteps.push(next[i]!.step - e.step);
  });
  return { faults, recoverySteps };
}
