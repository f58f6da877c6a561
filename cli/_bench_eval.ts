// The default experiment's figures for `deno task bench`, on one checkout (`Kit`): `deno task eval`
// end to end (its `main()` in this process, into a temporary folder, quiet) on one worker thread and on
// two; the results store's cost (the eval's episodes, read back into memory, added to a fresh store up
// to its close) and size; the reports on the eval's records; and the rules judge over every episode.
// Private to cli/.
import type { main as evalMain } from "./eval.ts";
import type { FinishedEpisode, ResultsStore } from "../eval/store.ts";
import type { ExperimentConfig, resolveConfig } from "../eval/config.ts";
import type { cellSeed } from "../eval/cell.ts";
import type { writeReports } from "../report/mod.ts";
import type { ExperimentWorlds } from "../eval/worlds.ts";
import type { rulesJudge } from "../judge/mod.ts";
import { attempt, type Kit, member } from "./_bench_kit.ts";
import type { Measured } from "./_bench_figures.ts";

/** The default experiment's figures on one checkout. */
export interface EvalBench {
  /** Episodes of the default eval (0 when it did not run). */
  episodes: number;
  /** Seconds of `deno task eval --workers 1` (of `deno task eval` where there is no such flag). */
  eval1_s: Measured;
  /** Seconds of `deno task eval --workers 2`; a reason where there is no such flag. */
  eval2_s: Measured;
  /** Whether the checkout's `deno task eval` takes `--workers`. */
  workers: boolean;
  /** Microseconds per episode of adding every episode to a fresh results store, its close included. */
  store_us: Measured;
  /** Bytes per episode of that store's file. */
  store_bytes: Measured;
  /** Seconds of `writeReports()` on the store's records. */
  report_s: Measured;
  /** Seconds of the rules judge over every episode. */
  judge_s: Measured;
}

/** Runs `fn` with the console silenced; gives its value and what it printed. */
export async function quietly<T>(fn: () => Promise<T>): Promise<{ value: T; said: string }> {
  const saved = { log: console.log, error: console.error, warn: console.warn, info: console.info };
  const said: string[] = [];
  const keep = (...args: unknown[]) => void said.push(args.map(String).join(" "));
  Object.assign(console, { log: keep, error: keep, warn: keep, info: keep });
  try {
    return { value: await fn(), said: said.join("\n") };
  } finally {
    Object.assign(console, saved);
  }
}

/** `deno task eval --out OUT [--workers N]` in this process; its seconds, or why it did not run. */
async function timedMain(
  main: typeof evalMain,
  args: string[],
): Promise<{ seconds: number } | { code: number; said: string }> {
  const start = performance.now();
  const { value: code, said } = await quietly(() => main(args));
  const seconds = (performance.now() - start) / 1000;
  return code === 0 ? { seconds } : { code, said };
}

/** Another experiment than the default one (for tests): its flags of `deno task eval` and the same as a config. */
export interface EvalBenchOptions {
  /** Flags given to `deno task eval` besides `--out` and `--workers`. @default {[]} */
  args?: string[];
  /** The experiment the flags make, as `resolveConfig()` takes it. @default {{}} */
  config?: ExperimentConfig;
}

