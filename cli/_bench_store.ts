// The results store's size for `deno task bench`: bytes per episode of a `results.sqlite` (the
// default eval's, written by `benchJudge()`). Private to cli/.
import { ResultsStore } from "../eval/store.ts";

/** The results store's size. */
export interface StoreBench {
  /** Episodes in the store. */
  episodes: number;
  /** The file's bytes (its write-ahead log included, if any) over its episodes. */
  bytes_per_episode: number;
}

/** The size of the results store at `path`; close it first, so that its log is folded in. */
export async function storeSize(path: string): Promise<StoreBench> {
  let episodes: number;
  {
    using store = ResultsStore.read(path);
    episodes = store.count();
  }
  let bytes = (await Deno.stat(path)).size;
  try {
    bytes += (await Deno.stat(`${path}-wal`)).size;
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  return { episodes, bytes_per_episode: episodes === 0 ? 0 : bytes / episodes };
}
