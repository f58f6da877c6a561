/**
 * The few types everything in ark meets at: tools, domains, tasks, messages,
 * agents, user simulators and episode events (what domains and tools declare for the safety
 * judge is in `constraints.ts`).
 *
 * @module
 */
import type { z } from "zod";
import type { Store } from "./sqlite.ts";
import type { Dependency, Gap, OutcomeKind, TaskCategory } from "../vocabulary/mod.ts";
import type { Rng } from "./rng.ts";
import type { Clock } from "./clock.ts";
import type { Detail, DomainConstraints, JudgePolicy, WriteTerms } from "./constraints.ts";
import type { Vocabulary } from "./vocabulary.ts";

/** A JSON value. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * What a tool's `run` may touch: the world's database, the simulated clock and seeded randomness.
 *
 * Every run of a task gives its tools the same context, so that a write drawing an id from `rng`
 * or stamping `clock.iso()` makes the same row in the gold replay (`World.goldReplay()`), in every
 * episode of the task (`runEpisode()`) and in a replayed transcript (`replayTrajectory()`): `rng`
 * is the task's own generator, derived from the task id alone (`World.taskContext()`), fresh for
 * each run, and `clock` stands at the domain's `now` for the whole run. The simulated latency of
 * an episode is counted on its events (`latency_ms`), never on the tools' clock. The same calls in
 * the same order therefore give the same results; a tool reads the clock and never advances it.
 */
export interface ToolContext {
  /** The world's database (read tools run under an authorizer that refuses writes). */
  db: Store;
  /** The simulated time, at the domain's `now` for the whole run of a task. */
  clock: Clock;
  /** The task's generator: the same draws in its gold replay and in each of its episodes. */
  rng: Rng;
}

/**
 * Zod's schema type under a local name: `deno doc --lint` reports any reference to another
 * package's type as private (denoland/deno#27364).
 *
 * @internal
 */
type ZodType<T = unknown> = z.ZodType<T>;

/** A tool an agent can call. Made by `defineTool()`. */
export interface Tool<I = unknown> {
  /** The name agents call it by: 1 to 64 letters, digits, "_" or "-", unique in its domain. */
  name: string;
  /** What the tool does and when to use it, as models are told. */
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
   * Whether the policy wants the user's explicit yes before this write (the judge's
   * `explicit_confirmation`); `false` for the agent's own notes, e.g. a worksheet of intermediate
   * results. An irreversible write needs its approval whatever this says.
   * @default {true for a write}
   */
  confirm?: boolean;
  /**
   * The arguments whose values, all said by the user, make a successful call establish the
   * customer's identity (the judge's `authentication`): one argument naming the customer, e.g.
   * `"user_id"` of a profile look-up, or several that together find them, e.g. a name and a
   * postal code. The customer identified is `customer(args, db)` when the tool declares it, else
   * the value of the one argument.
   * @default {undefined: the tool identifies nobody}
   */
  identifies?: string | readonly string[];
  /**
   * The customer whose data a call reads or changes, from its arguments (as the world received
   * them) and the world as it was before the episode (read-only); `null` for none or unknown.
   * @default {undefined: the tool concerns no customer's data}
   */
  customer?(args: Json, db: Store): string | null;
  /**
   * A result cut short, for a task whose world answers this reading tool with a partial result
   * (`AbnormalCall` of kind `partial`): e.g. the first rows of a page marked incomplete.
   * @default {undefined: the tool has no partial form; a partial call is answered as a timeout}
   */
  partial?(result: Json): Json;
  /**
   * The key details that must have been said before this write is approved (amounts, new values,
   * what it acts on), from its arguments and the world before the episode (read-only). A detail
   * given as a list is said when any of its values is (e.g. a reservation named by its id or by its
   * price). Strings match as whole tokens, numbers as amounts (see the judge's text checks).
   * @default {every string and number at the top level of the arguments}
   */
  details?(args: Json, db: Store): Detail[];
  /**
   * What a yes to this write agreed to, from its arguments and the world before the episode
   * (read-only): the record, the money it moves, the payment method, the parts it sets and removes.
   * The judge's `explicit_confirmation` finds a write that does more or other than the proposal the
   * user approved said (another card, a higher total, more segments, dropped flights).
   * @default {undefined: only the details are checked}
   */
  terms?(args: Json, db: Store): WriteTerms;
  /**
   * Runs the tool. Returns a JSON-serialisable value or throws a `ToolError`. It touches only
   * `ctx` and its arguments; ids and times it writes come from `ctx.rng` and `ctx.clock`, which
   * are the same in a task's gold replay and in its episodes (see `ToolContext`), so a correct run
   * writes exactly the gold's rows.
   */
  run(ctx: ToolContext, args: I): Json;
}

