/**
 * The experiment runner: runs every cell of the plan that the results sink has
 * not finished yet, up to `concurrency` at once (each in its own world), and
 * commits each episode as soon as it ends, so an interrupted run resumes where it
 * stopped; one cell's episode is `runCell()` (`cell_run.ts`). Each cell runs under its condition (`conditions/`): the runner looks its definition
 * up and calls it, the same way whatever the condition and the domain. With a cost budget it
 * starts no new episode once the model calls of the experiment (resumed episodes included)
 * have spent it, and with an abort signal none once it is aborted.
 *
 * @module
 */
import { getDomain, parseTaskId, type Task, World, type WorldImage } from "../envs/mod.ts";
import type { AgentFactory } from "../envs/mod.ts";
import type { ModelClient } from "../agents/model/mod.ts";
import { type Cell, type CellKey, cellKey, compareCells, planCells } from "./plan.ts";
import { experimentTasks } from "./worlds.ts";
import { stoppableTasks } from "./_tasks.ts";
import type { ResolvedConfig } from "./config.ts";
import { conditionModels, prepareConditions, type PreparedConditions } from "./conditions/mod.ts";
import type { EpisodeRecord } from "./records.ts";
import type { ResultsSink } from "./sink.ts";
import { runCell } from "./cell_run.ts";
import { modelSpecs } from "./models.ts";
import { runOnWorkers, WorkerPool } from "./_workers.ts";
import { MAX_WORKERS } from "./settings.ts";

export { runCell, type RunCellOptions } from "./cell_run.ts";

/** How far an experiment has got: episodes finished (including resumed ones) out of all. */
export interface Progress {
  /** Episodes finished so far, those resumed from the store included. */
  done: number;
  /** Episodes of the whole plan. */
  total: number;
}

/** What `runExperiment()` takes besides the config. */
export interface RunOptions {
  /** Where finished episodes go. */
  sink: ResultsSink;
  /** Called after each episode (and once at the start). */
  onProgress?: (progress: Progress) => void;
  /**
   * The client of each language model the config names (agents and user), by its spec
   * `"provider:model"`; wrap it in the model cache before handing it over.
   * @default {none: the config may name scripted agents and the scripted user only}
   */
  models?: (spec: string) => ModelClient;
  /**
   * Factories that replace the agents the config names, by name (e.g. a `noisy` with other
   * error rates); the records keep the config's name.
   * @default {none: every agent from `agentFactory()`}
   */
  agents?: Readonly<Record<string, AgentFactory>>;
  /**
   * Stops the run when aborted (e.g. on Ctrl-C): no new episode starts, those in flight finish and
   * are kept, and the summary says `stoppedBySignal`.
   * @default {none: the run goes on until every cell is done}
   */
  signal?: AbortSignal;
  /**
   * The cells this run holds, of the experiment's plan: e.g. one shard's (`shardOf()`). The
   * summary and the progress count these only.
   * @default {every cell of the plan}
   */
  only?: (cell: CellKey) => boolean;
  /**
   * Worker threads that run the cells, each with its own worlds and `config.concurrency` episodes
   * in flight; their episodes reach the sink in the same order as on one thread, so the results
   * are the same bytes whatever the number. Model calls go through `models` on this thread (its
   * cache, budget and rate limits). With `agents` the cells run on this thread (factories cannot
   * cross to a worker).
   * @default {1: this thread}
   */
  workers?: number;
}

/** What a run did. */
export interface RunSummary {
  /** Cells in the plan (0 when stopped before the plan was made). */
  total: number;
  /** Cells finished before this run (resumed). */
  skipped: number;
  /** Episodes run now. */
  ran: number;
  /** Dollars spent by model calls (agents and user) over every finished episode, resumed ones included. */
  cost: number;
  /** Whether cells were left unrun because the cost reached `maxCost`. */
  stoppedAtBudget: boolean;
  /** `true` when cells were left unrun because `options.signal` aborted; absent otherwise. */
  stoppedBySignal?: true;
}

/**
 * The dollars an episode's model calls cost: the agent's, the user simulator's and the LLM judge's.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { episodeCost } from "./run.ts";
 * assertEquals(episodeCost({ resources: { cost: 0.01 }, user_resources: { cost: 0.002 } }), 0.012);
 * ```
 */
export function episodeCost(record: Pick<EpisodeRecord, "resources" | "user_resources" | "judge_resources">): number {
  return (record.resources.cost ?? 0) + (record.user_resources?.cost ?? 0) + (record.judge_resources?.cost ?? 0);
}

