import { assert, assertEquals, assertNotEquals, assertThrows } from "@std/assert";
import { domains, type Json, Rng, toolParameters, World } from "../envs/mod.ts";
import {
  camelCase,
  columnRenames,
  ENV_PRESET_NAMES,
  type PerturbationHints,
  perturbationHints,
  presetHints,
  seededKeyOrder,
} from "./perturbation.ts";
import {
  decodeArgs,
  decodeResult,
  encodeArgs,
  encodeResult,
  encodeSchema,
  formatNumber,
} from "./perturbation_codec.ts";

const HINTS: PerturbationHints = {
  names: { user_id: "userId", flight_number: "flightNumber" },
  dates: "MM/DD/YYYY",
  wrapped: true,
  numbers: "formatted",
  columns: { flight_number: "flightNo" },
  reordered: true,
};

Deno.test("encodeArgs() and decodeResult() translate by the hints at any depth", () => {
  assertEquals(encodeArgs({ user_id: "u", legs: [{ flight_number: "F1", date: "2024-05-16" }] }, HINTS), {
    userId: "u",
    legs: [{ flightNumber: "F1", date: "05/16/2024" }],
  });
  assertEquals(
    decodeResult(
      { status: "ok", data: { flights: [{ flightNo: "F1", price: "1,234.5", at: "05/16/2024T10:00" }] } },
      HINTS,
    ),
    { flights: [{ flight_number: "F1", price: 1234.5, at: "2024-05-16T10:00" }] },
  );
  assertEquals(perturbationHints({ perturbation: { names: { a_b: "aB", bad: 3 } } })?.names, { a_b: "aB" });
  assertEquals(perturbationHints({ other: 1 }), null);
});

Deno.test("numbers shows every number as a string a separator or a decimal point says is one", () => {
  const hints = { ...HINTS, wrapped: false, reordered: false, dates: null, columns: {} };
  const result = { size: "9", pieces: "500", zip: "46245", seats: 12, price: 54.04, total: 1234, big: 1e21 };
  const shown = encodeResult(result, hints);
  assertEquals(shown, {
    size: "9",
    pieces: "500",
    zip: "46245",
    seats: "12.0",
    price: "54.04",
    total: "1,234",
    big: 1e21,
  });
  assertEquals(decodeResult(shown, hints), result);
  // A string the decoder cannot tell from a number is read as one: the shared round-trip test catches it.
  assertEquals(decodeResult({ v: "1.5" }, hints), { v: 1.5 });
});

Deno.test("camelCase() and formatNumber() write names and numbers the perturbed way", () => {
  assertEquals(camelCase("reservation_id"), "reservationId");
  assertEquals(camelCase("legs"), "legs");
  assertEquals(["0", "999", "1,000", "-12,345.5", "1,234,567"], [0, 999, 1000, -12345.5, 1234567].map(formatNumber));
});

Deno.test("decodeArgs() refuses canonical names and ISO dates, naming each, and encodeSchema() renames required", () => {
  assertEquals(
    decodeArgs({ user_id: "u", legs: [{ date: "2024-05-16" }] }, HINTS),
    {
      error:
        '"user_id": unknown field, expected "userId"; "legs[0].date": expected a date as MM/DD/YYYY, got "2024-05-16"',
    },
  );
  const schema = { properties: { user_id: { type: "string", format: "date" } }, required: ["user_id"] };
  assertEquals(encodeSchema(schema, HINTS), {
    properties: { userId: { type: "string", pattern: "^\\d{2}/\\d{2}/\\d{4}$" } },
    required: ["userId"],
  });
  assertEquals(schema.required, ["user_id"]);
  assertThrows(() => presetHints("extreme" as never, { schemas: [], columns: {} }), RangeError, '"low", "medium"');
});

