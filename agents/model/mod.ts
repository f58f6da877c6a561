/**
 * Language models behind one small interface: `ModelClient.chat()` with tool
 * calling, usage, cost and typed `ModelError`s. Clients for OpenAI-compatible
 * endpoints (OpenAI, OpenRouter, vLLM, Ollama, llama.cpp, LM Studio) and for
 * Anthropic retry with seeded backoff and share a concurrency limit per
 * endpoint; a SQLite cache records answers in a live run and replays them
 * unchanged; `FakeModelClient` stands in for a model in tests.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { cachedClient, FakeModelClient, ModelCache } from "./mod.ts";
 * using cache = ModelCache.open(":memory:");
 * const model = cachedClient(new FakeModelClient([{ content: "Hello", usage: { inputTokens: 5, outputTokens: 1 } }]), cache, {
 *   mode: "live",
 * });
 * const answer = await model.chat({ messages: [{ role: "user", content: "Hi" }] }, { runIndex: 0 });
 * assertEquals(answer.content, "Hello");
 * ```
 *
 * @module
 */
export type {
  ChatMessage,
  ChatOptions,
  ChatRequest,
  ChatResponse,
  ClientOptions,
  ModelClient,
  ModelErrorCode,
  ModelTool,
  ModelToolCall,
  Usage,
} from "./types.ts";
export { ModelError } from "./types.ts";
export { OPENAI_BASE_URL, openaiClient, type OpenAIClientOptions } from "./openai.ts";
export { ANTHROPIC_BASE_URL, anthropicClient, type AnthropicClientOptions } from "./anthropic.ts";
export { ConcurrencyLimiter, DEFAULT_CONCURRENCY, limiterFor } from "./limiter.ts";
export {
  addCost,
  callCost,
  costOf,
  DEFAULT_PRICES,
  loadPrices,
  type Price,
  priceFor,
  type PriceLookup,
  type PriceTable,
} from "./prices.ts";
export {
  type CachedAnswer,
  cachedClient,
  type CachedClientOptions,
  cacheKey,
  type CacheKeyParts,
  ModelCache,
} from "./cache.ts";
export { type FakeAnswer, FakeModelClient, type FakeModelClientOptions, type FakeScript } from "./fake.ts";
