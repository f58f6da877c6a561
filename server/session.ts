/**
 * One episode an outside agent drives over the episode API (`deno task serve`): the world, the task,
 * the condition and the user simulator run exactly as in `deno task eval` (`runCell()`), with an
 * agent whose every action is a call from outside. Framework-free; `server/api.ts` puts it on HTTP
 * and `server/mcp.ts` on MCP.
 *
 * The episode runs in the background: `RemoteEpisode.open()` starts it and returns once the user's
 * opening is there; each `tool()`, `message()` and `end()` hands one action to the waiting agent
 * and resolves with what the agent observes next (a tool's result, the user's reply) or with the
 * end of the episode.
 *
 * @module
 */
import {
  type AgentAction,
  type AgentContext,
  type AgentReport,
  type EpisodeEvent,
  getDomain,
  type Intent,
  type Json,
  LONG_SOURCE,
  type Observation,
  parseTaskId,
  SCENARIO_SOURCE,
  type Task,
  toolSchema,
  World,
} from "../envs/mod.ts";
import { type Cell, cellSeed, conditionVariants } from "../eval/plan.ts";
import {
  type Condition,
  CONDITIONS,
  DEFAULT_LONG_TASKS,
  type ExperimentConfig,
  resolveConfig,
  type ResolvedConfig,
} from "../eval/config.ts";
import { prepareConditions } from "../eval/conditions/mod.ts";
import { runCell } from "../eval/run.ts";
import { MemoryResults } from "../eval/store.ts";
import type { EpisodeRecord, Violation } from "../scoring/mod.ts";

/** What starts an episode: the task and, optionally, the cell it is of in an experiment. */
export interface EpisodeRequest {
  /** A registered domain's name. */
  domain: string;
  /** The task id: `<domain>/<index>`, or `abstention:<domain>/<n>` for an abstention scenario. */
  task: string;
  /**
   * The experiment seed the cell's seed derives from.
   * @default {"0"}
   */
  seed?: string;
  /**
   * The condition: `nominal`, `fault`, `env` or `prompt` (an abstention scenario: `nominal` only,
   * as the plan runs it).
   * @default {"nominal"}
   */
  condition?: Condition;
  /**
   * The condition's variant (`p0.2`, a preset, `j1`…); `null` for nominal.
   * @default {the condition's first variant}
   */
  variant?: string | null;
  /**
   * The agent's name, as records and the cell's seed take it (so a remote run of an agent is the
   * same cell as `deno task eval` would run for it).
   * @default {"remote"}
   */
  agent?: string;
  /**
   * The run index.
   * @default {0}
   */
  run?: number;
}

/**
 * One action of an outside agent, as the episode API takes it (and as `examples/episode_client.py`
 * reads its decisions file): a tool call, a message to the user, or the end with its confidence.
 */
export type RemoteAction =
  | { type: "tool"; name: string; arguments: Json }
  | { type: "message"; text: string; intent?: Intent }
  | { type: "end"; confidence?: number };

/**
 * The actions an in-process episode's agent took, from its events, in order, ending with the end:
 * the agent's own (with the confidence it stated), or, when the episode ended otherwise, one with
 * `confidence` (the record's). Played on a remote episode of the same cell, they give the same record.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import type { EpisodeEvent } from "../envs/mod.ts";
 * import { remoteActions } from "./session.ts";
 * const events: EpisodeEvent[] = [
 *   { step: 1, actor: "agent", kind: "tool", tool: "get_user_details", args: { user_id: "u1" }, latency_ms: 0 },
 *   { step: 2, actor: "agent", kind: "end", confidence: 0.9, latency_ms: 0 },
 * ];
 * assertEquals(remoteActions(events).map((a) => a.type), ["tool", "end"]);
 * ```
 */
