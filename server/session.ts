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
  type EpisodeEvent,
  getDomain,
  type Intent,
  type Json,
  type Observation,
  toolSchema,
  World,
} from "../envs/mod.ts";
import type { Cell } from "../eval/plan.ts";
import type { ExperimentConfig } from "../eval/config.ts";
import { prepareConditions } from "../eval/conditions/mod.ts";
import { runCell } from "../eval/run.ts";
import { MemoryResults } from "../eval/store.ts";
import type { EpisodeRecord, Violation } from "../scoring/mod.ts";
import { BODY_WORDS, checkRequest, EpisodeError, type EpisodeRequest, EpisodeRequestSchema } from "./_requests.ts";
import { cellOf, configOf, findTask } from "./_episode_cell.ts";
import { PushAgent } from "./_push_agent.ts";

export { EpisodeError, type EpisodeRequest };

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
   * ("invalid") naming what is wrong with the request: a field the HTTP API and MCP refuse too (an
   * unknown field or condition, a malformed agent name or run, in their words), an unknown domain,
   * task or variant, a task index past the config's `tasks` (refused before any task is made), or a
   * condition other than nominal for an abstention scenario.
   */
  static async open(
    id: string,
    request: EpisodeRequest,
    options: { worldSeed?: string; config?: Partial<ExperimentConfig> } = {},
  ): Promise<{ episode: RemoteEpisode; opening: EpisodeOpening }> {
    const checked = checkRequest(EpisodeRequestSchema, request, { ...BODY_WORDS, whole: "request" });
    if ("error" in checked) throw new EpisodeError("invalid", checked.error);
    request = checked.value;
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