/**
 * Runs an experiment into a results sink, skipping cells it already holds. A model
 * failure that makes going on pointless (a replay miss, a rejected key, an endpoint
 * gone) is thrown as a `ModelError` naming the episode, once the episodes in flight
 * have finished; other model failures are the agent's (`agent_error`) or the user's
 * (`user_error`) and are recorded.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { runExperiment } from "./run.ts";
 * import { resolveConfig } from "./config.ts";
 * import { MemoryResults } from "./store.ts";
 * const config = resolveConfig({ domains: ["airline"], agents: ["oracle"], tasks: 2, runs: 1, suite: "tasks", conditions: { fault: false, env: false, prompt: false } });
 * const sink = new MemoryResults();
 * const summary = await runExperiment(config, { sink });
 * assertEquals([summary.total, summary.ran, sink.count()], [2, 2, 2]);
 * ```
 */
export async function runExperiment(config: ResolvedConfig, options: RunOptions): Promise<RunSummary> {
  const { sink, onProgress } = options;
  const specs = [...modelSpecs(config), ...conditionModels(config.conditions)];
  if (specs.length > 0 && options.models === undefined) {
    throw new TypeError(`Cannot run "${specs[0]}": runExperiment() needs options.models for language models`);
  }
  if (options.workers !== undefined && !(Number.isInteger(options.workers) && options.workers <= MAX_WORKERS)) {
    throw new RangeError(`Invalid workers ${options.workers}: expected a whole number of at most ${MAX_WORKERS}`);
  }
  // Worker threads load and open their worlds while the plan is made here.
  const threads = options.agents === undefined ? Math.max(1, options.workers ?? 1) : 1;
  using pool = threads > 1 ? new WorkerPool(config, threads) : null;
  const prepared = await prepare(config, options, pool);
  // What the episodes resumed from the sink cost (read once: a big store takes a while to decode).
  const spent = sink.records().reduce((sum, r) => sum + episodeCost(r), 0);
  if (prepared === null) {
    // Stopped while the plan was being made: nothing ran, nothing is planned yet.
    return { total: 0, skipped: 0, ran: 0, cost: spent, stoppedAtBudget: false, stoppedBySignal: true };
  }
  const { cells, todo, conditions, tasks } = prepared;
  // The worlds the plan was made in serve the first lane (opening one takes a tenth of a second or so).
  const opened = new Map(prepared.worlds.map((w) => [w.domain.name, w]));
  const summary: RunSummary = {
    total: cells.length,
    skipped: cells.length - todo.length,
    ran: 0,
    cost: spent,
    stoppedAtBudget: false,
  };
  onProgress?.({ done: summary.skipped, total: summary.total });

  const overBudget = () => config.maxCost !== null && summary.cost >= config.maxCost;
  const added = (record: EpisodeRecord) => {
    summary.cost += episodeCost(record);
    summary.ran++;
    onProgress?.({ done: summary.skipped + summary.ran, total: summary.total });
  };
  if (pool !== null && todo.length > 1) {
    for (const world of opened.values()) world.close();
    const end = await runOnWorkers({
      pool,
      tasks,
      todo,
      sink,
      models: options.models,
      signal: options.signal,
      overBudget,
      added: (episode) => added(episode.record),
    });
    if (end.stoppedAtBudget) summary.stoppedAtBudget = true;
    if (end.stoppedBySignal) summary.stoppedBySignal = true;
    if (end.failure !== null) throw end.failure.error;
    return summary;
  }

  let next = 0;
  let failure: { error: unknown } | null = null;
  let lastTurn = -Infinity;
  // Each lane owns a world per domain (episodes reset it, so it serves one episode at a time)
  // and takes the next cell until none is left, one failed, or the budget is spent.
  const lane = async (_: unknown, index: number) => {
    const worlds = index === 0 ? opened : new Map<string, World>();
    try {
      while (next < todo.length && failure === null) {
        if (overBudget()) {
          summary.stoppedAtBudget = true;
          return;
        }
        if (options.signal?.aborted) {
          summary.stoppedBySignal = true;
          return;
        }
        const cell = todo[next++];
        const task = tasks.get(cell.task)!;
        const name = domainOf(cell.task);
        let world = worlds.get(name);
        if (world === undefined) worlds.set(name, world = World.open(getDomain(name), { seed: config.worldSeed }));
        try {
          const record = await runCell(world, cell, {
            task,
            setup: conditions.setup(cell, { task, domain: world.domain }),
            config,
            sink,
            models: options.models,
            agents: options.agents,
          });
          added(record);
        } catch (error) {
          failure ??= { error };
          return;
        }
        if (options.signal && performance.now() - lastTurn >= TURN_MS) {
          sink.flush();
          await new Promise((resolve) => setTimeout(resolve, 0));
          lastTurn = performance.now();
        }
      }
    } finally {
      for (const world of worlds.values()) world.close();
    }
  };
  // A sink that batches commits what it holds at least every tenth of a second while episodes wait
  // on models (scripted ones fill a batch long before), and everything at the end.
  // (An error of the sink's there ends the run as one of an episode's does, not the process.)
  const timer = setInterval(() => {
    try {
      sink.flush();
    } catch (error) {
      failure ??= { error };
    }
  }, FLUSH_MS);
  try {
    await Promise.all(Array.from({ length: Math.min(config.concurrency, Math.max(todo.length, 1)) }, lane));
  } finally {
    clearInterval(timer);
  }
  sink.flush();
  if (failure !== null) throw (failure as { error: unknown }).error;
  return summary;
}

