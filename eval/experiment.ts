/**
 * What names an experiment and what identifies it: its name (`<domains>-s<seed>-t<tasks>-k<runs>`
 * and a hash of every other setting that decides results and is not its default) and its
 * identity, the part of its config two results stores must share to hold the same experiment;
 * and how two stored identities differ, for the messages that refuse one.
 *
 * @module
 */
import { canonicalJson, deriveSeed } from "../envs/mod.ts";
import { type ResolvedConfig, suiteParts } from "./config_types.ts";
import { defaultConditions } from "./condition_settings.ts";
import { isDefault } from "./settings.ts";

/** What the name is made of: a resolved config but for its output folder and name. */
export type Named = Omit<ResolvedConfig, "experiment" | "out" | "conditions"> & { conditions: unknown };

// What decides results beyond the name's own fields, where it is not the default.
function extras(c: Named): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!isDefault("agents", c.agents)) out.agents = c.agents;
  if (canonicalJson(c.conditions) !== canonicalJson(defaultConditions(c.runs))) out.conditions = c.conditions;
  for (const key of ["maxSteps", "longRuns", "worldSeed", "suite"] as const) {
    if (!isDefault(key, c[key])) out[key] = c[key];
  }
  Object.assign(out, scenarioFields(c));
  if (suiteParts(c).long && !isDefault("longTasks", c.longTasks)) out.longTasks = c.longTasks;
  // Not the judge: it changes how episodes are judged, not what they are, and `deno task judge`
  // may change it later; the experiment keeps its name.
  for (const key of ["user", "temperature", "maxTokens"] as const) {
    if (!isDefault(key, c[key])) out[key] = c[key];
  }
  return out;
}

// The scenario settings where they are not the default and the suite runs scenarios: under
// `suite: "tasks"` they change no cell, so they change neither the name nor the identity.
function scenarioFields(c: Pick<ResolvedConfig, "suite" | "scenarioPairs" | "scenarioRuns">): Record<string, number> {
  const out: Record<string, number> = {};
  if (!suiteParts(c).scenarios) return out;
  for (const key of ["scenarioPairs", "scenarioRuns"] as const) {
    if (!isDefault(key, c[key])) out[key] = c[key];
  }
  return out;
}

/**
 * A deterministic, path-safe name: the domains, seed, tasks and runs, and a hash of the rest when
 * not default (`resolveConfig()`'s example shows one).
 */
export function experimentName(c: Named): string {
  const safe = (s: string) => s.replace(/[^A-Za-z0-9_.-]+/g, "_");
  const name = `${c.domains.map(safe).join("+")}-s${safe(c.seed)}-t${c.tasks}-k${c.runs}`;
  const rest = extras(c);
  return Object.keys(rest).length === 0 ? name : `${name}-${deriveSeed(canonicalJson(rest)).slice(0, 8)}`;
}

/**
 * The part of a config that decides results: two stores with the same identity hold the same
 * experiment. Endpoints, keys, prices, the cache, the budget and the concurrency are not part of
 * it: they change how a run goes, not what an episode is (`resolveConfig()`'s example shows it).
 */
export function configIdentity(config: ResolvedConfig): Record<string, unknown> {
  if (config.source !== undefined) {
    const imported: Record<string, unknown> = {
      source: config.source,
      agents: config.agents,
      seed: config.seed,
      experiment: config.experiment,
    };
    if (!isDefault("judge", config.judge)) imported.judge = config.judge;
    return imported;
  }
  const identity: Record<string, unknown> = {
    domains: config.domains,
    agents: config.agents,
    tasks: config.tasks,
    runs: config.runs,
    conditions: config.conditions,
    seed: config.seed,
    worldSeed: config.worldSeed,
    maxSteps: config.maxSteps,
    experiment: config.experiment,
  };
  for (const key of ["longRuns", "suite"] as const) {
    if (!isDefault(key, config[key])) identity[key] = config[key];
  }
  Object.assign(identity, scenarioFields(config));
  if (suiteParts(config).long && !isDefault("longTasks", config.longTasks)) identity.longTasks = config.longTasks;
  for (const key of ["user", "judge", "temperature", "maxTokens"] as const) {
    if (!isDefault(key, config[key])) identity[key] = config[key];
  }
  return identity;
}

/**
 * The fields whose values differ between two stored configs (`configIdentity()`), `a`'s fields
 * first, each compared as JSON.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { changedFields } from "./experiment.ts";
 * assertEquals(changedFields({ tasks: 5, runs: 2 }, { tasks: 5, runs: 3, seed: "1" }), ["runs", "seed"]);
 * ```
 */
export function changedFields(a: Record<string, unknown>, b: Record<string, unknown>): string[] {
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) =>
    JSON.stringify(a[k]) !== JSON.stringify(b[k])
  );
}

/**
 * A config value as a message shows it: its JSON, cut to 120 characters, or "absent".
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { shownValue } from "./experiment.ts";
 * assertEquals([shownValue(["a"]), shownValue(undefined)], ['["a"]', "absent"]);
 * ```
 */
export function shownValue(value: unknown): string {
  const text = JSON.stringify(value) ?? "absent";
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}
