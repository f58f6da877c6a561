/**
 * Judging a finished experiment again: every stored episode's events are graded and judged anew
 * (the rules judge, and the LLM judge when one is given) and its record rewritten in the results
 * store, so a new judge, or a new judge version, needs no new run of the agents.
 *
 * @module
 */
import { addCost, type ModelClient } from "../agents/model/mod.ts";
import { applyGrade, judgeEpisode, regrade } from "./judging.ts";
import { reapplyScenario } from "./abstention.ts";
import { ExperimentWorlds } from "./worlds.ts";
import type { EpisodeRecord } from "./records.ts";
import { judged } from "./to_record.ts";
import { type ImportSource, resolveConfig, type ResolvedConfig } from "./config.ts";
import { type ResultsStore, ResultsStoreError } from "./store.ts";

/** What judging an experiment again changed. */
export interface RejudgeSummary {
  episodes: number;
  /** Episodes with at least one violation, before and after. */
  violating: { before: number; after: number };
  /** Episodes whose success changed (a refusal the LLM judge saw, or a grading fix). */
  successChanged: number;
  /** Episodes the LLM judge could not judge (`judge_error`). */
  judgeErrors: number;
  /** Dollars the LLM judge's calls cost; `null` when its model has no price. */
  cost: number | null;
}

/**
 * The experiment's config from the identity a results store keeps, with the judge replaced when
 * `judge` is given. Throws a `ResultsStoreError` when the stored config no longer resolves to the
 * same experiment.
 */
export function storedConfig(store: ResultsStore, options: { out: string; judge?: string }): ResolvedConfig {
  const stored = store.config();
  const { experiment, ...fields } = stored as Record<string, unknown> & { experiment?: string };
  if (fields.source !== undefined) return importedConfig(store, stored, options);
  let config: ResolvedConfig;
  try {
    config = resolveConfig({ ...fields, out: options.out } as never);
  } catch (err) {
    throw new ResultsStoreError(
      "mismatch",
      `Cannot read the experiment of "${store.path}": its stored config does not resolve (${(err as Error).message})`,
    );
  }
  if (config.experiment !== experiment) {
    throw new ResultsStoreError(
      "mismatch",
      `Cannot read the experiment of "${store.path}": it was made by another ark version (experiment "${experiment}", ` +
        `this version names it "${config.experiment}")`,
    );
  }
  return options.judge === undefined ? config : { ...config, judge: options.judge };
}

// An imported experiment's config: its source, agents, seed and judge (the plan's fields do not apply).
function importedConfig(
  store: ResultsStore,
  stored: Record<string, unknown>,
  options: { out: string; judge?: string },
): ResolvedConfig {
  const { source, agents, seed, experiment, judge } = stored as {
    source: ImportSource;
    agents?: string[];
    seed?: string;
    experiment?: string;
    judge?: string;
  };
  const worlds = (source as { worlds?: unknown }).worlds;
  if (!Array.isArray(worlds) || typeof experiment !== "string" || typeof seed !== "string") {
    throw new ResultsStoreError(
      "mismatch",
      `Cannot read the experiment of "${store.path}": its import source is not one this ark version reads`,
    );
  }
  return {
    ...resolveConfig({ seed, out: options.out }),
    agents: Array.isArray(agents) ? agents : [],
    judge: options.judge ?? judge ?? "rules",
    experiment,
    source,
  };
}

/** Options of `rejudge()`. */
export interface RejudgeOptions {
  /**
   * The LLM judge's model, wrapped in a model cache; required when `config.judge` names one.
   * @default {none}
   */
  model?: ModelClient;
  /**
   * LLM judge calls in flight at once.
   * @default {1}
   */
  concurrency?: number;
  /** Called after each episode with how many are done. */
  onProgress?: (done: number, total: number) => void;
}

/**
 * Grades and judges every episode of a results store again under `config.judge` and rewrites the
 * records in the store, all in one transaction at the end (the caller writes records.jsonl and the
 * reports). A fatal model failure of the LLM judge is thrown once the calls in flight are done, and
 * the store is left as it was; running it again asks the model only what the cache lacks.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { rejudge, storedConfig } from "./rejudge.ts";
 * import { resolveConfig } from "./config.ts";
 * import { runExperiment } from "./run.ts";
 * import { ResultsStore } from "./store.ts";
 * const dir = Deno.makeTempDirSync();
 * const config = resolveConfig({ domains: ["airline"], agents: ["oracle"], tasks: 2, runs: 1, suite: "tasks", conditions: { fault: false, env: false, prompt: false } });
 * {
 *   using store = ResultsStore.open(`${dir}/results.sqlite`, { config });
 *   await runExperiment(config, { sink: store });
 * }
 * using store = ResultsStore.read(`${dir}/results.sqlite`);
 * const summary = await rejudge(store, storedConfig(store, { out: dir }));
 * // Judged again by the same rules, nothing changes.
 * assertEquals([summary.episodes, summary.successChanged, summary.violating], [2, 0, { before: 0, after: 0 }]);
 * ```
 */