/** A call of a tool by name with arguments. */
export interface ToolCall {
  /** The tool's name. */
  name: string;
  /** The arguments, by parameter name. */
  args: Record<string, Json>;
}

/**
 * Structured meaning of a message, so scripted agents and users can act without
 * parsing language. Language-model agents see only the text. This is the playbook protocol
 * between a domain's playbook (`Solver`) and the scripted user (`scriptedUser()`), described
 * whole in docs/domains.md "The playbook protocol": the user opens with `request`; the agent
 * asks, proposes, refuses, informs or hands over; the user provides, says it does not know,
 * confirms, declines or stops. A message without an intent (or with another one) gets a nudge
 * from the scripted user, a `provide` with no facts; a nudge that would be its `patience`-th reply
 * without progress (nudges, `unknown`s, `decline`s) is a `stop`, unsatisfied, instead.
 */
export type Intent =
  /**
   * User → agent, the opening: what they want (`goal`, the task's `goal`) and the facts they
   * volunteer (the task's `volunteered` facts).
   */
  | {
    kind: "request";
    goal: string;
    facts: Record<string, Json>;
    /**
     * Further changes asked for in the same opening (the task's `also`), each with its own goal and
     * facts: a playbook handles them in turn after the first.
     */
    also?: { goal: string; facts: Record<string, Json> }[];
  }
  /**
   * Agent → user: asks for facts it needs (field names from the task's facts). The scripted user
   * answers `provide` with those it knows, or `unknown` when it knows none of them.
   */
  | { kind: "ask"; fields: string[] }
  /** User → agent: gives facts (none when it is only nudging the agent on). */
  | { kind: "provide"; facts: Record<string, Json> }
  /** User → agent: it does not know, or will not give, the asked fields. */
  | { kind: "unknown"; fields: string[] }
  /**
   * Agent → user: proposes a write and waits for an explicit yes. The scripted user confirms
   * only a call of a tool that writes whose name and arguments deep-equal (key order aside) a
   * gold call not confirmed yet; it declines anything else.
   */
  | { kind: "propose"; call: ToolCall }
  /** User → agent: yes to the proposal just made. */
  | { kind: "confirm" }
  /**
   * User → agent: no to the proposal just made; the agent makes no change. `facts` are the user's
   * corrections, when the proposal stated one of its facts otherwise (a playbook may propose again
   * with them).
   */
  | { kind: "decline"; facts?: Record<string, Json> }
  /**
   * Agent → user: refuses the request, naming the rule in the text (where the grader looks for
   * the task's `outputs`). The scripted user stops, satisfied when the task expects a refusal.
   */
  | { kind: "refuse"; reason: string }
  /**
   * Agent → user: reports the outcome of what it did, or the facts asked for (`{ outcome:
   * "not_done" }` when it gives up). The scripted user stops, satisfied, when the task expects
   * `inform`, or `act` and it confirmed every gold write (at least one); otherwise it nudges.
   */
  | { kind: "inform"; facts?: Record<string, Json> }
  /**
   * Agent → user: hands over to a human in words. The scripted user stops, satisfied when the
   * task expects a transfer; the hand-over itself is a call of a tool declared `handsOver`.
   */
  | { kind: "transfer" }
  /** User → agent: ends the conversation, and the episode with it. */
  | { kind: "stop"; satisfied: boolean };

/** One message of the conversation. */
export interface Message {
  /** Who says it. */
  role: "user" | "agent";
  /** What is said, as a language agent or user reads it. */
  text: string;
  /** What it means for scripted agents and the scripted user; absent from language models' messages. */
  intent?: Intent;
  /** For a simulated user's reply: how it read the agent's message it answers. */
  read?: UserRead;
}

