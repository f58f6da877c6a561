/**
 * The steps of one episode of `runEpisode()` (envs/episode.ts): starting the agent, the opening, each
 * agent step (a tool call through the condition's dispatcher, a message and the user's reply, or the
 * end) and the agent's and user's reports once it is over.
 *
 * @module
 */
import { jsonEqual } from "./json.ts";
import { argsProblem } from "./call.ts";
import { type AbnormalSchedule, worldCall } from "./abnormal.ts";
import type { Rng } from "./rng.ts";
import type { Recording, World } from "./world.ts";
import type { AgentAction, AgentReport, Observation } from "./agent.ts";
import type { RowChange } from "./changeset.ts";
import type { EpisodeEvent } from "./events.ts";
import type { Message } from "./message.ts";
import type { ToolContext } from "./tool.ts";
import type { UserReport } from "./user_sim.ts";
import type { DispatchResult, EpisodeFigures, EpisodeOptions, EpisodeResult } from "./_episode_types.ts";

// Simulated latencies (ms): a tool call, an agent's message, a user's reply.
const LATENCY = { tool: [80, 250], agent: [400, 1200], user: [1500, 6000] } as const;

// An episode while it runs: what its tools see, its events so far and how it ended.
export interface Run {
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
export type EpisodeReports = Omit<EpisodeResult, keyof EpisodeFigures>;

type Action<T extends AgentAction["type"]> = Extract<AgentAction, { type: T }>;

function draw(run: Run, kind: keyof typeof LATENCY): number {
  return run.latency.int(LATENCY[kind][0], LATENCY[kind][1]);
}

// Tells the agent the domain, its policy, the tools as the condition shows them and the time.
export async function startAgent(run: Run): Promise<void> {
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
export async function openConversation(run: Run): Promise<Observation> {
  const opening = await run.options.user.open();
  run.events.push(messageEvent(0, "user", opening, draw(run, "user")));
  return { step: 0, message: opening };
}

// One agent step: its action and the agent's next observation, or null when the episode is over.
export async function agentStep(run: Run, step: number, obs: Observation): Promise<Observation | null> {
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
export async function finishEpisode(run: Run): Promise<EpisodeReports> {
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