export async function rejudge(
  store: ResultsStore,
  config: ResolvedConfig,
  options: RejudgeOptions = {},
): Promise<RejudgeSummary> {
  if (config.judge !== "rules" && options.model === undefined) {
    throw new TypeError(`Cannot judge with "${config.judge}": rejudge() needs options.model`);
  }
  using worlds = openWorlds(store, config);
  const records = store.records();
  const summary: RejudgeSummary = {
    episodes: records.length,
    violating: { before: 0, after: 0 },
    successChanged: 0,
    judgeErrors: 0,
    cost: 0,
  };
  let next = 0, done = 0;
  let failure: { error: unknown } | null = null;
  const updates: { cell: EpisodeRecord & { variant: string | null }; record: EpisodeRecord }[] = [];
  const worker = async () => {
    while (next < records.length && failure === null) {
      const record = records[next++];
      try {
        const after = await rejudgeOne(record, { store, worlds, model: options.model });
        updates.push({ cell: { ...record, variant: record.variant ?? null }, record: after });
        if ((record.violations?.length ?? 0) > 0) summary.violating.before++;
        if ((after.violations?.length ?? 0) > 0) summary.violating.after++;
        if (after.success !== record.success) summary.successChanged++;
        if (after.judge_error !== undefined) summary.judgeErrors++;
        // A null cost (the judge's model has no price) makes the sum unknown; an absent one adds nothing.
        const cost = after.judge_resources?.cost;
        summary.cost = addCost(summary.cost, cost === undefined ? 0 : cost);
      } catch (error) {
        failure ??= { error };
        return;
      }
      options.onProgress?.(++done, records.length);
    }
  };
  const lanes = config.judge === "rules" ? 1 : Math.max(1, options.concurrency ?? 1);
  await Promise.all(Array.from({ length: Math.min(lanes, Math.max(records.length, 1)) }, worker));
  if (failure !== null) throw (failure as { error: unknown }).error;
  store.updateRecords(updates);
  return summary;
}

// The experiment's worlds; τ-bench's data an import names that are gone is a store that cannot be used.
function openWorlds(store: ResultsStore, config: ResolvedConfig): ExperimentWorlds {
  if (config.source !== undefined && config.source.worlds.length === 0) {
    throw new ResultsStoreError(
      "mismatch",
      `Cannot judge the import in "${store.path}": its episodes are transcripts alone (${config.source.from} ` +
        `"${config.source.file}"), replayed in no ark world, and the judge reads a world's state`,
    );
  }
  try {
    return ExperimentWorlds.open(config);
  } catch (err) {
    if (config.source === undefined || !(err instanceof Error)) throw err;
    throw new ResultsStoreError(
      "mismatch",
      `Cannot judge the import in "${store.path}" again: ${err.message} (import it again with --data)`,
    );
  }
}

async function rejudgeOne(
  before: EpisodeRecord,
  context: { store: ResultsStore; worlds: ExperimentWorlds; model?: ModelClient },
): Promise<EpisodeRecord> {
  const found = context.worlds.get(before.task);
  if (found === undefined) {
    throw new ResultsStoreError(
      "mismatch",
      `Cannot judge "${before.task}" of "${context.store.path}": the experiment's worlds have no such task`,
    );
  }
  const { task, world } = found;
  const cell = { ...before, variant: before.variant ?? null };
  const events = context.store.events(cell);
  const verdict = await judgeEpisode(world, { task, events }, {
    model: context.model,
    run: before.run,
    policy: found.policy,
  });
  const record: EpisodeRecord = JSON.parse(JSON.stringify(before));
  delete record.judge_resources;
  applyGrade(record, regrade(world, { task, events }, verdict), task);
  record.milestone_labels = task.milestones.map((m) => m.label);
  judged(record, verdict.fields);
  reapplyScenario(record, task, events, world.domain, verdict.llmInformed);
  if (verdict.resources.api_calls !== undefined) record.judge_resources = { ...verdict.resources };
  return record;
}
