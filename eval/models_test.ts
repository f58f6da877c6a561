import { assertEquals, assertRejects, assertThrows } from "@std/assert";
import { cachedClient, FakeModelClient, ModelCache, ModelError } from "../agents/model/mod.ts";
import { resolveConfig } from "./config.ts";
import { MODEL_CACHE_FILE, modelSpecs, replayCachePath, RunModels, unpricedModels } from "./models.ts";

Deno.test("modelSpecs() lists the agents' models then the user's, once each", () => {
  const config = resolveConfig({ agents: ["openai:a", "oracle", "anthropic:b"], user: "llm:openai:a" });
  assertEquals(modelSpecs(config), ["openai:a", "anthropic:b"]);
  assertEquals(modelSpecs(resolveConfig()), []);
});

Deno.test("unpricedModels() names the models the price table does not know", () => {
  const config = resolveConfig({ agents: ["openai:gpt-4o-mini-2024-07-18", "openai:llama3.1"], user: "llm:openai:x" });
  assertEquals(unpricedModels(config), ["openai:llama3.1", "openai:x"]);
  assertEquals(unpricedModels(config, { "openai:llama3.1": { input: 0, output: 0 } }), ["openai:x"]);
});

Deno.test("replayCachePath() takes a cache file or a results folder holding one", async () => {
  const dir = await Deno.makeTempDir();
  await assertRejects(() => replayCachePath(dir), Deno.errors.NotFound, `Cannot replay from "${dir}"`);
  await Deno.writeFile(`${dir}/${MODEL_CACHE_FILE}`, new Uint8Array());
  assertEquals(await replayCachePath(`${dir}/`), `${dir}/${MODEL_CACHE_FILE}`);
  assertEquals(await replayCachePath(`${dir}/${MODEL_CACHE_FILE}`), `${dir}/${MODEL_CACHE_FILE}`);
  await assertRejects(() => replayCachePath(`${dir}/nothing.sqlite`), Deno.errors.NotFound, "no model cache there");
  await Deno.remove(dir, { recursive: true });
});

Deno.test("RunModels in a replay serves what a live run cached and calls no endpoint on a miss", async () => {
  const dir = await Deno.makeTempDir();
  const cachePath = `${dir}/${MODEL_CACHE_FILE}`;
  const request = { messages: [{ role: "user" as const, content: "Hi" }] };
  {
    using cache = ModelCache.open(cachePath);
    const live = cachedClient(
      new FakeModelClient([{ content: "Hello", latencyMs: 812 }], { provider: "openai", model: "m" }),
      cache,
      { mode: "live" },
    );
    await live.chat(request, { runIndex: 1 });
  }
  // An endpoint nothing listens on: a replay must never need it.
  const config = resolveConfig({ agents: ["openai:m"], replay: dir, baseUrl: "http://127.0.0.1:9/v1" });
  using models = RunModels.open(config, { cachePath });
  const answer = await models.client("openai:m").chat(request, { runIndex: 1 });
  assertEquals([answer.content, answer.latencyMs, answer.cached], ["Hello", 812, true]);
  const miss = await assertRejects(() => models.client("openai:m").chat(request, { runIndex: 2 }), ModelError);
  assertEquals(miss.code, "cache_miss");
  assertThrows(() => models.client("openai:other"), RangeError, '"openai:other"');
  await Deno.remove(dir, { recursive: true });
});
