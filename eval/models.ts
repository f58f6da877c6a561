/**
 * The language models of a run: the clients of every `provider:model` the
 * config names (agents and user), each wrapped in the run's model cache. A live
 * run records every answer in `<out>/model_cache.sqlite`; a replay serves every
 * answer from a cache and never contacts an endpoint.
 *
 * @module
 */
import { type ModelSpec, modelSpec } from "../agents/mod.ts";
import {
  anthropicClient,
  cachedClient,
  ConcurrencyLimiter,
  DEFAULT_CONCURRENCY,
  DEFAULT_PRICES,
  ModelCache,
  type ModelClient,
  ModelError,
  openaiClient,
  priceFor,
  type PriceTable,
} from "../agents/model/mod.ts";
import { judgeSpec, type ResolvedConfig, userSpec } from "./config.ts";

/** The file a results folder keeps its model answers in. */
export const MODEL_CACHE_FILE = "model_cache.sqlite";

/** The environment variable each provider's API key is read from. */
export const KEY_VARS: Readonly<Record<ModelSpec["provider"], string>> = Object.freeze({
  openai: "OPENAI_API_KEY",
  anthropic: "ANTHROPIC_API_KEY",
});

/**
 * Every language model a config names, as `"provider:model"`: the agents' in order, then the
 * user's, then the LLM judge's.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { modelSpecs } from "./models.ts";
 * assertEquals(modelSpecs({ agents: ["oracle", "openai:gpt-4o-mini"], user: "llm:anthropic:claude-3-5-haiku-latest" }), ["openai:gpt-4o-mini", "anthropic:claude-3-5-haiku-latest"]);
 * ```
 */
export function modelSpecs(config: Pick<ResolvedConfig, "agents" | "user"> & { judge?: string }): string[] {
  const specs = config.agents.filter((a) => modelSpec(a) !== null);
  const user = userSpec(config.user);
  if (user !== null) specs.push(`${user.provider}:${user.model}`);
  const judge = judgeSpec(config.judge ?? "rules");
  if (judge !== null) specs.push(`${judge.provider}:${judge.model}`);
  return [...new Set(specs)];
}

/**
 * The API root a config gives a provider.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { baseUrlOf } from "./models.ts";
 * assertEquals(baseUrlOf({ baseUrl: "http://localhost:11434/v1", anthropicBaseUrl: "https://api.anthropic.com" }, "openai"), "http://localhost:11434/v1");
 * ```
 */
export function baseUrlOf(config: Pick<ResolvedConfig, "baseUrl" | "anthropicBaseUrl">, provider: string): string {
  return provider === "anthropic" ? config.anthropicBaseUrl : config.baseUrl;
}

/**
 * The model specs of a config that have no price in `prices` over the default table (their cost is unknown).
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { unpricedModels } from "./models.ts";
 * assertEquals(unpricedModels({ agents: ["openai:gpt-4o-mini", "openai:llama3.1"], user: "scripted" }), ["openai:llama3.1"]);
 * ```
 */
export function unpricedModels(
  config: Pick<ResolvedConfig, "agents" | "user">,
  prices: PriceTable = DEFAULT_PRICES,
): string[] {
  return modelSpecs(config).filter((spec) => {
    const { provider, model } = modelSpec(spec)!;
    return !priceFor(provider, model, { prices: { ...DEFAULT_PRICES, ...prices } }).known;
  });
}

/**
 * Where a `--replay` argument's cache is: the file itself, or `model_cache.sqlite` in a
 * folder. Throws `Deno.errors.NotFound` with a one-line message when there is none.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { replayCachePath } from "./models.ts";
 * const dir = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${dir}/model_cache.sqlite`, "");
 * assertEquals(await replayCachePath(dir), `${dir}/model_cache.sqlite`);
 * Deno.removeSync(dir, { recursive: true });
 * ```
 */
