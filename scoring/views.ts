/**
 * Every view a report scores of one set of records, in one pass: the profile of each agent
 * overall, under each condition alone, in each domain alone, and its four-category table. Each
 * figure is what `scoreRecords()` (or `categoryTable()`) gives for that view's records, digit for
 * digit; the views share the work that is the same in several of them: the records are grouped
 * once, every bootstrap resample is drawn once for all the figures that draw it (same seed, as many
 * task ids), and a decay group a later view holds again (a condition's view is that condition's
 * group overall) is resampled once.
 *
 * @module
 */
import { CONDITIONS } from "../vocabulary/mod.ts";
import { type EpisodeRecord, recordDomain } from "./record.ts";
import { groupProfile, type Profile, resolveScoreOptions } from "./profile.ts";
import { type CategoryRow, categoryTableWith } from "./categories.ts";
import { type ScoringContext, scoringContext } from "./_draws.ts";
import { compareText } from "./_stats.ts";

/** Options of `scoreViews()`. */
export interface ViewOptions {
  /**
   * Seed of the bootstrap.
   * @default {"0"}
   */
  seed?: string;
  /**
   * Bootstrap resamples.
   * @default {1000}
   */
  resamples?: number;
  /**
   * Whether to score each domain alone (a report does when the records span several).
   * @default {true}
   */
  domains?: boolean;
}

/** The profiles of every view, each by agent (sorted), as `scoreRecords(…, { by: "agent" })` gives them. */
export interface ScoredViews {
  /** Over all the records. */
  overall: Record<string, Profile>;
  /** By condition present (docs/metrics.md's order, others after by name): its records alone, each read as nominal. */
  conditions: Record<string, Record<string, Profile>>;
  /** By domain (`recordDomain()`, sorted): its records alone; empty when `domains` is false. */
  domains: Record<string, Record<string, Profile>>;
  /** By agent: `categoryTable()` of its records. */
  categories: Record<string, Record<string, CategoryRow> | null>;
}

/**
 * Scores the views of some records in one pass (see the module doc): `overall` is
 * `scoreRecords(records)`, `conditions.<c>` is `scoreRecords()` of the records of condition `c` with
 * their condition read as nominal, `domains.<d>` of the records of domain `d`, and
 * `categories.<agent>` is `categoryTable()` of the agent's records; all by agent, with the same seed.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { scoreViews } from "./views.ts";
 * import { scoreRecords } from "./profile.ts";
 * const r = (run: number, condition: "nominal" | "fault", success: boolean) =>
 *   ({ agent: "a", task: "t/1", run, condition, success });
 * const records = [r(0, "nominal", true), r(1, "nominal", false), r(2, "fault", true)];
 * const views = scoreViews(records, { resamples: 20 });
 * assertEquals(views.overall, scoreRecords(records, { resamples: 20 }));
 * assertEquals(views.conditions.fault.a.accuracy, 1); // the fault records alone, read as nominal
 * ```
 */
export function scoreViews(records: readonly EpisodeRecord[], options: ViewOptions = {}): ScoredViews {
  const { seed, resamples } = resolveScoreOptions({ seed: options.seed, resamples: options.resamples });
  const context = scoringContext();
  records.forEach((r, i) => context.ids.set(r, i));
  const score = (mine: readonly EpisodeRecord[]) => byAgent(mine, { seed, resamples }, context);
  const overall = score(records);
  // The later views look up what the overall one resampled, and keep nothing more.
  context.keep = false;
  const conditions: ScoredViews["conditions"] = {};
  const present = new Set(records.map((r) => r.condition as string));
  const order = [
    ...CONDITIONS.filter((c) => present.has(c)),
    ...[...present].filter((c) => !CONDITIONS.includes(c as never)).sort(compareText),
  ];
  for (const c of order) {
    const own = records.filter((r) => r.condition === c);
    conditions[c] = score(own.map((r) => {
      const copy = { ...r, condition: "nominal" as const };
      context.ids.set(copy, context.ids.get(r)!);
      return copy;
    }));
  }
  const domains: ScoredViews["domains"] = {};
  if (options.domains !== false) {
    const byDomain = new Map<string, EpisodeRecord[]>();
    for (const r of records) {
      const d = recordDomain(r), list = byDomain.get(d);
      if (list === undefined) byDomain.set(d, [r]);
      else list.push(r);
    }
    for (const d of [...byDomain.keys()].sort(compareText)) domains[d] = score(byDomain.get(d)!);
  }
  const categories: ScoredViews["categories"] = {};
  for (const [agent, mine] of agentsOf(records)) {
    categories[agent] = categoryTableWith(mine, { seed, resamples }, context);
  }
  return { overall, conditions, domains, categories };
}

// Each agent's records in order, agents sorted.
function agentsOf(records: readonly EpisodeRecord[]): [string, EpisodeRecord[]][] {
  const byAgent = new Map<string, EpisodeRecord[]>();
  for (const r of records) {
    const list = byAgent.get(r.agent);
    if (list === undefined) byAgent.set(r.agent, [r]);
    else list.push(r);
  }
  return [...byAgent].sort(([a], [b]) => compareText(a, b));
}

// One view's profiles by agent: `scoreRecords(records, { by: "agent" })` with the shared context.
function byAgent(
  records: readonly EpisodeRecord[],
  options: { seed: string; resamples: number },
  context: ScoringContext,
): Record<string, Profile> {
  const out: Record<string, Profile> = {};
  for (const [agent, mine] of agentsOf(records)) {
    const scored = mine.filter((r) => r.user_error === undefined);
    out[agent] = groupProfile(scored, { ...options, by: "agent", userErrors: mine.length - scored.length }, context);
  }
  return out;
}
