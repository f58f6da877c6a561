import { assert, assertEquals } from "@std/assert";
import { Rng } from "../rng.ts";
import { TASK_CATEGORIES } from "../task.ts";
import { generateOrders } from "./generate.ts";
import { LONG_POSITIONS, ordersTasks } from "./tasks.ts";
import { LONG_INTENTS } from "./long.ts";

const data = generateOrders(new Rng("0").child("world"), 1);

Deno.test("ordersTasks() puts the six long tasks at fixed places and the four categories round-robin", () => {
  const tasks = ordersTasks(new Rng("0").child("tasks"), 50, data);
  assertEquals(tasks.filter((t) => LONG_INTENTS.includes(t.goal)).map((t) => Number(t.id.split("/")[1])), [
    ...LONG_POSITIONS,
  ]);
  const long = tasks.filter((t) => t.family !== undefined);
  assertEquals(new Set(long.map((t) => `${t.family}/${t.length}/${t.dependency}`)).size, 6);
  const categories = tasks.filter((t) => t.category !== undefined).map((t) => t.category);
  assertEquals(categories.length, 44);
  categories.forEach((c, k) => assertEquals(c, TASK_CATEGORIES[k % 4]));
});

Deno.test("ordersTasks(): every task has five openings; abnormal tasks declare their faults, noise openings carry chatter", () => {
  const tasks = ordersTasks(new Rng("0").child("tasks"), 120, data);
  for (const t of tasks) assert(new Set(t.openings).size >= 5, t.id);
  const abnormal = tasks.filter((t) => t.category === "abnormal");
  assert(abnormal.length >= 20 && abnormal.every((t) => (t.abnormal?.length ?? 0) >= 1));
  assertEquals(
    new Set(abnormal.flatMap((t) => t.abnormal!.map((a) => a.kind))),
    new Set(["timeout", "dependency_down", "partial"]),
  );
  assert(tasks.filter((t) => t.category === "noise").every((t) => t.openings.every((o) => o.length > 40)));
  assert(tasks.filter((t) => t.category === "edge").some((t) => t.outputs.includes("no orders found")));
});

Deno.test("ordersTasks() works on a small and a large world and rejects a bad count", () => {
  for (const scale of [0.2, 2]) {
    const d = generateOrders(new Rng("s").child("world"), scale);
    assertEquals(ordersTasks(new Rng("s"), 40, d).length, 40);
  }
  let message = "";
  try {
    ordersTasks(new Rng("0"), -1, data);
  } catch (err) {
    message = (err as Error).message;
  }
  assert(message.includes("expected a whole number"));
});