/** Measures the default experiment on `kit` in a temporary folder (removed after). */
export async function benchEval(kit: Kit, options: EvalBenchOptions = {}): Promise<EvalBench> {
  const dir = await Deno.makeTempDir({ prefix: `ark-bench-eval-${kit.name}-` });
  try {
    return await measure(kit, dir, options);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function measure(kit: Kit, dir: string, options: EvalBenchOptions): Promise<EvalBench> {
  const flags = options.args ?? [];
  const out: EvalBench = {
    episodes: 0,
    eval1_s: { reason: "" },
    eval2_s: { reason: "" },
    workers: false,
    store_us: { reason: "" },
    store_bytes: { reason: "" },
    report_s: { reason: "" },
    judge_s: { reason: "" },
  };
  const notRun = (m: Measured) => "reason" in m ? m.reason : "";
  // One worker first (a fresh process's first run), then two; the flag's absence shows as a usage error.
  out.eval1_s = await attempt(async () => {
    const main = await member<typeof evalMain>(kit, "cli/eval.ts", "main");
    let run = await timedMain(main, [...flags, "--out", `${dir}/one`, "--workers", "1"]);
    if ("code" in run && run.code === 2 && run.said.includes("--workers")) {
      run = await timedMain(main, [...flags, "--out", `${dir}/one`]);
    } else out.workers = true;
    if ("code" in run) throw new Error(`deno task eval exited ${run.code}: ${run.said.split("\n")[0]}`);
    return run.seconds;
  });
  out.eval2_s = !("value" in out.eval1_s)
    ? { reason: notRun(out.eval1_s) }
    : !out.workers
    ? { reason: `${kit.dir}'s deno task eval has no --workers` }
    : await attempt(async () => {
      const main = await member<typeof evalMain>(kit, "cli/eval.ts", "main");
      const run = await timedMain(main, [...flags, "--out", `${dir}/two`, "--workers", "2"]);
      if ("code" in run) throw new Error(`deno task eval exited ${run.code}: ${run.said.split("\n")[0]}`);
      return run.seconds;
    });
  if (!("value" in out.eval1_s)) {
    for (const k of ["store_us", "store_bytes", "report_s", "judge_s"] as const) {
      out[k] = { reason: `no default eval to read: ${notRun(out.eval1_s)}` };
    }
    return out;
  }
  await Deno.remove(`${dir}/two`, { recursive: true }).catch(() => {});
  let loaded: { Store: typeof ResultsStore; config: ReturnType<typeof resolveConfig> } | undefined;
  let episodes: FinishedEpisode[] = [];
  const read = await attempt(async () => {
    const Store = await member<typeof ResultsStore>(kit, "eval/store.ts", "ResultsStore");
    const resolve = await member<typeof resolveConfig>(kit, "eval/config.ts", "resolveConfig");
    loaded = { Store, config: resolve(options.config ?? {}) };
    episodes = await readEpisodes(kit, Store, `${dir}/one/results.sqlite`);
    return episodes.length;
  });
  if (loaded === undefined || !("value" in read)) {
    for (const k of ["store_us", "store_bytes", "report_s", "judge_s"] as const) out[k] = read;
    return out;
  }
  const { Store, config } = loaded;
  out.episodes = read.value;
  const fresh = `${dir}/fresh/results.sqlite`;
  await Deno.mkdir(`${dir}/fresh`);
  out.store_us = await attempt(() => {
    const start = performance.now();
    const store = Store.open(fresh, { config });
    for (const episode of episodes) store.add(episode);
    store.close();
    return (performance.now() - start) * 1000 / episodes.length;
  });
  out.store_bytes = "value" in out.store_us
    ? await attempt(() => fileBytes(fresh) / episodes.length)
    : { reason: notRun(out.store_us) };
  out.report_s = await attempt(async () => {
    const write = await member<typeof writeReports>(kit, "report/mod.ts", "writeReports");
    const store = Store.read("value" in out.store_us ? fresh : `${dir}/one/results.sqlite`);
    try {
      const records = store.records();
      const start = performance.now();
      await write(`${dir}/report`, { records, store, seed: config.seed, title: config.experiment });
      return (performance.now() - start) / 1000;
    } finally {
      store.close();
    }
  });
  out.judge_s = await attempt(() => judgeAll(kit, config, episodes));
  return out;
}

/** Every episode of a results store, with its cell's seed, as the runner handed it to the store. */
async function readEpisodes(kit: Kit, Store: typeof ResultsStore, path: string): Promise<FinishedEpisode[]> {
  const seedOf = await member<typeof cellSeed>(kit, "eval/cell.ts", "cellSeed");
  const store = Store.read(path);
  try {
    const { seed } = store.experiment();
    return store.records().map((record) => {
      const key = {
        agent: record.agent,
        task: record.task,
        run: record.run,
        condition: record.condition,
        variant: record.variant ?? null,
      };
      return { cell: { ...key, seed: seedOf(seed, key) }, record, events: store.events(key) };
    });
  } finally {
    store.close();
  }
}

/** Seconds of the rules judge over the episodes, each with its task, gold change and world. */
async function judgeAll(
  kit: Kit,
  config: ReturnType<typeof resolveConfig>,
  episodes: readonly FinishedEpisode[],
): Promise<number> {
  const Worlds = await member<typeof ExperimentWorlds>(kit, "eval/worlds.ts", "ExperimentWorlds");
  const judge = await member<typeof rulesJudge>(kit, "judge/mod.ts", "rulesJudge");
  using worlds = Worlds.open(config);
  const inputs = episodes.map(({ record, events }) => {
    const found = worlds.get(record.task);
    if (found === undefined) throw new Error(`no world holds the task "${record.task}"`);
    const { task, world, policy } = found;
    return { task, events, gold: world.goldReplay(task), domain: world.domain, db: world.store, policy };
  });
  const start = performance.now();
  for (const { policy, ...input } of inputs) judge(policy === undefined ? input : { ...input, policy });
  return (performance.now() - start) / 1000;
}

function fileBytes(path: string): number {
  let bytes = Deno.statSync(path).size;
  try {
    bytes += Deno.statSync(`${path}-wal`).size;
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  return bytes;
}