/**
 * How a simulated user read the agent's message it answers (an event's `read`): what it took the
 * message to be, the facts it took it to ask for or to state, and the change it took it to propose.
 */
export interface UserRead {
  /**
   * What the message was to the user: a request for facts, a proposal, a claim that the request was
   * done, a refusal, a hand-over, information, a greeting, or nothing it could read (`unread`).
   */
  kind: "ask" | "propose" | "done" | "refuse" | "transfer" | "inform" | "greet" | "unread";
  /** The facts it took the message to ask for (`ask`) or to state as its own (`propose`). */
  fields: string[];
  /** The change it took a proposal to make (a name of the domain's vocabulary), else `null`. */
  action: string | null;
  /**
   * The facts a proposal stated otherwise than the user knows them, or that it could not check (a
   * value it does not have); the user declines such a proposal unless it is trusting.
   * @default {none}
   */
  conflicts?: string[];
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
  /** Resources the simulator used (model calls); `cost: null` when its model has no price. */
  resources?: { cost?: number | null; api_calls?: number; call_latency?: number; tokens?: number };
  /**
   * The agent's messages the simulator read as text (without an intent), and how many of them it
   * could not read at all: a simulator that cannot read an agent makes its results meaningless.
   * @default {none read as text}
   */
  misread?: { messages: number; unread: number };
}

/**
 * A checkpoint of a task: an outcome the grader verifies in the world or the conversation,
 * never a look-up (docs/metrics.md "Milestones are outcomes, not calls").
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

/** What a correct agent does on a task (docs/metrics.md "Grading"). */
export type Expect = OutcomeKind;

/** A task of a domain, with its gold outcome. */
export interface Task {
  /**
   * `<domain>/<index>`, or `<source>:<domain>/<index>` for another benchmark's task (built with
   * `taskId()`, read with `parseTaskId()`). It seeds the generator the task's tools draw from.
   */
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
   * How `success` is decided: `"outcome"`, the expected outcome earned (docs/metrics.md "Grading"), or
   * `"tau-bench"`, τ-bench's reward (the change equals the gold change and the outputs were said),
   * for a τ-bench task scored as τ-bench scores it; the outcome grade is then kept beside it.
   * @default {"outcome"}
   */
  rule?: "outcome" | "tau-bench";
  /**
   * Which of the four kinds of task it is (written into records): `normal` (the happy path),
   * `edge` (empty results, boundaries, nulls, zero amounts), `abnormal` (the world misbehaves for
   * this task, see `abnormal`), `noise` (junk and planted instructions in the data or the prompt).
   * @default {none: the domain does not sort its tasks into categories}
   */
  category?: TaskCategory;
  /**
   * The long-horizon family the task belongs to (written into records), e.g. `"referral_chain"`:
   * its tasks differ in `length` only, so reliability can be compared across lengths (`R_len`).
   * @default {none}
   */
  family?: string;
  /**
   * The length class of a long-horizon task: its number of milestones (written into records).
   * @default {none}
   */
  length?: number;
  /**
   * How a long-horizon task's steps depend on each other (written into records): `strong`, each
   * needs the previous one's result; `weak`, independent subtasks in one conversation.
   * @default {none}
   */
  dependency?: Dependency;
  /**
   * Calls the world itself answers wrongly in this task (the `abnormal` category), apart from any
   * condition: the episode loop answers them without running the tool, or with a partial result.
   * @default {none}
   */
  abnormal?: readonly AbnormalCall[];
  /**
   * Agent steps the task needs at least: an episode runs for the larger of this and the
   * experiment's `maxSteps` (long-horizon tasks take several steps per milestone).
   * @default {the experiment's maxSteps}
   */
  maxSteps?: number;
  /**
   * Facts the user knows it does not have (a specification scenario's hazardous twin): it says so
   * when asked, and cannot approve a proposal that names one of them.
   * @default {none}
   */
  lacks?: string[];
  /**
   * Whether the user has not decided yet (an authority scenario's hazardous twin): it approves no
   * change, whatever is proposed.
   * @default {false}
   */
  undecided?: boolean;
  /**
   * Further changes the user asks for in the same opening, after the first (`goal`), e.g. the same
   * change on another of its records: each with its own goal and facts (all said in the opening; a
   * fact of the same name as one of `facts` is of that request only). The gold, outputs and
   * expected outcome are the whole task's.
   * @default {none: one request}
   */
  also?: FurtherRequest[];
  /**
   * For an abstention scenario (docs/metrics.md "Abstention"; built by `buildScenarios()` from the
   * domain's `scenarios` templates): which pair it belongs to, whether acting is wrong
   * (`hazardous`) or right (`safe`), the gap and what the hazardous twin leaves unmet.
   * @default {none: the task is not a scenario}
   */
  scenario?: ScenarioInfo;
}

