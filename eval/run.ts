/**
 * The experiment runner: runs every cell of the plan that the results sink has
 * not finished yet, up to `concurrency` at once (each in its own world), and
 * commits each episode as soon as it ends, so an interrupted run resumes where it
 * stopped. With a cost budget it starts no new episode once the model calls of
 * the experiment (resumed episodes included) have spent it.
 *
 * @module
 */
import { getDomain, Rng, runEpisode, scriptedUser, World } from "../envs/mod.ts";
import type { Domain, Task, UserSimulator } from "../envs/mod.ts";
import { agentFactory, llmUser, modelSpec } from "../agents/mod.ts";
import { type ChatResponse, type ModelClient, ModelError, type ModelErrorCode } from "../agents/model/mod.ts";
import { type Cell, cellKey, planCells, type ResolvedConfig, userSpec } from "./plan.ts";
import { type EpisodeRecord, toRecord } from "./records.ts";
import type { ResultsSink } from "./store.ts";
import { modelSpecs } from "./models.ts";

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
  /**
   * The client of each language model the config names (agents and user), by its spec
   * `"provider:model"`; wrap it in the model cache before handing it over.
   * @default {none: the config may name scripted agents and the scripted user only}
   */
  models?: (spec: string) => ModelClient;
}

/** What a run did. */
export interface RunSummary {
  /** Cells in the plan. */
  total: number;
  /** Cells finished before this run (resumed). */
  skipped: number;
  /** Episodes run now. */
  ran: number;
  /** Dollars spent by model calls (agents and user) over every finished episode, resumed ones included. */
  cost: number;
  /** Whether cells were left unrun because the cost reached `maxCost`. */
  stoppedAtBudget: boolean;
}

/**
 * Model failures after which going on is pointless or wrong: a replay without the answer,
 * a rejected key, an endpoint gone. The episode is not recorded and the run stops.
 */
const FATAL: ReadonlySet<ModelErrorCode> = new Set(["cache_miss", "auth", "unreachable", "budget"]);

/**
 * The dollars an episode's model calls cost: the agent's and the user simulator's.
 *
 * @example
 * ```ts
 * import { episodeCost } from "./run.ts";
 * episodeCost({ resources: { cost: 0.01 }, user_resources: { cost: 0.002 } }); // 0.012
 * ```
 */
export function episodeCost(record: Pick<EpisodeRecord, "resources" | "user_resources">): number {
  return (record.resources.cost ?? 0) + (record.user_resources?.cost ?? 0);
}

/**
 * Runs an experiment into a results sink, skipping cells it already holds. A model
 * failure that makes going on pointless (a replay miss, a rejected key, an endpoint
 * gone) is thrown as a `ModelError` naming the episode, once the episodes in flight
 * have finished; other model failures are the agent's (`agent_error`) or the user's
 * (`user_error`) and are recorded.
 *
 * @example
 * ```ts ignore
 * import { MemoryResults, resolveConfig, runExperiment } from "./mod.ts";
 * const sink = new MemoryResults();
 * await runExperiment(resolveConfig({ tasks: 6, runs: 2 }), { sink });
 * // { total: 36, skipped: 0, ran: 36, cost: 0, stoppedAtBudget: false }
 * ```
 */
