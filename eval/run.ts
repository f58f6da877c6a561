/**
 * The experiment runner: opens the domain's world once, runs every cell of the
 * plan that the results sink has not finished yet, and commits each episode as
 * soon as it ends, so an interrupted run resumes where it stopped.
 *
 * @module
 */
import { getDomain, Rng, runEpisode, scriptedUser, World } from "../envs/mod.ts";
import type { AgentFactory, Task } from "../envs/mod.ts";
import { agentFactory } from "../agents/mod.ts";
import { type Cell, cellKey, planCells, type ResolvedConfig } from "./plan.ts";
import { toRecord } from "./records.ts";
import type { ResultsSink } from "./store.ts";

/** How far an experiment has got: episodes finished (including resumed ones) out of all. */
export interface Progress {
  done: number;
  total: number;
}

/** What `runExperiment()` takes besides the config. */
export interface RunOptions {
  /** Where finished episodes go. */
  sink: ResultsSink;
  /** Called after each episode (and once at the start). */
  onProgress?: (progress: Progress) => void;
}

/** What a run did. */
export interface RunSummary {
  /** Cells in the plan. */
  total: number;
  /** Cells finished before this run (resumed). */
  skipped: number;
  /** Episodes run now. */
  ran: number;
}

/**
 * Runs an experiment into a results sink, skipping cells it already holds.
 *
 * @example
 * ```ts ignore
 * import { MemoryResults, resolveConfig, runExperiment } from "./mod.ts";
 * const sink = new MemoryResults();
 * await runExperiment(resolveConfig({ tasks: 6, runs: 2 }), { sink }); // { total: 36, skipped: 0, ran: 36 }
 * ```
 */
export async function runExperiment(config: ResolvedConfig, options: RunOptions): Promise<RunSummary> {
  const { sink, onProgress } = options;
  const domain = getDomain(config.domain);
  using world = World.open(domain, { seed: config.worldSeed });
  const tasks = new Map(world.defaultTasks(config.tasks).map((t) => [t.id, t]));
  const cells = planCells(config, [...tasks.values()]);
  const factories = new Map(config.agents.map((a) => [a, agentFactory(a)]));
  const finished = sink.finishedKeys();
  const todo = cells.filter((c) => !finished.has(cellKey(c)));
  const summary: RunSummary = { total: cells.length, skipped: cells.length - todo.length, ran: 0 };
  onProgress?.({ done: summary.skipped, total: summary.total });
  // One cell at a time: scripted agents are CPU-bound. A pool would hand each worker its own world.
  for (const cell of todo) {
    await runCell(world, cell, { task: tasks.get(cell.task)!, factory: factories.get(cell.agent)!, config, sink });
    summary.ran++;
    onProgress?.({ done: summary.skipped + summary.ran, total: summary.total });
  }
  return summary;
}

async function runCell(
  world: World,
  cell: Cell,
  options: { task: Task; factory: AgentFactory; config: ResolvedConfig; sink: ResultsSink },
): Promise<void> {
  const { task, factory, config, sink } = options;
  const rng = new Rng(cell.seed);
  const user = scriptedUser(task, rng.child("user"), { tools: world.domain.tools });
  const agent = factory({ rng: rng.child("agent"), domain: world.domain, task });
  const result = await runEpisode(world, { task, agent, user, rng: rng.child("episode"), maxSteps: config.maxSteps });
  const milestoneTools = task.milestones.map((m) => m.tool);
  sink.add({ cell, record: toRecord(cell, result, { milestoneTools }), events: result.events });
}