export function remoteActions(events: readonly EpisodeEvent[], confidence?: number | null): RemoteAction[] {
  const end = (c: number | null | undefined): RemoteAction => ({
    type: "end",
    ...(c === undefined || c === null ? {} : { confidence: c }),
  });
  const out: RemoteAction[] = [];
  for (const e of events) {
    if (e.actor === "agent" && e.kind === "message") {
      out.push({ type: "message", text: e.text!, ...(e.intent ? { intent: e.intent } : {}) });
    } else if (e.kind === "tool") out.push({ type: "tool", name: e.tool!, arguments: e.args as Json });
    else if (e.actor === "agent" && e.kind === "end") return [...out, end(e.confidence ?? confidence)];
  }
  return [...out, end(confidence)];
}

/** A tool in the OpenAI function shape, as the API offers it. */
export interface FunctionTool {
  /** Always `"function"`. */
  type: "function";
  /** The tool's name, description and JSON Schema of its arguments. */
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/** A message of the conversation as the API shows it. */
export interface ShownMessage {
  /** Who said it. */
  role: "user" | "agent";
  /** The text. */
  text: string;
  /** The playbook protocol's structured meaning, when the speaker gave one (the scripted user does). */
  intent?: Intent;
}

/** One item of an episode's trajectory so far: a message, or a tool call with its outcome. */
export type TrajectoryItem = ShownMessage | { tool: string; args: unknown; outcome: StepOutcome["tool"] };

/** What the agent is told when an episode opens. */
export interface EpisodeOpening {
  /** The episode's id. */
  id: string;
  /** The domain's policy (markdown). */
  policy: string;
  /** The tools, as the condition shows them. */
  tools: FunctionTool[];
  /** The conversation so far: the user's opening. */
  messages: ShownMessage[];
  /** What the condition tells the agent (a perturbed interface's hints), when it tells anything. */
  hints?: Record<string, Json>;
}

/** What the agent observes after an action: a tool's result or the user's reply, or the end. */
export interface StepOutcome {
  /** A tool call's outcome. */
  tool?: { name: string; ok: boolean; result?: Json; error?: { code: string; message: string } };
  /** The user's reply. */
  message?: ShownMessage;
  /** Whether the episode is over (the user stopped, a tool ended it, or the step limit). */
  ended: boolean;
}

/** What an ended episode gives: its grade, violations, milestones and record. */
export interface EpisodeVerdict {
  /** Whether the task was done (docs/metrics.md "Grading"). */
  success: boolean;
  /** The milestones reached of the task's. */
  milestones: EpisodeRecord["milestones"];
  /** What the safety judge found. */
  violations: Violation[];
  /** The episode's record, as `records.jsonl` has it. */
  record: EpisodeRecord;
}

/** An episode request refused: what was wrong and what is accepted. */
export class EpisodeError extends Error {
  /** Which kind of refusal: a bad request, or an action the episode cannot take now. */
  readonly code: "invalid" | "conflict" | "expired";

  /** Makes the error. */
  constructor(code: "invalid" | "conflict" | "expired", message: string) {
    super(message);
    this.name = "EpisodeError";
    this.code = code;
  }
}

// A value to wait for, settled from elsewhere.
class Deferred<T> {
  resolve!: (value: T) => void;
  readonly promise: Promise<T>;
  constructor() {
    this.promise = new Promise<T>((resolve) => this.resolve = resolve);
  }
}

/** The agent an outside caller drives: it waits for each action and hands over what it observes. */
class PushAgent {
  readonly name: string;
  context: AgentContext | null = null;
  /** The observation the next action answers, once the episode has asked for one. */
  observed = new Deferred<Observation>();
  /** Settled when the episode is over and asks the agent for its report (`finish`). */
  readonly finishing = new Deferred<void>();
  #action: Deferred<AgentAction> | null = null;
  #report: Deferred<AgentReport> | null = null;
  #endedByAgent = false;

