/**
 * The report's data (`report.json`): the experiment, then per agent its overall
 * reliability profile (every docs/metrics.md key, with 95% intervals and the reason
 * for every null), one profile per condition, one per domain when the
 * experiment has several, its four-category table (`categories`) when the records carry categories,
 * its weaknesses, its calibration bins and its least
 * reliable tasks. Same records and seed → same bytes.
 *
 * Per-condition rule: `conditions.<c>` scores the agent's records of condition
 * `c` alone, as if `c` were its only setting, so consistency, predictability,
 * safety, accuracy, pass^k, decay and operational figures are measured under
 * `c`. Robustness is a ratio to the nominal baseline, so `conditions.<c>.R_<c>`
 * (value and interval) is taken from `overall`, which holds both; the other
 * robustness keys and `R_rob` are null there with a reason, and `R` is the mean
 * of `R_con` and `R_pred` under `c`. `conditions.nominal` has no robustness keys
 * (it is the baseline).
 *
 * Long horizon: where records carry ark's long-horizon fields, every `decay` adds
 * `by_length_dependency` (keyed `"<length>/<strong|weak>"`), `runs_by_length`, `r_len` and, in
 * each group, `completion_share`, `meltdown_rate` and `meltdown_onset` with intervals (see
 * `decayProfile()`); reports of records without them are unchanged.
 *
 * Abstention: an agent with scenario records (records carrying `abstention`) gets an `abstention`
 * part (its condition, pairs and the scenarios it got wrong); its `least_reliable_tasks` are
 * ranked over its other records alone. Its SR, UR and IRR are in `overall.abstention`.
 *
 * @module
 */
import type { ImportSummary } from "./imported.ts";
import { type ImportReport, importSection } from "./imported.ts";
import { type AbstentionPart, abstentionPart } from "./_abstention.ts";
export type { AbstentionPart, WrongScenario } from "./_abstention.ts";
import {
  BIN_EDGES,
  calibrationBin,
  type CategoryRow,
  type DecayGroup,
  type EpisodeRecord,
  HEADLINE_KEYS,
  type JudgeAgreement,
  judgeAgreement,
  METRIC_KEYS,
  misreadWarnings,
  type Profile,
  recordDomain,
  scoreViews,
} from "../scoring/mod.ts";
import { ARK_VERSION } from "../eval/store.ts";
import { compareConditions, compareText } from "./format.ts";
import { leastReliableTasks, sortRecords, type TaskRow } from "./_tasks.ts";
import { type Weaknesses, weaknesses } from "./weaknesses.ts";

export type { ShownRun, TaskRow, TaskViolation } from "./_tasks.ts";

export { METRIC_KEYS };

/** The per-condition rule, as written into `experiment.robustness_rule`. */
export const ROBUSTNESS_RULE: string =
  "conditions.<c> scores the agent's records of condition c alone; R_<c> (a ratio to " +
  "nominal) and its interval come from overall, the other robustness keys are null, and R there is the mean of " +
  "R_con and R_pred under c";

/** What the report says about the experiment as a whole. */
export interface ExperimentInfo {
  /** The report's title (`ReportOptions.title`). */
  title: string;
  /** The ark version that wrote the report. */
  ark_version: string;
  /** Seed of the bootstrap. */
  seed: string;
  /** Bootstrap resamples behind every interval. */
  resamples: number;
  /** Records given, user errors included. */
  records: number;
  /** Records left out of every figure because the user simulator left its script. */
  user_errors: number;
  /** Agents present, in the order of `agents`. */
  agents: string[];
  /** Conditions present, in docs/metrics.md's order. */
  conditions: string[];
  /** Variants per condition present, sorted (conditions without variants are absent). */
  variants: Record<string, string[]>;
  /** Domains present, sorted. */
  domains: string[];
  /** Distinct tasks over the records. */
  tasks: number;
  /** The most runs of one agent on one task under one condition and variant (K). */
  runs: number;
  /** How per-condition profiles are scored (`ROBUSTNESS_RULE`). */
  robustness_rule: string;
  /**
   * What a reader must know before reading any figure: one line per agent whose messages the
   * simulated user could not read too often (`misreadWarning()`). Absent when there is none.
   */
  warnings?: string[];
}