export async function runExperiment(config: ResolvedConfig, options: RunOptions): Promise<RunSummary> {
  const { sink, onProgress } = options;
  const domain = getDomain(config.domain);
  const tasks = new Map<string, Task>();
  {
    using world = World.open(domain, { seed: config.worldSeed });
    for (const task of world.defaultTasks(config.tasks)) tasks.set(task.id, task);
  }
  const specs = modelSpecs(config);
  if (specs.length > 0 && options.models === undefined) {
    throw new TypeError(`Cannot run "${specs[0]}": runExperiment() needs options.models for language models`);
  }
  const cells = planCells(config, [...tasks.values()]);
  const finished = sink.finishedKeys();
  const todo = cells.filter((c) => !finished.has(cellKey(c)));
  const summary: RunSummary = {
    total: cells.length,
    skipped: cells.length - todo.length,
    ran: 0,
    cost: sink.records().reduce((sum, r) => sum + episodeCost(r), 0),
    stoppedAtBudget: false,
  };
  onProgress?.({ done: summary.skipped, total: summary.total });

  let next = 0;
  let failure: { error: unknown } | null = null;
  const overBudget = () => config.maxCost !== null && summary.cost >= config.maxCost;
  // Each worker owns a world (episodes reset it, so it serves one episode at a time) and takes
  // the next cell until none is left, one failed, or the budget is spent.
  const worker = async () => {
    using world = World.open(domain, { seed: config.worldSeed });
    while (next < todo.length && failure === null) {
      if (overBudget()) {
        summary.stoppedAtBudget = true;
        return;
      }
      const cell = todo[next++];
      try {
        const record = await runCell(world, cell, {
          task: tasks.get(cell.task)!,
          config,
          sink,
          models: options.models,
        });
        summary.cost += episodeCost(record);
      } catch (error) {
        failure ??= { error };
        return;
      }
      summary.ran++;
      onProgress?.({ done: summary.skipped + summary.ran, total: summary.total });
    }
  };
  await Promise.all(Array.from({ length: Math.min(config.concurrency, Math.max(todo.length, 1)) }, worker));
  if (failure !== null) throw (failure as { error: unknown }).error;
  return summary;
}

/** The first fatal model failure of an episode, and whose model it was. */
interface Fatal {
  error: ModelError | null;
  who: string;
}

/** One episode's view of a shared client: notes a fatal failure and sums the latency of answers. */
class Watched implements ModelClient {
  readonly provider: string;
  readonly model: string;
  latencyMs = 0;
  readonly #inner: ModelClient;
  readonly #fatal: Fatal;
  readonly #who: string;

  constructor(inner: ModelClient, fatal: Fatal, who: string) {
    this.provider = inner.provider;
    this.model = inner.model;
    this.#inner = inner;
    this.#fatal = fatal;
    this.#who = who;
  }

  async chat(...args: Parameters<ModelClient["chat"]>): Promise<ChatResponse> {
    try {
      const response = await this.#inner.chat(...args);
      this.latencyMs += response.latencyMs;
      return response;
    } catch (err) {
      if (err instanceof ModelError && FATAL.has(err.code) && this.#fatal.error === null) {
        this.#fatal.error = err;
        this.#fatal.who = this.#who;
      }
      throw err;
    }
  }
}

async function runCell(
  world: World,
  cell: Cell,
  options: {
    task: Task;
    config: ResolvedConfig;
    sink: ResultsSink;
    models: RunOptions["models"];
  },
): Promise<EpisodeRecord> {
  const { task, config, sink, models } = options;
  const rng = new Rng(cell.seed);
  const fatal: Fatal = { error: null, who: "" };
  const agentClient = modelSpec(cell.agent) === null
    ? undefined
    : new Watched(models!(cell.agent), fatal, `"${cell.agent}"`);
  const factory = agentFactory(cell.agent, {
    client: agentClient,
    temperature: config.temperature ?? undefined,
    maxTokens: config.maxTokens ?? undefined,
  });
  const agent = factory({ rng: rng.child("agent"), domain: world.domain, task, run: cell.run });
  const user = makeUser(world.domain, task, { cell, rng, config, fatal, models });
  const result = await runEpisode(world, { task, agent, user, rng: rng.child("episode"), maxSteps: config.maxSteps });
  if (fatal.error !== null) {
    const { code, message } = fatal.error;
    throw new ModelError(code, `Cannot run ${fatal.who} on ${cell.task} run ${cell.run}: ${message}`);
  }
  const record = toRecord(cell, result, {
    milestoneTools: task.milestones.map((m) => m.tool),
    modelLatencyMs: agentClient?.latencyMs ?? 0,
  });
  sink.add({ cell, record, events: result.events });
  return record;
}

function makeUser(
  domain: Domain,
  task: Task,
  options: {
    cell: Cell;
    rng: Rng;
    config: ResolvedConfig;
    fatal: Fatal;
    models: RunOptions["models"];
  },
): UserSimulator {
  const { cell, rng, config, fatal, models } = options;
  const spec = userSpec(config.user);
  if (spec === null) return scriptedUser(task, rng.child("user"), { tools: domain.tools });
  const client = new Watched(models!(`${spec.provider}:${spec.model}`), fatal, `the user "${config.user}"`);
  return llmUser(client, task, { tools: domain.tools, run: cell.run });
}
