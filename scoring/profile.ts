/**
 * The whole reliability profile of a set of episode records, per group (agent,
 * condition or domain): every docs/metrics.md score, capability, operational
 * figures, 95% bootstrap intervals, the reason for every null, and the
 * long-horizon and abstention figures.
 *
 * @module
 */
import { userMisread } from "./misread.ts";
import { z } from "zod";
import { type EpisodeRecord, recordDomain } from "./record.ts";
import { type AbstentionProfile, abstentionWith } from "./abstention.ts";
import { bootstrapDraws } from "./bootstrap.ts";
import { resampler, type ScoringContext } from "./_draws.ts";
import { HEADLINE_KEYS, type HeadlineKey } from "./keys.ts";
import { buildTable, figureKeys, tableFigures, tableOfUnits, tablePassAtK, type TaskTable } from "./task_table.ts";
import { operational, OPERATIONAL_REASONS, type OperationalFigures } from "./capability.ts";
import { type DecayProfile, decayWith } from "./decay.ts";
import { type SafetyProfile, safetyProfile } from "./safety.ts";
import { type JudgeAgreement, judgeAgreement } from "./agreement.ts";
import { compareText, units } from "./_stats.ts";

/** What records can be grouped by. */
export type GroupBy = "agent" | "condition" | "domain";

/** Options of `scoreRecords()`. */
export interface ScoreOptions {
  /**
   * What one profile covers.
   * @default {"agent"}
   */
  by?: GroupBy;
  /**
   * Seed of the bootstrap (every group resamples with the same stream, so groups with the same tasks are paired).
   * @default {"0"}
   */
  seed?: string;
  /**
   * Bootstrap resamples.
   * @default {1000}
   */
  resamples?: number;
}

/** Options with every field resolved. */
export interface ResolvedScoreOptions {
  /** What one profile covers (`ScoreOptions.by`). */
  by: GroupBy;
  /** Seed of the bootstrap (`ScoreOptions.seed`). */
  seed: string;
  /** Bootstrap resamples, at least 1 (`ScoreOptions.resamples`). */
  resamples: number;
}

/** A 95% interval, or null when no resample defined the figure. */
export type Interval = [number, number] | null;

/**
 * The reliability profile of one group. Scores are in [0, 1] (near_misses: per 100 analysed
 * records, lower is better), or null with a reason.
 */
export type Profile =
  & { [K in HeadlineKey]: number | null }
  & {
    /** pass@k by k ("1", "2", …). */
    pass_at_k: Record<string, number>;
    /** pass^k by k. */
    pass_hat_k: Record<string, number | null>;
    operational: OperationalFigures;
    /** Near misses, harm, expected harm, the loss-exceedance curve and figures per constraint. */
    safety: SafetyProfile;
    /** Per constraint, the LLM judge against the rules on the records both analysed; null when none. */
    judge_agreement: JudgeAgreement | null;
    /** 95% bootstrap intervals of the headline figures and of pass^k. */
    ci: { [K in HeadlineKey]: Interval } & { pass_hat_k: Record<string, Interval> };
    /** Why each null figure is null, by key. */
    reasons: Record<string, string>;
    decay: DecayProfile;
    abstention: AbstentionProfile;
    /**
     * Records scored in the group (abstention scenarios included), the distinct task ids of its
     * tasks (scenarios apart), and the records left out because the user simulator left its script
     * (`user_error`).
     */
    n: {
      records: number;
      tasks: number;
      user_errors: number;
      /** Episodes of abstention scenarios among `records` (not among `tasks`); absent when none. */
      scenarios?: number;
      /**
       * The agent's messages the scripted user read as text, over `records` (`user_messages`);
       * absent when it read none as text.
       */
      user_messages?: number;
      /** Of `user_messages`, those it could not read (`user_misread`, see `misreadWarning()`). */
      user_misread?: number;
    };
  };

const optionsSchema = z.object({
  by: z.enum(["agent", "condition", "domain"]).default("agent"),
  seed: z.string().default("0"),
  resamples: z.number().int().min(1).default(1000),
});

/**
 * Resolves `ScoreOptions`; a wrong type is a TypeError, a value out of range a RangeError.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { resolveScoreOptions } from "./profile.ts";
 * assertEquals(resolveScoreOptions({ by: "domain" }), { by: "domain", seed: "0", resamples: 1000 });
 * ```
 */
