import { assertEquals, assertRejects, assertStrictEquals, assertThrows } from "@std/assert";
import { FakeModelClient } from "./fake.ts";
import { type ChatRequest, ModelError } from "./types.ts";

const hi: ChatRequest = { messages: [{ role: "user", content: "Hi" }] };

Deno.test("FakeModelClient answers a list script in order and fills in the rest", async () => {
  const model = new FakeModelClient([{ content: "one" }, { toolCalls: [{ id: "c", name: "f", arguments: "{}" }] }]);
  assertEquals(await model.chat(hi), {
    content: "one",
    toolCalls: [],
    finishReason: "stop",
    usage: { inputTokens: 0, outputTokens: 0 },
    // "fake:fake-model" has no price: its cost is unknown, not free.
    cost: null,
    latencyMs: 0,
    retries: 0,
    cached: false,
  });
  const second = await model.chat(hi);
  assertEquals([second.content, second.finishReason, second.toolCalls.length], [null, "tool_calls", 1]);
  await assertRejects(() => model.chat(hi), RangeError, "no answer for call 2 (2 scripted)");
});

Deno.test("FakeModelClient answers a function script with the request and call index", async () => {
  const model = new FakeModelClient((request, i) => ({ content: `${i}:${request.messages.length}` }), { model: "m2" });
  assertEquals([(await model.chat(hi)).content, (await model.chat(hi)).content], ["0:1", "1:1"]);
  assertEquals([model.provider, model.model], ["fake", "m2"]);
});

Deno.test("FakeModelClient throws a scripted ModelError", async () => {
  const failure = new ModelError("rate_limited", "Fake is rate limiting");
  const model = new FakeModelClient([failure]);
  assertStrictEquals(await assertRejects(() => model.chat(hi), ModelError), failure);
});

Deno.test("FakeModelClient records copies of requests and their run index", async () => {
  const model = new FakeModelClient([{ content: "a" }]);
  const request: ChatRequest = { messages: [{ role: "user", content: "Hi" }], temperature: 0 };
  await model.chat(request, { runIndex: 3 });
  request.messages.push({ role: "user", content: "changed later" });
  assertEquals([model.requests, model.runIndexes], [[{ messages: [{ role: "user", content: "Hi" }], temperature: 0 }], [
    3,
  ]]);
});

Deno.test("FakeModelClient computes the cost from its price table unless scripted", async () => {
  const prices = { "fake:fake-model": { input: 2, output: 4 } };
  const usage = { inputTokens: 1000, outputTokens: 500 };
  const model = new FakeModelClient([{ usage }, { usage, cost: 1 }], { prices });
  assertEquals((await model.chat(hi)).cost, (1000 * 2 + 500 * 4) / 1e6);
  assertEquals((await model.chat(hi)).cost, 1);
});

Deno.test("FakeModelClient rejects what a real endpoint would", async () => {
  const model = new FakeModelClient([{ content: "a" }]);
  const orphan = await assertRejects(
    () => model.chat({ messages: [...hi.messages, { role: "tool", toolCallId: "x", name: "f", content: "1" }] }),
    ModelError,
    '"x"',
  );
  assertEquals(orphan.code, "bad_request");
  assertEquals((await assertRejects(() => model.chat({ messages: [] }), ModelError)).code, "bad_request");
  assertThrows(() => new FakeModelClient("answer" as never), TypeError);
});
