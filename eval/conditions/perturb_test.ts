import { assert, assertEquals, assertNotEquals, assertThrows } from "@std/assert";
import { getDomain, type Json, Rng, type ToolResult, World } from "../../envs/mod.ts";
import { decodeResult, encodeArgs, perturbationHints } from "../../agents/mod.ts";
import { columnRenames, envCondition, type EnvPreset } from "./perturb.ts";

const airline = getDomain("airline");

Deno.test("columnRenames() renames the world's multi-word columns, abbreviating a final number", () => {
  using world = World.open(airline);
  const renames = columnRenames(world.store);
  assertEquals(renames.flight_number, "flightNo");
  assertEquals(renames.reservation_id, "reservationId");
  assertEquals(renames.price, undefined);
  assert(Object.values(renames).every((v) => /^[a-z][A-Za-z0-9]*$/.test(v)));
});

function condition(preset: EnvPreset, seed = "e") {
  using world = World.open(airline);
  return envCondition({ preset, tools: airline.tools, columns: columnRenames(world.store), seed });
}

Deno.test("envCondition() shows tools with renamed parameters at any depth, in the shown date format", () => {
  const high = condition("high");
  const schema = (name: string) => high.tools.find((t) => t.name === name)!.parameters as Record<string, never>;
  assertEquals(Object.keys(schema("get_user_details").properties), ["userId"]);
  assertEquals(schema("get_user_details").required, ["userId"]);
  const flights = JSON.stringify(schema("update_reservation_flights"));
  assert(flights.includes('"flightNumber"') && !flights.includes("flight_number"), flights);
  assert(flights.includes("MM/DD/YYYY") && !flights.includes("YYYY-MM-DD"), flights);
  // The world's own tools are untouched.
  assertEquals(high.tools.map((t) => t.name), airline.tools.map((t) => t.name));
  assertEquals(airline.tools.every((t) => t.parameters === undefined), true);
  assertEquals(condition("low").hints.perturbation.dates, null);
});

Deno.test("envCondition() presets turn on 2, 4 and all 6 perturbations", () => {
  const on = (preset: EnvPreset) => {
    const h = condition(preset).hints.perturbation;
    return [
      Object.keys(h.names).length > 0,
      h.reordered,
      h.wrapped,
      h.dates !== null,
      h.numbers !== null,
      Object.keys(h.columns).length > 0,
    ].filter(Boolean).length;
  };
  assertEquals([on("low"), on("medium"), on("high")], [2, 4, 6]);
  assertThrows(() => condition("extreme" as EnvPreset), RangeError, '"low", "medium", "high"');
});

Deno.test("envCondition() dispatch refuses canonical names and ISO dates without calling the world", () => {
  const medium = condition("medium");
  let calls = 0;
  const next = (name: string, args: unknown): ToolResult => (calls++, { name, args, ok: true, result: null });
  const named = medium.dispatch!({ step: 1, name: "get_user_details", args: { user_id: "u" } }, next);
  assertEquals([named.ok, named.error?.code], [false, "invalid_args"]);
  assertEquals(
    named.error?.message,
    'Invalid arguments for "get_user_details": "user_id": unknown field, expected "userId"',
  );
  const dated = medium.dispatch!({
    step: 2,
    name: "search_direct_flight",
    args: { origin: "JFK", destination: "SEA", date: "2024-05-16" },
  }, next);
  assertEquals(dated.error?.message.includes('"date": expected a date as MM/DD/YYYY, got "2024-05-16"'), true);
  assertEquals(calls, 0);
});

Deno.test("envCondition() maps the agent's arguments back and perturbs results the same way all episode", () => {
  using world = World.open(airline);
  const ctx = world.context(new Rng("t"));
  for (const preset of ["low", "medium", "high"] as const) {
    const env = condition(preset);
    const hints = perturbationHints(env.hints)!;
    const worldCalls: unknown[] = [];
    const next = (name: string, args: unknown) => (worldCalls.push(args), world.call(ctx, name, args));
    for (const task of world.defaultTasks(20)) {
      for (const call of task.gold) {
        const shown = encodeArgs(call.args, hints);
        // Perturb args → map back = original, for writes too (this stub never reaches the world).
        let received: unknown;
        env.dispatch!({ step: 1, name: call.name, args: shown }, (name, args) => {
          received = args;
          return { name, args, ok: true, result: null };
        });
        assertEquals(received, call.args);
        if (world.tool(call.name)!.writes) continue;
        const got = env.dispatch!({ step: 1, name: call.name, args: shown }, next);
        assertEquals(worldCalls.at(-1), call.args);
        const plain = world.call(ctx, call.name, call.args);
        assertEquals(got.ok, plain.ok, `${preset} ${call.name}: ${got.error?.message}`);
        if (!got.ok) continue;
        // Results are perturbed, and normalising them gives the world's result back.
        if (preset !== "low") assertNotEquals(got.result, plain.result);
        assertEquals(decodeResult(got.result!, hints), plain.result);
        // The same call gives the same text: keys in one order for the whole episode.
        const again = env.dispatch!({ step: 2, name: call.name, args: shown }, next);
        assertEquals(JSON.stringify(again.result), JSON.stringify(got.result));
      }
    }
  }
});

Deno.test("envCondition() orders keys by the episode's seed", () => {
  const result: Json = { alpha: 1, beta: 2, gamma: 3, delta: 4, epsilon: 5, zeta: 6 };
  const next = (name: string, args: unknown): ToolResult => ({ name, args, ok: true, result });
  const order = (seed: string) =>
    Object.keys(condition("low", seed).dispatch!({ step: 1, name: "think", args: { thought: "" } }, next).result!);
  assertEquals(order("a"), order("a"));
  assert(["a", "b", "c", "d"].map(order).some((o) => o.join() !== order("a").join()));
});