export function resolveScoreOptions(options: ScoreOptions = {}): ResolvedScoreOptions {
  if (typeof options !== "object" || options === null) {
    throw new TypeError(`Invalid options ${JSON.stringify(options)}: expected an object`);
  }
  const parsed = optionsSchema.safeParse(options);
  if (parsed.success) return parsed.data;
  const key = String(parsed.error.issues[0].path[0]) as keyof ScoreOptions;
  const given = options[key];
  const accepted = key === "by"
    ? '"agent", "condition" or "domain"'
    : key === "seed"
    ? "a string"
    : "a whole number of at least 1";
  const rightType = key === "resamples" ? typeof given === "number" : typeof given === "string";
  const Err = rightType ? RangeError : TypeError;
  throw new Err(`Invalid ${key} ${JSON.stringify(given)}: expected ${accepted}`);
}

// `domainOf` is scoring's one reading of a task id, `taskDomain()`, under the name it has been exported by.
export { taskDomain as domainOf } from "./record.ts";

function groupOf(record: EpisodeRecord, by: GroupBy): string {
  return by === "agent" ? record.agent : by === "condition" ? record.condition : recordDomain(record);
}

/**
 * Scores records into one profile per group, group keys sorted. A task in
 * the per-task metrics is one agent's runs of one task id; the bootstrap
 * resamples task ids, so all runs of a task (every agent, every condition) move together.
 * A record with a `user_error` (the user simulator left its script) is left out of every
 * figure and counted in `n.user_errors`.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { scoreRecords } from "./profile.ts";
 * const r = (run: number, success: boolean) =>
 *   ({ agent: "a", task: "t/1", run, condition: "nominal" as const, success, confidence: 0.5 });
 * const { a } = scoreRecords([r(0, true), r(1, false)], { resamples: 10 });
 * assertEquals([a.C_out, a.P_brier, a.reasons.R_fault], [0, 0.75, "no fault records"]);
 * ```
 */
export function scoreRecords(records: readonly EpisodeRecord[], options: ScoreOptions = {}): Record<string, Profile> {
  const resolved = resolveScoreOptions(options);
  const groups = new Map<string, { scored: EpisodeRecord[]; userErrors: number }>();
  for (const r of records) {
    const key = groupOf(r, resolved.by);
    let group = groups.get(key);
    if (group === undefined) groups.set(key, group = { scored: [], userErrors: 0 });
    if (r.user_error === undefined) group.scored.push(r);
    else group.userErrors++;
  }
  const out: Record<string, Profile> = {};
  for (const key of [...groups.keys()].sort(compareText)) {
    const { scored, userErrors } = groups.get(key)!;
    out[key] = groupProfile(scored, { ...resolved, userErrors });
  }
  return out;
}

/** The headline figures of a set of records, without intervals, and why any is null. */
export type HeadlineScores = { [K in HeadlineKey]: number | null } & {
  pass_hat_k: Record<string, number | null>;
  reasons: Record<string, string>;
};

/**
 * The headline figures (the 17 docs/metrics.md keys, accuracy, near_misses, pass^k) of one set
 * of records as a whole: no grouping, no bootstrap, no long-horizon figures.
 * Records with a `user_error` are left out.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { headlineScores } from "./profile.ts";
 * const r = (run: number, success: boolean) => ({ agent: "a", task: "t/1", run, condition: "nominal" as const, success });
 * assertEquals(headlineScores([r(0, true), r(1, true)]).R_con, 1); // C_out = 1, the only consistency term
 * ```
 */
export function headlineScores(records: readonly EpisodeRecord[]): HeadlineScores {
  return pointScores(buildTable(records.filter((r) => r.user_error === undefined))).scores;
}

function pointScores(table: TaskTable, options: { safetyOnly?: boolean } = {}): {
  scores: HeadlineScores;
  point: Float64Array;
} {
  const reasons: Record<string, string> = {};
  const point = tableFigures(table, { reasons, safetyOnly: options.safetyOnly });
  const keys = figureKeys(table);
  const value = (i: number) => Number.isNaN(point[i]) ? null : point[i];
  const scores = Object.fromEntries(HEADLINE_KEYS.map((k, i) => [k, value(i)])) as {
    [K in HeadlineKey]: number | null;
  };
  const pass_hat_k: Record<string, number | null> = {};
  for (let i = HEADLINE_KEYS.length; i < keys.length; i++) pass_hat_k[keys[i].slice("pass^".length)] = value(i);
  return { scores: { ...scores, pass_hat_k, reasons }, point };
}

