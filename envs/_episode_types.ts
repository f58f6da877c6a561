/**
 * The episode loop's public types (envs/episode.ts re-exports them): what `runEpisode()` takes, how
 * a condition changes an episode, and what an episode comes to (its result, and the figures its
 * events alone decide).
 *
 * @module
 */
import type { Grade } from "./grade.ts";
import type { Rng } from "./rng.ts";
import type { Abstained, Agent, AgentReport, BlockedCall, ToolResult } from "./agent.ts";
import type { EpisodeEvent } from "./events.ts";
import type { Json } from "./json.ts";
import type { Task } from "./task.ts";
import type { Tool } from "./tool.ts";
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