/** One calibration bin of the nominal records with a confidence (docs/metrics.md bins). */
export interface CalibrationBin {
  /** Index of the bin, from 0. */
  bin: number;
  /** Lowest confidence the bin holds. */
  lo: number;
  /** Highest confidence the bin holds. */
  hi: number;
  /** Records in the bin. */
  n: number;
  /** Mean confidence in the bin. */
  confidence: number;
  /** Mean success in the bin. */
  success: number;
}

/** One agent's part of the report. */
export interface AgentReport {
  /** The profile over all the agent's records, every condition included. */
  overall: Profile;
  /** Profiles by condition, in docs/metrics.md's order (see the module doc for the rule). */
  conditions: Record<string, Profile>;
  /**
   * Profiles by domain, by name, when the experiment has more than one: each scores the agent's
   * records of that domain alone, every condition included (as `score --by domain` does).
   * @default {absent: one domain, whose profile is `overall`}
   */
  domains?: Record<string, Profile>;
  /**
   * The four-category table, when the agent's records carry a `category`: per category present
   * (in the order normal, edge, abnormal, noise) its episodes, accuracy and R_saf with 95%
   * intervals over its tasks, tool_call_accuracy and critical_step_success.
   * @default {absent: no record has a category}
   */
  categories?: Record<string, CategoryRow>;
  /** What the report flags as the agent's weaknesses (`weaknesses()`). */
  weaknesses: Weaknesses;
  /** Calibration bins of the nominal records that carry a confidence. */
  calibration: CalibrationBin[];
  /** Runs, successes and accuracy per variant of each condition that has variants (no bootstrap). */
  variants: Record<string, Record<string, { runs: number; successes: number; accuracy: number }>>;
  /** The least reliable tasks, over the records that are not abstention scenarios. */
  least_reliable_tasks: TaskRow[];
  /**
   * The abstention scenarios: condition, pairs and the ones got wrong.
   * @default {absent: no record of the agent carries `abstention`}
   */
  abstention?: AbstentionPart;
}

/** The whole report: what `report.json` holds. */
export interface Report {
  /** The experiment as a whole. */
  experiment: ExperimentInfo;
  /** Each agent's part, by agent name. */
  agents: Record<string, AgentReport>;
  /**
   * How the LLM judge agreed with the rules judge, per constraint, over every agent's records that
   * both analysed (docs/metrics.md "Two judges"); `null` without an LLM judge, the reason beside it.
   */
  judge_agreement: JudgeAgreement | null;
  /** Why `judge_agreement` is null. */
  judge_agreement_reason?: string;
  /** For an experiment imported from another harness's transcripts: the import's fidelity and findings. */
  import?: ImportReport;
}

/** Options of `buildReport()`. */
export interface ReportOptions {
  /** Seed of the bootstrap: the experiment seed. */
  seed: string;
  /**
   * Bootstrap resamples.
   * @default {1000}
   */
  resamples?: number;
  /**
   * Title of the report.
   * @default {"ark reliability report"}
   */
  title?: string;
  /**
   * Least reliable tasks listed per agent.
   * @default {10}
   */
  tasks?: number;
  /**
   * Runs shown per listed task.
   * @default {3}
   */
  runsShown?: number;
  /**
   * What the import of the records did, for an imported experiment (its results store's note).
   * @default {none: not imported}
   */
  imported?: ImportSummary;
}

// A record's own fields in their order, into a new object (key by key: twice as fast as a spread of
// a dictionary).
function fastCopy(r: EpisodeRecord): EpisodeRecord {
  const copy: Record<string, unknown> = {};
  for (const k in r) if (Object.hasOwn(r, k)) copy[k] = r[k as keyof EpisodeRecord];
  return copy as unknown as EpisodeRecord;
}

/**
 * Scores records into the report's data. Agents are sorted by name, conditions in docs/metrics.md's
 * order; record order does not matter.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { buildReport } from "./json.ts";
 * const r = (run: number, success: boolean) => ({ agent: "a", task: "t/1", run, condition: "nominal" as const, success });
 * assertEquals(buildReport([r(0, true), r(1, false)], { seed: "0", resamples: 10 }).agents.a.overall.C_out, 0);
 * ```
 */