// The safety figures, which abstention scenarios count toward too (docs/metrics.md "Abstention").
const SAFETY_KEYS = ["S_comp", "S_harm", "R_saf", "near_misses"] as const;

// The messages the scripted user read as text and could not read, when it read any.
function misreadCounts(records: readonly EpisodeRecord[]): { user_messages?: number; user_misread?: number } {
  const m = userMisread(records);
  return m === null ? {} : { user_messages: m.messages, user_misread: m.unread };
}

/**
 * The profile of one group's records (user errors left out, `userErrors` of them), drawing its
 * resamples from `context` when given (see `scoreViews()`). Not re-exported by mod.ts.
 */
export function groupProfile(
  records: EpisodeRecord[],
  options: ResolvedScoreOptions & { userErrors: number },
  context?: ScoringContext,
): Profile {
  const { userErrors } = options;
  // Abstention scenarios count toward safety and abstention only (docs/metrics.md "Abstention"): every
  // other figure, and its bootstrap over tasks, is the tasks' alone.
  const tasks = records.some((r) => r.abstention !== undefined)
    ? records.filter((r) => r.abstention === undefined)
    : records;
  const grouped = units(tasks), table = tableOfUnits(grouped);
  const { scores, point } = pointScores(table);
  const intervals = tableIntervals(table, { ...options, safetyOnly: false }, context);
  if (tasks !== records) {
    // The safety figures over tasks and scenarios alike (a scenario's row holds its safety only).
    const all = buildTable(records, { safetyOnly: true });
    const safety = pointScores(all, { safetyOnly: true });
    const allIntervals = tableIntervals(all, { ...options, safetyOnly: true }, context);
    for (const key of SAFETY_KEYS) {
      const i = HEADLINE_KEYS.indexOf(key);
      scores[key] = safety.scores[key];
      point[i] = safety.point[i];
      intervals[i] = allIntervals[i];
      if (safety.scores.reasons[key] === undefined) delete scores.reasons[key];
      else scores.reasons[key] = safety.scores.reasons[key];
    }
  }
  const interval = (i: number): Interval => Number.isNaN(point[i]) ? null : intervals[i] ?? null;
  const ci = {
    ...Object.fromEntries(HEADLINE_KEYS.map((k, i) => [k, interval(i)])),
    pass_hat_k: Object.fromEntries(
      Object.keys(scores.pass_hat_k).map((k, j) => [k, interval(HEADLINE_KEYS.length + j)]),
    ),
  } as Profile["ci"];
  const { pass_hat_k, reasons, ...headline } = scores;
  const ops = operational(tasks);
  for (const [k, why] of Object.entries(OPERATIONAL_REASONS)) {
    if (ops[k as keyof OperationalFigures] === null) reasons[k] = why;
  }
  return {
    ...headline,
    pass_at_k: tablePassAtK(table),
    pass_hat_k,
    operational: ops,
    safety: safetyProfile(records, { reasons }),
    judge_agreement: judgeAgreement(tasks, { reasons }),
    ci,
    reasons,
    decay: decayWith(tasks, { seed: options.seed, resamples: options.resamples, units: grouped }, context),
    abstention: abstentionWith(records, { seed: options.seed, resamples: options.resamples }, context),
    n: {
      records: records.length,
      tasks: table.clusters,
      user_errors: userErrors,
      ...(tasks === records ? {} : { scenarios: records.length - tasks.length }),
      ...misreadCounts(records),
    },
  };
}

// The percentile intervals of a table's figures (its safety figures alone, or all) over the resamples.
function tableIntervals(
  table: TaskTable,
  options: { seed: string; resamples: number; safetyOnly: boolean },
  context?: ScoringContext,
): ([number, number] | null)[] {
  const { seed, resamples, safetyOnly } = options;
  const draw = resampler(seed, table.clusters, { resamples, cache: context?.draws });
  if (!safetyOnly) return bootstrapDraws(resamples, (b) => tableFigures(table, { weights: draw(b) }));
  // The safety figures' intervals alone, in their places; the other figures are NaN there (no interval).
  const at = SAFETY_KEYS.map((key) => HEADLINE_KEYS.indexOf(key)), values = new Float64Array(at.length);
  const some = bootstrapDraws(resamples, (b) => {
    const all = tableFigures(table, { weights: draw(b), safetyOnly });
    at.forEach((i, j) => values[j] = all[i]);
    return values;
  });
  const out: ([number, number] | null)[] = figureKeys(table).map(() => null);
  at.forEach((i, j) => out[i] = some[j]);
  return out;
}