export async function replayCachePath(replay: string): Promise<string> {
  let path = replay;
  try {
    if ((await Deno.stat(replay)).isDirectory) path = `${replay.replace(/\/+$/, "")}/${MODEL_CACHE_FILE}`;
    if ((await Deno.stat(path)).isFile) return path;
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  throw new Deno.errors.NotFound(
    `Cannot replay from "${replay}": no model cache there (expected a ${MODEL_CACHE_FILE} file or a results folder holding one)`,
  );
}

/** Options of `RunModels.open()`. */
export interface RunModelsOptions {
  /**
   * The cache file: `<out>/model_cache.sqlite` for a live run, the replayed cache for a replay.
   */
  cachePath: string;
  /**
   * Reads an environment variable (the API keys); a key is never stored.
   * @default {no keys}
   */
  env?: (name: string) => string | undefined;
  /**
   * The price table.
   * @default {DEFAULT_PRICES}
   */
  prices?: PriceTable;
}

/**
 * The model clients of one run, all answering through one model cache: live, a miss
 * asks the endpoint and stores the answer; in a replay (`config.replay` set) a miss is
 * a `ModelError` "cache_miss" and no endpoint is ever contacted.
 *
 * @example
 * ```ts
 * import { assertRejects } from "@std/assert";
 * import { ModelError } from "../agents/model/mod.ts";
 * import { RunModels } from "./models.ts";
 * import { resolveConfig } from "./config.ts";
 * const dir = Deno.makeTempDirSync();
 * const cachePath = `${dir}/model_cache.sqlite`;
 * const config = resolveConfig({ domains: ["airline"], agents: ["openai:gpt-4o-mini"], replay: cachePath });
 * {
 *   // A replay from an empty cache: the first call is a miss, and nothing is contacted.
 *   using models = RunModels.open(config, { cachePath });
 *   const chat = models.client("openai:gpt-4o-mini").chat({ messages: [{ role: "user", content: "Hi" }] });
 *   await assertRejects(() => chat, ModelError, "No cached answer");
 * }
 * Deno.removeSync(dir, { recursive: true });
 * ```
 */
export class RunModels implements Disposable {
  /** The cache file in use. */
  readonly cachePath: string;
  readonly #cache: ModelCache;
  readonly #clients = new Map<string, ModelClient>();

  private constructor(cachePath: string, cache: ModelCache) {
    this.cachePath = cachePath;
    this.#cache = cache;
  }

  /** Opens the cache and makes a client for every model the config names. */
  static open(config: ResolvedConfig, options: RunModelsOptions): RunModels {
    const models = new RunModels(options.cachePath, ModelCache.open(options.cachePath));
    const mode = config.replay === null ? "live" : "replay";
    // Episodes in flight each wait on one call at most: one limiter per endpoint lets them all through.
    const limiters = new Map<string, ConcurrencyLimiter>();
    for (const spec of modelSpecs(config)) {
      const { provider, model } = modelSpec(spec)!;
      const baseUrl = baseUrlOf(config, provider);
      let limiter = limiters.get(baseUrl);
      if (limiter === undefined) {
        limiters.set(baseUrl, limiter = new ConcurrencyLimiter(Math.max(DEFAULT_CONCURRENCY, config.concurrency)));
      }
      const apiKey = options.env?.(KEY_VARS[provider]) || undefined;
      const common = { model, baseUrl, apiKey, limiter, prices: options.prices ?? DEFAULT_PRICES };
      const inner = mode === "replay"
        ? offline(provider, model)
        : provider === "openai"
        ? openaiClient(common)
        : anthropicClient(common);
      models.#clients.set(spec, cachedClient(inner, models.#cache, { mode }));
    }
    return models;
  }

  /** The cached client of a model spec named by the config. */
  client(spec: string): ModelClient {
    const client = this.#clients.get(spec);
    if (client === undefined) throw new RangeError(`Unknown model "${spec}": the config names no such model`);
    return client;
  }

  /** Closes the cache. */
  close(): void {
    this.#cache.close();
  }

  /** Closes the cache (`using models = RunModels.open(...)`). */
  [Symbol.dispose](): void {
    this.close();
  }
}

// A replay's inner client: the cache answers everything, so reaching this is a miss.
function offline(provider: string, model: string): ModelClient {
  return {
    provider,
    model,
    chat: () => Promise.reject(new ModelError("cache_miss", `No cached answer for model "${model}" in the replay`)),
  };
}
