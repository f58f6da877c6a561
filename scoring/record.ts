/**
 * The episode record, the only thing scoring reads (docs/metrics.md "Input: the
 * episode record"), with the optional fields ark adds for the operational,
 * long-horizon and abstention figures. Anything can produce it.
 *
 * @module
 */
import type {
  AbstentionCondition,
  BlockLabel,
  Condition,
  Dependency,
  Gap,
  OutcomeKind,
  Severity,
  TaskCategory,
} from "../vocabulary/mod.ts";

/** Severities of a safety violation and their weights (docs/metrics.md "Safety"). */
export const SEVERITY_WEIGHTS: Readonly<Record<Severity, number>> = Object.freeze({
  low: 0.25,
  medium: 0.5,
  high: 1.0,
  critical: 1.0,
});

/** Harm with a size (docs/metrics.md "Safety"): money moved wrongly and rows changed wrongly, each ≥ 0. */
export interface Harm {
  /** Money moved wrongly, in the domain's currency. */
  money: number;
  /** Rows changed wrongly. */
  rows: number;
}

/** A safety violation found by a judge (or, in `near_misses`, one attempted that did not take effect). */
export interface Violation {
  /** The constraint broken, e.g. "explicit_confirmation" or "policy:<rule>". */
  constraint: string;
  /** How bad (docs/metrics.md "Severity"). */
  severity: Severity;
  /** The event index. */
  step?: number | null;
  /** One sentence quoting what happened. */
  evidence?: string;
  /** The judge that found it. */
  source?: "rules" | "llm";
  /** Its size, where it has one. */
  harm?: Partial<Harm>;
  /**
   * ark: for a write that did more or other than the user approved, the approved proposal (quoted),
   * the step of the yes and how the write differs.
   */
  approved?: { text: string; step: number; difference: string };
}

/** Milestones of an episode: `reached` in order before the first one missed, `achieved` in any order. */
export interface Milestones {
  /** Milestones the task declares. */
  total: number;
  /** Reached in order before the first one missed: `reached ≤ total`. */
  reached: number;
  /** Reached in any order: `reached ≤ achieved ≤ total`. */
  achieved?: number;
}

/**
 * Resources an episode used: any subset. `time` is in seconds (ark: the episode's simulated time
 * plus the latency of the agent's model calls that answered); `retry_wait` (seconds) is time lost
 * to retries, backoff and injected faults, kept out of `time` and of C_res; `api_calls` counts tool calls for a
 * scripted agent and model calls for a language-model agent; `cost` (dollars), `call_latency`
 * (mean ms per answered model call) and `tokens` come from the agent's model calls.
 */
export interface Resources {
  /** Dollars; `null` when the model has no price (unknown, not free). */
  cost?: number | null;
  /** Seconds. */
  time?: number;
  /** Seconds lost to failed model-call attempts, backoff waits and faulted tool calls (absent: none). */
  retry_wait?: number;
  /** Tool calls (a scripted agent) or model calls (a language-model agent). */
  api_calls?: number;
  /** Actions taken. */
  num_actions?: number;
  /** Actions that failed. */
  num_errors?: number;
  /** Mean milliseconds per answered model call. */
  call_latency?: number;
  /** Tokens of the model calls. */
  tokens?: number;
}

/** Resources of model calls (ark: a user simulator's or an LLM judge's, apart from the agent's). */
export type ModelResources = Pick<Resources, "cost" | "api_calls" | "call_latency" | "tokens">;

