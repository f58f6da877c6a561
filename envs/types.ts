/**
 * The few types everything in ark meets at: tools, domains, tasks, messages,
 * agents, user simulators and episode events (what domains and tools declare for the safety
 * judge is in `constraints.ts`).
 *
 * @module
 */
import type { ZodType } from "zod";
import type { Store } from "./_sqlite.ts";
import type { Rng } from "./rng.ts";
import type { Clock } from "./clock.ts";
import type { Detail, DomainConstraints } from "./constraints.ts";

/** A JSON value. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** What a tool's `run` may touch: the world's database, the simulated clock and seeded randomness. */
export interface ToolContext {
  db: Store;
  clock: Clock;
  rng: Rng;
}

/** A tool an agent can call. Made by `defineTool()`. */
export interface Tool<I = unknown> {
  name: string;
  description: string;
  /** Zod schema of the arguments; the JSON Schema offered to models is derived from it. */
  input: ZodType<I>;
  /**
   * A JSON Schema of the arguments that overrides the one derived from `input` (what
   * `toolParameters()` returns), e.g. a condition's copy of a tool with renamed parameters.
   * @default {derived from `input`}
   */
  parameters?: Record<string, unknown>;
  /** Whether the tool may change the world. Read tools run under an authorizer that refuses writes. */
  writes: boolean;
  /** Whether calling the tool ends the episode (e.g. a transfer to a human). */
  terminates: boolean;
  /**
   * Whether a successful call hands the conversation over to a human; its string arguments are
   * the hand-over summary (a `transfer` task is earned by such a call with a non-empty summary).
   * @default {false}
   */
  handsOver?: boolean;
  /**
   * Whether a successful call cannot be undone, or only at a cost (cancelling, deleting): it needs
   * the user's explicit approval (the judge's `destructive_operation`).
   * @default {false}
   */
  irreversible?: boolean;
  /**
   * The argument naming the customer whose identity a successful call establishes when its value
   * came from the user, e.g. `"user_id"` of a profile look-up (the judge's `authentication`).
   * @default {undefined: the tool identifies nobody}
   */
  identifies?: string;
  /**
   * The customer whose data a call reads or changes, from its arguments (as the world received
   * them) and the world as it was before the episode (read-only); `null` for none or unknown.
   * @default {undefined: the tool concerns no customer's data}
   */
  customer?(args: Json, db: Store): string | null;
  /**
   * The key details that must have been said before this write is approved (amounts, new values,
   * what it acts on), from its arguments and the world before the episode (read-only). A detail
   * given as a list is said when any of its values is (e.g. a reservation named by its id or by its
   * price). Strings match as whole tokens, numbers as amounts (see the judge's text checks).
   * @default {every string and number at the top level of the arguments}
   */
  details?(args: Json, db: Store): Detail[];
  /** Runs the tool. Returns a JSON-serialisable value or throws a `ToolError`. */
  run(ctx: ToolContext, args: I): Json;
}

/** A call of a tool by name with arguments. */
export interface ToolCall {
  name: string;
  args: Record<string, Json>;
}

/**
 * Structured meaning of a message, so scripted agents and users can act without
 * parsing language. Language-model agents see only the text.
 */
export type Intent =
  /** The user's opening: what they want (`goal`) and the facts they volunteer. */
  | { kind: "request"; goal: string; facts: Record<string, Json> }
  /** The agent asks the user for facts it needs (field names from the task's facts). */
  | { kind: "ask"; fields: string[] }
  /** The user gives facts. */
  | { kind: "provide"; facts: Record<string, Json> }
  /** The user does not know or will not give the asked field. */
  | { kind: "unknown"; fields: string[] }
  /** The agent proposes a write and waits for an explicit yes. */
  | { kind: "propose"; call: ToolCall }
  /** The user answers a proposal. */
  | { kind: "confirm" }
  | { kind: "decline" }
  /** The agent refuses the request, naming the rule. */
  | { kind: "refuse"; reason: string }
  /** The agent reports the outcome of what it did. */
  | { kind: "inform"; facts?: Record<string, Json> }
  /** The agent hands over to a human. */
  | { kind: "transfer" }
  /** The user ends the conversation. */
  | { kind: "stop"; satisfied: boolean };

/** One message of the conversation. */
export interface Message {
  role: "user" | "agent";
  text: string;
  intent?: Intent;
}

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
  name: string;
  args: unknown;
  ok: boolean;
  /** The tool's output when `ok`. */
  result?: Json;
  /** The error when not `ok`. */
  error?: { code: ToolErrorCode; message: string };
}

