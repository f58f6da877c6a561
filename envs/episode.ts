/**
 * The episode loop: agent ↔ tools ↔ user simulator, every event recorded, then
 * graded against the task's gold change, required outputs and milestones.
 *
 * @module
 */
import { jsonEqual } from "./_json.ts";
import { changeDelta, type GoldReplay, type Grade, gradeEpisode } from "./grade.ts";
import type { Rng } from "./rng.ts";
import type { World } from "./world.ts";
import type {
  Agent,
  AgentReport,
  EpisodeEvent,
  Json,
  Message,
  Observation,
  RowChange,
  Task,
  Tool,
  ToolResult,
  UserReport,
  UserSimulator,
} from "./types.ts";

/** What `runEpisode()` takes besides the world. */
export interface EpisodeOptions {
  task: Task;
  agent: Agent;
  user: UserSimulator;
  /** The episode's seeded generator (simulated latencies, tool randomness). */
  rng: Rng;
  /**
   * Agent steps before the episode is cut off.
   * @default {30}
   */
  maxSteps?: number;
  /**
   * The condition the episode runs under (faults, perturbations): what the agent is shown and
   * how tool calls are dispatched. Worlds and agents do not know which condition they are in.
   * @default {nominal: the domain's tools, dispatched as they are}
   */
  condition?: EpisodeCondition;
  /**
   * Whether an agent message without an intent refuses the request (a language agent's refusal,
   * decided by the judge's text check); see `GradeInput.refusal`.
   * @default {only a `refuse` intent refuses}
   */
  refusal?: (text: string) => boolean;
}

/** A tool call as the condition's dispatcher sees it. */
export interface DispatchCall {
  step: number;
  name: string;
  args: unknown;
}

/** A dispatched call's outcome; `fault` names the fault a condition injected, if any. */
export type DispatchResult = ToolResult & { fault?: string };

/** How a condition changes an episode. */
export interface EpisodeCondition {
  /** The tools as the agent sees them (e.g. perturbed schemas). */
  tools?: readonly Tool[];
  /** What the agent is told about the condition, e.g. how results are perturbed (`AgentContext.hints`). */
  hints?: Record<string, Json>;
  /**
   * Wraps every tool call: may inject a fault (answering without calling `next`) or translate
   * arguments and results. `next` calls the world. A fault must never change the world's state.
   */
  dispatch?(call: DispatchCall, next: (name: string, args: unknown) => ToolResult): DispatchResult;
}

/** An episode's trajectory and its grade (`Grade`: success, outcome checks, milestones, divergence, changes). */
export interface EpisodeResult extends Grade {
  events: EpisodeEvent[];
  /** Agent steps taken. */
  steps: number;
  endedBy: "agent" | "user" | "tool" | "max_steps";
  confidence: number | null;
  /** How the confidence was obtained, when the agent said. */
  confidenceSource: "stated" | "elicited" | "heuristic" | null;
  /** What the agent reported using (model calls). */
  agentResources: NonNullable<AgentReport["resources"]>;
  /** A failure of the agent itself, e.g. a malformed model response. */
  agentError: string | null;
  /** Model-call attempts the agent's client retried, when it uses a model. */
  agentRetries: number | null;
  /** Set when the user simulator left its script: the episode is not the agent's to answer for. */
  userError: string | null;
  /** What the user simulator used (model calls). */
  userResources: NonNullable<UserReport["resources"]>;
  /** Tool names in call order. */
  actions: string[];
  toolCalls: number;
  /** Calls whose arguments failed validation, or of unknown tools. */
  invalidCalls: number;
  /** Calls that returned any error. */
  toolErrors: number;
  /** Successful calls of writing tools / attempted ones. */
  writeCalls: { attempted: number; succeeded: number };
  /** The first step whose tool call failed. */
  firstErrorStep: number | null;
  simTimeMs: number;
  /** Faults the condition injected. */
  faults: number;
  /**
   * For each injected fault, the agent steps from it to the next successful call of a tool on
   * the task's gold plan (the next on-plan action); faults never followed by one are left out.
   */
  recoverySteps: number[];
}

// Simulated latencies (ms): a tool call, an agent's message, a user's reply.
const LATENCY = { tool: [80, 250], agent: [400, 1200], user: [1500, 6000] } as const;

/**
 * Runs one episode on a world and grades it. The world is reset afterwards.
 *
 * @example
 * ```ts ignore
 * const result = await runEpisode(world, { task, agent, user, rng });
 * result.success;
 * ```
 */
