import { assert, assertEquals, assertThrows } from "@std/assert";
import { canonicalJson } from "../json.ts";
import { Rng } from "../rng.ts";
import type { Json } from "../json.ts";
import { World } from "../world.ts";
import { generateRetail } from "./generate.ts";
import { retail } from "./mod.ts";
import { RETAIL_INTENTS, retailTasks } from "./tasks.ts";

const data = generateRetail(new Rng("0").child("world"), 1);
const tasks = retailTasks(new Rng("0").child("tasks"), 50, data);

Deno.test("retailTasks() cycles through ten intents with five distinct openings each", () => {
  assertEquals(new Set(tasks.map((t) => t.intent)).size, 10);
  tasks.forEach((t, i) => {
    assertEquals(t.id, `retail/${i}`);
    assertEquals(t.intent, RETAIL_INTENTS[i % 10]);
    assert(new Set(t.openings).size >= 5, t.id);
    for (const f of t.volunteered) assert(f in t.facts, `${t.id} volunteers ${f}`);
  });
  assertEquals(new Set(tasks.map((t) => t.expect)), new Set(["act", "refuse", "transfer", "inform"]));
});

Deno.test("retailTasks() is seeded and prefix-stable", () => {
  const json = (v: unknown) => canonicalJson(v as Json);
  assertEquals(json(retailTasks(new Rng("0").child("tasks"), 50, data)), json(tasks));
  assertEquals(json(retailTasks(new Rng("0").child("tasks"), 7, data)), json(tasks.slice(0, 7)));
  assert(json(retailTasks(new Rng("1").child("tasks"), 10, data)) !== json(tasks.slice(0, 10)));
  assertThrows(() => retailTasks(new Rng("0"), -1, data), RangeError);
});

Deno.test("retailTasks() gold writes succeed on a fresh world and only act tasks write", () => {
  using world = World.fromData(retail, data);
  for (const task of tasks) {
    const replay = world.goldReplay(task);
    task.gold.forEach((call, i) => {
      const tool = world.tool(call.name)!;
      if (tool.writes) assert(replay.calls[i].length > 0, `${task.id}: ${call.name} changed nothing`);
    });
    const writes = task.gold.filter((c) => world.tool(c.name)!.writes).length;
    assertEquals(writes > 0, task.expect === "act", task.id);
  }
});

Deno.test("retailTasks() refuses by the policy's rule: the refusal outputs name it", () => {
  const refusals = tasks.filter((t) => t.expect === "refuse");
  const outputs = new Set(refusals.map((t) => t.outputs.join("|")));
  for (const words of ["only pending orders", "only delivered orders", "same product", "email|zip code"]) {
    assert(outputs.has(words), `no refusal saying ${words}`);
  }
  // A cancellation refused for its status is of an order that is not pending, in the world's data.
  for (const t of refusals.filter((t) => t.outputs[0] === "only pending orders")) {
    assert(data.orders[String(t.facts.order_id)].status !== "pending", t.id);
  }
});