/** What an agent observes before each step: the newest user message or tool result. */
export interface Observation {
  step: number;
  /** The user's newest message, when the previous step was a message (or at the start). */
  message?: Message;
  /** The result of the agent's previous tool call. */
  tool?: ToolResult;
}

/** What an agent is told when an episode starts. */
export interface AgentContext {
  domain: string;
  /** The domain policy (markdown), e.g. for an LLM system prompt. */
  policy: string;
  tools: readonly Tool[];
  /** The simulated clock's current time, ISO 8601. */
  now: string;
  /** What the episode's condition tells the agent (e.g. how tool results are perturbed). */
  hints?: Record<string, Json>;
}

/** An agent under test. Stateful within one episode; `start` resets it. */
export interface Agent {
  name: string;
  start(ctx: AgentContext): void | Promise<void>;
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
  /** Resources of METRICS.md the agent used (model calls): any subset. */
  resources?: { cost?: number; api_calls?: number; call_latency?: number; tokens?: number };
  /** Failed model-call attempts that were retried (rate limits, server errors, time-outs). */
  retries?: number;
  /** A failure of the agent itself (not of a tool), e.g. a malformed model response. */
  error?: string;
}

/** Builds a fresh agent for one episode from a seeded generator. `run` is the run index (0..K−1). */
export type AgentFactory = (options: { rng: Rng; domain: Domain; task: Task; run?: number }) => Agent;

/** A user simulator for one episode. */
export interface UserSimulator {
  /** The opening message. */
  open(): Message | Promise<Message>;
  /** The reply to an agent message, or a message whose intent is `stop`. */
  reply(message: Message): Message | Promise<Message>;
  /** Asked once at the end: whether the simulator left its script (such episodes are not the agent's fault). */
  finish?(): UserReport | Promise<UserReport>;
}

/** What a user simulator says about an episode once it is over. */
export interface UserReport {
  /** Why the simulated user left its script (revealed what it was not told, changed the goal, ended too early). */
  error?: string;
  /** Resources the simulator used (model calls). */
  resources?: { cost?: number; api_calls?: number; call_latency?: number; tokens?: number };
}

/**
 * A checkpoint of a task: an outcome the grader verifies in the world or the conversation,
 * never a look-up (METRICS.md "Milestones are outcomes, not calls").
 *
 * - `change`: the rows gold call `gold` (an index into `Task.gold`) changes are present in the
 *   world with the values that call gives them;
 * - `told`: every string of `outputs` appeared in the agent's messages;
 * - `refused`: the agent refused, with the task's outputs (the policy reason) said by then;
 * - `handed_over`: a tool that hands over to a human succeeded with a non-empty summary.
 */
export type Milestone =
  | { kind: "change"; label: string; gold: number }
  | { kind: "told"; label: string; outputs: string[] }
  | { kind: "refused"; label: string }
  | { kind: "handed_over"; label: string };

/** What a correct agent does on a task (METRICS.md "Grading"). */
export type Expect = "act" | "refuse" | "transfer" | "inform";

/** A task of a domain, with its gold outcome. */
export interface Task {
  /** `<domain>/<index>`. */
  id: string;
  /** What kind of request it is, e.g. `cancel_allowed`. */
  intent: string;
  /** What the user wants, for the user simulator and scripted agents (`Intent` request goal). */
  goal: string;
  /** Everything the user knows and may reveal when asked. */
  facts: Record<string, Json>;
  /** Facts the user states in the opening message without being asked. */
  volunteered: string[];
  /** At least five paraphrases of the opening request. */
  openings: string[];
  /** Gold tool calls, in order; replayed on a fresh world to get the gold change. */
  gold: ToolCall[];
  /**
   * Strings that must appear in the agent's messages (case-insensitive, commas ignored): the facts
   * to tell (`act`, `inform`) or the policy reason a refusal names (`refuse`).
   */
  outputs: string[];
  /** Ordered checkpoints, outcomes only (see `outcomeMilestones()`). */
  milestones: Milestone[];
  /** What a correct agent does: act (the gold change), refuse, transfer to a human, or inform. */
  expect: Expect;
  /** Free-form notes on why the gold is what it is (shown in reports). */
  rationale?: string;
  /**
   * How `success` is decided: `"outcome"`, the expected outcome earned (METRICS.md "Grading"), or
   * `"tau-bench"`, τ-bench's reward (the change equals the gold change and the outputs were said),
   * for a τ-bench task scored as τ-bench scores it; the outcome grade is then kept beside it.
   * @default {"outcome"}
   */
  rule?: "outcome" | "tau-bench";
}

/** The rows of a world, by table, in insertion order. */
export type Rows = Record<string, Record<string, Json>[]>;

