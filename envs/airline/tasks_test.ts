import { assert, assertEquals, assertThrows } from "@std/assert";
import { Store } from "../sqlite.ts";
import { Clock } from "../clock.ts";
import { Rng } from "../rng.ts";
import { callTool, parseArgs } from "../call.ts";
import { generateAirline } from "./generate.ts";
import { AIRLINE_INTENTS, airlineTasks } from "./tasks.ts";
import { airlineRows } from "./_rows.ts";
import { AIRLINE_SCHEMA } from "./schema.ts";
import { airlineTools } from "./tools.ts";
import { NOW } from "./_rules.ts";

const data = generateAirline(new Rng("0").child("world"), 1);
const tasks = airlineTasks(new Rng("0").child("tasks"), 50, data);
const VERBATIM = [
  "user_id",
  "reservation_id",
  "payment_id",
  "new_date",
  "date",
  "origin",
  "destination",
  "flight_number",
];
const tools = new Map(airlineTools.map((t) => [t.name, t]));

Deno.test("airlineTasks() cycles through ten intents with five distinct openings each", () => {
  assertEquals(new Set(tasks.map((t) => t.intent)).size, 10);
  tasks.forEach((t, i) => {
    assertEquals(t.id, `airline/${i}`);
    assertEquals(t.intent, AIRLINE_INTENTS[i % 10]);
    assert(new Set(t.openings).size >= 5, t.id);
    for (const f of t.volunteered) assert(f in t.facts, `${t.id} volunteers ${f}`);
    // Values the user states verbatim appear in every paraphrase.
    for (const f of t.volunteered.filter((f) => VERBATIM.includes(f))) {
      assert(t.openings.every((o) => o.includes(String(t.facts[f]))), `${t.id}: ${f}`);
    }
  });
});

Deno.test("airlineTasks() is deterministic and adding tasks does not change earlier ones", () => {
  const again = airlineTasks(new Rng("0").child("tasks"), 50, data);
  assertEquals(JSON.stringify(again), JSON.stringify(tasks));
  const fewer = airlineTasks(new Rng("0").child("tasks"), 17, data);
  assertEquals(JSON.stringify(fewer), JSON.stringify(tasks.slice(0, 17)));
  const other = airlineTasks(new Rng("1").child("tasks"), 50, data);
  assert(JSON.stringify(other) !== JSON.stringify(tasks));
});

Deno.test("airlineTasks() gold calls have valid arguments and succeed against the tools", () => {
  using store = Store.open(AIRLINE_SCHEMA);
  store.insert(airlineRows(data));
  const ctx = { db: store, clock: new Clock(NOW), rng: new Rng("tools") };
  for (const task of tasks) {
    store.begin();
    const tracker = store.track();
    try {
      for (const call of task.gold) {
        const tool = tools.get(call.name);
        assert(tool, `${task.id}: unknown tool ${call.name}`);
        parseArgs(tool, call.args);
        callTool(ctx, tool, call.args);
      }
      const writes = task.gold.filter((c) => tools.get(c.name)!.writes).length;
      assertEquals(writes, task.expect === "act" ? 1 : 0, task.id);
      assertEquals(tracker.changes().length > 0, task.expect === "act", task.id);
      assertEquals(task.gold.at(-1)!.name === "transfer_to_human_agents", task.expect === "transfer", task.id);
    } finally {
      tracker.close();
      store.rollback();
    }
  }
});

Deno.test("airlineTasks() gives outcome milestones, never look-ups, and outputs a correct agent must say", () => {
  const writes = new Set(airlineTools.filter((t) => t.writes).map((t) => t.name));
  for (const task of tasks) {
    const kinds = task.milestones.map((m) => m.kind);
    for (const m of task.milestones) {
      assert(m.label.length > 0);
      if (m.kind === "change") assert(writes.has(task.gold[m.gold].name), `${task.id}: milestone on a look-up`);
    }
    const changes = task.milestones.filter((m) => m.kind === "change").length;
    assertEquals(changes, task.gold.filter((c) => writes.has(c.name)).length, task.id);
    if (task.expect === "act") {
      assertEquals(kinds, task.outputs.length > 0 ? ["change", "told"] : ["change"], task.id);
      for (const out of task.outputs) assert(/^\d+$/.test(out), `${task.id}: ${out}`);
    }
    if (task.expect === "refuse") {
      assertEquals(kinds, ["refused"], task.id);
      // A refusal names the policy reason.
      assertEquals(task.outputs.length, 1, task.id);
    }
    if (task.expect === "transfer") assertEquals(kinds, ["handed_over"], task.id);
    if (["cancel_allowed", "book"].includes(task.intent)) assertEquals(task.outputs.length, 1, task.id);
    assert(task.rationale && task.rationale.length > 0);
  }
});

Deno.test("airlineTasks() throws a clear error when the world has no candidate", () => {
  const empty = { ...data, reservations: {} };
  assertThrows(() => airlineTasks(new Rng("0"), 1, empty), Error, "Cannot make an airline task");
  assertThrows(() => airlineTasks(new Rng("0"), -1, data), RangeError);
});
