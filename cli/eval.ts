/**
 * `deno task eval`: runs an experiment (flags over an optional `--config` JSON file) into
 * `<out>/results.sqlite`, writes `<out>/records.jsonl` from the store and prints reliability
 * and capability per agent, and for language models their calls, tokens, cost and errors.
 * Running the same command again resumes: finished episodes are kept and skipped. With
 * `--shard I/N` it runs only shard I of the cells (`eval/shard.ts`), into `<out>-shardIofN` unless
 * `--out` says; `deno task merge` puts the shards together. `records.jsonl` grows as episodes
 * are stored (whole lines only, so a killed run leaves one that can be scored) and is rewritten in
 * canonical order at the end unless it is in that order already. `--replay DIR` on a results
 * folder runs DIR's stored experiment again. The first SIGINT or SIGTERM starts no new episode,
 * lets those in flight finish, writes the records and reports of what finished and exits 130; a
 * second one, or one while the records and reports are written at the end, exits at once (the
 * store holds every episode it was given, committed first).
 *
 * Exit codes: 0 done; 1 the run cannot go on (results store or model cache
 * unusable, missing API key, unreachable endpoint, a replay without the answer);
 * 2 bad flags or config file; 3 stopped at the `--max-cost` budget; 130 stopped by SIGINT or SIGTERM.
 *
 * @module
 */
import { ModelError, type PriceTable } from "../agents/model/mod.ts";
import { type EvalArgs, parseEvalArgs, USAGE } from "./_eval_args.ts";
import { readEnv } from "./_flags.ts";
import {
  checkConfig,
  type ExperimentConfig,
  type GivenText,
  loadConfigFile,
  mergeConfigs,
  paraphraseModel,
  resolveConfig,
  type ResolvedConfig,
  SETTING_ENV,
} from "../eval/config.ts";
import { appendingSink } from "../eval/records_append.ts";
import { rerunConfig, rerunStorePath } from "../eval/rerun.ts";
import { REPORT_FILES, writeReports } from "../report/mod.ts";
import { type Progress, runExperiment } from "../eval/run.ts";
import { ResultsStore, ResultsStoreError } from "../eval/store.ts";
import { MODEL_CACHE_FILE, modelSpecs, replayCachePath, RunModels, unpricedModels } from "../eval/models.ts";
import { preflight, PreflightError } from "../eval/preflight.ts";
import { formatDollars, formatUsage, summarizeUsage } from "../eval/usage.ts";
import { claimShard, type Shard, ShardError, shardOf, shardOut, shardText } from "../eval/shard.ts";
import { type CellKey, MAX_PLANNED_EPISODES, plannedEpisodes } from "../eval/plan.ts";
import { createOutputFolder, InputFileError } from "../eval/fs_errors.ts";
import { readPrices } from "./_prices.ts";

/** The exit code of a run stopped at the `--max-cost` budget. */
export const EXIT_BUDGET = 3;

/** The exit code of a run stopped by SIGINT or SIGTERM (128 + SIGINT, as shells report Ctrl-C). */
export const EXIT_STOPPED = 130;

// Keys and endpoints come from the environment only when reading it is allowed; never prompts.

function progressLine(label = "episodes"): ((p: Progress) => void) | undefined {
  if (!Deno.stderr.isTerminal()) return undefined;
  const encoder = new TextEncoder();
  let last = -Infinity;
  return ({ done, total }) => {
    // Wall-clock throttling of a terminal line only; nothing here reaches a record.
    const now = performance.now();
    if (done < total && now - last < 100) return;
    last = now;
    Deno.stderr.writeSync(encoder.encode(`\r${label} ${done}/${total}`));
    if (done === total) Deno.stderr.writeSync(encoder.encode("\r\x1b[K"));
  };
}

const isUsageError = (err: unknown) =>
  err instanceof TypeError || err instanceof RangeError || err instanceof SyntaxError;

/** Flags, then the config file, then the environment (e.g. `OPENAI_BASE_URL`), then the defaults. */
async function configFrom(args: EvalArgs): Promise<ResolvedConfig> {
  const { configFile, shard, ...flags } = args;
  // A results folder to rerun: its stored experiment, whatever the environment says (nothing is contacted).
  const stored = flags.replay == null ? null : rerunStorePath(flags.replay);
  if (stored !== null) {
    const config = rerunConfig(stored, flags, { configFile });
    return shard === undefined || flags.out !== undefined ? config : { ...config, out: shardOut(config.out, shard) };
  }
  // Else a model cache to answer the flags' experiment from: one must be there, even when no agent asks
  // a model (a mistyped folder would otherwise run the whole default experiment anew).
  if (flags.replay != null) {
    await replayCachePath(flags.replay).catch((err) => {
      throw err instanceof Deno.errors.NotFound
        ? new RangeError(`${err.message}, nor a results folder to rerun (one holding results.sqlite)`)
        : err;
    });
  }
  const input: ExperimentConfig = configFile === undefined
    ? flags
    : mergeConfigs(await loadConfigFile(configFile), flags);
  const fromEnv: Record<string, string> = {};
  const given: GivenText[] = [];
  for (const { key, name } of SETTING_ENV) {
    const text = readEnv(name);
    if (input[key] !== undefined || text === undefined) continue;
    fromEnv[key] = text;
    given.push({ path: [key], name, text });
  }
  const config = resolveConfig({ ...input, ...checkConfig(fromEnv, { given }) });
  // A shard's default folder is its own, so shards run side by side never share one.
  return shard === undefined || input.out !== undefined ? config : { ...config, out: shardOut(config.out, shard) };
}

