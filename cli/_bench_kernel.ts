// The kernel of an episode, for `deno task bench` or by hand (`deno run -A cli/_bench_kernel.ts`): a
// tool step that writes against one that reads (change capture), grading and rules-judging an
// oracle episode of a 100-milestone task, and the floor beneath them on this machine (a bare
// point select, an empty commit). Medians of repeated rounds. Private to cli/.
import { domains, episodeFigures, Rng, runEpisode, scriptedUser, Store, type Task, World } from "../envs/mod.ts";
import type { EpisodeEvent } from "../envs/mod.ts";
import { oracle } from "../agents/mod.ts";
import { rulesJudge } from "../judge/mod.ts";
import { LONG_TASK_MILESTONES } from "../eval/plan.ts";

/** A write step and a read step at the world, in µs (medians over rounds). */
export interface StepBench {
  /** One writing tool call with the rows it changed (`Recording.during()`). */
  write_us: number;
  /**
   * The same calls without their own changes read (`World.call()` in the episode, whose capture still
   * logs the rows touched): `write_us` less this is what reading a call's changes costs.
   */
  write_bare_us: number;
  /** One reading tool call. */
  read_us: number;
  /** Opening and closing an episode (`World.beginEpisode()`, then disposing it). */
  episode_us: number;
  /** Write calls timed in one round. */
  writes: number;
}

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/**
 * Replays every default task's gold calls (each registered domain, 50 tasks) in an episode of its
 * own: the mean time of a writing call with its changes and of a reading call, per round.
 */
export function benchWriteStep(options: { rounds?: number } = {}): StepBench {
  const rounds = options.rounds ?? 7;
  const worlds = Object.values(domains).map((d) => World.open(d));
  try {
    const sets = worlds.map((w) => ({ world: w, tasks: w.defaultTasks(50) }));
    const write: number[] = [], bare: number[] = [], read: number[] = [], episode: number[] = [];
    let writes = 0;
    // Each round replays every task twice: its writes with their changes, then without.
    for (let r = 0; r <= rounds; r++) {
      let wt = 0, wn = 0, bt = 0, rt = 0, rn = 0, et = 0, en = 0;
      for (const { world, tasks } of sets) {
        for (const task of tasks) {
          for (const captured of [true, false]) {
            let t0 = performance.now();
            const recording = world.beginEpisode();
            et += performance.now() - t0;
            const ctx = world.taskContext(task);
            for (const call of task.gold) {
              const tool = world.tool(call.name);
              if (tool === undefined || tool.terminates) continue;
              t0 = performance.now();
              if (tool.writes && captured) {
                recording.during(() => world.call(ctx, call.name, call.args));
                wt += performance.now() - t0;
                wn++;
              } else if (tool.writes) {
                world.call(ctx, call.name, call.args);
                bt += performance.now() - t0;
              } else {
                world.call(ctx, call.name, call.args);
                rt += performance.now() - t0;
                rn++;
              }
            }
            t0 = performance.now();
            recording[Symbol.dispose]();
            et += performance.now() - t0;
            en++;
          }
        }
      }
      // The first round warms up.
      if (r === 0) continue;
      write.push(wt / wn * 1000);
      bare.push(bt / wn * 1000);
      read.push(rt / rn * 1000);
      episode.push(et / en * 1000);
      writes = wn;
    }
    return {
      write_us: median(write),
      write_bare_us: median(bare),
      read_us: median(read),
      episode_us: median(episode),
      writes,
    };
  } finally {
    for (const w of worlds) w.close();
  }
}

/** Oracle episodes of the default long tasks (at least `LONG_TASK_MILESTONES` milestones) of a domain. */
async function longEpisodes(world: World): Promise<{ task: Task; events: EpisodeEvent[] }[]> {
  const tasks = world.defaultTasks(50).filter((t) => t.milestones.length >= LONG_TASK_MILESTONES);
  const out: { task: Task; events: EpisodeEvent[] }[] = [];
  for (const task of tasks) {
    const rng = new Rng(`bench-kernel/${task.id}`);
    const r = await runEpisode(world, {
      task,
      agent: oracle()({ rng: rng.child("agent"), domain: world.domain, task }),
      user: scriptedUser(task, rng.child("user"), { tools: world.domain.tools, vocabulary: world.domain.vocabulary }),
      rng: rng.child("episode"),
    });
    out.push({ task, events: r.events });
  }
  return out;
}