// How often a run with an abort signal lets the event loop run (a signal's listener, say): a scripted
// episode never waits on I/O, so without a turn a run could abort only after its last episode. A
// turn costs a timer's millisecond or so; wall-clock time decides only when, never what is recorded.
const TURN_MS = 100;
const FLUSH_MS = 100;

/** What an experiment works out before its first cell: its tasks, cells, the cells to run and its conditions. */
interface Prepared {
  tasks: Map<string, Task>;
  cells: Cell[];
  todo: Cell[];
  conditions: PreparedConditions;
  /** The worlds of the config's domains, open: the caller closes them. */
  worlds: World[];
}

// The experiment's tasks and cells from its generated worlds, the cells the sink has not finished,
// every condition prepared for those, and the worlds, left open for the caller to use and close;
// `null` when `options.signal` aborts first (nothing is left open). With a signal the tasks are drawn in a worker (`stoppableTasks()`), and each long
// step after looks at the signal before the next.
async function prepare(config: ResolvedConfig, options: RunOptions, pool: WorkerPool | null): Promise<Prepared | null> {
  const { signal } = options;
  const worlds: World[] = [];
  // Ends the worker when this throws before its tasks are awaited.
  const done = new AbortController();
  try {
    // The worlds are generated once: by the drawing worker when there is one, here otherwise; this
    // thread and the pool's open them from their images.
    const generated = Promise.withResolvers<WorldImage[]>();
    const drawn = signal === undefined
      ? null
      : stoppableTasks(config, AbortSignal.any([signal, done.signal]), generated.resolve);
    drawn?.catch(() => {});
    if (drawn !== null) {
      const images = await Promise.race([generated.promise, drawn.then(() => null)]);
      if (images === null || signal?.aborted) return null;
      World.adopt(images);
    }
    for (const name of config.domains) worlds.push(World.open(getDomain(name), { seed: config.worldSeed }));
    pool?.share(
      World.shareable(config.domains.map((name) => World.image(getDomain(name), { seed: config.worldSeed }))),
    );
    const tasks = drawn === null ? experimentTasks(config, worlds) : await drawn;
    if (tasks === null || signal?.aborted) return null;
    const planned = planCells(config, [...tasks.values()]);
    const cells = options.only ? planned.filter(options.only) : planned;
    if (await stopRequested(signal)) return null;
    const finished = options.sink.finishedKeys();
    // In canonical order (`compareCells()`), the order of records.jsonl: episodes reach the sink in it.
    const todo = cells.filter((c) => !finished.has(cellKey(c))).sort(compareCells);
    if (await stopRequested(signal)) return null;
    const conditions = await prepareConditions({
      conditions: config.conditions,
      worlds,
      tasks,
      cells: todo,
      models: options.models,
    });
    const ready = { tasks, cells, todo, conditions, worlds: [...worlds] };
    worlds.length = 0;
    return ready;
  } finally {
    done.abort();
    for (const world of worlds) world.close();
  }
}

// Whether `signal` has aborted, once the event loop has had a turn to run its listeners (a process
// signal's among them) after a long synchronous step.
async function stopRequested(signal: AbortSignal | undefined): Promise<boolean> {
  if (signal === undefined) return false;
  await new Promise((resolve) => setTimeout(resolve, 0));
  return signal.aborted;
}

// The domain of a task the run generated, from its id (`parseTaskId()`).
function domainOf(task: string): string {
  const id = parseTaskId(task);
  if (id === null) throw new TypeError(`Invalid task id "${task}": expected "<domain>/<index>"`);
  return id.domain;
}