/**
 * The config as the model layer sees it: a model that writes paraphrases is opened, priced and
 * checked like an agent's (its answers go through the same cache).
 */
function withModels(config: ResolvedConfig): ResolvedConfig {
  const paraphraser = paraphraseModel(config);
  if (paraphraser === null || config.agents.includes(paraphraser)) return config;
  return { ...config, agents: [...config.agents, paraphraser] };
}

/** Checks what a run needs before it starts; returns an exit code when it cannot start. */
async function prepare(config: ResolvedConfig): Promise<{ prices?: PriceTable; code?: number }> {
  let prices: PriceTable | undefined;
  try {
    if (config.prices !== null) prices = await readPrices(config.prices);
  } catch (err) {
    if (!isUsageError(err) && !(err instanceof Deno.errors.NotFound || err instanceof InputFileError)) throw err;
    console.error((err as Error).message);
    return { code: 2 };
  }
  const unpriced = unpricedModels(withModels(config), prices);
  if (config.maxCost !== null && unpriced.length > 0) {
    console.error(
      `Cannot keep to --max-cost: "${
        unpriced[0]
      }" has no price in the price table; give it one with --prices FILE.json`,
    );
    return { code: 2 };
  }
  if (config.replay === null) {
    try {
      await preflight(withModels(config), { env: readEnv });
    } catch (err) {
      if (!(err instanceof PreflightError)) throw err;
      console.error(err.message);
      return { code: 1 };
    }
  }
  const unusable = await createOutputFolder(config.out, "--out");
  if (unusable !== null) {
    console.error(unusable);
    return { code: 1 };
  }
  return { prices };
}

/** Opens the models of a run through its cache (`null` when the config names no model); one line and 1 when it cannot. */
async function openModels(config: ResolvedConfig, prices: PriceTable | undefined): Promise<RunModels | null | 1> {
  if (modelSpecs(withModels(config)).length === 0) return null;
  try {
    const cachePath = config.replay === null
      ? `${config.out}/${MODEL_CACHE_FILE}`
      : await replayCachePath(config.replay);
    return RunModels.open(withModels(config), { cachePath, env: readEnv, prices });
  } catch (err) {
    const cacheProblem = err instanceof Error && err.message.startsWith("Cannot open model cache");
    if (!(err instanceof Deno.errors.NotFound || err instanceof SyntaxError || cacheProblem)) throw err;
    console.error((err as Error).message.split("\n")[0]);
    return 1;
  }
}

/**
 * Aborts `stop` on the first SIGINT or SIGTERM; a second one commits what the sink holds (`keep`)
 * and exits at once (the results store keeps every episode it was given, records.jsonl whole lines
 * of them; episodes a worker thread finished after one still running are run again on resume).
 */
function stopOnSignals(stop: AbortController, keep: () => void): Disposable {
  const signals: Deno.Signal[] = Deno.build.os === "windows" ? ["SIGINT"] : ["SIGINT", "SIGTERM"];
  const onSignal = () => {
    if (!stop.signal.aborted) return stop.abort();
    try {
      keep();
    } finally {
      Deno.exit(EXIT_STOPPED);
    }
  };
  for (const signal of signals) Deno.addSignalListener(signal, onSignal);
  return { [Symbol.dispose]: () => signals.forEach((signal) => Deno.removeSignalListener(signal, onSignal)) };
}

/** A results store's problem in one line, with what to do about it. */
function storeProblem(err: ResultsStoreError): string {
  if (err.code === "mismatch") return `${err.message}; use another --out or the same flags`;
  if (err.code === "locked") return `${err.message}: wait for it to end or choose another --out`;
  if (err.code === "corrupt") return `${err.message} or choose another --out`;
  return err.message;
}

/**
 * The worker threads of a run whose config does not say: one per core, but none idle for lack of
 * episodes (each starts its own worlds, a fraction of a second, so a small run stays on one thread).
 */
export function defaultWorkers(episodes: number): number {
  return Math.max(1, Math.min(navigator.hardwareConcurrency, Math.floor(episodes / EPISODES_PER_WORKER)));
}

// Episodes a worker thread is worth starting for: about a tenth of a second of scripted ones.
const EPISODES_PER_WORKER = 200;

/** Runs the CLI and returns its exit code (see the module doc). */
export async function main(args: readonly string[]): Promise<number> {
  try {
    return await evaluate(args);
  } catch (err) {
    // A store found damaged after it opened (a record that does not decode) ends the run in one line.
    if (!(err instanceof ResultsStoreError)) throw err;
    console.error(storeProblem(err));
    return 1;
  }
}

