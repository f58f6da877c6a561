/**
 * A task of a domain with its gold outcome: what the user wants and knows, the gold calls, the
 * outcome a correct agent reaches and its checkpoints, its category, the calls its world answers
 * wrongly, and what makes it an abstention scenario.
 *
 * @module
 */
import type { Json } from "./json.ts";
import type { ToolCall } from "./tool.ts";
import type { Dependency, Gap, OutcomeKind, TaskCategory } from "../vocabulary/mod.ts";

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
