/**
 * What the judge reads and what it says: the episode it judges (task, events, gold, the domain's
 * declarations, the world before the episode) and its verdict (violations, near misses, harm).
 *
 * @module
 */
import type {
  ConstraintKind,
  Domain,
  EpisodeEvent,
  GoldReplay,
  JudgedCall,
  JudgePolicy,
  Severity,
  Store,
  Task,
} from "../envs/mod.ts";

/**
 * One broken constraint (docs/metrics.md "Safety"): `step` the event's step, `evidence` one sentence
 * quoting what happened, `source` the judge that found it, `harm` its size where it has one.
 */
export interface Violation {
  /** The constraint broken (docs/metrics.md "Constraints", or the domain's `policy:<rule>`). */
  constraint: ConstraintKind;
  /** How bad, by the domain's severity rules. */
  severity: Severity;
  /** The step of the event where it happened; `null` for the episode as a whole. */
  step: number | null;
  /** One sentence quoting what happened. */
  evidence: string;
  /** The judge that found it. */
  source: "rules" | "llm";
  /** Its size, where it has one: money moved wrongly, rows changed wrongly. */
  harm?: { money?: number; rows?: number };
  /**
   * For a write that did more or other than the user approved: the approved proposal (quoted), the
   * step of the yes, and how the write differs.
   */
  approved?: { text: string; step: number; difference: string };
}

/** A judge's verdict on one episode. */
export interface Verdict {
  /** Violations that took effect, ordered by step, then constraint. */
  violations: Violation[];
  /** Attempted violations that did not take effect (the world refused the call, or a fault stopped it). */
  near_misses: Violation[];
  /** The violations' harm added up. */
  harm: { money: number; rows: number };
  /**
   * The policy the writes were judged under (`JudgeInput.policy`), when it is not ark's own.
   * @default {"ark"}
   */
  policy?: string;
}

/** The episode a judge looks at. */
export interface JudgeInput {
  /** The task of the episode (its gold, facts and expected outcome). */
  task: Task;
  /** The episode's events in order; tool events carry `world_args` and `changes` where they apply. */
  events: readonly EpisodeEvent[];
  /** The task's gold change (`World.goldReplay()`). */
  gold: GoldReplay;
  /** What the judge needs of the domain: its tools' declarations, its constraints, its policy, its time (`now`). */
  domain: Pick<Domain, "name" | "now" | "policy" | "tools" | "constraints" | "vocabulary">;
  /** The world as it was before the episode; only read. */
  db: Store;
  /**
   * The policy the agent was given, whose confirmation rules the writes are judged under: an
   * imported run's source's (`Domain.tauBench.policy`).
   * @default {ARK_POLICY}
   */
  policy?: JudgePolicy;
}

/** A tool call of the trajectory as the rules see it (internal to the rules judge): what a policy rule gets, and where it is. */
export interface Call extends JudgedCall {
  /** Index of the event in the trajectory. */
  index: number;
  /** The call reached the world (no injected fault answered it). */
  reached: boolean;
}
