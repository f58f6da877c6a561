// Grading and judging long episodes for `deno task bench`, on one checkout (`Kit`): the oracle's
// episodes of the long suite (`--suite long`, nominal, one run) whose tasks have 100 milestones, each
// graded (`gradeEpisode()`) and judged by the rules (`rulesJudge()`) from its stored events, over and
// over for at least `minMs`; milliseconds per episode. Private to cli/.
import type { gradeEpisode } from "../envs/grade.ts";
import type { rulesJudge } from "../judge/mod.ts";
import type { resolveConfig } from "../eval/config.ts";
import type { runExperiment } from "../eval/run.ts";
import type { MemoryResults } from "../eval/store.ts";
import type { ExperimentWorlds } from "../eval/worlds.ts";
import { attempt, type Kit, member } from "./_bench_kit.ts";
import type { Measured } from "./_bench_figures.ts";

/** The milestones of the episodes graded. */
export const GRADED_MILESTONES = 100;

/** Grading and judging a long episode, on one checkout. */
export interface GradeBench {
  /** Episodes of `GRADED_MILESTONES` milestones timed (0 when none ran). */
  episodes: number;
  /** Milliseconds to grade one. */
  grade_ms: Measured;
  /** Milliseconds to judge one by the rules. */
  judge_ms: Measured;
}

/** Times grading and judging the oracle's 100-milestone episodes of the long suite on `kit`. */
export async function benchGrade(kit: Kit, options: { minMs?: number; tasks?: number } = {}): Promise<GradeBench> {
  const minMs = options.minMs ?? 1000;
  const out: GradeBench = { episodes: 0, grade_ms: { reason: "" }, judge_ms: { reason: "" } };
  let inputs: Awaited<ReturnType<typeof longEpisodes>> | undefined;
  const found = await attempt(async () => {
    inputs = await longEpisodes(kit, options.tasks);
    return inputs.episodes.length;
  });
  if (inputs === undefined || !("value" in found)) return { ...out, grade_ms: found, judge_ms: found };
  const { episodes, close } = inputs;
  try {
    out.episodes = episodes.length;
    const grade = await member<typeof gradeEpisode>(kit, "envs/grade.ts", "gradeEpisode");
    out.grade_ms = await attempt(() => {
      for (const e of episodes) {
        if (!grade(e).success) throw new Error(`the oracle's episode of "${e.task.id}" does not grade as a success`);
      }
      return perEpisode(minMs, () => episodes.forEach((e) => grade(e)), episodes.length);
    });
    const judge = await member<typeof rulesJudge>(kit, "judge/mod.ts", "rulesJudge");
    out.judge_ms = await attempt(() =>
      perEpisode(minMs, () => episodes.forEach(({ tool: _, ...e }) => judge(e)), episodes.length)
    );
    return out;
  } finally {
    close();
  }
}

// Milliseconds per episode of `pass` (each pass over `count` episodes), after warming up for half as
// long (the compiler's later tiers arrive after a few hundred episodes: a run grades thousands).
function perEpisode(minMs: number, pass: () => void, count: number): number {
  const warm = performance.now();
  do pass(); while (performance.now() - warm < minMs / 2);
  let passes = 0;
  const start = performance.now();
  while (performance.now() - start < minMs) {
    pass();
    passes++;
  }
  return (performance.now() - start) / (passes * count);
}

/** The oracle's long episodes of `GRADED_MILESTONES` milestones, with what grading and judging read. */
async function longEpisodes(kit: Kit, tasks?: number) {
  const resolve = await member<typeof resolveConfig>(kit, "eval/config.ts", "resolveConfig");
  const run = await member<typeof runExperiment>(kit, "eval/run.ts", "runExperiment");
  const Memory = await member<typeof MemoryResults>(kit, "eval/store.ts", "MemoryResults");
  const Worlds = await member<typeof ExperimentWorlds>(kit, "eval/worlds.ts", "ExperimentWorlds");
  const config = resolve({
    suite: "long",
    agents: ["oracle"],
    runs: 1,
    conditions: { fault: false, env: false, prompt: false },
    ...(tasks === undefined ? {} : { longTasks: tasks }),
  });
  const sink = new Memory();
  await run(config, { sink });
  const worlds = Worlds.open(config);
  try {
    const episodes = sink.records().filter((r) => r.milestones.total === GRADED_MILESTONES).map((r) => {
      const { task, world } = worlds.get(r.task)!;
      const events = sink.events({ ...r, variant: r.variant ?? null });
      const gold = world.goldReplay(task);
      return { task, events, gold, tool: (name: string) => world.tool(name), domain: world.domain, db: world.store };
    });
    if (episodes.length === 0) throw new Error(`the long suite has no task of ${GRADED_MILESTONES} milestones`);
    return { episodes, close: () => worlds[Symbol.dispose]() };
  } catch (err) {
    worlds[Symbol.dispose]();
    throw err;
  }
}
