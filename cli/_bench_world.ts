// The kernel's figures of one world for `deno task bench`: tool steps per second through tool
// dispatch, the time of one snapshot restore, and gold-replay tasks per second (reset, replay, changes
// compared with the gold's). Re-exported by cli/bench.ts. Private to cli/.
import { Rng, sameChanges, type ToolCall, type World } from "../envs/mod.ts";
import type { RowChange } from "../envs/mod.ts";

/** The figures of one world. */
export interface BenchFigures {
  /** Tasks whose gold was replayed. */
  tasks: number;
  /** Gold actions executed per second (world reset once per task, not timed separately). */
  tool_steps_per_s: number;
  /** Mean time of one `store.restore(image)`, in ms. */
  restore_ms: number;
  /** Tasks per second: reset, replay of the gold actions, tracked changes compared with the gold changes. */
  gold_replay_tasks_per_s: number;
  /** Share of replays whose changes equal the gold changes (1 unless the kernel is non-deterministic). */
  gold_match: number;
}

/** Options of `benchWorld()`. */
export interface BenchOptions {
  /**
   * Each figure is measured over at least this many milliseconds, after one warm-up pass.
   * @default {400}
   */
  minMs?: number;
}

function timed(minMs: number, fn: () => number): { count: number; ms: number } {
  fn();
  let count = 0;
  const start = performance.now();
  let ms = 0;
  while (ms < minMs) {
    count += fn();
    ms = performance.now() - start;
  }
  return { count, ms };
}

/** Replays gold calls on a world inside one episode and returns the changes they made (undone after). */
function replay(world: World, gold: readonly ToolCall[]): RowChange[] {
  using episode = world.beginEpisode();
  const ctx = world.context(new Rng("bench"));
  for (const call of gold) world.call(ctx, call.name, call.args);
  return episode.changes();
}

/**
 * Makes every gold's calls through tool dispatch, each gold in a transaction rolled back after it,
 * and returns how many calls were made: one pass of the tool-steps figures.
 */
export function goldSteps(
  world: Pick<World, "store" | "call">,
  ctx: ReturnType<World["context"]>,
  golds: readonly (readonly ToolCall[])[],
): number {
  let n = 0;
  for (const gold of golds) {
    world.store.begin();
    for (const call of gold) world.call(ctx, call.name, call.args);
    world.store.rollback();
    n += gold.length;
  }
  return n;
}

/**
 * Measures one world on a set of gold action lists.
 *
 * @example
 * ```ts
 * import { assert, assertEquals } from "@std/assert";
 * import { getDomain, World } from "../envs/mod.ts";
 * import { benchWorld } from "./bench.ts";
 * using world = World.open(getDomain("airline"));
 * const figures = benchWorld(world, world.defaultTasks(2).map((t) => t.gold), { minMs: 1 });
 * assertEquals([figures.tasks, figures.gold_match], [2, 1]);
 * assert(figures.restore_ms >= 0);
 * ```
 */
export function benchWorld(
  world: World,
  golds: readonly (readonly ToolCall[])[],
  options: BenchOptions = {},
): BenchFigures {
  const minMs = options.minMs ?? 400;
  const ctx = world.context(new Rng("bench"));
  const steps = timed(minMs, () => goldSteps(world, ctx, golds));

  const image = world.store.snapshot();
  const restores = timed(minMs, () => {
    for (let i = 0; i < 20; i++) world.store.restore(image);
    return 20;
  });

  const expected = golds.map((gold) => replay(world, gold));
  let matched = 0, replays = 0;
  const tasks = timed(minMs, () => {
    golds.forEach((gold, i) => {
      if (sameChanges(replay(world, gold), expected[i])) matched++;
      replays++;
    });
    return golds.length;
  });

  return {
    tasks: golds.length,
    tool_steps_per_s: steps.count / (steps.ms / 1000),
    restore_ms: restores.ms / restores.count,
    gold_replay_tasks_per_s: tasks.count / (tasks.ms / 1000),
    gold_match: replays === 0 ? 1 : matched / replays,
  };
}
