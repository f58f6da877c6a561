/**
 * The episode loop: agent ↔ tools ↔ user simulator, every event recorded, then
 * graded against the task's gold change, required outputs and milestones.
 *
 * @module
 */
import { jsonEqual } from "./json.ts";
import { argsProblem } from "./call.ts";
import { AbnormalSchedule, worldCall } from "./abnormal.ts";
import { type GoldReplay, type Grade, gradeEpisode } from "./grade.ts";
import type { Rng } from "./rng.ts";
import type { Recording, World } from "./world.ts";
import type { Abstained, Agent, AgentAction, AgentReport, BlockedCall, Observation, ToolResult } from "./agent.ts";
import type { EpisodeEvent } from "./events.ts";
import type { Json } from "./json.ts";
import type { Message } from "./message.ts";
import type { RowChange } from "./changeset.ts";
import type { Task } from "./task.ts";
import type { Tool, ToolContext } from "./tool.ts";
import type { UserReport, UserSimulator } from "./user_sim.ts";

/** What `runEpisode()` takes besides the world. */
export interface EpisodeOptions {
  /** The task the episode is of: its gold, and the tool context its tools see (`World.taskContext()`). */
  task: Task;
  /** The agent under test. */
  agent: Agent;
  /** The simulated user. */
  user: UserSimulator;
  /**
   * The episode's seeded generator: its simulated latencies. The tools draw from the task's own
   * generator instead (`World.taskContext()`), the one its gold replay draws from.
   */
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
  /** The agent step making the call. */
  step: number;
  /** The tool's name as the agent called it. */
  name: string;
  /** The arguments as the agent gave them. */
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
  /** Every event of the episode, in order. */
  events: EpisodeEvent[];
  /** Agent steps taken. */
  steps: number;
  /** What ended the episode: the agent, the user stopping, a terminating tool, or the step limit. */
  endedBy: "agent" | "user" | "tool" | "max_steps";
  /** The agent's confidence in [0, 1], stated at its end or reported afterwards; `null` when none. */
  confidence: number | null;
  /** How the confidence was obtained, when the agent said. */
  confidenceSource: "stated" | "elicited" | "heuristic" | null;
  /** What the agent reported using (model calls). */
  agentResources: NonNullable<AgentReport["resources"]>;
  /** A failure of the agent itself, e.g. a malformed model response. */
  agentError: string | null;
  /** Model-call attempts the agent's client retried, when it uses a model. */
  agentRetries: number | null;
  /** Calls a runtime check of the agent stopped before they reached the world (the checkpoint's). */
  agentBlocks: BlockedCall[];
  /** Why the agent said it stopped short of the request, when it declared it (`AgentReport.abstained`). */
  agentAbstained: Abstained | null;
  /** Set when the user simulator left its script: the episode is not the agent's to answer for. */
  userError: string | null;
  /** What the user simulator used (model calls). */
  userResources: NonNullable<UserReport["resources"]>;
  /**
   * The agent's messages the user simulator read as text and how many it could not read
   * (`UserReport.misread`); `null` when it read none as text.
   */
  userMisread: { messages: number; unread: number } | null;
  /** Tool names in call order. */
  actions: string[];
  /** Tool calls made, faulted ones included. */
  toolCalls: number;
  /** Calls whose arguments failed validation, or of unknown tools. */
  invalidCalls: number;
  /** Calls that returned any error. */
  toolErrors: number;
  /** Successful calls of writing tools / attempted ones. */
  writeCalls: { attempted: number; succeeded: number };
  /** The first step whose tool call failed. */
  firstErrorStep: number | null;
  /**
   * The simulated time of the episode, in ms: the sum of its events' `latency_ms`, except those
   * of the calls the condition faulted (`faultTimeMs`).
   */
  simTimeMs: number;
  /** The simulated time of the tool calls the condition faulted, in ms: time the agent lost to faults. */
  faultTimeMs: number;
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
 * ```ts ignore
 * const result = await runEpisode(world, { task, agent, user, rng });
 * result.success;
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

// An episode while it runs: what its tools see, its events so far and how it ended.
interface Run {
  readonly world: World;
  readonly options: EpisodeOptions;
  // The task's tool context, the same as its gold replay's.
  readonly ctx: ToolContext;
  readonly recording: Recording;
  // The calls the task's world answers wrongly (`Task.abnormal`), counted as they reach it.
  readonly abnormal: AbnormalSchedule;
  // Draws each step's simulated latency, counted on its event and never on the tools' clock.
  readonly latency: Rng;
  readonly events: EpisodeEvent[];
  endedBy: EpisodeResult["endedBy"];
  confidence: number | null;
  confidenceSource: EpisodeResult["confidenceSource"];
  agentError: string | null;
}

// What the episode's end and the agent's and user's reports decide, beside the figures.
type EpisodeReports = Omit<EpisodeResult, keyof EpisodeFigures>;

type Action<T extends AgentAction["type"]> = Extract<AgentAction, { type: T }>;

function draw(run: Run, kind: keyof typeof LATENCY): number {
  return run.latency.int(LATENCY[kind][0], LATENCY[kind][1]);
}

// Tells the agent the domain, its policy, the tools as the condition shows them and the time.
async function startAgent(run: Run): Promise<void> {
  const { world, options } = run;
  await options.agent.start({
    domain: world.domain.name,
    policy: world.domain.policy,
    tools: options.condition?.tools ?? world.domain.tools,
    now: run.ctx.clock.iso(),
    ...(options.condition?.hints ? { hints: options.condition.hints } : {}),
  });
}

// The user's opening message, the agent's first observation.
async function openConversation(run: Run): Promise<Observation> {
  const opening = await run.options.user.open();
  run.events.push(messageEvent(0, "user", opening, draw(run, "user")));
  return { step: 0, message: opening };
}

// One agent step: its action and the agent's next observation, or null when the episode is over.
async function agentStep(run: Run, step: number, obs: Observation): Promise<Observation | null> {
  const action = await run.options.agent.step(obs);
  if (action.type === "end") return endStep(run, step, action);
  if (action.type === "tool") return toolStep(run, step, action);
  return await messageStep(run, step, action);
}

// The agent ends the episode, with its confidence or the error that stopped it.
function endStep(run: Run, step: number, action: Action<"end">): null {
  if (typeof action.confidence === "number") {
    run.confidence = clamp01(action.confidence);
    run.confidenceSource = "stated";
  }
  if (action.error) run.agentError = action.error;
  run.events.push({
    step,
    actor: "agent",
    kind: "end",
    confidence: action.confidence,
    ...(action.error ? { text: action.error } : {}),
    latency_ms: 0,
  });
  run.endedBy = "agent";
  return null;
}

// A tool call through the condition's dispatcher, recorded with the rows it changed; a
// terminating tool that succeeds ends the episode.
function toolStep(run: Run, step: number, action: Action<"tool">): Observation | null {
  const { world } = run;
  const problem = argsProblem(action.args);
  if (problem !== null) {
    // Arguments too deep or too long to keep go no further than this: the record says what was wrong.
    const error = { code: "invalid_args" as const, message: `Invalid arguments for "${action.name}": ${problem}` };
    const args = { _refused: `arguments not kept: ${problem}` };
    run.events.push({
      step,
      actor: "tool",
      kind: "tool",
      tool: action.name,
      args,
      error,
      latency_ms: draw(run, "tool"),
    });
    return { step, tool: { name: action.name, args, ok: false, error } };
  }
  const { result, reached, changes } = dispatchCall(run, step, action);
  const event: Omit<EpisodeEvent, "latency_ms"> & { latency_ms?: number } = {
    step,
    actor: "tool",
    kind: "tool",
    tool: action.name,
    args: action.args,
    ...(result.ok ? { result: result.result } : { error: result.error }),
    ...(result.fault ? { fault: result.fault } : {}),
  };
  if (reached !== null) {
    if (!jsonEqual(reached.args, action.args)) event.world_args = reached.args;
    if (changes !== null && changes.length > 0) event.changes = changes;
  }
  event.latency_ms = draw(run, "tool");
  run.events.push(event as EpisodeEvent);
  if (result.ok && world.tool(action.name)?.terminates) {
    run.endedBy = "tool";
    return null;
  }
  return { step, tool: result };
}

// The call's outcome and what reached the world: under a perturbation, the arguments mapped back
// to the tool's own; null when the condition answered without calling the world (a fault).
function dispatchCall(
  run: Run,
  step: number,
  action: Action<"tool">,
): { result: DispatchResult; reached: { name: string; args: unknown } | null; changes: RowChange[] | null } {
  let reached: { name: string; args: unknown } | null = null;
  // The rows a writing call changed, net of the call (null when no writing call reached the world).
  let changes: RowChange[] | null = null;
  const call = (name: string, args: unknown) => {
    reached = { name, args };
    const answered = worldCall(run.world, run, name, args);
    changes = answered.changes;
    return answered.result;
  };
  const dispatch = run.options.condition?.dispatch;
  const result = dispatch
    ? dispatch({ step, name: action.name, args: action.args }, call)
    : call(action.name, action.args);
  return { result, reached, changes };
}

// The agent says something and the user replies; a reply that stops ends the episode.
async function messageStep(run: Run, step: number, action: Action<"message">): Promise<Observation | null> {
  const said: Message = { role: "agent", text: action.text, intent: action.intent };
  run.events.push(messageEvent(step, "agent", said, draw(run, "agent")));
  const reply = await run.options.user.reply(said);
  run.events.push(messageEvent(step, "user", reply, draw(run, "user")));
  if (reply.intent?.kind === "stop") {
    run.endedBy = "user";
    return null;
  }
  return { step, message: reply };
}

// Asks the agent and the user, once, how the episode went, however it ended.
async function finishEpisode(run: Run): Promise<EpisodeReports> {
  const agentReport: AgentReport = (await run.options.agent.finish?.()) ?? {};
  const userReport: UserReport = (await run.options.user.finish?.()) ?? {};
  let { confidence, confidenceSource } = run;
  if (confidence === null && typeof agentReport.confidence === "number") {
    confidence = clamp01(agentReport.confidence);
    confidenceSource = agentReport.confidenceSource ?? "stated";
  }
  return {
    endedBy: run.endedBy,
    confidence,
    confidenceSource,
    agentResources: { ...agentReport.resources },
    agentError: run.agentError ?? agentReport.error ?? null,
    agentRetries: agentReport.retries ?? null,
    agentBlocks: (agentReport.blocks ?? []).map((b) => ({
      step: b.step,
      tool: b.tool,
      label: b.label,
      missing: b.missing,
    })),
    agentAbstained: agentReport.abstained ? { ...agentReport.abstained } : null,
    userError: userReport.error ?? null,
    userResources: { ...userReport.resources },
    userMisread: userReport.misread
      ? { messages: userReport.misread.messages, unread: userReport.misread.unread }
      : null,
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
  | "agentBlocks"
  | "agentAbstained"
  | "userError"
  | "userMisread"
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
  toolEvents.forEach((e, i) => {
    if (!e.fault) return;
    faults++;
    const next = toolEvents.slice(i + 1).find((f) => !f.error && !f.fault && plan.has(f.tool!));
    if (next) recoverySteps.push(next.step - e.step);
  });
  return { faults, recoverySteps };
}

function messageEvent(step: number, actor: "user" | "agent", message: Message, latency: number): EpisodeEvent {
  return {
    step,
    actor,
    kind: "message",
    text: message.text,
    intent: message.intent,
    ...(message.read ? { read: message.read } : {}),
    latency_ms: latency,
  };
}

function clamp01(x: number): number {
  return Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0;
}