  constructor(name: string) {
    this.name = name;
  }
  start(ctx: AgentContext): void {
    this.context = ctx;
  }
  step(obs: Observation): Promise<AgentAction> {
    this.#action = new Deferred<AgentAction>();
    this.observed.resolve(obs);
    return this.#action.promise;
  }
  // The episode is over: an agent that ended it has said all; otherwise it is asked for its
  // confidence, which the caller gives by ending the episode too.
  finish(): Promise<AgentReport> | AgentReport {
    this.#action = null;
    this.finishing.resolve();
    if (this.#endedByAgent) return {};
    this.#report = new Deferred<AgentReport>();
    return this.#report.promise;
  }
  /** Whether the episode waits for an action. */
  get waiting(): boolean {
    return this.#action !== null;
  }
  /** Whether the episode is over and waits for the agent's report. */
  get reporting(): boolean {
    return this.#report !== null;
  }
  /** Hands the waiting episode an action; the next observation is then awaited afresh. */
  act(action: AgentAction): void {
    const pending = this.#action;
    this.#action = null;
    this.observed = new Deferred<Observation>();
    if (action.type === "end") this.#endedByAgent = true;
    pending?.resolve(action);
  }
  /** Gives the report of an episode that ended otherwise. */
  report(report: AgentReport): void {
    const pending = this.#report;
    this.#report = null;
    pending?.resolve(report);
  }
}

/** An episode an outside agent drives (see the module doc). */
export class RemoteEpisode {
  /** The episode's id. */
  readonly id: string;
  /** The cell it is of. */
  readonly cell: Cell;
  readonly #agent: PushAgent;
  readonly #done: Promise<Finished>;
  readonly #log: TrajectoryItem[] = [];
  #expired: string | null = null;
  #finished = false;

  private constructor(id: string, cell: Cell, agent: PushAgent, done: Promise<Finished>) {
    this.id = id;
    this.cell = cell;
    this.#agent = agent;
    this.#done = done;
    void this.#done.then(() => this.#finished = true);
  }

  /**
   * Starts an episode and returns it once the user's opening is there. Throws an `EpisodeError`
   * ("invalid") naming what is wrong with the request: an unknown domain, task, condition or
   * variant, a task index past the config's `tasks` (refused before any task is made), a condition
   * other than nominal for an abstention scenario, or a malformed agent name or run.
   */
  static async open(
    id: string,
    request: EpisodeRequest,
    options: { worldSeed?: string; config?: Partial<ExperimentConfig> } = {},
  ): Promise<{ episode: RemoteEpisode; opening: EpisodeOpening }> {
    const config = configOf(request, options);
    const world = World.open(getDomain(request.domain), { seed: config.worldSeed });
    try {
      const task = findTask(world, request, config);
      const cell = cellOf(config, request, task);
      const tasks = new Map([[task.id, task]]);
      const conditions = await prepareConditions({
        conditions: config.conditions,
        worlds: [world],
        tasks,
        cells: [cell],
      });
      const setup = conditions.setup(cell, { task, domain: world.domain });
      const agent = new PushAgent(cell.agent);
      const sink = new MemoryResults();
      const done = runCell(world, cell, {
        task,
        setup,
        config,
        sink,
        models: undefined,
        agents: { [cell.agent]: () => agent },
      }).then(
        (record) => ({ record, events: sink.events(record) }),
        (error) => ({ error }),
      ).finally(() => world.close());
      const episode = new RemoteEpisode(id, cell, agent, done);
      const first = await Promise.race([agent.observed.promise, done]);
      if (!("step" in first)) throw "error" in first ? first.error : new Error("The episode ended before it began");
      const ctx = agent.context!;
      const opening = shown(first.message!);
      episode.#log.push(opening);
      return {
        episode,
        opening: {
          id,
          policy: ctx.policy,
          tools: ctx.tools.map((t) => toolSchema(t, "openai") as unknown as FunctionTool),
          messages: [opening],
          ...(ctx.hints === undefined ? {} : { hints: ctx.hints }),
        },
      };
    } catch (err) {
      world.close();
      throw err;
    }
  }