// The median time of `fn` over rounds of at least `minMs` each, in ms per call.
function perCall(fn: () => void, rounds: number, minMs: number): number {
  fn();
  const times: number[] = [];
  for (let r = 0; r < rounds; r++) {
    let n = 0;
    const start = performance.now();
    while (performance.now() - start < minMs) {
      fn();
      n++;
    }
    times.push((performance.now() - start) / n);
  }
  return median(times);
}

/** Grading and judging one oracle episode of a 100-milestone task, in ms (medians). */
export interface LongKernelBench {
  tasks: number;
  milestones: number;
  /** `gradeEpisode()` through `episodeFigures()`, per episode. */
  grade_ms: number;
  /** `rulesJudge()`, per episode. */
  judge_ms: number;
}

/**
 * Grades and rules-judges, over rounds of at least `minMs`, one oracle episode of each default task
 * of at least `LONG_TASK_MILESTONES` milestones of every registered domain (domains without one add
 * none): the time per episode.
 */
export async function benchLongKernel(options: { rounds?: number; minMs?: number } = {}): Promise<LongKernelBench> {
  const rounds = options.rounds ?? 7, minMs = options.minMs ?? 200;
  const worlds = Object.values(domains).map((d) => World.open(d));
  try {
    const episodes: { world: World; task: Task; events: EpisodeEvent[] }[] = [];
    for (const world of worlds) for (const e of await longEpisodes(world)) episodes.push({ world, ...e });
    if (episodes.length === 0) throw new Error("bench: no registered domain has a default long task");
    const gold = episodes.map((e) => e.world.goldReplay(e.task));
    const grade = perCall(
      () => {
        episodes.forEach((e, i) => episodeFigures(e.world, { task: e.task, events: e.events, gold: gold[i] }));
      },
      rounds,
      minMs,
    );
    const judge = perCall(
      () => {
        episodes.forEach((e, i) =>
          rulesJudge({ task: e.task, events: e.events, gold: gold[i], domain: e.world.domain, db: e.world.store })
        );
      },
      rounds,
      minMs,
    );
    return {
      tasks: episodes.length,
      milestones: episodes.reduce((n, e) => n + e.task.milestones.length, 0) / episodes.length,
      grade_ms: grade / episodes.length,
      judge_ms: judge / episodes.length,
    };
  } finally {
    for (const w of worlds) w.close();
  }
}

/** Grading one oracle episode of a default 100-milestone task (`benchLongKernel()`), in ms. */
export async function benchGrade100(options: { rounds?: number; minMs?: number } = {}): Promise<number> {
  return (await benchLongKernel(options)).grade_ms;
}

/** Rules-judging one oracle episode of a default 100-milestone task (`benchLongKernel()`), in ms. */
export async function benchJudge100(options: { rounds?: number; minMs?: number } = {}): Promise<number> {
  return (await benchLongKernel(options)).judge_ms;
}

/** The floor on this machine, in µs: a point select by primary key, and an empty commit (`Store`, no more). */
export function benchFloor(options: { rounds?: number } = {}): { select_us: number; commit_us: number } {
  using store = Store.open("CREATE TABLE t (id TEXT PRIMARY KEY, v INTEGER)");
  store.insert({ t: Array.from({ length: 1000 }, (_, i) => ({ id: `k${i}`, v: i })) });
  const rounds = options.rounds ?? 7;
  let i = 0;
  const select_us = perCall(() => store.get("SELECT * FROM t WHERE id = ?", `k${i++ % 1000}`), rounds, 50) * 1000;
  const commit_us = perCall(
    () => {
      store.exec("BEGIN");
      store.exec("COMMIT");
    },
    rounds,
    50,
  ) * 1000;
  return { select_us, commit_us };
}

if (import.meta.main) {
  const step = benchWriteStep();
  const long = await benchLongKernel();
  console.log(
    JSON.stringify({ ...step, ...long, ...benchFloor() }, (_k, v) => typeof v === "number" ? +v.toFixed(4) : v),
  );
}