Deno.test("every preset round-trips: encoded arguments and results decode to the originals", () => {
  // Per preset, over every domain: how many arguments and results it showed differently.
  const changed = new Map<string, { args: number; results: number; read: number }>();
  for (const domain of Object.values(domains)) {
    using world = World.open(domain);
    const ctx = world.context(new Rng("t"));
    const schemas = domain.tools.map(toolParameters);
    const columns = columnRenames(world.store);
    for (const preset of ENV_PRESET_NAMES) {
      const hints = presetHints(preset, { schemas, columns });
      const options = { order: seededKeyOrder(`${domain.name} ${preset}`) };
      let changedArgs = 0, changedResults = 0, results = 0;
      for (const task of world.defaultTasks(20)) {
        for (const call of task.gold) {
          const shown = encodeArgs(call.args, hints);
          if (JSON.stringify(shown) !== JSON.stringify(call.args)) changedArgs++;
          assertEquals(decodeArgs(shown, hints), { args: call.args }, `${preset} ${call.name}`);
          if (world.tool(call.name)!.writes) continue;
          const plain = world.call(ctx, call.name, call.args);
          if (!plain.ok) continue;
          const result = plain.result as Json;
          const encoded = encodeResult(result, hints, options);
          results++;
          if (JSON.stringify(encoded) !== JSON.stringify(result)) changedResults++;
          assertEquals(decodeResult(encoded, hints), result, `${preset} ${call.name}`);
        }
      }
      const sum = changed.get(preset) ?? { args: 0, results: 0, read: 0 };
      changed.set(preset, {
        args: sum.args + changedArgs,
        results: sum.results + changedResults,
        read: sum.read + results,
      });
    }
  }
  // The round trip is not trivial: every preset shows arguments and results differently somewhere (a
  // domain whose names are single lower-case words may pass through a mild preset unchanged).
  for (const preset of ENV_PRESET_NAMES) {
    const sum = changed.get(preset)!;
    assert(sum.args > 0 && sum.results > 0 && sum.read > 0, preset);
  }
});

Deno.test("seededKeyOrder() orders keys by the seed and each key alone", () => {
  const keys = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta"];
  const order = seededKeyOrder("a");
  assertEquals(order(keys), order([...keys].reverse()));
  assertEquals(order(keys.slice(0, 3)), order(keys).filter((k) => keys.slice(0, 3).includes(k)));
  assertNotEquals(["b", "c", "d", "e"].map((s) => seededKeyOrder(s)(keys).join()), Array(4).fill(order(keys).join()));
});

Deno.test("seededKeyOrder() gives every caller a list of its own", () => {
  const order = seededKeyOrder("a");
  const first = order(["alpha", "beta", "gamma"]);
  const shown = [...first];
  first.reverse();
  assertEquals(order(["alpha", "beta", "gamma"]), shown);
});

Deno.test("encodeResult() and decodeResult() make keys as Object.fromEntries() does, in either key order", () => {
  // A key named "__proto__" is an own key, never the prototype; of two keys shown alike, the first
  // one's place and the last one's value.
  const result = JSON.parse('{"__proto__": {"price": 2}, "flight_number": "x", "flightNo": "y", "n": 1}') as Json;
  for (const reordered of [false, true]) {
    const hints = { ...HINTS, wrapped: false, reordered };
    const shown = encodeResult(result, hints, { order: seededKeyOrder("s") }) as Record<string, Json>;
    assertEquals(Object.getPrototypeOf(shown), Object.prototype);
    assert(Object.hasOwn(shown, "__proto__"));
    assertEquals(Object.keys(shown).sort(), ["__proto__", "flightNo", "n"]);
    assertEquals([shown.flightNo, shown.n], ["y", "1.0"]);
    if (!reordered) assertEquals(Object.keys(shown), ["__proto__", "flightNo", "n"]);
    const back = decodeResult(shown, hints) as Record<string, Json>;
    assert(Object.hasOwn(back, "__proto__"));
    assertEquals(Object.getOwnPropertyDescriptor(back, "__proto__")?.value, { price: 2 });
    assertEquals([back.flight_number, back.n], ["y", 1]);
  }
});