export type { Gap } from "../vocabulary/mod.ts";

/** What makes a task an abstention scenario (see `Task.scenario`). */
export interface ScenarioInfo {
  /** The pair's id, shared by the hazardous scenario and its safe twin, e.g. `"airline:cancel_no_id#0"`. */
  pair: string;
  /** The template the pair comes from. */
  template: string;
  /** `hazardous`: a precondition is unmet and the agent must not act; `safe`: the same action, met. */
  kind: "hazardous" | "safe";
  /** The kind of precondition the pair tests. */
  gap: Gap;
  /** The precondition the hazardous twin leaves unmet, as an informed refusal names it. */
  missing: string;
  /** The write the pair is about: executed when a call of it reached the world. */
  action: string;
  /**
   * The kind of hazard the pair tests, finer than its gap (docs/metrics.md "Abstention"): the
   * report counts outcomes per kind. The three kinds the first templates build are `missing_fact`
   * (specification), `failed_lookup` (verification) and `no_approval` (authority).
   * @default {the gap's first kind}
   */
  hazard?: string;
  /**
   * The writes that make the hazardous twin `executed` when one reached the world: a call of `tool`
   * (without one: of any write that needs the user's yes) whose arguments hold every one of `args`
   * (compared as canonical JSON). A hazardous twin whose gold
   * keeps some writes (a request over "all" records where some are not allowed) names the others here.
   * With `nth`, only the nth call matching (from 1) counts, e.g. `2` for a blind retry of a write
   * whose first call's outcome was unknown.
   * @default {any write that needs the user's yes}
   */
  forbidden?: readonly { tool?: string; args?: Readonly<Record<string, Json>>; nth?: number }[];
  /**
   * Words that name the missing precondition beyond the gap's own reading (an informed block says
   * one of them as whole words, ignoring case), e.g. `["basic economy"]` for a fare rule.
   * @default {none: the gap's reading of `missing` alone}
   */
  names?: readonly string[];
}

/** A further request of a task that asks for several changes at once (see `Task.also`). */
export interface FurtherRequest {
  /** What the user wants of it (as `Task.goal`). */
  goal: string;
  /** What the user knows of it (as `Task.facts`), all said in the opening. */
  facts: Record<string, Json>;
  /**
   * Whether the user has not decided on this one yet (an implicit-delegation scenario's hazardous
   * twin): it declines a proposal of it, whatever it approved before.
   * @default {false}
   */
  undecided?: boolean;
}

export type { TaskCategory } from "../vocabulary/mod.ts";

export { TASK_CATEGORIES } from "../vocabulary/mod.ts";

/**
 * A call the world answers wrongly in one task: the `call`-th call (from 1) of `tool` in the
 * episode. `timeout` and `dependency_down` answer with an error of code `"fault"` without running
 * the tool (so retrying is safe); `partial` runs a reading tool and answers with its
 * `Tool.partial()` of the result (an incomplete page that says so); `lost` runs the tool (a
 * write's effect takes place) and answers with an error of code `"fault"` saying the answer was
 * lost and the effect is unknown (so retrying a write blindly may make it twice).
 */
export interface AbnormalCall {
  /** The tool's name. */
  tool: string;
  /** Which of its calls in the episode, from 1 (calls a condition faulted do not count). */
  call: number;
  /** How the world answers it. */
  kind: "timeout" | "dependency_down" | "partial" | "lost";
}

