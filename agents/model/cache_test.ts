import { assert, assertEquals, assertNotEquals, assertRejects, assertThrows } from "@std/assert";
import { cachedClient, cacheKey, ModelCache } from "./cache.ts";
import { FakeModelClient } from "./fake.ts";
import { type ChatRequest, ModelError } from "./types.ts";

const hi: ChatRequest = { messages: [{ role: "user", content: "Hi" }], temperature: 0 };

Deno.test("cacheKey() ignores key order and separates provider, model, request and run", async () => {
  const base = { provider: "fake", model: "m", request: hi, runIndex: 0 };
  const key = await cacheKey(base);
  assertEquals(
    key,
    await cacheKey({ runIndex: 0, request: { temperature: 0, messages: hi.messages }, model: "m", provider: "fake" }),
  );
  assert(/^[0-9a-f]{64}$/.test(key));
  for (
    const change of [{ provider: "openai" }, { model: "m2" }, { runIndex: 1 }, { request: { ...hi, temperature: 1 } }]
  ) {
    assertNotEquals(await cacheKey({ ...base, ...change }), key);
  }
});

Deno.test("cachedClient() in live mode asks the model once per key and stores exactly what it said", async () => {
  using cache = ModelCache.open(":memory:");
  const inner = new FakeModelClient((_r, i) => ({
    content: `answer ${i}`,
    latencyMs: 40 + i,
    retries: i,
    retryWaitMs: 700 * i,
    cost: 0.25,
  }));
  const client = cachedClient(inner, cache, { mode: "live" });
  const first = await client.chat(hi, { runIndex: 0 });
  const again = await client.chat(hi, { runIndex: 0 });
  const other = await client.chat(hi, { runIndex: 1 });
  assertEquals([first.cached, again.cached, other.cached], [false, true, false]);
  assertEquals({ ...again, cached: false }, first);
  assertEquals([first.content, other.content, other.latencyMs, other.retries], ["answer 0", "answer 1", 41, 1]);
  // What the cache stored: none waited before the first answer, 700 ms before the second.
  assertEquals([first.retryWaitMs, other.retryWaitMs], [undefined, 700]);
  assertEquals([inner.requests.length, cache.size], [2, 2]);
});

Deno.test("cachedClient() shares one model call between identical calls in flight", async () => {
  using cache = ModelCache.open(":memory:");
  const inner = new FakeModelClient(async (_r, i) => {
    await new Promise((r) => setTimeout(r, 5));
    return { content: `answer ${i}` };
  });
  const client = cachedClient(inner, cache, { mode: "live" });
  const answers = await Promise.all([client.chat(hi), client.chat(hi), client.chat(hi)]);
  assertEquals(answers.map((a) => a.content), ["answer 0", "answer 0", "answer 0"]);
  assertEquals(inner.requests.length, 1);
});

Deno.test("cachedClient() in replay mode never calls the model and names a miss", async () => {
  using cache = ModelCache.open(":memory:");
  await cachedClient(new FakeModelClient([{ content: "kept" }], { model: "m" }), cache, { mode: "live" }).chat(hi);
  const inner = new FakeModelClient([], { model: "m" });
  const replay = cachedClient(inner, cache, { mode: "replay" });
  assertEquals((await replay.chat(hi)).content, "kept");
  const miss = await assertRejects(() => replay.chat(hi, { runIndex: 4 }), ModelError);
  assertEquals(miss.code, "cache_miss");
  const key = await cacheKey({ provider: "fake", model: "m", request: hi, runIndex: 4 });
  assert(miss.message.includes(`model "m" (run 4, key "${key.slice(0, 12)}`), miss.message);
  assertEquals(inner.requests.length, 0);
});

Deno.test("cachedClient() refuses a bad mode or run index", async () => {
  using cache = ModelCache.open(":memory:");
  const inner = new FakeModelClient([]);
  assertThrows(() => cachedClient(inner, cache, { mode: "record" as "live" }), TypeError, '"live" or "replay"');
  await assertRejects(() => cachedClient(inner, cache, { mode: "live" }).chat(hi, { runIndex: -1 }), RangeError);
});

Deno.test("ModelCache keeps answers in its file across opens", async () => {
  const path = await Deno.makeTempFile({ suffix: ".sqlite" });
  try {
    const answer = {
      content: null,
      toolCalls: [{ id: "c", name: "f", arguments: "{}" }],
      finishReason: "tool_calls",
      usage: { inputTokens: 3, outputTokens: 1 },
      cost: 0.1 + 0.2,
      latencyMs: 7,
      retries: 2,
    };
    {
      using cache = ModelCache.open(path);
      assertEquals(cache.put("k", { provider: "fake", model: "m", runIndex: 0, answer }), answer);
      cache.put("k", { provider: "fake", model: "m", runIndex: 0, answer: { ...answer, latencyMs: 99 } });
    }
    using cache = ModelCache.open(path);
    assertEquals([cache.get("k"), cache.get("missing"), cache.size], [answer, undefined, 1]);
  } finally {
    await Deno.remove(path);
  }
});

Deno.test("ModelCache.open() names a file that is not a SQLite database", async () => {
  const path = await Deno.makeTempFile({ suffix: ".sqlite" });
  try {
    await Deno.writeTextFile(path, "this is not a database, just some text that is long enough ".repeat(20));
    const err = assertThrows(() => ModelCache.open(path), SyntaxError, `Cannot open model cache "${path}"`);
    assert(!err.message.includes("\n"));
  } finally {
    await Deno.remove(path);
  }
});
