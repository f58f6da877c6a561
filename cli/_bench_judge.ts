// The judge's part of the default experiment, for `deno task bench`: the default `deno task eval`
// run end to end (episodes into a results store, records and reports), then every episode judged
// again by the rules from its stored events. Private to cli/.
import { rulesJudge } from "../judge/mod.ts";
import { resolveConfig } from "../eval/config.ts";
import { ExperimentWorlds } from "../eval/worlds.ts";
import { type StoreBench, storeSize } from "./_bench_store.ts";
import { timedEval } from "./_bench_suites.ts";

/** How long the default experiment and its judging take. */
export interface JudgeBench {
  episodes: number;
  /** Seconds of the default eval: the episodes (judged), records.jsonl and the reports. */
  eval_s: number;
  /** Seconds the rules judge takes over every episode. */
  judge_s: number;
  judge_episodes_per_s: number;
  /** `judge_s / eval_s`: what judging adds to the eval. */
  judge_share: number;
  /** The size of the default eval's results store. */
  store: StoreBench;
}

/** Runs the default experiment in a temporary folder, times it and its judging, and measures its store. */
export async function benchJudge(): Promise<JudgeBench> {
  const config = resolveConfig({});
  const dir = await Deno.makeTempDir({ prefix: "ark-bench-" });
  try {
    const { store, seconds: evalS } = await timedEval(config, dir);

    using worlds = ExperimentWorlds.open(config);
    const episodes = store.records().map((r) => ({ ...worlds.get(r.task)!, events: store.events(r) }));
    store.close();
    const judged = performance.now();
    for (const { task, world, events } of episodes) {
      rulesJudge({ task, events, gold: world.goldReplay(task), domain: world.domain, db: world.store });
    }
    const judgeS = (performance.now() - judged) / 1000;
    return {
      episodes: episodes.length,
      eval_s: evalS,
      judge_s: judgeS,
      judge_episodes_per_s: episodes.length / judgeS,
      judge_share: judgeS / evalS,
      store: await storeSize(`${dir}/results.sqlite`),
    };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
