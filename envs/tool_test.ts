import { assertEquals, assertThrows } from "@std/assert";
import { z } from "zod";
import { callTool, defineTool, identifyingArgs, parseArgs, ToolError, toolParameters, toolSchema } from "./tool.ts";
import { Store } from "./sqlite.ts";
import { Clock } from "./clock.ts";
import { Rng } from "./rng.ts";

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
