/**
 * The small interface every language-model provider sits behind: one chat call
 * with tool calling, its usage and cost, and the errors a caller handles.
 *
 * @module
 */
import type { Rng } from "../../envs/mod.ts";
import type { ConcurrencyLimiter } from "./limiter.ts";

/** Dollars per million tokens. */
export interface Price {
  /** Dollars per million input (prompt) tokens. */
  input: number;
  /** Dollars per million output (completion) tokens. */
  output: number;
}

/** Prices keyed by `provider:model`, e.g. `"openai:gpt-4o"`. */
export type PriceTable = Readonly<Record<string, Price>>;

/** A tool offered to a model: JSON Schema parameters (see `toolParameters()` in envs). */
export interface ModelTool {
  /** The name the model calls it by. */
  name: string;
  /** What the tool does, as the model is told. */
  description: string;
  /** JSON Schema of the arguments (an object schema). */
  parameters: Record<string, unknown>;
}

/** A tool call a model asked for. `arguments` is the raw JSON text the model produced. */
export interface ModelToolCall {
  /** The provider's id of the call; the `tool` message answering it carries it as `toolCallId`. */
  id: string;
  /** The tool the model called. */
  name: string;
  /** The arguments, as the JSON text the model wrote (possibly malformed). */
  arguments: string;
}

/** One message of a chat, provider-neutral. */
export type ChatMessage =
  | { role: "system"; content: string }
  | { role: "user"; content: string }
  | { role: "assistant"; content: string | null; toolCalls?: ModelToolCall[] }
  | { role: "tool"; toolCallId: string; name: string; content: string };

/** A chat request. */
export interface ChatRequest {
  /** The conversation so far, oldest first; a leading `system` message is the system prompt. */
  messages: ChatMessage[];
  /**
   * The tools the model may call.
   * @default {none}
   */
  tools?: ModelTool[];
  /** Passed through when set. */
  temperature?: number;
  /** Passed through when set (OpenAI-compatible servers only; Anthropic has none). */
  seed?: number;
  /** Passed through; Anthropic requires one, so clients default it. */
  maxTokens?: number;
}

/** Tokens a call used, as the provider reported them. */
export interface Usage {
  /** Tokens of the prompt. */
  inputTokens: number;
  /** Tokens the model generated. */
  outputTokens: number;
}

/** A model's answer with what it cost. */
export interface ChatResponse {
  /** Text for the user, or `null` when the model only called tools. */
  content: string | null;
  /** The tools the model called, in its order; empty when it called none. */
  toolCalls: ModelToolCall[];
  /** The provider's stop reason, e.g. "stop", "tool_calls", "end_turn", "tool_use", "length". */
  finishReason: string;
  /** Tokens the call used (those of the cached call when replayed). */
  usage: Usage;
  /** Dollars, from the price table; `null` when it has no price for the model. */
  cost: number | null;
  /** Milliseconds of the successful attempt (from the cache when replayed). */
  latencyMs: number;
  /** Attempts that failed and were retried before this answer. */
  retries: number;
  /**
   * Milliseconds from the first attempt to the one that answered: failed attempts, backoff
   * waits, queueing for a retry (from the cache when replayed).
   * @default {0}
   */
  retryWaitMs?: number;
  /** Whether the answer came from the cache. */
  cached: boolean;
}

/** Per-call options. */
export interface ChatOptions {
  /**
   * Which run of the experiment asks: part of the cache key, so K runs are K real samples.
   * @default {0}
   */
  runIndex?: number;
  /**
   * Aborts the call, retries included.
   * @default {undefined: the call is never aborted from outside}
   */
  signal?: AbortSignal;
}

/** A chat model behind some provider. */
export interface ModelClient {
  /** e.g. "openai", "anthropic", "fake". */
  readonly provider: string;
  /** The model id the provider knows, e.g. "gpt-4o-mini"; part of cache keys and price look-ups. */
  readonly model: string;
  /** Sends one chat request; throws a `ModelError` when the call fails for good (after retries). */
  chat(request: ChatRequest, options?: ChatOptions): Promise<ChatResponse>;
}

/** Why a model call failed for good (after retries). */
export type ModelErrorCode =
  | "auth" // missing or rejected key
  | "unreachable" // no connection to the endpoint
  | "timeout"
  | "rate_limited" // still 429 after every retry
  | "server" // still 5xx after every retry
  | "bad_request" // 4xx other than 401/403/429
  | "malformed" // the response is not what the protocol promises
  | "cache_miss" // replay found no cached answer
  | "budget"; // the cost budget is spent

/**
 * A model call that failed for good, with a code callers can act on.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { ModelError } from "./types.ts";
 * assertEquals(new ModelError("cache_miss", 'No cached answer for request "ab12…" (run 0)').code, "cache_miss");
 * ```
 */
export class ModelError extends Error {
  /** Why the call failed for good: the code callers act on (see `ModelErrorCode`). */
  readonly code: ModelErrorCode;

  /** Makes a model error with a code and a one-line message. */
  constructor(code: ModelErrorCode, message: string) {
    super(message);
    this.name = "ModelError";
    this.code = code;
  }
}

/** Resilience and accounting options every HTTP client takes. */
export interface ClientOptions {
  /**
   * Milliseconds one attempt may take before it is abandoned and retried.
   * @default {60000}
   */
  timeoutMs?: number;
  /**
   * Retries after a timeout, a 429, a 5xx (Anthropic's 529 "overloaded" included) or a lost
   * connection (a malformed answer is retried once).
   * @default {4}
   */
  retries?: number;
  /**
   * Bounds the requests in flight.
   * @default {limiterFor(baseUrl)}
   */
  limiter?: ConcurrencyLimiter;
  /**
   * Prices consulted before the defaults.
   * @default {DEFAULT_PRICES}
   */
  prices?: PriceTable;
  /**
   * Seeds the jitter of retry waits (each request derives its own child).
   * @default {new Rng(0)}
   */
  rng?: Rng;
  /**
   * Waits between retries; tests inject one that records and returns at once.
   * @default {setTimeout}
   */
  sleep?: (ms: number) => Promise<void>;
  /**
   * The clock (ms) that times attempts: latency and retry waits; tests inject one with `sleep`.
   * @default {performance.now}
   */
  now?: () => number;
}
