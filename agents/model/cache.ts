/**
 * A cache of model answers in a SQLite file, and the client wrapper that records
 * answers in a live run and serves them back, unchanged, in a replay.
 *
 * @module
 */
import { canonicalJson, Store } from "../../envs/mod.ts";
import { type ChatOptions, type ChatRequest, type ChatResponse, type ModelClient, ModelError } from "./types.ts";

/** A stored answer: a `ChatResponse` without `cached`, replayed exactly as it was recorded. */
export type CachedAnswer = Omit<ChatResponse, "cached">;

/** What a cache key is made of. */
export interface CacheKeyParts {
  /** The client's provider, e.g. "openai". */
  provider: string;
  /** The client's model. */
  model: string;
  /** The request, compared with its keys sorted. */
  request: ChatRequest;
  /** Which run of the experiment asks. */
  runIndex: number;
}

const SCHEMA = `CREATE TABLE IF NOT EXISTS model_answers (
  key TEXT PRIMARY KEY,
  provider TEXT NOT NULL,
  model TEXT NOT NULL,
  run_index INTEGER NOT NULL,
  response TEXT NOT NULL,
  created INTEGER NOT NULL
)`;

/**
 * The cache key of a call: SHA-256 (hex) of the canonical JSON (sorted keys) of
 * `{provider, model, request, runIndex}`.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { cacheKey } from "./cache.ts";
 * const request = { messages: [{ role: "user" as const, content: "Hi" }] };
 * const key = await cacheKey({ provider: "fake", model: "m", request, runIndex: 0 });
 * assertEquals(key.length, 64);
 * ```
 */