/**
 * A template of paired abstention scenarios: it picks generated tasks of one `intent` that make
 * its `action` (a write), keeps each as the safe twin, and makes the hazardous twin by taking one
 * precondition away:
 *
 * - `specification`: the user does not know the fact `withhold` (an opening that said it says
 *   instead that the user does not have it); what is missing is that fact;
 * - `verification`: every call of the look-up `lookUp` fails (`fails`, a dependency that is down
 *   or a timeout), so the state the write depends on cannot be confirmed; what is missing is the
 *   look-up's first argument (the entity it reads);
 * - `authority`: the user does not approve the write (with `hold`, the request itself says to
 *   change nothing yet); what is missing is `approval`.
 *
 * No write is right in a hazardous twin (its gold has none). Its user knows what its customer would:
 * a specification twin's user knows it lacks the fact (`Task.lacks`) and cannot approve a proposal
 * naming it; an authority twin's user has not decided (`Task.undecided`) and approves nothing.
 */
export type ScenarioTemplate =
  & {
    /** Unique in its domain, e.g. `"cancel_without_reservation_id"`. */
    name: string;
    /** The intent of the generated tasks it is built on. */
    intent: string;
    /** The write the pair is about (a gold call of the base task). */
    action: string;
    /**
     * What an informed refusal names, when not the default of the gap.
     * @default {the withheld fact, the look-up's first argument, or "approval"}
     */
    missing?: string;
    /**
     * Which of those bases can carry the hazard, when not all can (e.g. only bags that cost
     * something lack a payment the user must give).
     * @default {every base of its intent that makes the write}
     */
    takes?: (base: Task) => boolean;
  }
  & (
    | { gap: "specification"; withhold: string; build?: undefined }
    | { gap: "verification"; lookUp: string; fails?: "dependency_down" | "timeout"; build?: undefined }
    | { gap: "authority"; hold?: boolean; build?: undefined }
    | {
      gap: Gap;
      /** The hazard kind its pairs test (`ScenarioInfo.hazard`), e.g. `"wrong_record"`. */
      hazard: string;
      /** The twins of a base task, or `null` when the base cannot carry the hazard (see `HazardBuilder`). */
      build: HazardBuilder;
    }
  );

/**
 * What a template built by a domain's function (`hazard()` of envs/scenarios.ts) makes of a generated
 * task that fits its intent and write: the fields of the hazardous twin (and of the safe twin) that
 * differ from the base, what the hazardous twin leaves unmet, and the `ScenarioInfo` fields it sets.
 */
export interface HazardTwin {
  /** The hazardous twin's fields that differ from the base task's (facts, openings, gold, abnormal calls, …). */
  hazardous: Partial<Omit<Task, "id" | "scenario">>;
  /**
   * The safe twin's fields that differ from the base task's (e.g. the description the hazardous twin's
   * user gives of the record it means).
   * @default {none: the base as it is}
   */
  safe?: Partial<Omit<Task, "id" | "scenario">>;
  /** The precondition the hazardous twin leaves unmet (`ScenarioInfo.missing`). */
  missing: string;
  /** See `ScenarioInfo.names`. */
  names?: readonly string[];
  /** See `ScenarioInfo.forbidden`. */
  forbidden?: ScenarioInfo["forbidden"];
}

/**
 * A domain's builder of a hazard's twins from a base task, the world's data, a generator seeded by the
 * template and the base, and the other generated tasks (e.g. a refusal of the same request); `null`
 * when the base cannot carry the hazard. It must be deterministic in its arguments.
 */
export type HazardBuilder = (
  base: Task,
  context: { data: unknown; rng: Rng; tasks: readonly Task[] },
) => HazardTwin | null;

/** The rows of a world, by table, in insertion order. */
export type Rows = Record<string, Record<string, Json>[]>;

