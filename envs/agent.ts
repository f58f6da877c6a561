/**
 * The agent port: what an agent is told when an episode starts, what it observes before each step,
 * the step it takes and what it reports once the episode is over; and the port of a domain's
 * scripted playbook (`Solver`), which the scripted agents drive.
 *
 * @module
 */
import type { Json } from "./json.ts";
import type { Intent, Message } from "./message.ts";
import type { Tool, ToolErrorCode } from "./tool.ts";

/** One step of an agent: call a tool, say something to the user, or end with a confidence in [0, 1]. */
export type AgentAction =
  | { type: "tool"; name: string; args: unknown }
  | { type: "message"; text: string; intent?: Intent }
  | {
    type: "end";
    confidence?: number;
    /** Why the agent could not go on (e.g. its model kept failing); recorded as an agent error. */
    error?: string;
  };

/** The outcome of a tool call as the agent sees it. */
export interface ToolResult {
  /** The tool called, as the agent named it. */
  name: string;
  /** The arguments, as the agent gave them. */
  args: unknown;
  /** Whether the call succeeded: `result` is then set, otherwise `error`. */
  ok: boolean;
  /** The tool's output when `ok`. */
  result?: Json;
  /** The error when not `ok`. */
  error?: { code: ToolErrorCode; message: string };
}

/** What an agent observes before each step: the newest user message or tool result. */
export interface Observation {
  /** The agent step that led to it: 0 for the opening message, then 1, 2, … */
  step: number;
  /** The user's newest message, when the previous step was a message (or at the start). */
  message?: Message;
  /** The result of the agent's previous tool call. */
  tool?: ToolResult;
}

/** What an agent is told when an episode starts. */
export interface AgentContext {
  /** The domain's name, e.g. `"airline"`. */
  domain: string;
  /** The domain policy (markdown), e.g. for an LLM system prompt. */
  policy: string;
  /** The tools the agent may call, as the episode's condition shows them. */
  tools: readonly Tool[];
  /** The simulated clock's current time, ISO 8601. */
  now: string;
  /** What the episode's condition tells the agent (e.g. how tool results are perturbed). */
  hints?: Record<string, Json>;
}

/** An agent under test. Stateful within one episode; `start` resets it. */
export interface Agent {
  /** A short name for the agent, e.g. `"oracle"`. */
  name: string;
  /** Called once before the first step with the episode's domain, policy, tools and time; resets the agent. */
  start(ctx: AgentContext): void | Promise<void>;
  /** The agent's next action, one per step, from the newest observation. */
  step(obs: Observation): AgentAction | Promise<AgentAction>;
  /** Asked once when the episode is over, however it ended: confidence, resources used, errors. */
  finish?(): AgentReport | Promise<AgentReport>;
}

/** What an agent says about an episode once it is over. */
export interface AgentReport {
  /** Confidence in [0, 1] that the task was done right. */
  confidence?: number;
  /** How the confidence was obtained: the model's own answer, or a documented fallback heuristic. */
  confidenceSource?: "stated" | "elicited" | "heuristic";
  /** Resources of docs/metrics.md the agent used (model calls): any subset; `cost: null` when its model has no price. */
  resources?: { cost?: number | null; api_calls?: number; call_latency?: number; tokens?: number };
  /** Failed model-call attempts that were retried (rate limits, server errors, time-outs). */
  retries?: number;
  /** A failure of the agent itself (not of a tool), e.g. a malformed model response. */
  error?: string;
  /**
   * Tool calls a runtime check stopped before they reached the world (the checkpoint wrapper), in
   * order: the step, the tool, the label of the gap and what was missing.
   */
  blocks?: BlockedCall[];
  /**
   * Whether the agent stopped short of the request on purpose, and why: the label of the gap and
   * the precondition it named (a scripted agent declares it; for a language agent the outcome of an
   * abstention scenario is read from what it did and said instead).
   * @default {none declared}
   */
  abstained?: Abstained;
}

/** An agent's own account of stopping short of the request (see `AgentReport.abstained`). */
export interface Abstained {
  /** The gap it stopped at: a missing input, an unconfirmed state, or a missing approval. */
  label: BlockedCall["label"];
  /** The precondition it named: a fact or argument, the look-up that failed, or `approval`. */
  reason: string;
}

/** A tool call a runtime check stopped before it reached the world (see `AgentReport.blocks`). */
export interface BlockedCall {
  /** The agent step of the call. */
  step: number;
  /** The tool called. */
  tool: string;
  /** What the check did: `grounding_warning`, `blocked_constraint` or `blocked_commitment`. */
  label: "grounding_warning" | "blocked_constraint" | "blocked_commitment";
  /** What was missing: an argument's name, an identifier nobody gave, or the approval. */
  missing: string;
}

/**
 * How a domain's scripted playbook behaves: the two switches between the scripted agents. The
 * `oracle`, `noisy` and `literal` agents (agents/scripted.ts) take `{ confirm: true, verify: true }`,
 * `reckless` takes `{ confirm: false, verify: false }`.
 */
export interface SolverOptions {
  /**
   * Propose every write (`propose` intent) and make it only after the user's `confirm`; a
   * `decline` (or any other answer) means no change. When false, writes are made at once.
   */
  confirm: boolean;
  /**
   * Look up and check eligibility (the policy's rules) before acting, and refuse what the policy
   * forbids; when false, act on what the user says.
   */
  verify: boolean;
}

/**
 * A domain's scripted playbook (`Domain.solver`), run under the playbook protocol (`Intent`;
 * docs/domains.md "The playbook protocol"); `playbookSolver()` (envs/playbook.ts) is the shared
 * machinery. It decides the next action from observations only: the first is the user's
 * opening `request`, then after each message the user's reply and after each tool call its
 * result. It never reads the task's gold or facts. Tool failures arrive as results with
 * `ok: false` and an error code (`not_found`, `invalid_args`, `policy`, `unknown_tool`, or
 * `fault` for a condition's injected fault, which never reached the world; the scripted agents'
 * adapter, agents/adapt.ts, retries a fault or gives up itself, so their playbooks never see
 * one). It must never throw on an unexpected observation (an error result, a declined proposal,
 * garbage): it recovers or ends politely. The episode ends when the agent ends (`{ type: "end" }`),
 * the user stops, a tool declared `terminates` succeeds, or the episode's step limit is reached.
 */
export interface Solver {
  /** The next action, one per step, from the newest observation. */
  next(obs: Observation): AgentAction;
  /**
   * Whether it stopped short of the request on purpose so far, and why (see `Abstained`).
   * @default {never declares}
   */
  abstained?(): Abstained | null;
}