export function buildReport(records: readonly EpisodeRecord[], options: ReportOptions): Report {
  const seed = options.seed, resamples = options.resamples ?? 1000;
  // Copies, each with its own fast layout: records decoded key by key (a results store's) can come as
  // dictionaries, whose every field read in the scoring is a lookup.
  const sorted = sortRecords(records).map(fastCopy);
  const scored = sorted.filter((r) => r.user_error === undefined);
  const conditions = [...new Set(sorted.map((r) => r.condition))].sort(compareConditions);
  const domains = [...new Set(sorted.map((r) => recordDomain(r)))].sort(compareText);
  // One pass scores every view: overall, each condition alone, each domain alone, each category.
  const views = scoreViews(sorted, { seed, resamples, domains: domains.length > 1 });
  const { overall } = views, byDomain = Object.entries(views.domains);
  const agents: Record<string, AgentReport> = {};
  for (const agent of Object.keys(overall)) {
    const mine = scored.filter((r) => r.agent === agent);
    const profiles: Record<string, Profile> = {};
    for (const c of conditions) {
      const p = views.conditions[c][agent];
      if (p !== undefined) profiles[c] = conditionProfile(p, { condition: c, overall: overall[agent] });
    }
    const perDomain: Record<string, Profile> = {};
    for (const [d, ps] of byDomain) if (ps[agent] !== undefined) perDomain[d] = tidy(ps[agent]);
    const categories = views.categories[agent];
    const main = mine.filter((r) => r.abstention === undefined);
    const abstention = abstentionPart(mine);
    agents[agent] = {
      overall: tidy(overall[agent]),
      conditions: profiles,
      ...(byDomain.length > 0 ? { domains: perDomain } : {}),
      ...(categories === null ? {} : { categories }),
      weaknesses: weaknesses(overall[agent], { records: mine }),
      calibration: calibration(mine),
      variants: variantAccuracy(mine),
      least_reliable_tasks: leastReliableTasks(main, { limit: options.tasks ?? 10, runs: options.runsShown ?? 3 }),
      ...(abstention === null ? {} : { abstention }),
    };
  }
  const variants: Record<string, string[]> = {};
  for (const c of conditions) {
    const names = [...new Set(sorted.filter((r) => r.condition === c && r.variant).map((r) => r.variant!))];
    if (names.length > 0) variants[c] = names.sort(compareText);
  }
  const cells = new Map<string, number>();
  for (const r of scored) {
    const key = JSON.stringify([r.agent, r.task, r.condition, r.variant ?? null]);
    cells.set(key, (cells.get(key) ?? 0) + 1);
  }
  const agreementReasons: Record<string, string> = {};
  const agreement = judgeAgreement(scored, { reasons: agreementReasons });
  return {
    experiment: {
      title: options.title ?? "ark reliability report",
      ark_version: ARK_VERSION,
      seed,
      resamples,
      records: records.length,
      user_errors: records.length - scored.length,
      agents: Object.keys(agents),
      conditions,
      variants,
      domains,
      tasks: new Set(sorted.map((r) => r.task)).size,
      runs: Math.max(0, ...cells.values()),
      robustness_rule: ROBUSTNESS_RULE,
      ...warningsOf(sorted),
    },
    agents,
    judge_agreement: agreement,
    ...(agreement === null ? { judge_agreement_reason: agreementReasons.judge_agreement } : {}),
    ...(options.imported === undefined ? {} : { import: importSection(sorted, options.imported) }),
  };
}

// The warnings of the experiment: an agent the simulated user could not read.
function warningsOf(records: readonly EpisodeRecord[]): { warnings?: string[] } {
  const out = misreadWarnings(records);
  return out.length > 0 ? { warnings: out } : {};
}

const ROBUSTNESS = { fault: "R_fault", env: "R_env", prompt: "R_prompt" } as const;

