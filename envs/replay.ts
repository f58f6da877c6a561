/**
 * Replaying a trajectory in a world: its tool calls, in order, on a fresh episode, each answered
 * with the result or error and the changed rows the world gives now. Used to rebuild the events of
 * another harness's transcript (`deno task import`) and by tests that edit a trajectory.
 *
 * @module
 */
import { Rng } from "./rng.ts";
import { AbnormalSchedule, worldCall } from "./abnormal.ts";
import type { EpisodeEvent } from "./events.ts";
import type { Task } from "./task.ts";
import type { World } from "./world.ts";

/** Options of `replayTrajectory()`. */
export interface ReplayTrajectoryOptions {
  /**
   * The task the trajectory is an episode of: its tools then draw from the task's own context
   * (`World.taskContext()`), as its gold replay and its episodes do, so a write drawing an id or
   * stamping the time gives the gold's rows; and the calls its world answers wrongly
   * (`Task.abnormal`) are answered so again.
   * @default {undefined: a generator of the replay's own, `new Rng("replay").child("tools")`}
   */
  task?: Pick<Task, "id" | "abnormal">;
}

/**
 * The trajectory with every tool call that reached the world answered again by `world` (results,
 * errors and changed rows replaced; messages and faulted calls kept as they were). The world is
 * left as it was.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { getDomain, replayTrajectory, World } from "@ark/ark/envs";
 * using world = World.open(getDomain("airline"), { seed: "0" });
 * const task = world.defaultTasks(1)[0];
 * const user_id = String(task.facts.user_id);
 * const call = { step: 1, actor: "tool" as const, kind: "tool" as const, tool: "get_user_details", args: { user_id } };
 * const events = replayTrajectory(world, [{ ...call, latency_ms: 0 }], { task });
 * assertEquals([user_id, (events[0].result as { name: { first_name: string } }).name.first_name], [
 *   "omar_zimmerman_3258",
 *   "Omar",
 * ]);
 * ```
 */
export function replayTrajectory(
  world: World,
  events: readonly EpisodeEvent[],
  options: ReplayTrajectoryOptions = {},
): EpisodeEvent[] {
  using recording = world.beginEpisode();
  const ctx = options.task === undefined
    ? world.context(new Rng("replay").child("tools"))
    : world.taskContext(options.task);
  // The task's world answers the same calls wrongly as in the episode (`Task.abnormal`).
  const episode = { ctx, recording, abnormal: new AbnormalSchedule(options.task ?? {}) };
  return events.map((e) => {
    if (e.kind !== "tool" || e.fault !== undefined) return e;
    const { result: _r, error: _e, changes: _c, latency_ms, ...rest } = e;
    const { result: r, changes } = worldCall(world, episode, e.tool ?? "", e.world_args ?? e.args);
    const out: EpisodeEvent = { ...rest, ...(r.ok ? { result: r.result } : { error: r.error }), latency_ms };
    if (changes !== null && changes.length > 0) out.changes = changes;
    return out;
  });
}
