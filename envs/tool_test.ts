import { assertEquals, assertNotEquals, assertThrows } from "@std/assert";
import { z } from "zod";
import { argsProblem, callTool, parseArgs } from "./call.ts";
import { defineTool, identifyingArgs, ToolError, toolParameters, toolSchema } from "./tool.ts";
import { Store } from "./sqlite.ts";
import { Clock } from "./clock.ts";
import { Rng } from "./rng.ts";
import type { Json } from "./json.ts";

const book = defineTool({
  name: "book",
  description: "Book seats.",
  input: z.object({
    flight: z.string().describe("Flight number"),
    seats: z.array(z.object({ name: z.string(), row: z.int() })),
  }),
  writes: true,
  run: (ctx, args) => ctx.db.run("INSERT INTO b VALUES (?, ?)", args.flight, args.seats.length),
});

const peek = defineTool({
  name: "peek",
  description: "Try to write from a read tool.",
  input: z.object({}),
  writes: false,
  run: (ctx) => ctx.db.run("INSERT INTO b VALUES ('x', 1)"),
});

Deno.test("parseArgs() names the wrong field in an invalid_args ToolError", () => {
  const err = assertThrows(() => parseArgs(book, { flight: "HAT001", seats: [{ name: "a", row: "3" }] }), ToolError);
  assertEquals(err.code, "invalid_args");
  assertEquals(err.message.includes('"seats[0].row"'), true, err.message);
  assertThrows(() => parseArgs(book, null), ToolError, '"flight"');
});

Deno.test("callTool() runs read tools with writes refused", () => {
  using db = Store.open("CREATE TABLE b (f TEXT PRIMARY KEY, n INTEGER)");
  const ctx = { db, clock: new Clock("2024-05-15T15:00:00"), rng: new Rng(0) };
  assertEquals(callTool(ctx, book, { flight: "HAT001", seats: [{ name: "a", row: 3 }] }), 1);
  assertThrows(() => callTool(ctx, peek, {}), Error, "not authorized");
});

Deno.test("toolSchema() gives OpenAI and Anthropic function shapes", () => {
  const openai = toolSchema(book, "openai") as {
    type: string;
    function: { name: string; parameters: { required: string[] } };
  };
  assertEquals(openai.type, "function");
  assertEquals(openai.function.name, "book");
  assertEquals(openai.function.parameters.required, ["flight", "seats"]);
  const anthropic = toolSchema(book, "anthropic") as { name: string; input_schema: { type: string } };
  assertEquals(anthropic.name, "book");
  assertEquals(anthropic.input_schema.type, "object");
});

Deno.test("toolParameters() and toolSchema() show a tool's own parameters over its input's schema", () => {
  const parameters = { type: "object", properties: { flightNo: { type: "string" } }, required: ["flightNo"] };
  const shown = { ...book, parameters };
  assertEquals(toolParameters(shown), parameters);
  const openai = toolSchema(shown, "openai") as { function: { parameters: unknown } };
  assertEquals(openai.function.parameters, parameters);
  // A copy: changing it leaves the tool as it was.
  (toolParameters(shown).properties as Record<string, unknown>).x = 1;
  assertEquals(Object.keys(parameters.properties), ["flightNo"]);
  assertEquals(toolParameters(book).required as string[], ["flight", "seats"]);
});

Deno.test("defineTool() takes identifying arguments it has, and wants customer() when several find the customer", () => {
  const input = z.object({ first_name: z.string(), zip: z.string() });
  const spec = { name: "find", description: "Find a user.", input, writes: false, run: () => "" };
  const one = defineTool({ ...spec, identifies: "zip" });
  assertEquals(identifyingArgs(one), ["zip"]);
  const both = defineTool({ ...spec, identifies: ["first_name", "zip"], customer: () => null });
  assertEquals(identifyingArgs(both), ["first_name", "zip"]);
  assertEquals(identifyingArgs(defineTool(spec)), []);
  assertThrows(() => defineTool({ ...spec, identifies: "email" }), TypeError, 'got "email"');
  assertThrows(() => defineTool({ ...spec, identifies: [] }), TypeError, "one or more of its arguments");
  assertThrows(() => defineTool({ ...spec, identifies: ["first_name", "zip"] }), TypeError, '"customer" must say');
});

Deno.test("defineTool() lets only a write that can be undone go without the user's yes", () => {
  const spec = { name: "note", description: "Note.", input: z.object({}), run: () => "" };
  assertEquals(defineTool({ ...spec, writes: true, confirm: false }).confirm, false);
  assertEquals(defineTool({ ...spec, writes: true }).confirm, undefined);
  assertThrows(() => defineTool({ ...spec, writes: false, confirm: false }), TypeError, "that can be undone");
  assertThrows(() => defineTool({ ...spec, writes: true, irreversible: true, confirm: false }), TypeError, "confirm");
});

Deno.test("callTool() refuses arguments too deep or too long, and an answer too long, whoever wrote the tool", () => {
  using db = Store.open("CREATE TABLE b (f TEXT PRIMARY KEY, n INTEGER)");
  const ctx = { db, clock: new Clock("2024-05-15T15:00:00"), rng: new Rng(0) };
  let ran = 0;
  const echo = defineTool({
    name: "echo",
    description: "Say it back.",
    input: z.object({ x: z.unknown(), times: z.int().optional() }),
    writes: false,
    run: (_c, a) => (ran++, a.times === undefined ? null : "y".repeat(a.times)),
  });
  const nest = (levels: number) => {
    let deep: unknown = 1;
    for (let i = 0; i < levels; i++) deep = [deep];
    return deep;
  };
  // 200,000 levels are answered (too long before too deep), not a stack overflow; 100 are too deep.
  assertThrows(() => callTool(ctx, echo, { x: nest(200_000) }), ToolError, "over 65536 bytes");
  assertThrows(() => callTool(ctx, echo, { x: nest(100) }), ToolError, "nest deeper than 64 levels");
  assertEquals(argsProblem({ x: nest(62) }), null);
  assertEquals(argsProblem({ x: nest(64) }), "they nest deeper than 64 levels");
  assertThrows(() => callTool(ctx, echo, { x: "z".repeat(70_000) }), ToolError, "over 65536 bytes");
  assertEquals(ran, 0);
  assertEquals(callTool(ctx, echo, { x: [[["fine"]]], times: 3 }), "yyy");
  assertThrows(() => callTool(ctx, echo, { x: 1, times: 2_000_000 }), ToolError, 'The answer of "echo" is over');
});

Deno.test("callTool() runs SQL with 'now' at the context's clock and random() from its own seed", () => {
  using db = Store.open();
  const now = defineTool({
    name: "now",
    description: "",
    input: z.object({}),
    writes: false,
    run: (c) => c.db.get("SELECT datetime('now') AS t, random() AS r") as Json,
  });
  const at = (seed: number) => callTool({ db, clock: new Clock("2024-05-15T15:00:00"), rng: new Rng(seed) }, now, {});
  const a = at(0) as { t: string; r: number };
  assertEquals(a.t, "2024-05-15 15:00:00");
  assertEquals((at(0) as { r: number }).r, a.r);
  assertNotEquals((at(1) as { r: number }).r, a.r);
});
