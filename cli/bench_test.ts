import { assert, assertEquals } from "@std/assert";
import { getDomain, World } from "../envs/mod.ts";
import { benchWorld } from "./bench.ts";

Deno.test("benchWorld() replays every gold and finds the same changes each time", () => {
  using world = World.open(getDomain("airline"), { seed: "0" });
  const golds = world.defaultTasks(10).map((t) => t.gold);
  const figures = benchWorld(world, golds, { minMs: 1 });
  assertEquals(figures.tasks, 10);
  assertEquals(figures.gold_match, 1);
  assert(figures.tool_steps_per_s > 0 && figures.restore_ms > 0 && figures.gold_replay_tasks_per_s > 0);
  // The world is left as it was: no episode open, the gold still applies.
  assertEquals(world.store.inTransaction, false);
});
