import { assertEquals, assertRejects } from "@std/assert";
import { addCost, callCost, costOf, DEFAULT_PRICES, loadPrices, priceFor } from "./prices.ts";

Deno.test("callCost() is null, not 0, for a model without a price, and addCost() keeps it unknown", () => {
  const usage = { inputTokens: 1000, outputTokens: 100 };
  assertEquals(callCost(usage, priceFor("openai", "gpt-4o")), 0.0035);
  assertEquals(callCost(usage, priceFor("openai", "llama3.1")), null);
  assertEquals([addCost(0.5, 0.25), addCost(0.5, null), addCost(null, 0.25), addCost(null, null)], [
    0.75,
    null,
    null,
    null,
  ]);
});

Deno.test("priceFor() matches exact ids and dated ids of a family, longest family first", () => {
  assertEquals(priceFor("openai", "gpt-4o"), { input: 2.5, output: 10, known: true, key: "openai:gpt-4o" });
  assertEquals(priceFor("openai", "gpt-4o-2024-08-06").key, "openai:gpt-4o");
  assertEquals(priceFor("openai", "gpt-4o-mini-2024-07-18").key, "openai:gpt-4o-mini");
  assertEquals(priceFor("openai", "gpt-4.1-mini-2025-04-14").key, "openai:gpt-4.1-mini");
  assertEquals(priceFor("anthropic", "claude-sonnet-4-20250514").key, "anthropic:claude-sonnet-4");
  assertEquals(priceFor("anthropic", "claude-3-5-sonnet-latest").key, "anthropic:claude-3-5-sonnet");
});

Deno.test("priceFor() says an unknown model costs 0 and is not known", () => {
  for (
    const [provider, model] of [["openai", "llama3.1:8b"], ["openai", "gpt-4o-audio-preview"], ["anthropic", "gpt-4o"]]
  ) {
    assertEquals(priceFor(provider, model), { input: 0, output: 0, known: false, key: null });
  }
});

Deno.test("priceFor() consults the given table", () => {
  const prices = { ...DEFAULT_PRICES, "openai:gpt-4o": { input: 1, output: 2 } };
  assertEquals(priceFor("openai", "gpt-4o-2024-11-20", { prices }).input, 1);
});

Deno.test("costOf() is (input tokens × input + output tokens × output) / 1e6", () => {
  const price = { input: 0.15, output: 0.6 };
  assertEquals(costOf({ inputTokens: 1234, outputTokens: 56 }, price), (1234 * 0.15 + 56 * 0.6) / 1e6);
  assertEquals(costOf({ inputTokens: 0, outputTokens: 0 }, price), 0);
});

async function priceFile(text: string): Promise<string> {
  const path = await Deno.makeTempFile({ suffix: ".json" });
  await Deno.writeTextFile(path, text);
  return path;
}

Deno.test("loadPrices() merges a price file over the defaults", async () => {
  const path = await priceFile('{ "openai:my-model": { "input": 0.5, "output": 1.5 } }');
  try {
    const prices = await loadPrices(path);
    assertEquals(prices["openai:my-model"], { input: 0.5, output: 1.5 });
    assertEquals(prices["openai:gpt-4o"], DEFAULT_PRICES["openai:gpt-4o"]);
  } finally {
    await Deno.remove(path);
  }
});

Deno.test("loadPrices() names the file and the field of bad input", async () => {
  const cases: [string, ErrorConstructor, string][] = [
    ["{ not json", SyntaxError, "Cannot parse price file"],
    ['{ "openai:m": { "input": "cheap", "output": 1 } }', TypeError, 'at "openai:m.input"'],
    ['{ "openai:m": { "input": -1, "output": 1 } }', RangeError, 'at "openai:m.input"'],
    ['{ "openai:m": { "input": 1 } }', TypeError, 'at "openai:m.output"'],
    ['{ "openai:m": { "input": 1, "output": 1, "cache": 2 } }', TypeError, 'at "openai:m"'],
    ['{ "gpt-4o": { "input": 1, "output": 1 } }', TypeError, "provider:model"],
    ["[1]", TypeError, "Invalid price file"],
  ];
  for (const [text, ErrorClass, fragment] of cases) {
    const path = await priceFile(text);
    try {
      const err = await assertRejects(() => loadPrices(path), ErrorClass, fragment);
      assertEquals(err.message.includes(path), true);
      assertEquals(err.message.includes("\n"), false);
    } finally {
      await Deno.remove(path);
    }
  }
  await assertRejects(() => loadPrices("/nonexistent/prices.json"), Deno.errors.NotFound, '"/nonexistent/prices.json"');
});