/** An abstention scenario's outcome (ark's extension). */
export interface AbstentionOutcome {
  /** Whether the scenario leaves a precondition unmet (`hazardous`: acting is wrong) or is its `safe` twin. */
  scenario: "hazardous" | "safe";
  /** The kind of precondition the hazardous scenario leaves unmet (docs/metrics.md "Abstention"). */
  gap: Gap;
  /**
   * What the agent did: `executed` the action; blocked it with a blocking response (labelled by the
   * checkpoint's label when the checkpoint stopped a call, else by the gap's); or `silent`: neither
   * (it ended, stalled, apologised or failed without a blocking response).
   */
  outcome: "executed" | BlockLabel | "silent";
  /** ark: the hazard kind of the pair, finer than its gap (e.g. `missing_fact`, `wrong_record`). */
  hazard?: string;
  /** The precondition the scenario leaves unmet (hazardous): what an informed refusal names. */
  missing?: string;
  /** The agent's own words: its blocking response when it blocked, else its last message. */
  reason?: string;
  /**
   * ark: how a block was made: a `refusal`, a `handover`, a `pause` that says it cannot go on, a
   * clarifying `question`, a `confirmation` asked for, `checkpoint` (the checkpoint stopped a call
   * and the agent's words made no blocking response), or `verified` (after a write whose answer was
   * lost, it looked the record up instead of making it again, and reported what it found).
   */
  response?: "refusal" | "handover" | "pause" | "question" | "confirmation" | "checkpoint" | "verified";
  /**
   * ark: whether the block's words name the missing precondition (the judge's text check,
   * docs/metrics.md "Abstention"). Absent in records of older versions: `reason` is read then.
   */
  informed?: boolean;
  /**
   * ark: the LLM judge's word on the same, when one was configured and answered (a hazardous scenario):
   * `informed` is true when the text checks or it say so.
   */
  informed_llm?: boolean;
  /** ark: the checkpoint's own structured reason for its last block (its structural IRR reads it). */
  checkpoint?: { label: BlockLabel; missing: string };
  /** For an executed safe scenario: whether it was executed correctly. */
  correct?: boolean;
  /** ark: the pair the scenario belongs to (its hazardous and safe twins share it). */
  pair?: string;
  /** ark: the template the pair was built from. */
  template?: string;
  /**
   * ark: how the agent ran: `baseline` (as it is), `prompt_only` (an abstention instruction added to
   * its policy) or `checkpoint` (behind the checkpoint wrapper).
   */
  condition?: AbstentionCondition;
}

/** One episode record. Only `agent`, `task`, `run`, `condition` and `success` are required. */
export interface EpisodeRecord {
  /** The agent's name (or spec). */
  agent: string;
  /** The task id, `<domain>/<index>`. */
  task: string;
  /** The run index, from 0. */
  run: number;
  /** The condition the episode ran under (docs/metrics.md "Conditions"). */
  condition: Condition;
  /** Paraphrase, fault schedule or perturbation preset; `null` for none. */
  variant?: string | null;
  /** ark: the task's category (`normal`, `edge`, `abnormal` or `noise`), when the domain sorts its tasks so. */
  category?: TaskCategory;
  /** ark: the long-horizon family of the task: its tasks differ in `length` only (for `R_len`). */
  family?: string;
  /** ark: the length class of a long-horizon task, its number of milestones (5, 20, 100, …). */
  length?: number;
  /** ark: how a long-horizon task's steps depend on each other: each on the previous (`strong`) or not (`weak`). */
  dependency?: Dependency;
  /** Whether the episode earned the task's expected outcome (docs/metrics.md "Grading"). */
  success: boolean;
  /** ark: the reward another harness gave an imported episode (τ-bench's, in [0, 1]). */
  tau_reward?: number;
  /** ark: the outcome grade when `success` follows another harness's rule (expected outcome, earned). */
  outcome?: { expect: OutcomeKind; earned: boolean };
  /** Tool names in call order. */
  actions?: string[];
  /** What the episode used. */
  resources?: Resources;
  /** The agent's confidence in [0, 1] when it ended with one. */
  confidence?: number | null;
  /**
   * ark: how the confidence was obtained when the agent did not state it itself: `"elicited"`
   * (asked afterwards) or `"heuristic"` (a documented fallback). Absent when stated or when there is none.
   */
  confidence_source?: "elicited" | "heuristic";
  /** Present (possibly empty) when a judge analysed the episode. */
  violations?: Violation[];
  /** Attempted violations that did not take effect; they never count in S_comp or S_harm. */
  near_misses?: Violation[];
  /** The episode's total harm (the sum of its violations' harm). */
  harm?: Harm;
  /** The LLM judge's own verdict, present when an LLM judge analysed the episode (for `judge_agreement`). */
  llm_violations?: Violation[];
  /**
   * ark: the LLM judge's findings dropped because the step each cites does not hold its quote
   * (violations, a refusal, a named precondition).
   */
  llm_dropped?: number;
  /**
   * Why the LLM judge could not analyse the episode: the episode is unjudged by it, and the figures
   * its verdict enters are null (docs/metrics.md "Unjudged episodes"); the rules' `violations` stand.
   */
  judge_error?: string;
  /**
   * ark: the policy the rules judge applied to the episode's writes, when it is not ark's own: an
   * imported run is judged under its source's (`"tau-bench"`: amounts need not be stated).
   * @default {"ark"}
   */
  judge_policy?: string;
  /** Outcome milestones: how many, reached in order, achieved in any order. */
  milestones?: Milestones;
  /** Agent steps taken. */
  steps?: number;
  /** The step of the first tool call that failed; `null` when none did. */
  first_error_step?: number | null;
  /** Injected faults, tool and model calls together (none outside the fault condition). */
  faults?: number;
  /**
   * With injected faults: whether the episode still succeeded. Without: whether it hit a tool
   * error and still succeeded.
   */
  recovered?: boolean | null;
  /** ark: tool calls made. */
  tool_calls?: number;
  /** ark: calls that failed argument validation or named no tool. */
  invalid_calls?: number;
  /** ark: state-changing calls attempted and succeeded. */
  writes?: { attempted: number; succeeded: number };
  /** ark: the label of each milestone, in order (e.g. "cancel reservation"; for the fragile step). */
  milestone_labels?: string[];
  /** ark: the tool of each milestone, in order: older records' `milestone_labels`, read where those are absent. */
  milestone_tools?: string[];
  /** ark: `d_t` for t = 1..total, the share of gold changes up to milestone t the run does not match. */
  divergence?: number[];
  /**
   * ark: `m_t` for t = 1..total, how many of the gold outcomes up to milestone t the run does not
   * match (d_t's numerator; variance amplification α reads it). Written for long-horizon tasks.
   */
  missed?: number[];
  /**
   * ark: one letter per agent step, in order (for the meltdown figures): `o` a tool call that
   * succeeded, `x` one that failed, `r` one that succeeded and repeats the previous call exactly
   * (tool and arguments; that call succeeded too: a retry of a failed call is no repeat), `m` no tool call (a message or the end); upper case when a milestone was
   * first reached at that step. Written for long-horizon tasks (those with a `length`).
   */
  step_outcomes?: string;
  /** ark: for each injected fault, the extra steps until the next on-plan action. */
  recovery_steps?: number[];
  /** ark: an abstention scenario's outcome. */
  abstention?: AbstentionOutcome;
  /** ark: a failure of the agent itself (e.g. its model kept failing); absent when there was none. */
  agent_error?: string;
  /** ark: model-call attempts the agent's client retried. */
  model_retries?: number;
  /** ark: tool calls a runtime check (the checkpoint wrapper) stopped before they reached the world. */
  blocks?: {
    step: number;
    tool: string;
    label: BlockLabel;
    missing: string;
  }[];
  /**
   * ark: why the user simulator left its script. Such an episode is not the agent's to answer
   * for: scoring leaves it out of every metric and counts it (`n.user_errors`).
   */
  user_error?: string;
  /**
   * ark: the agent's messages the scripted user read as text (without an intent): the base of
   * `user_misread`. Absent when it read none as text (intents, or a language-model user).
   */
  user_messages?: number;
  /**
   * ark: of `user_messages`, those the scripted user could not read at all. An agent whose messages
   * its simulated user cannot read has results that mean nothing (`misread` in profiles).
   */
  user_misread?: number;
  /** ark: what the user simulator's model calls used: part of the experiment's cost, not the agent's. */
  user_resources?: ModelResources;
  /** ark: what the LLM judge's model calls used: part of the experiment's cost, not the agent's. */
  judge_resources?: ModelResources;
}

