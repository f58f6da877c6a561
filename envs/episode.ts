/**
 * The episode loop: agent ↔ tools ↔ user simulator, every event recorded, then
 * graded against the task's gold change, required outputs and milestones.
 *
 * @module
 */
import { jsonContains, jsonEqual } from "./_json.ts";
import type { Rng } from "./rng.ts";
import type { World } from "./world.ts";
import type {
  Agent,
  AgentReport,
  EpisodeEvent,
  Json,
  Message,
  Milestone,
  Observation,
  RowChange,
  Task,
  Tool,
  ToolCall,
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

/** An episode's trajectory and grade. */
export interface EpisodeResult {
  events: EpisodeEvent[];
  /** The state change equals the gold change, every required output was said, and a required hand-over happened. */
  success: boolean;
  stateMatch: boolean;
  outputsFound: boolean;
  milestones: { total: number; reached: number };
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
  /** What the episode changed in the world. */
  changes: RowChange[];
  /** Faults the condition injected. */
  faults: number;
  /**
   * For each injected fault, the agent steps from it to the next successful call of a tool on
   * the task's gold plan (the next on-plan action); faults never followed by one are left out.
   */
  recoverySteps: number[];
  /**
   * For each milestone t, the share of the gold changes up to t that the episode's final
   * state does not match (`d_t` of METRICS.md's variance amplification).
   */
  divergence: number[];
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
  const gold = world.goldChanges(task);
  const ctx = world.context(rng.child("tools"));
  const latency = rng.child("latency");
  const draw = (kind: keyof typeof LATENCY) => {
    const ms = latency.int(LATENCY[kind][0], LATENCY[kind][1]);
    ctx.clock.advance(ms);
    return ms;
  };
  const events: EpisodeEvent[] = [];
  const agentMessages: string[] = [];
  let endedBy: EpisodeResult["endedBy"] = "max_steps";
  let confidence: number | null = null;
  let confidenceSource: EpisodeResult["confidenceSource"] = null;
  let agentError: string | null = null;
  let firstErrorStep: number | null = null;
  let changes: RowChange[];
  let agentReport: AgentReport = {};
  let userReport: UserReport = {};
  const worldCalls: WorldCall[] = [];

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
        let reachedWorld: WorldCall | null = null;
        const call = (name: string, args: unknown) => {
          const r = world.call(ctx, name, args);
          reachedWorld = { step, tool: name, args, ok: r.ok };
          return r;
        };
        const dispatch = options.condition?.dispatch;
        const result: DispatchResult = dispatch
          ? dispatch({ step, name: action.name, args: action.args }, call)
          : call(action.name, action.args);
        events.push({
          step,
          actor: "tool",
          kind: "tool",
          tool: action.name,
          args: action.args,
          ...(result.ok ? { result: result.result } : { error: result.error }),
          ...(result.fault ? { fault: result.fault } : {}),
          latency_ms: draw("tool"),
        });
        if (!result.ok && firstErrorStep === null) firstErrorStep = step;
        // A condition may answer without the world (a fault) or fail a call the world accepted.
        if (reachedWorld !== null) worldCalls.push({ ...(reachedWorld as WorldCall), ok: result.ok });
        if (result.ok && world.tool(action.name)?.terminates) {
          endedBy = "tool";
          break;
        }
        obs = { step, tool: result };
        continue;
      }
      const said: Message = { role: "agent", text: action.text, intent: action.intent };
      agentMessages.push(action.text);
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
    changes = recording.changes();
  }

  const toolEvents = events.filter((e) => e.kind === "tool");
  const stateMatch = sameChanges(changes, gold);
  const outputsFound = outputsSaid(task.outputs, agentMessages);
  const handOver = requiredHandOver(world, task.gold, toolEvents);
  const writes = toolEvents.filter((e) => world.tool(e.tool!)?.writes);
  return {
    events,
    success: stateMatch && outputsFound && handOver,
    stateMatch,
    outputsFound,
    milestones: { total: task.milestones.length, reached: milestonesReached(task.milestones, worldCalls) },
    steps: events.reduce((n, e) => e.actor === "user" ? n : Math.max(n, e.step), 0),
    endedBy,
    confidence,
    confidenceSource,
    agentResources: { ...agentReport.resources },
    agentError,
    agentRetries: agentReport.retries ?? null,
    userError: userReport.error ?? null,
    userResources: { ...userReport.resources },
    actions: toolEvents.map((e) => e.tool!),
    toolCalls: toolEvents.length,
    invalidCalls: toolEvents.filter((e) => e.error?.code === "invalid_args" || e.error?.code === "unknown_tool").length,
    toolErrors: toolEvents.filter((e) => e.error).length,
    writeCalls: { attempted: writes.length, succeeded: writes.filter((e) => !e.error).length },
    firstErrorStep,
    simTimeMs: events.reduce((t, e) => t + e.latency_ms, 0),
    changes,
    ...faultFigures(task, toolEvents),
    divergence: world.goldChangesByMilestone(task).map((g) => divergence(g, changes)),
  };
}

/** The share of `gold` rows whose final values `run` does not reach (0 when gold changes nothing). */
export function divergence(gold: readonly RowChange[], run: readonly RowChange[]): number {
  if (gold.length === 0) return 0;
  const reached = new Map(run.map((c) => [`${c.table}\u001f${JSON.stringify(c.key)}`, c.after]));
  const missed = gold.filter((g) => {
    const k = `${g.table}\u001f${JSON.stringify(g.key)}`;
    return !reached.has(k) || !jsonEqual(reached.get(k), g.after);
  }).length;
  return missed / gold.length;
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

/** Whether two change lists (each sorted by table and key) leave the same rows behind. */
export function sameChanges(a: RowChange[], b: RowChange[]): boolean {
  if (a.length !== b.length) return false;
  return a.every((x, i) => x.table === b[i].table && jsonEqual(x.key, b[i].key) && jsonEqual(x.after, b[i].after));
}

/** τ-bench's output check: each string appears in some agent message, lower-cased and with commas removed. */
export function outputsSaid(outputs: readonly string[], messages: readonly string[]): boolean {
  const said = messages.map((m) => m.toLowerCase().replaceAll(",", ""));
  return outputs.every((o) => said.some((m) => m.includes(o.toLowerCase())));
}

/** How many milestones were reached in order before the first one missed. */
export function milestonesReached(
  milestones: readonly Milestone[],
  calls: readonly Pick<WorldCall, "tool" | "args" | "ok">[],
): number {
  let reached = 0;
  for (const c of calls) {
    if (reached === milestones.length) break;
    const m = milestones[reached];
    if (c.ok && c.tool === m.tool && (!m.args || jsonContains(c.args, m.args))) reached++;
  }
  return reached;
}

/** A tool call as the world received it (arguments in the tool's own names), and whether it succeeded. */
export interface WorldCall {
  step: number;
  tool: string;
  args: unknown;
  ok: boolean;
}

// A gold hand-over (a terminating tool such as a transfer to a human) must happen.
function requiredHandOver(world: World, gold: readonly ToolCall[], toolEvents: readonly EpisodeEvent[]): boolean {
  return gold.filter((c) => world.tool(c.name)?.terminates).every((c) =>
    toolEvents.some((e) => e.tool === c.name && !e.error)
  );
}
