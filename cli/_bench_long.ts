// Long-horizon tasks for `deno task bench`: the oracle's episodes per second on every registered
// domain's default tasks of at least 100 milestones (each episode run, graded and reset). Private to cli/.
import { type Domain, Rng, runEpisode, scriptedUser, type Task, World } from "../envs/mod.ts";
import { oracle } from "../agents/mod.ts";
import { LONG_TASK_MILESTONES } from "../eval/plan.ts";

/** One domain's long tasks, timed. */
export interface LongBench {
  domain: string;
  tasks: number;
  /** Milestones of one episode, on average. */
  milestones: number;
  episodes: number;
  episodes_per_s: number;
  /** Agent steps per second over those episodes. */
  steps_per_s: number;
}

/** The default tasks of a domain with at least `LONG_TASK_MILESTONES` milestones. */
export function longTasks(world: World, count = 50): Task[] {
  return world.defaultTasks(count).filter((t) => t.milestones.length >= LONG_TASK_MILESTONES);
}

/**
 * Runs the oracle on each long task of each domain (given the default 50 tasks) for at least
 * `minMs` after one warm-up episode per task; domains without a long task are left out.
 */
export async function benchLong(domains: readonly Domain[], options: { minMs?: number } = {}): Promise<LongBench[]> {
  const minMs = options.minMs ?? 1000;
  const out: LongBench[] = [];
  for (const domain of domains) {
    using world = World.open(domain, { seed: "0" });
    const tasks = longTasks(world);
    if (tasks.length === 0) continue;
    const play = async (task: Task, i: number) => {
      const rng = new Rng(`bench-long/${task.id}/${i}`);
      const r = await runEpisode(world, {
        task,
        agent: oracle()({ rng: rng.child("agent"), domain, task }),
        user: scriptedUser(task, rng.child("user"), { tools: domain.tools, vocabulary: domain.vocabulary }),
        rng: rng.child("episode"),
      });
      if (!r.success) throw new Error(`bench: the oracle fails the long task ${task.id}`);
      return r.steps;
    };
    for (const task of tasks) await play(task, -1);
    let episodes = 0, steps = 0;
    const start = performance.now();
    while (performance.now() - start < minMs) {
      for (const task of tasks) steps += await play(task, episodes++);
    }
    const s = (performance.now() - start) / 1000;
    out.push({
      domain: domain.name,
      tasks: tasks.length,
      milestones: tasks.reduce((n, t) => n + t.milestones.length, 0) / tasks.length,
      episodes,
      episodes_per_s: episodes / s,
      steps_per_s: steps / s,
    });
  }
  return out;
}