// Applies the per-condition rule of the module doc to a profile scored on one condition's records.
function conditionProfile(p: Profile, options: { condition: string; overall: Profile }): Profile {
  const { condition, overall } = options;
  const out: Profile = { ...p, ci: { ...p.ci }, reasons: { ...p.reasons } };
  for (const [c, key] of Object.entries(ROBUSTNESS)) {
    if (c === condition) {
      out[key] = overall[key];
      out.ci[key] = overall.ci[key];
      if (overall[key] === null) out.reasons[key] = overall.reasons[key];
      else delete out.reasons[key];
      continue;
    }
    out[key] = null;
    out.ci[key] = null;
    out.reasons[key] = condition === "nominal"
      ? `nominal is the baseline of robustness: ${key} is in conditions.${c} and overall`
      : `a ratio of ${c} to nominal: see conditions.${c} and overall`;
  }
  out.R_rob = null;
  out.ci.R_rob = null;
  out.reasons.R_rob =
    `robustness pools the conditions: see overall.R_rob; R here is the mean of R_con and R_pred under ${condition}`;
  if (condition !== "nominal") {
    // Scored as if nominal: the fragile steps were computed on c's records.
    const own = (g: DecayGroup): DecayGroup =>
      g.fragile_step === null ? g : { ...g, fragile_step: { ...g.fragile_step, condition: condition as never } };
    const byLength = Object.fromEntries(Object.entries(p.decay.by_length).map(([k, g]) => [k, own(g)]));
    const nominal = p.decay.by_condition.nominal;
    out.decay = {
      ...own(p.decay),
      by_length: byLength,
      by_condition: nominal === undefined ? {} : { [condition]: own(nominal) },
    };
    if (p.decay.by_length_dependency !== undefined) {
      out.decay.by_length_dependency = Object.fromEntries(
        Object.entries(p.decay.by_length_dependency).map(([k, g]) => [k, own(g)]),
      );
    }
  }
  return tidy(out);
}

// Every null headline figure has a reason; reasons in docs/metrics.md's order, then the others by name.
function tidy(p: Profile): Profile {
  const reasons: Record<string, string> = {};
  for (const key of HEADLINE_KEYS) {
    if (p[key] === null) reasons[key] = p.reasons[key] ?? "not computable from these records";
  }
  for (const key of Object.keys(p.reasons).sort(compareText)) if (!(key in reasons)) reasons[key] = p.reasons[key];
  return { ...p, reasons };
}

// Accuracy per variant of each condition, conditions in docs/metrics.md's order and variants by name.
function variantAccuracy(records: readonly EpisodeRecord[]): AgentReport["variants"] {
  const out: AgentReport["variants"] = {};
  const withVariant = records.filter((r) => typeof r.variant === "string");
  const conditions = [...new Set(withVariant.map((r) => r.condition))].sort(compareConditions);
  for (const c of conditions) {
    const mine = withVariant.filter((r) => r.condition === c);
    out[c] = {};
    for (const v of [...new Set(mine.map((r) => r.variant!))].sort(compareText)) {
      const runs = mine.filter((r) => r.variant === v), successes = runs.filter((r) => r.success).length;
      out[c][v] = { runs: runs.length, successes, accuracy: successes / runs.length };
    }
  }
  return out;
}

// The docs/metrics.md calibration bins of nominal records with a confidence; empty bins left out.
function calibration(records: readonly EpisodeRecord[]): CalibrationBin[] {
  const n = new Array(10).fill(0), conf = new Array(10).fill(0), hits = new Array(10).fill(0);
  for (const r of records) {
    if (r.condition !== "nominal" || typeof r.confidence !== "number") continue;
    const b = calibrationBin(r.confidence);
    n[b]++;
    conf[b] += r.confidence;
    if (r.success) hits[b]++;
  }
  return n.flatMap((count, bin) =>
    count === 0 ? [] : [{
      bin,
      lo: BIN_EDGES[bin],
      hi: BIN_EDGES[bin + 1],
      n: count,
      confidence: conf[bin] / count,
      success: hits[bin] / count,
    }]
  );
}

/**
 * `report.json`'s text: two-space indented JSON ending with a newline.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { buildReport, reportJson } from "./json.ts";
 * const r = { agent: "a", task: "t/1", run: 0, condition: "nominal" as const, success: true };
 * assertEquals(JSON.parse(reportJson(buildReport([r], { seed: "0", resamples: 10 }))).experiment.tasks, 1);
 * ```
 */
export function reportJson(report: Report): string {
  return JSON.stringify(report, null, 2) + "\n";
}
