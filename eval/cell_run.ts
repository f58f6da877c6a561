/**
 * One cell's episode, as the experiment runner (`run.ts`) and the agent server run it: the agent
 * and the user simulator made from the config, the condition's setup applied, the judges, the
 * record (with an abstention scenario's outcome), and the episode added to the results sink. A
 * model failure after which going on is pointless (a replay without the answer, a rejected key,
 * an endpoint gone) is thrown as a `ModelError` naming the cell.
 *
 * @module
 */
import { Rng, runEpisode, scriptedUser, type World } from "../envs/mod.ts";
import type { AgentFactory, Domain, EpisodeEvent, Task, UserSimulator } from "../envs/mod.ts";
import { agentFactory, llmUser, modelSpec } from "../agents/mod.ts";
import { type ChatResponse, type ModelClient, ModelError, type ModelErrorCode } from "../agents/model/mod.ts";
import { isRefusal } from "../judge/mod.ts";
import type { Cell } from "./cell.ts";
import type { ResolvedConfig } from "./config_types.ts";
import { judgeSpec, scriptedTrust, userSpec } from "./specs.ts";
import { applyScenario } from "./abstention.ts";
import { applyGrade, type Judged, judgeEpisode, regrade } from "./judging.ts";
import type { CellSetup } from "./conditions/mod.ts";
import { toRecord } from "./to_record.ts";
import type { EpisodeRecord } from "./records.ts";
import type { ResultsSink } from "./sink.ts";

/**
 * Model failures after which going on is pointless or wrong: a replay without the answer,
 * a rejected key, an endpoint gone. The episode is not recorded and the run stops.
 */
const FATAL: ReadonlySet<ModelErrorCode> = new Set(["cache_miss", "auth", "unreachable", "budget"]);

/** The first fatal model failure of an episode, and whose model it was. */
interface Fatal {
  error: ModelError | null;
  who: string;
}

/** One episode's view of a shared client: notes a fatal failure, sums the latency and retry waits of answers. */
class Watched implements ModelClient {
  readonly provider: string;
  readonly model: string;
  latencyMs = 0;
  retryWaitMs = 0;
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
      this.retryWaitMs += response.retryWaitMs ?? 0;
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

/** What `runCell()` needs beside the world and the cell. */
export interface RunCellOptions {
  /** The cell's task. */
  task: Task;
  /** How the cell's condition changes its episode (`prepareConditions()`'s `setup`). */
  setup: CellSetup;
  /** The experiment's config: judge, user simulator, step limit, sampling. */
  config: ResolvedConfig;
  /** Where the finished episode goes. */
  sink: ResultsSink;
  /** The model clients of language-model specs (see `RunOptions.models`). */
  models: ((spec: string) => ModelClient) | undefined;
  /** Agent factories by spec, over `agentFactory()` (see `RunOptions.agents`). */
  agents: Readonly<Record<string, AgentFactory>> | undefined;
}

/**
 * Runs one cell's episode in `world` exactly as `runExperiment()` does (the agent, the user
 * simulator, the condition, the judges, the record, an abstention scenario's outcome), adds it to
 * the sink and returns its record: e.g. for an episode an outside agent drives (`deno task serve`).
 */
export async function runCell(world: World, cell: Cell, options: RunCellOptions): Promise<EpisodeRecord> {
  const { task, setup, config, sink, models } = options;
  const rng = new Rng(cell.seed);
  const fatal: Fatal = { error: null, who: "" };
  const watched = modelSpec(cell.agent) === null
    ? undefined
    : new Watched(models!(cell.agent), fatal, `"${cell.agent}"`);
  // Injected model faults sit outside `Watched`: an injected auth failure is the agent's, not the run's.
  const model = watched && setup.model(watched);
  const own = options.agents && Object.hasOwn(options.agents, cell.agent) ? options.agents[cell.agent] : undefined;
  const factory = own ?? agentFactory(cell.agent, {
    client: model,
    temperature: config.temperature ?? undefined,
    maxTokens: config.maxTokens ?? undefined,
  });
  const agent = factory({ rng: rng.child("agent"), domain: world.domain, task, run: cell.run });
  const user = makeUser(world.domain, setup.userTask, { cell, rng, config, fatal, models, opening: setup.opening });
  const result = await runEpisode(world, {
    task,
    agent,
    user,
    rng: rng.child("episode"),
    maxSteps: config.maxSteps,
    refusal: isRefusal,
    ...(setup.condition ? { condition: setup.condition } : {}),
  });
  if (fatal.error !== null) {
    const { code, message } = fatal.error;
    throw new ModelError(code, `Cannot run ${fatal.who} on ${cell.task} run ${cell.run}: ${message}`);
  }
  const judged = await judgeCell(world, cell, { task, events: result.events, config, models, fatal });
  const record = toRecord(cell, result, {
    task,
    milestoneLabels: task.milestones.map((m) => m.label),
    modelLatencyMs: watched?.latencyMs ?? 0,
    modelRetryWaitMs: watched?.retryWaitMs ?? 0,
    ...setup.record(),
    verdict: judged.fields,
  });
  // For a language agent the LLM judge's refusal check decides when the rules found none.
  if (judged.llmRefused === true && !result.refused) {
    applyGrade(record, regrade(world, { task, events: result.events }, judged), task);
  }
  if (judged.resources.api_calls !== undefined) record.judge_resources = { ...judged.resources };
  // An abstention scenario: its outcome, and a hazardous one executed is a violation too.
  applyScenario(record, task, result, world.domain, judged.llmInformed);
  sink.add({ cell, record, events: result.events });
  return record;
}

// The judges' verdict on a cell's episode; a model failure of the LLM judge names the cell.
function judgeCell(
  world: World,
  cell: Cell,
  options: {
    task: Task;
    events: EpisodeEvent[];
    config: ResolvedConfig;
    models: RunCellOptions["models"];
    fatal: Fatal;
  },
): Promise<Judged> {
  const { task, events, config, models, fatal } = options;
  const judge = judgeSpec(config.judge);
  const model = judge === null
    ? undefined
    : new Watched(models!(`${judge.provider}:${judge.model}`), fatal, `the judge "${config.judge}"`);
  return judgeEpisode(world, { task, events }, { model, run: cell.run }).catch((err) => {
    if (!(err instanceof ModelError)) throw err;
    throw new ModelError(err.code, `Cannot judge ${cell.task} run ${cell.run} with "${config.judge}": ${err.message}`);
  });
}

function makeUser(
  domain: Domain,
  task: Task,
  options: {
    cell: Cell;
    rng: Rng;
    config: ResolvedConfig;
    fatal: Fatal;
    models: RunCellOptions["models"];
    opening: number;
  },
): UserSimulator {
  const { cell, rng, config, fatal, models, opening } = options;
  const spec = userSpec(config.user);
  if (spec === null) {
    return scriptedUser(task, rng.child("user"), {
      tools: domain.tools,
      vocabulary: domain.vocabulary,
      opening,
      trust: scriptedTrust(config.user),
    });
  }
  const client = new Watched(models!(`${spec.provider}:${spec.model}`), fatal, `the user "${config.user}"`);
  return llmUser(client, task, { tools: domain.tools, run: cell.run, opening });
}