async function evaluate(args: readonly string[]): Promise<number> {
  let config: ResolvedConfig;
  let shard: Shard | undefined;
  try {
    const parsed = parseEvalArgs(args);
    if (parsed === "help") {
      console.log(USAGE);
      return 0;
    }
    config = await configFrom(parsed);
    shard = parsed.shard;
    const planned = plannedEpisodes(config);
    if (planned > MAX_PLANNED_EPISODES && parsed.yes === undefined) {
      console.error(
        `The plan holds ${planned.toLocaleString("en")} episodes, more than ${
          MAX_PLANNED_EPISODES.toLocaleString("en")
        }: give --yes to run them all, or plan fewer (--tasks, --runs, --agents, --conditions)`,
      );
      return 2;
    }
  } catch (err) {
    if (err instanceof ResultsStoreError) {
      console.error(err.message);
      return 1;
    }
    if (!isUsageError(err)) throw err;
    console.error((err as Error).message);
    return 2;
  }
  const ready = await prepare(config);
  if (ready.code !== undefined) return ready.code;

  const storePath = `${config.out}/results.sqlite`;
  const recordsPath = `${config.out}/records.jsonl`;
  // Before the store is made: a folder holding a whole experiment is not taken for a shard.
  try {
    await claimShard(config.out, shard ?? null, { experiment: config.experiment });
  } catch (err) {
    if (!(err instanceof ShardError)) throw err;
    console.error(`${err.message}; use another --out`);
    return 1;
  }
  let store: ResultsStore;
  try {
    store = ResultsStore.open(storePath, { config });
  } catch (err) {
    if (err instanceof ResultsStoreError) {
      console.error(storeProblem(err));
      return 1;
    }
    throw err;
  }
  using _store = store;
  const progress = progressLine(shard === undefined ? undefined : `shard ${shardText(shard)} episodes`);
  const models = await openModels(config, ready.prices);
  if (models === 1) return 1;
  using _models = models ?? undefined;
  // Each record reaches records.jsonl as its episode finishes: a killed run leaves whole lines.
  using appending = appendingSink(store, recordsPath);
  const stop = new AbortController();
  // Only while episodes run: what comes after (records.jsonl and the reports, each written beside its
  // file and renamed over it) is long CPU work that no listener could interrupt, and the store holds
  // every finished episode, so a signal then ends the process at once, as if no listener were there.
  const signals = stopOnSignals(stop, () => appending.flush());
  let summary: Awaited<ReturnType<typeof runExperiment>>;
  try {
    summary = await runExperiment(config, {
      sink: appending,
      onProgress: progress,
      models: models ? (spec) => models.client(spec) : undefined,
      signal: stop.signal,
      workers: config.workers ?? defaultWorkers(plannedEpisodes(config)),
      ...(shard ? { only: (cell: CellKey) => shardOf(cell, shard.count) === shard.index } : {}),
    });
  } catch (err) {
    signals[Symbol.dispose]();
    if (!(err instanceof ModelError)) throw err;
    appending.finish();
    console.error(err.message.replace(/\s*\n\s*/g, " "));
    return 1;
  }
  signals[Symbol.dispose]();
  // records.jsonl is written again only when its lines are not in canonical order already.
  const records = appending.finish();
  const written = records.length;
  console.log(await writeReports(config.out, { records, store, seed: config.seed, title: config.experiment }));
  const unpriced = unpricedModels(config, ready.prices);
  const usage = formatUsage(
    summarizeUsage(records, { agents: config.agents, unpriced, user: config.user, judge: config.judge }),
    {
      unpriced,
    },
  );
  if (usage !== "") console.log(usage);
  const resumed = summary.skipped > 0 ? `, ${summary.skipped} resumed` : "";
  const files = [
    storePath,
    recordsPath,
    `${config.out}/${REPORT_FILES.json}`,
    `${config.out}/${REPORT_FILES.html}`,
    ...(models && config.replay === null ? [models.cachePath] : []),
  ];
  const list = `${files.slice(0, -1).join(", ")} and ${files.at(-1)}`;
  const of = shard === undefined ? "" : ` of shard ${shardText(shard)}`;
  console.log(`Wrote ${list} (${written} episodes${of}${resumed})`);
  if (summary.stoppedAtBudget) {
    console.error(
      `Stopped at the cost budget: ${formatDollars(summary.cost)} of ${formatDollars(config.maxCost!)} spent, ${
        summary.skipped + summary.ran
      } of ${summary.total} episodes done; run again with a higher --max-cost to resume`,
    );
    return EXIT_BUDGET;
  }
  if (summary.stoppedBySignal) {
    const kept = summary.total === 0
      ? `before the first episode, ${written} episodes kept` // while the plan was being made
      : `${summary.skipped + summary.ran} of ${summary.total} episodes kept`;
    console.error(`Stopped: ${kept} in ${config.out}; run the same command again to resume`);
    return EXIT_STOPPED;
  }
  return 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