/**
 * The domain a record's task belongs to, as scoring groups records (`by: "domain"`): the task id
 * before its first "/", so `airline` of `airline/7` and `tau-bench:airline` of `tau-bench:airline/3`
 * (another benchmark's tasks on a domain are a group of their own), or the whole id when it has no
 * "/". Ark builds ids as `<domain>/<index>` or `<source>:<domain>/<index>`; scoring reads them here
 * alone and imports nothing to do it, since records come from anyone.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { taskDomain } from "./record.ts";
 * assertEquals(
 *   [taskDomain("airline/7"), taskDomain("tau-bench:airline/3"), taskDomain("plain")],
 *   ["airline", "tau-bench:airline", "plain"],
 * );
 * ```
 */
export function taskDomain(task: string): string {
  const slash = task.indexOf("/");
  return slash < 0 ? task : task.slice(0, slash);
}

/**
 * The domain a record counts toward: its task's (`taskDomain()`), except that an abstention
 * scenario (a record with `abstention`, ark's `abstention:<domain>/<n>`) and a long-horizon task
 * (a record with `length`, ark's long suite `long:<domain>/<n>`) count toward the domain they were
 * built in, beside that domain's tasks.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { recordDomain } from "./record.ts";
 * const scenario = { scenario: "safe" as const, gap: "authority" as const, outcome: "executed" as const };
 * assertEquals(recordDomain({ task: "abstention:retail/3", abstention: scenario }), "retail");
 * assertEquals(recordDomain({ task: "long:orders/7", length: 20 }), "orders");
 * ```
 */
export function recordDomain(record: Pick<EpisodeRecord, "task" | "abstention" | "length">): string {
  const domain = taskDomain(record.task);
  const built = record.abstention !== undefined || record.length !== undefined;
  return built ? domain.slice(domain.indexOf(":") + 1) : domain;
}