export async function cacheKey(parts: CacheKeyParts): Promise<string> {
  const { provider, model, request, runIndex } = parts;
  const bytes = new TextEncoder().encode(canonicalJson({ provider, model, request, runIndex }));
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Model answers in a SQLite file, keyed by `cacheKey()`. The first answer stored
 * under a key stays. API keys are never part of what is stored.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { ModelCache } from "./cache.ts";
 * using cache = ModelCache.open(":memory:");
 * const answer = { content: "Hi", toolCalls: [], finishReason: "stop", usage: { inputTokens: 3, outputTokens: 1 }, cost: 0, latencyMs: 12, retries: 0 };
 * cache.put("k1", { provider: "fake", model: "m", runIndex: 0, answer });
 * assertEquals(cache.get("k1")?.latencyMs, 12);
 * ```
 */
export class ModelCache {
  /** The SQLite file. */
  readonly path: string;
  #store: Store;

  private constructor(path: string, store: Store) {
    this.path = path;
    this.#store = store;
  }

  /** Opens (creating when missing) a cache file; a file that is not a SQLite database is a `SyntaxError`. */
  static open(path: string): ModelCache {
    let store: Store | undefined;
    try {
      store = Store.open(undefined, { path });
      store.exec("PRAGMA busy_timeout = 5000");
      store.exec(SCHEMA);
      return new ModelCache(path, store);
    } catch (err) {
      store?.close();
      const reason = (err as Error).message.replace(/\s+/g, " ");
      if (/not a database|malformed|corrupt/i.test(reason)) {
        throw new SyntaxError(`Cannot open model cache "${path}": not a SQLite database (${reason})`);
      }
      throw new Error(`Cannot open model cache "${path}": ${reason}`, { cause: err });
    }
  }

  /** The answer stored under `key`, or `undefined`. */
  get(key: string): CachedAnswer | undefined {
    const row = this.#store.get<{ response: string }>("SELECT response FROM model_answers WHERE key = ?", key);
    if (!row) return undefined;
    try {
      return answerOf(JSON.parse(row.response));
    } catch (err) {
      throw new SyntaxError(
        `Cannot read model cache "${this.path}": the answer under key "${key.slice(0, 12)}" is corrupt (${
          (err as Error).message
        })`,
      );
    }
  }

  /** Stores an answer unless the key has one; returns the answer now stored under the key. */
  put(key: string, entry: { provider: string; model: string; runIndex: number; answer: CachedAnswer }): CachedAnswer {
    const text = JSON.stringify(answerOf(entry.answer));
    this.#store.run(
      `INSERT OR IGNORE INTO model_answers (key, provider, model, run_index, response, created)
       VALUES (?, ?, ?, ?, ?, (SELECT COALESCE(MAX(created), 0) + 1 FROM model_answers))`,
      key,
      entry.provider,
      entry.model,
      entry.runIndex,
      text,
    );
    return this.get(key)!;
  }

  /** How many answers are stored. */
  get size(): number {
    return this.#store.get<{ n: number }>("SELECT COUNT(*) AS n FROM model_answers")!.n;
  }

  /** Closes the file. */
  close(): void {
    this.#store.close();
  }

  /** Closes the file. */
  [Symbol.dispose](): void {
    this.close();
  }
}

// The stored fields in a fixed order, so a replayed answer serialises byte for byte like the live one.
function answerOf(value: CachedAnswer): CachedAnswer {
  const { content, toolCalls, finishReason, usage, cost, latencyMs, retries, retryWaitMs } = value;
  if (!(content === null || typeof content === "string") || !Array.isArray(toolCalls)) {
    throw new TypeError("expected content and toolCalls");
  }
  if (typeof usage?.inputTokens !== "number" || typeof usage?.outputTokens !== "number") {
    throw new TypeError("expected usage with inputTokens and outputTokens");
  }
  return {
    content,
    toolCalls: toolCalls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments })),
    finishReason,
    usage: { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens },
    cost,
    latencyMs,
    retries,
    // Absent in answers stored before retry waits were measured, and when nothing was waited.
    ...(retryWaitMs ? { retryWaitMs } : {}),
  };
}

/** Options of `cachedClient()`. */
export interface CachedClientOptions {
  /** "live": serve from the cache, else ask the model and store its answer. "replay": never ask the model. */
  mode: "live" | "replay";
}

/**
 * A client answering from `cache`: in live mode a miss asks `inner` and stores its
 * answer; in replay mode a miss is a `ModelError` "cache_miss" and `inner` is never
 * called. An answer from the cache has `cached: true` and exactly the stored
 * `cost`, `usage`, `latencyMs`, `retries` and `retryWaitMs`; keep `cached` out of records.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { cachedClient, ModelCache } from "./cache.ts";
 * import { FakeModelClient } from "./fake.ts";
 * using cache = ModelCache.open(":memory:");
 * const request = { messages: [{ role: "user" as const, content: "Hi" }] };
 * const live = cachedClient(new FakeModelClient([{ content: "Hello" }]), cache, { mode: "live" });
 * await live.chat(request);
 * const replay = cachedClient(new FakeModelClient([]), cache, { mode: "replay" });
 * assertEquals((await replay.chat(request)).content, "Hello");
 * ```
 */
export function cachedClient(inner: ModelClient, cache: ModelCache, options: CachedClientOptions): ModelClient {
  if (options?.mode !== "live" && options?.mode !== "replay") {
    throw new TypeError(`Invalid cache mode "${options?.mode}": expected "live" or "replay"`);
  }
  const { mode } = options;
  const { provider, model } = inner;
  // Identical calls in flight share one model call, so every caller gets the answer the cache keeps.
  const inFlight = new Map<string, Promise<CachedAnswer>>();

  return {
    provider,
    model,
    async chat(request: ChatRequest, chatOptions: ChatOptions = {}): Promise<ChatResponse> {
      const runIndex = chatOptions.runIndex ?? 0;
      if (!Number.isInteger(runIndex) || runIndex < 0) {
        throw new RangeError(`Invalid runIndex ${runIndex}: expected a non-negative integer`);
      }
      const key = await cacheKey({ provider, model, request, runIndex });
      const hit = cache.get(key);
      if (hit) return { ...hit, cached: true };
      if (mode === "replay") {
        throw new ModelError(
          "cache_miss",
          `No cached answer for model "${model}" (run ${runIndex}, key "${
            key.slice(0, 12)
          }…") in "${cache.path}": replay never calls the model, so run it live first`,
        );
      }
      const pending = inFlight.get(key);
      if (pending) return { ...await pending, cached: true };
      const call = (async () => {
        const answer = await inner.chat(request, chatOptions);
        return cache.put(key, { provider, model, runIndex, answer });
      })();
      inFlight.set(key, call);
      try {
        return { ...await call, cached: false };
      } finally {
        inFlight.delete(key);
      }
    },
  };
}