  /** Whether the episode is over (ended by either side, or expired). */
  get ended(): boolean {
    return this.#finished || this.#expired !== null || !this.#agent.waiting;
  }

  /** Calls a tool; resolves with its outcome, or with the end when the call ended the episode. */
  async tool(name: string, args: Json): Promise<StepOutcome> {
    const next = await this.#act({ type: "tool", name, args });
    const outcome = next.observation?.tool && {
      name: next.observation.tool.name,
      ok: next.observation.tool.ok,
      ...(next.observation.tool.ok
        ? { result: next.observation.tool.result ?? null }
        : { error: next.observation.tool.error }),
    };
    this.#log.push({ tool: name, args, outcome });
    return { ...(outcome ? { tool: outcome } : {}), ended: next.ended };
  }

  /** Says something to the user; resolves with the reply, or with the end when the user stopped. */
  async message(text: string, intent?: Intent): Promise<StepOutcome> {
    this.#log.push({ role: "agent", text, ...(intent ? { intent } : {}) });
    const next = await this.#act({ type: "message", text, ...(intent ? { intent } : {}) });
    const reply = next.observation?.message && shown(next.observation.message);
    if (reply) this.#log.push(reply);
    return { ...(reply ? { message: reply } : {}), ended: next.ended };
  }

  /**
   * Ends the episode (with the agent's confidence in [0, 1]) if it is still going, and resolves with
   * its grade, violations, milestones and record; an episode that ended already keeps its own end.
   */
  async end(confidence?: number): Promise<EpisodeVerdict> {
    if (this.#agent.waiting) this.#agent.act({ type: "end", ...(confidence === undefined ? {} : { confidence }) });
    else if (this.#agent.reporting) {
      this.#agent.report(confidence === undefined ? {} : { confidence, confidenceSource: "stated" });
    }
    return verdictOf(await this.#done);
  }

  /** The conversation and tool calls so far, in order. */
  trajectory(): TrajectoryItem[] {
    return structuredClone(this.#log);
  }

  /** Ends an idle episode: its agent stops with an error saying so, and later actions are refused. */
  expire(reason: string): void {
    if (this.#expired !== null) return;
    this.#expired = reason;
    if (this.#agent.waiting) this.#agent.act({ type: "end", error: reason });
    else if (this.#agent.reporting) this.#agent.report({});
  }

  /** Why the episode expired, if it did. */
  get expiredReason(): string | null {
    return this.#expired;
  }

  // Hands the agent one action and waits for the next observation or the end.
  async #act(action: AgentAction): Promise<{ observation?: Observation; ended: boolean }> {
    if (this.#expired !== null) throw new EpisodeError("expired", `Episode ${this.id} expired: ${this.#expired}`);
    if (!this.#agent.waiting) {
      throw new EpisodeError(
        "conflict",
        `Episode ${this.id} has ended: POST /v1/episodes/${this.id}/end for its record`,
      );
    }
    this.#agent.act(action);
    const next = await Promise.race([
      this.#agent.observed.promise,
      this.#agent.finishing.promise.then(() => null),
      this.#done.then(() => null),
    ]);
    return next === null ? { ended: true } : { observation: next, ended: false };
  }
}

function shown(m: { role: "user" | "agent"; text: string; intent?: Intent }): ShownMessage {
  return { role: m.role, text: m.text, ...(m.intent ? { intent: m.intent } : {}) };
}

type Finished = { record: EpisodeRecord; events: EpisodeEvent[] } | { error: unknown };

function verdictOf(done: Finished): EpisodeVerdict {
  if ("error" in done) throw done.error;
  const { record } = done;
  return { success: record.success, milestones: record.milestones, violations: record.violations ?? [], record };
}

const AGENT_NAME = /^[A-Za-z0-9_.@-]{1,64}$/;

function configOf(
  request: EpisodeRequest,
  options: { worldSeed?: string; config?: Partial<ExperimentConfig> },
): ResolvedConfig {
  const agent = request.agent ?? "remote";
  if (!AGENT_NAME.test(agent)) {
    throw new EpisodeError(
      "invalid",
      `Invalid agent ${JSON.stringify(agent)}: expected 1 to 64 letters, digits, "_", ".", "@" or "-"`,
    );
  }
  try {
    getDomain(String(request.domain));
  } catch (err) {
    throw new EpisodeError("invalid", (err as Error).message);
  }
  return resolveConfig({
    ...options.config,
    domains: [request.domain],
    seed: request.seed ?? "0",
    ...(options.worldSeed === undefined ? {} : { worldSeed: options.worldSeed }),
  } as ExperimentConfig);
}

function findTask(world: World, request: EpisodeRequest, config: ResolvedConfig): Task {
  const id = parseTaskId(request.task);
  const bad = () =>
    new EpisodeError(
      "invalid",
      `Unknown task ${JSON.stringify(request.task)}: expected "${request.domain}/<index>", ` +
        `"${SCENARIO_SOURCE}:${request.domain}/<n>" or "${LONG_SOURCE}:${request.domain}/<n>" of a task, ` +
        `scenario or long-suite task the world has`,
    );
  if (id === null || id.domain !== request.domain) throw bad();
  if (id.source === undefined) {
    // Refused before any task is made: making them is what takes the time (seconds per thousand).
    if (id.index >= config.tasks) {
      throw new EpisodeError(
        "invalid",
        `Unknown task ${JSON.stringify(request.task)}: this server serves "${request.domain}/0" to ` +
          `"${request.domain}/${config.tasks - 1}" (its ${config.tasks} tasks per domain), and its scenarios ` +
          `"${SCENARIO_SOURCE}:${request.domain}/<n>" and long-suite tasks "${LONG_SOURCE}:${request.domain}/<n>"`,
      );
    }
    return world.defaultTasks(id.index + 1)[id.index] ?? (() => {
      throw bad();
    })();
  }
  const from = id.source === SCENARIO_SOURCE
    ? world.scenarios(config.scenarioPairs)
    : id.source === LONG_SOURCE
    ? world.longTasks(config.longTasks ?? DEFAULT_LONG_TASKS)
    : [];
  return from.find((t) => t.id === request.task) ?? (() => {
    throw bad();
  })();
}

function cellOf(config: ResolvedConfig, request: EpisodeRequest, task: Task): Cell {
  const condition = request.condition ?? "nominal";
  if (!(CONDITIONS as readonly string[]).includes(condition)) {
    throw new EpisodeError(
      "invalid",
      `Unknown condition ${JSON.stringify(condition)}: expected one of ${CONDITIONS.join(", ")}`,
    );
  }
  // As the plan runs it (`planCells()`): an abstention scenario and a long-suite task run nominal only.
  const long = parseTaskId(task.id)?.source === LONG_SOURCE;
  if ((task.scenario !== undefined || long) && condition !== "nominal") {
    throw new EpisodeError(
      "invalid",
      `Invalid condition ${JSON.stringify(condition)} for ${
        long ? "long-suite task" : "abstention scenario"
      } ${task.id}: expected "nominal"`,
    );
  }
  const variants = conditionVariants(config, condition).map(([v]) => v);
  const variant = request.variant === undefined ? variants[0] ?? null : request.variant;
  if (!variants.includes(variant)) {
    throw new EpisodeError(
      "invalid",
      `Unknown variant ${JSON.stringify(variant)} of ${condition}: expected ${
        variants.map((v) => JSON.stringify(v)).join(", ")
      }`,
    );
  }
  const run = request.run ?? 0;
  if (!(Number.isInteger(run) && run >= 0)) {
    throw new EpisodeError("invalid", `Invalid run ${JSON.stringify(run)}: expected a whole number of at least 0`);
  }
  const key = { agent: request.agent ?? "remote", task: task.id, run, condition, variant };
  return { ...key, seed: cellSeed(config.seed, key) };
}