export async function runEpisode(world: World, options: EpisodeOptions): Promise<EpisodeResult> {
  const { task, agent, user, rng } = options;
  const maxSteps = options.maxSteps ?? 30;
  if (!Number.isInteger(maxSteps) || maxSteps < 1) {
    throw new RangeError(`Cannot run an episode with maxSteps ${maxSteps}: expected a positive integer`);
  }
  const gold = world.goldReplay(task);
  const ctx = world.context(rng.child("tools"));
  const latency = rng.child("latency");
  const draw = (kind: keyof typeof LATENCY) => {
    const ms = latency.int(LATENCY[kind][0], LATENCY[kind][1]);
    ctx.clock.advance(ms);
    return ms;
  };
  const events: EpisodeEvent[] = [];
  let endedBy: EpisodeResult["endedBy"] = "max_steps";
  let confidence: number | null = null;
  let confidenceSource: EpisodeResult["confidenceSource"] = null;
  let agentError: string | null = null;
  let agentReport: AgentReport = {};
  let userReport: UserReport = {};
  // The episode's change so far, to give each writing call the rows it changed.
  let sofar: RowChange[] = [];

  using recording = world.beginEpisode();
  {
    await agent.start({
      domain: world.domain.name,
      policy: world.domain.policy,
      tools: options.condition?.tools ?? world.domain.tools,
      now: ctx.clock.iso(),
      ...(options.condition?.hints ? { hints: options.condition.hints } : {}),
    });
    const opening = await user.open();
    events.push(messageEvent(0, "user", opening, draw("user")));
    let obs: Observation = { step: 0, message: opening };
    let step = 0;
    while (step < maxSteps) {
      step++;
      const action = await agent.step(obs);
      if (action.type === "end") {
        if (typeof action.confidence === "number") {
          confidence = clamp01(action.confidence);
          confidenceSource = "stated";
        }
        if (action.error) agentError = action.error;
        events.push({
          step,
          actor: "agent",
          kind: "end",
          confidence: action.confidence,
          ...(action.error ? { text: action.error } : {}),
          latency_ms: 0,
        });
        endedBy = "agent";
        break;
      }
      if (action.type === "tool") {
        // What reached the world: under a perturbation, the arguments mapped back to the tool's own.
        let reached: { name: string; args: unknown } | null = null;
        const call = (name: string, args: unknown) => {
          reached = { name, args };
          return world.call(ctx, name, args);
        };
        const dispatch = options.condition?.dispatch;
        const result: DispatchResult = dispatch
          ? dispatch({ step, name: action.name, args: action.args }, call)
          : call(action.name, action.args);
        const event: Omit<EpisodeEvent, "latency_ms"> & { latency_ms?: number } = {
          step,
          actor: "tool",
          kind: "tool",
          tool: action.name,
          args: action.args,
          ...(result.ok ? { result: result.result } : { error: result.error }),
          ...(result.fault ? { fault: result.fault } : {}),
        };
        const there = reached as { name: string; args: unknown } | null;
        if (there !== null) {
          if (!jsonEqual(there.args, action.args)) event.world_args = there.args;
          if (world.tool(there.name)?.writes) {
            const now = recording.changes();
            const delta = changeDelta(sofar, now);
            sofar = now;
            if (delta.length > 0) event.changes = delta;
          }
        }
        event.latency_ms = draw("tool");
        events.push(event as EpisodeEvent);
        if (result.ok && world.tool(action.name)?.terminates) {
          endedBy = "tool";
          break;
        }
        obs = { step, tool: result };
        continue;
      }
      const said: Message = { role: "agent", text: action.text, intent: action.intent };
      events.push(messageEvent(step, "agent", said, draw("agent")));
      const reply = await user.reply(said);
      events.push(messageEvent(step, "user", reply, draw("user")));
      if (reply.intent?.kind === "stop") {
        endedBy = "user";
        break;
      }
      obs = { step, message: reply };
    }
    agentReport = (await agent.finish?.()) ?? {};
    userReport = (await user.finish?.()) ?? {};
    if (confidence === null && typeof agentReport.confidence === "number") {
      confidence = clamp01(agentReport.confidence);
      confidenceSource = agentReport.confidenceSource ?? "stated";
    }
    agentError ??= agentReport.error ?? null;
  }

  return {
    ...episodeFigures(world, { task, events, gold, refusal: options.refusal }),
    endedBy,
    confidence,
    confidenceSource,
    agentResources: { ...agentReport.resources },
    agentError,
    agentRetries: agentReport.retries ?? null,
    userError: userReport.error ?? null,
    userResources: { ...userReport.resources },
  };
}

/** What an episode's events alone decide: its grade, calls, errors, writes, steps, time and faults. */
export type EpisodeFigures = Omit<
  EpisodeResult,
  | "endedBy"
  | "confidence"
  | "confidenceSource"
  | "agentResources"
  | "agentError"
  | "agentRetries"
  | "userError"
  | "userResources"
>;

/**
 * The figures of an episode from its events (tool events carrying their results and changed rows):
 * the grade, the calls, invalid calls, errors and writes, the first failing step, the agent steps,
 * the simulated time and the faults. The same for an episode just run and one replayed from another
 * harness's transcript.
 *
 * @example
 * ```ts ignore
 * import { episodeFigures } from "./episode.ts";
 * const figures = episodeFigures(world, { task, events });
 * figures.invalidCalls;
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
    simTimeMs: events.reduce((t, e) => t + e.latency_ms, 0),
    ...faultFigures(task, toolEvents),
  };
}

// Faults injected, and for each the steps to the next successful on-plan call.
function faultFigures(task: Task, toolEvents: readonly EpisodeEvent[]): { faults: number; recoverySteps: number[] } {
  const plan = new Set(task.gold.map((c) => c.name));
  const recoverySteps: number[] = [];
  let faults = 0;
  toolEvents.forEach((e, i) => {
    if (!e.fault) return;
    faults++;
    const next = toolEvents.slice(i + 1).find((f) => !f.error && !f.fault && plan.has(f.tool!));
    if (next) recoverySteps.push(next.step - e.step);
  });
  return { faults, recoverySteps };
}

function messageEvent(step: number, actor: "user" | "agent", message: Message, latency: number): EpisodeEvent {
  return { step, actor, kind: "message", text: message.text, intent: message.intent, latency_ms: latency };
}

function clamp01(x: number): number {
  return Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0;
}
