// The suites of `deno task eval` apart from the default one, for `deno task bench`: `--suite long`
// (the long-horizon suite, 20 tasks per length × dependency class) and `--suite abstention` (the
// paired scenarios), each run end to end with its defaults (episodes into a results store,
// records.jsonl and the reports). Private to cli/.
import { resolveConfig, type ResolvedConfig, type Suite } from "../eval/config.ts";
import { writeRecordsJsonl } from "../eval/records.ts";
import { writeReports } from "../report/mod.ts";
import { runExperiment } from "../eval/run.ts";
import { ResultsStore } from "../eval/store.ts";

/** How long one suite takes end to end. */
export interface SuiteBench {
  suite: Suite;
  episodes: number;
  /** Seconds of `deno task eval --suite <suite>`: the episodes (judged), records.jsonl and the reports. */
  eval_s: number;
}

/** The suites timed, in order. */
export const BENCH_SUITES: readonly Suite[] = ["long", "abstention"];

/**
 * Runs an experiment as `deno task eval` does, in `dir`: its episodes (judged) into a results store,
 * records.jsonl and the reports. The store is left open for the caller to read and close.
 */
export async function timedEval(
  config: ResolvedConfig,
  dir: string,
): Promise<{ store: ResultsStore; episodes: number; seconds: number }> {
  const start = performance.now();
  const store = ResultsStore.open(`${dir}/results.sqlite`, { config });
  await runExperiment(config, { sink: store });
  await writeRecordsJsonl(store, `${dir}/records.jsonl`);
  const records = store.records();
  await writeReports(dir, { records, store, seed: config.seed, title: config.experiment });
  return { store, episodes: records.length, seconds: (performance.now() - start) / 1000 };
}

/** Runs each suite with its defaults in a temporary folder and times it. */
export async function benchSuites(suites: readonly Suite[] = BENCH_SUITES): Promise<SuiteBench[]> {
  const out: SuiteBench[] = [];
  for (const suite of suites) {
    const dir = await Deno.makeTempDir({ prefix: `ark-bench-${suite}-` });
    try {
      const { store, episodes, seconds } = await timedEval(resolveConfig({ suite }), dir);
      store.close();
      out.push({ suite, episodes, eval_s: seconds });
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  }
  return out;
}