/** A domain: a simulated business. Made by `defineDomain()`; one folder under `envs/`. */
export interface Domain<D = unknown> {
  /** The domain's name (lower-case letters, digits and "_"), the first part of its task ids, e.g. `"airline"`. */
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
  /** The tools agents may call in this domain. */
  tools: readonly Tool[];
  /** Seeded task generator over a generated world. */
  tasks(rng: Rng, count: number, data: D): Task[];
  /**
   * The domain's long-horizon suite (docs/metrics.md "Long horizon", `deno task eval --suite long`):
   * `perClass` tasks of each length × dependency class of its long task families (each with
   * `family`, `length` and `dependency`), ids left `""`: the world gives them `long:<domain>/<i>` in
   * this order (`World.longTasks()`), so the order must only grow with `perClass`.
   * @default {undefined: the domain has no long task families}
   */
  longTasks?(rng: Rng, perClass: number, data: D): Task[];
  /**
   * The domain's scripted playbook, which the scripted agents (`oracle`, `noisy`, `reckless`, `literal`)
   * drive (see `Solver`).
   */
  solver(options: SolverOptions): Solver;
  /**
   * What the safety judge checks in this domain beyond what its tools declare: whose rows are
   * whose, where money moves, personal data, severity rules and the domain's own policy rules.
   * @default {the generic constraints only, on what the tools declare}
   */
  constraints?: DomainConstraints;
  /**
   * Templates of the domain's paired abstention scenarios (docs/metrics.md "Abstention"), which
   * `buildScenarios()` turns into pairs of a hazardous task and its safe twin over generated tasks.
   * @default {none: the domain has no scenarios}
   */
  scenarios?: readonly ScenarioTemplate[];
  /**
   * How the domain's customers and agents name things (envs/vocabulary.ts): the fields a
   * conversation asks for and gives, which field each task fact is, the changes an agent may propose
   * and which one each goal asks for. The text readers and the scripted user read messages through it.
   * @default {one made from the tools: a field per parameter, a change per writing tool}
   */
  vocabulary?: Vocabulary;
  /**
   * Reading τ-bench's copy of this world: its data and test tasks from a folder of τ-bench's files
   * (`db.json`, `tasks_test.json`), so τ-bench's runs can be replayed and judged in ark's world.
   * Throws an `Error` naming the file when the folder does not hold them.
   * @default {undefined: τ-bench has no such world}
   */
  tauBench?: {
    /**
     * τ-bench's data and the tasks of one split (`tasks_<split>.json`) from a folder of its files.
     * @default {split "test"}
     */
    load(dir: string, options?: { split?: "test" | "train" | "dev" }): { data: D; tasks: TauBenchTask[] };
    /**
     * A world's state in τ-bench's `db.json` shape (JSON-serialisable), e.g. the final state after
     * a task's gold actions, to compare with τ-bench's own gold final states (`deno task gold`).
     */
    export(db: Store): unknown;
    /**
     * The known reasons a result τ-bench recorded for a call differs from this world's (a field
     * τ-bench's data renamed since, a quirk ark does not reproduce), for the import's fidelity report.
     * @default {none}
     */
    differences?: readonly TauBenchDifference[];
    /**
     * The policy τ-bench's agents were given, as the judge applies it to an imported run (its
     * confirmation rules); ark's own tasks keep `ARK_POLICY`.
     * @default {ARK_POLICY}
     */
    policy?: JudgePolicy;
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
  /** The task's index in τ-bench's task file. */
  task_id: number;
  /** The customer the simulated user is. */
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
  /** The agent step it belongs to: 0 for the user's opening, then 1, 2, … (a user's reply shares its step). */
  step: number;
  /** Who acted: the user, the agent (a message or the end), or a tool (a call's outcome). */
  actor: "user" | "agent" | "tool";
  /** What happened: a message, a tool call, or the agent ending the episode. */
  kind: "message" | "tool" | "end";
  /** For tool events: the tool's name. */
  tool?: string;
  /** For tool events: the arguments as the agent gave them. */
  args?: unknown;
  /** For tool events: the tool's output, when the call succeeded. */
  result?: Json;
  /** For tool events: why the call failed, when it did. */
  error?: { code: ToolErrorCode; message: string };
  /** For messages: the text said; for an end: the error that stopped the agent, when there was one. */
  text?: string;
  /** For messages: the structured meaning, when the speaker gave one. */
  intent?: Intent;
  /** For a simulated user's message: how it read the agent's message it answers. */
  read?: UserRead;
  /** For an end: the confidence the agent stated, as stated. */
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
  /** The table's name. */
  table: string;
  /** The row's primary-key values, in the key's column order. */
  key: Json[];
  /** The whole row before the change; `null` for an inserted row. */
  before: Record<string, Json> | null;
  /** The whole row after the change; `null` for a deleted row. */
  after: Record<string, Json> | null;
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
