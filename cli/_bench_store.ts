// The results store's size for `deno task bench`: bytes per episode of `results.sqlite`, on a
// small slice of the default experiment (its first domain, 10 tasks, every condition and suite) or
// on a store already written (e.g. the default eval's). Private to cli/.
import { resolveConfig } from "../eval/config.ts";
import { runExperiment } from "../eval/run.ts";
import { ResultsStore } from "../eval/store.ts";

/** The results store's size. */
export interface StoreBench {
  /** Episodes in the store. */
  episodes: number;
  /** The file's bytes (its write-ahead log included, if any) over its episodes. */
  bytes_per_episode: number;
}

/**
 * Measures a results store: the one at `options.path`, or one written in a temporary folder from
 * the default experiment's first domain with `options.tasks` tasks.
 */
export async function benchStore(options: { path?: string; tasks?: number } = {}): Promise<StoreBench> {
  if (options.path !== undefined) return await storeSize(options.path);
  const defaults = resolveConfig({});
  const config = resolveConfig({ domains: defaults.domains.slice(0, 1), tasks: options.tasks ?? 10 });
  const dir = await Deno.makeTempDir({ prefix: "ark-bench-store-" });
  try {
    {
      using store = ResultsStore.open(`${dir}/results.sqlite`, { config });
      await runExperiment(config, { sink: store });
    }
    return await storeSize(`${dir}/results.sqlite`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** The size of the results store at `path` (closed, so its log is folded in). */
async function storeSize(path: string): Promise<StoreBench> {
  let episodes: number;
  {
    using store = ResultsStore.read(path);
    episodes = store.count();
  }
  let bytes = (await Deno.stat(path)).size;
  for (const suffix of ["-wal"]) {
    try {
      bytes += (await Deno.stat(path + suffix)).size;
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound)) throw err;
    }
  }
  return { episodes, bytes_per_episode: episodes === 0 ? 0 : bytes / episodes };
}
