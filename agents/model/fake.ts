/**
 * An in-memory `ModelClient` scripted with answers or a function, recording every
 * request: the stand-in for a real model in unit tests.
 *
 * @module
 */
import { callCost, DEFAULT_PRICES, priceFor, type PriceTable } from "./prices.ts";
import { type ChatOptions, type ChatRequest, type ChatResponse, type ModelClient, ModelError } from "./types.ts";

/** One scripted answer: the fields to return (the rest defaulted), or a `ModelError` to throw. */
export type FakeAnswer = Partial<ChatResponse> | ModelError;

/** Answers in call order, or a function of the request and the 0-based call index. */
export type FakeScript =
  | readonly FakeAnswer[]
  | ((request: ChatRequest, callIndex: number) => FakeAnswer | Promise<FakeAnswer>);

/** Options of `FakeModelClient`. */
export interface FakeModelClientOptions {
  /**
   * The model name, part of cache keys and price look-ups.
   * @default {"fake-model"}
   */
  model?: string;
  /**
   * The provider name.
   * @default {"fake"}
   */
  provider?: string;
  /**
   * Prices consulted before the defaults, keyed `"fake:fake-model"`; the cost is
   * computed from the usage like a real client's unless an answer sets it.
   * @default {DEFAULT_PRICES}
   */
  prices?: PriceTable;
}

/**
 * A scripted model. Like a real endpoint it rejects a tool result whose id no
 * earlier assistant turn called (`ModelError` "bad_request"). Running past the
 * end of a list script is a bug in the test and throws a `RangeError`.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { FakeModelClient } from "./fake.ts";
 * const model = new FakeModelClient([
 *   { toolCalls: [{ id: "c1", name: "get_balance", arguments: '{"account":"A"}' }] },
 *   { content: "Your balance is 10." },
 * ]);
 * const first = await model.chat({ messages: [{ role: "user", content: "Balance of A?" }] });
 * assertEquals(first.finishReason, "tool_calls");
 * assertEquals(model.requests.length, 1);
 * ```
 */
export class FakeModelClient implements ModelClient {
  /** "fake" unless given. */
  readonly provider: string;
  /** "fake-model" unless given. */
  readonly model: string;
  /** Every request received, in order (copies, safe to keep). */
  readonly requests: ChatRequest[] = [];
  /** The `runIndex` of each request, in order. */
  readonly runIndexes: number[] = [];
  #script: FakeScript;
  #prices: PriceTable;

  /** Makes a fake model that answers from `script`. */
  constructor(script: FakeScript, options: FakeModelClientOptions = {}) {
    if (!Array.isArray(script) && typeof script !== "function") {
      throw new TypeError("Invalid FakeModelClient script: expected a list of answers or a function");
    }
    this.#script = script;
    this.model = options.model ?? "fake-model";
    this.provider = options.provider ?? "fake";
    this.#prices = { ...DEFAULT_PRICES, ...options.prices };
  }

  /** Answers with the next scripted answer. */
  async chat(request: ChatRequest, options: ChatOptions = {}): Promise<ChatResponse> {
    options.signal?.throwIfAborted();
    const index = this.requests.length;
    this.requests.push(structuredClone(request));
    this.runIndexes.push(options.runIndex ?? 0);
    const problem = requestProblem(request);
    if (problem) throw new ModelError("bad_request", `Fake model "${this.model}" rejected the request: ${problem}`);
    const script = this.#script;
    const answer = typeof script === "function" ? await script(request, index) : script[index];
    if (answer === undefined) {
      const scripted = Array.isArray(script) ? script.length : 0;
      throw new RangeError(`Fake model "${this.model}" has no answer for call ${index} (${scripted} scripted)`);
    }
    if (answer instanceof ModelError) throw answer;
    const toolCalls = (answer.toolCalls ?? []).map((c) => ({ ...c }));
    const usage = { inputTokens: 0, outputTokens: 0, ...answer.usage };
    return {
      content: answer.content !== undefined ? answer.content : toolCalls.length > 0 ? null : "",
      toolCalls,
      finishReason: answer.finishReason ?? (toolCalls.length > 0 ? "tool_calls" : "stop"),
      usage,
      cost: answer.cost !== undefined
        ? answer.cost
        : callCost(usage, priceFor(this.provider, this.model, { prices: this.#prices })),
      latencyMs: answer.latencyMs ?? 0,
      retries: answer.retries ?? 0,
      ...(answer.retryWaitMs ? { retryWaitMs: answer.retryWaitMs } : {}),
      cached: answer.cached ?? false,
    };
  }
}

// What a real endpoint would refuse with a 400, or undefined.
function requestProblem(request: ChatRequest): string | undefined {
  if (!Array.isArray(request?.messages) || request.messages.length === 0) return "no messages";
  const called = new Set<string>();
  for (const [i, m] of request.messages.entries()) {
    if (m.role === "assistant") { for (const c of m.toolCalls ?? []) called.add(c.id); }
    else if (m.role === "tool" && !called.has(m.toolCallId)) {
      return `message ${i} answers tool call "${m.toolCallId}", which no earlier assistant turn made`;
    } else if (!["system", "user", "tool"].includes(m.role)) return `message ${i} has an unknown role "${m.role}"`;
  }
  for (const t of request.tools ?? []) {
    if (typeof t.name !== "string" || t.name === "") return "a tool has no name";
  }
  return undefined;
}
