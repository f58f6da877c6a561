// The checkpoint's cost for `deno task bench`: the oracle's episodes on every registered domain's
// default tasks, run bare and behind the checkpoint (best of three passes each); the difference per
// tool call is what the checks add. Private to cli/.
import { type Domain, Rng, runEpisode, scriptedUser, World } from "../envs/mod.ts";
import { checkpoint, oracle } from "../agents/mod.ts";

/** The checkpoint's overhead. */
export interface CheckpointBench {
  /** Tool calls per pass behind the checkpoint. */
  tool_calls: number;
  /** Tool calls per bare pass: the same as `tool_calls` when the checkpoint blocks nothing the oracle does. */
  bare_tool_calls: number;
  /** Milliseconds of one pass without and with the checkpoint (the best of three). */
  bare_ms: number;
  checked_ms: number;
  /** What the checkpoint adds per tool call, in microseconds (never below 0). */
  overhead_us_per_call: number;
}

/** Times the oracle bare and behind the checkpoint on each domain's `tasks` default tasks. */
export async function benchCheckpoint(domains: readonly Domain[], options: { tasks?: number } = {}): Promise<
  CheckpointBench
> {
  const worlds = domains.map((d) => World.open(d, { seed: "0" }));
  try {
    const pass = async (checked: boolean) => {
      let calls = 0;
      const start = performance.now();
      for (const world of worlds) {
        const domain = world.domain;
        for (const task of world.defaultTasks(options.tasks ?? 50)) {
          const rng = new Rng(`bench-checkpoint/${task.id}`);
          const factory = checked ? checkpoint(oracle()) : oracle();
          const r = await runEpisode(world, {
            task,
            agent: factory({ rng: rng.child("agent"), domain, task }),
            user: scriptedUser(task, rng.child("user"), { tools: domain.tools, vocabulary: domain.vocabulary }),
            rng: rng.child("episode"),
          });
          calls += r.toolCalls;
        }
      }
      return { calls, ms: performance.now() - start };
    };
    await pass(false); // warm-up: gold replays cached, code compiled
    let bare = Infinity, checked = Infinity, calls = 0, bareCalls = 0;
    for (let i = 0; i < 3; i++) {
      const b = await pass(false);
      bare = Math.min(bare, b.ms);
      bareCalls = b.calls;
      const c = await pass(true);
      checked = Math.min(checked, c.ms);
      calls = c.calls;
    }
    return {
      tool_calls: calls,
      bare_tool_calls: bareCalls,
      bare_ms: bare,
      checked_ms: checked,
      overhead_us_per_call: Math.max(0, ((checked - bare) * 1000) / Math.max(1, calls)),
    };
  } finally {
    for (const w of worlds) w.close();
  }
}
