// The default experiment's figures for `deno task bench`, on one checkout (`Kit`): `deno task eval`
// end to end (its `main()` in a fresh process each time, into a temporary folder, quiet; the median of
// three runs) on one worker thread and on two; the results store's cost (the eval's episodes, read back into memory, added to a fresh store up
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
  /** Seconds of `deno task eval --workers 1` (of `deno task eval` where there is no such flag), the median of the runs. */
  eval1_s: Measured;
  /** Seconds of `deno task eval --workers 2`, the median of the runs; a reason where there is no such flag. */
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

// Runs a checkout's `main()` of cli/eval.ts in a process of its own, as `deno task eval` runs it.
const DRIVER = `const { main } = await import(Deno.args[0]);
Deno.exit(await main(Deno.args.slice(1)));
`;

/**
 * `deno task eval --out OUT [--workers N]` of `kit`, in a fresh process (its start, module loading
 * and compiling included, as a user's run has them) with `deno task eval`'s permissions; its
 * seconds, or why it did not run.
 */
async function timedEval(kit: Kit, args: string[]): Promise<{ seconds: number } | { code: number; said: string }> {
  const driver = await Deno.makeTempFile({ prefix: "ark-bench-eval-", suffix: ".ts" });
  try {
    await Deno.writeTextFile(driver, DRIVER);
    const config = new URL("deno.json", kit.root);
    const hasConfig = await Deno.stat(config).then((s) => s.isFile, () => false);
    const start = performance.now();
    const { code, stderr } = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--allow-read",
        "--allow-write",
        "--allow-env",
        "--allow-net",
        ...(hasConfig ? ["--config", config.pathname] : ["--no-config"]),
        driver,
        new URL("cli/eval.ts", kit.root).href,
        ...args,
      ],
      stdout: "null",
      stderr: "piped",
      stdin: "null",
    }).output();
    const seconds = (performance.now() - start) / 1000;
    return code === 0 ? { seconds } : { code, said: new TextDecoder().decode(stderr).trim() };
  } finally {
    await Deno.remove(driver).catch(() => {});
  }
}

/** The middle value (the mean of the two middle ones for an even count). */
function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b), mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Another experiment than the default one (for tests): its flags of `deno task eval` and the same as a config. */
export interface EvalBenchOptions {
  /** Flags given to `deno task eval` besides `--out` and `--workers`. @default {[]} */
  args?: string[];
  /** The experiment the flags make, as `resolveConfig()` takes it. @default {{}} */
  config?: ExperimentConfig;
  /** Runs of each eval figure, each in a fresh process: the figure is their median. @default {3} */
  repeats?: number;
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
  // Each run in a fresh process, into a fresh folder; the median of `repeats` (a run's time swings by
  // a fifth or so from one to the next on a laptop).
  const repeats = options.repeats ?? 3;
  const timed = async (out: string, workers: string[]) => {
    const seconds: number[] = [];
    for (let i = 0; i < repeats; i++) {
      await Deno.remove(out, { recursive: true }).catch(() => {});
      const run = await timedEval(kit, [...flags, "--out", out, ...workers]);
      if ("code" in run) return run;
      seconds.push(run.seconds);
    }
    return { seconds: median(seconds) };
  };
  out.eval1_s = await attempt(async () => {
    await member<typeof evalMain>(kit, "cli/eval.ts", "main");
    let run = await timed(`${dir}/one`, ["--workers", "1"]);
    if ("code" in run && run.code === 2 && run.said.includes("--workers")) {
      run = await timed(`${dir}/one`, []);
    } else out.workers = true;
    if ("code" in run) throw new Error(`deno task eval exited ${run.code}: ${run.said.split("\n")[0]}`);
    return run.seconds;
  });
  out.eval2_s = !("value" in out.eval1_s)
    ? { reason: notRun(out.eval1_s) }
    : !out.workers
    ? { reason: `${kit.dir}'s deno task eval has no --workers` }
    : await attempt(async () => {
      const run = await timed(`${dir}/two`, ["--workers", "2"]);
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
