import { assert, assertEquals } from "@std/assert";
import { getDomain, World } from "../envs/mod.ts";
import { benchWorld } from "./bench.ts";
import { benchLong } from "./_bench_long.ts";
import { benchCheckpoint } from "./_bench_checkpoint.ts";
import { benchServe } from "./_bench_serve.ts";
import { storeSize } from "./_bench_store.ts";
import { benchText } from "./_bench_text.ts";
import { resolveConfig } from "../eval/config.ts";
import { runExperiment } from "../eval/run.ts";
import { ResultsStore } from "../eval/store.ts";

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

Deno.test("benchLong() times the oracle on each domain's long tasks and leaves out a domain without any", async () => {
  const [orders] = await benchLong([getDomain("orders")], { minMs: 1 });
  assertEquals([orders.domain, orders.tasks, orders.milestones], ["orders", 2, 100]);
  assert(orders.episodes >= 2 && orders.episodes_per_s > 0 && orders.steps_per_s > orders.episodes_per_s);
  assertEquals(await benchLong([getDomain("airline")], { minMs: 1 }), []);
});

Deno.test("benchCheckpoint() times the oracle bare and behind the checkpoint on the same calls", async () => {
  const b = await benchCheckpoint([getDomain("airline")], { tasks: 3 });
  assert(b.tool_calls > 0 && b.bare_ms > 0 && b.checked_ms > 0, JSON.stringify(b));
  assertEquals(b.bare_tool_calls, b.tool_calls);
});

Deno.test("benchServe(): episodes open at once over loopback get the records they get alone in-process", async () => {
  const served = await benchServe("airline", { episodes: 20 });
  assertEquals([served.episodes, served.leaks], [20, 0]);
  assert(served.tool_calls > 0 && served.p99_ms >= served.p50_ms);
});

Deno.test("storeSize() measures a results store's bytes per episode: a slice of the default experiment", async () => {
  // The default experiment's first domain with 10 tasks: every condition and the scenarios.
  const config = resolveConfig({ domains: resolveConfig({}).domains.slice(0, 1), tasks: 10 });
  const dir = await Deno.makeTempDir();
  {
    using store = ResultsStore.open(`${dir}/results.sqlite`, { config });
    await runExperiment(config, { sink: store });
  }
  const stored = await storeSize(`${dir}/results.sqlite`);
  await Deno.remove(dir, { recursive: true });
  assert(
    stored.episodes > 100 && stored.bytes_per_episode > 0 && stored.bytes_per_episode < 1536,
    JSON.stringify(stored),
  );
});

Deno.test("benchText() runs agents in intents and in words on the same cells and compares their verdicts", async () => {
  const text = await benchText({ tasks: 4, agents: ["oracle", "idle"] });
  assert(text.episodes > 0 && text.intent_ms > 0 && text.text_ms > 0, JSON.stringify(text));
  assertEquals(Object.keys(text.agreement), ["oracle", "idle"]);
  assertEquals(text.agreement.idle, 1);
});