/** A domain: a simulated business. Made by `defineDomain()`; one folder under `envs/`. */
export interface Domain<D = unknown> {
  name: string;
  /** The policy shown to agents (markdown). */
  policy: string;
  /** SQL that creates the tables. */
  schema: string;
  /** The simulated time at the start of every episode (ISO 8601). */
  now: string;
  /** Seeded generator of the domain's data at a scale (1 = the default size). */
  generate(rng: Rng, scale: number): D;
  /** Turns the domain's data into table rows. */
  rows(data: D): Rows;
  /** Reads the domain's data back from a world's database. */
  read(db: Store): D;
  tools: readonly Tool[];
  /** Seeded task generator over a generated world. */
  tasks(rng: Rng, count: number, data: D): Task[];
  /** The domain's scripted playbook, which the scripted agents (`oracle`, `noisy`, `reckless`) drive. */
  solver(options: SolverOptions): Solver;
  /**
   * What the safety judge checks in this domain beyond what its tools declare: whose rows are
   * whose, where money moves, personal data, severity rules and the domain's own policy rules.
   * @default {the generic constraints only, on what the tools declare}
   */
  constraints?: DomainConstraints;
  /**
   * Reading τ-bench's copy of this world: its data and test tasks from a folder of τ-bench's files
   * (`db.json`, `tasks_test.json`), so τ-bench's runs can be replayed and judged in ark's world.
   * Throws an `Error` naming the file when the folder does not hold them.
   * @default {undefined: τ-bench has no such world}
   */
  tauBench?: {
    load(dir: string): { data: D; tasks: TauBenchTask[] };
    /**
     * The known reasons a result τ-bench recorded for a call differs from this world's (a field
     * τ-bench's data renamed since, a quirk ark does not reproduce), for the import's fidelity report.
     * @default {none}
     */
    differences?: readonly TauBenchDifference[];
  };
}

/** A known reason a result τ-bench recorded differs from the one ark's world gives for the same call. */
export interface TauBenchDifference {
  /** A short name, e.g. `"address_province"`. */
  name: string;
  /** What differs and why, one sentence for the import report. */
  reason: string;
  /**
   * Whether the two results say the same thing in other words (a renamed field), rather than
   * differ in substance (a τ-bench quirk ark deliberately does not reproduce).
   */
  equivalent: boolean;
  /**
   * Whether this explains a call's difference: the tool, its arguments, the recorded result (its
   * JSON parsed, or the text) and the world's (its result, or `"Error: "` and the message).
   */
  explains(call: { tool: string; args: unknown; recorded: Json; result: Json }): boolean;
}

/** A τ-bench task as its task file holds it: the customer, the gold actions in order and the outputs. */
export interface TauBenchTask {
  task_id: number;
  user_id: string;
  /** The hidden brief of τ-bench's simulated user. */
  instruction?: string;
  /** The gold actions, in order. */
  actions: { name: string; kwargs: Record<string, Json> }[];
  /** Strings the agent's replies must contain. */
  outputs?: string[];
}

/** Codes of domain failures that the episode loop shows to the agent. */
export type ToolErrorCode = "not_found" | "invalid_args" | "policy" | "fault" | "unknown_tool";

/** One event of an episode, in order. */
export interface EpisodeEvent {
  step: number;
  actor: "user" | "agent" | "tool";
  kind: "message" | "tool" | "end";
  /** For tool events: the tool's name. */
  tool?: string;
  args?: unknown;
  result?: Json;
  error?: { code: ToolErrorCode; message: string };
  text?: string;
  intent?: Intent;
  confidence?: number;
  /** The fault a condition injected into this tool call, if any (a faulted call never reached the world). */
  fault?: string;
  /** The arguments as the world received them, when a condition changed them (a perturbed interface). */
  world_args?: unknown;
  /** The rows this call changed in the world, when it changed any (net of the call, full rows). */
  changes?: RowChange[];
  /** Simulated latency of the step, in milliseconds. */
  latency_ms: number;
}

/** One changed row: its table, primary key, and values before and after (`null` when absent). */
export interface RowChange {
  table: string;
  key: Json[];
  before: Record<string, Json> | null;
  after: Record<string, Json> | null;
}

/** How a domain's scripted playbook behaves. */
export interface SolverOptions {
  /** Propose every write and wait for an explicit yes before making it. */
  confirm: boolean;
  /** Look up and check eligibility (policy rules) before acting; when false, act on what the user says. */
  verify: boolean;
}

/**
 * A domain's scripted playbook: decides the next action from observations only
 * (the user's messages with their intents, and tool results). It never reads the
 * task's gold or facts. It must never throw on an unexpected observation (an
 * error result, a declined proposal, garbage): it recovers or ends politely.
 */
export interface Solver {
  next(obs: Observation): AgentAction;
}
