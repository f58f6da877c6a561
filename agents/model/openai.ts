/**
 * A client for OpenAI-compatible Chat Completions endpoints: OpenAI, OpenRouter,
 * vLLM, Ollama, llama.cpp and LM Studio.
 *
 * @module
 */
import { clientSetup, malformed, postJson } from "./_http.ts";
import { callCost } from "./prices.ts";
import {
  type ChatOptions,
  type ChatRequest,
  type ChatResponse,
  type ClientOptions,
  type ModelClient,
  ModelError,
  type ModelToolCall,
} from "./types.ts";

/** Options of `openaiClient()`. */
export interface OpenAIClientOptions extends ClientOptions {
  /** The model id the endpoint knows, e.g. "gpt-4o-mini" or "llama3.1:8b". */
  model: string;
  /**
   * The API root, without `/chat/completions`; e.g. "http://127.0.0.1:11434/v1" for Ollama.
   * @default {"https://api.openai.com/v1"}
   */
  baseUrl?: string;
  /**
   * Sent as `Authorization: Bearer`. Local servers need none. `OPENAI_API_KEY` is
   * read only for the default `baseUrl`, so a key never goes to another host unasked.
   * @default {undefined}
   */
  apiKey?: string;
}

/** The default API root of `openai:` models (OpenAI's own endpoint). */
export const OPENAI_BASE_URL = "https://api.openai.com/v1";

/**
 * A `ModelClient` for an OpenAI-compatible `POST {baseUrl}/chat/completions`.
 *
 * @example
 * ```ts ignore
 * import { openaiClient } from "./openai.ts";
 * const ollama = openaiClient({ model: "llama3.1:8b", baseUrl: "http://127.0.0.1:11434/v1" });
 * const answer = await ollama.chat({ messages: [{ role: "user", content: "Say hi" }], temperature: 0 });
 * console.log(answer.content, answer.usage, answer.cost);
 * ```
 */
export function openaiClient(options: OpenAIClientOptions): ModelClient {
  const { model, baseUrl, apiKey, resilience, price, label, keyHint } = clientSetup(options, {
    name: "openai",
    title: "OpenAI-compatible",
    defaultUrl: OPENAI_BASE_URL,
    keyVar: "OPENAI_API_KEY",
  });

  return {
    provider: "openai",
    model,
    async chat(request: ChatRequest, chatOptions: ChatOptions = {}): Promise<ChatResponse> {
      const answer = await postJson({
        label,
        model,
        url: `${baseUrl}/chat/completions`,
        headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
        body: openaiBody(model, request),
        keyHint,
        parse: (json) => parseOpenAIResponse(json, request.messages.length),
      }, { ...resilience, signal: chatOptions.signal });
      const { content, toolCalls, finishReason, usage } = answer.value;
      return {
        content,
        toolCalls,
        finishReason,
        usage,
        cost: callCost(usage, price),
        latencyMs: answer.latencyMs,
        retries: answer.retries,
        retryWaitMs: answer.retryWaitMs,
        cached: false,
      };
    },
  };
}

/** The Chat Completions request body for a neutral request. */
export function openaiBody(model: string, request: ChatRequest): Record<string, unknown> {
  const messages = request.messages.map((m) => {
    switch (m.role) {
      case "assistant": {
        // Without tool calls, a null content is refused by some servers; it means the model said nothing.
        const out: Record<string, unknown> = {
          role: "assistant",
          content: m.toolCalls?.length ? m.content : m.content ?? "",
        };
        if (m.toolCalls?.length) {
          out.tool_calls = m.toolCalls.map((c) => ({
            id: c.id,
            type: "function",
            function: { name: c.name, arguments: c.arguments },
          }));
        }
        return out;
      }
      case "tool":
        return { role: "tool", tool_call_id: m.toolCallId, content: m.content };
      default:
        return { role: m.role, content: m.content };
    }
  });
  const body: Record<string, unknown> = { model, messages };
  if (request.tools?.length) {
    body.tools = request.tools.map((t) => ({
      type: "function",
      function: { name: t.name, description: t.description, parameters: t.parameters },
    }));
  }
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.seed !== undefined) body.seed = request.seed;
  if (request.maxTokens !== undefined) body.max_tokens = request.maxTokens;
  return body;
}

type Parsed = Pick<ChatResponse, "content" | "toolCalls" | "finishReason" | "usage">;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The answer in a Chat Completions response body. `turn` (the number of messages
 * sent) names tool calls that came without an id, as some local servers send them.
 */
export function parseOpenAIResponse(json: unknown, turn = 0): Parsed {
  if (!isObject(json)) malformed("the body is not a JSON object");
  const choices = json.choices;
  if (!Array.isArray(choices) || choices.length === 0) {
    // OpenRouter reports some upstream failures as a 200 with an `error` object.
    const error = json.error;
    if (isObject(error)) {
      const code = Number(error.code);
      const detail = typeof error.message === "string" ? error.message : "an error without a message";
      if (code === 429) throw new ModelError("rate_limited", detail);
      if (code >= 500) throw new ModelError("server", detail);
      malformed(`an error instead of an answer: ${detail}`);
    }
    malformed('no "choices"');
  }
  const choice = choices[0];
  if (!isObject(choice) || !isObject(choice.message)) malformed('no "choices[0].message"');
  const message = choice.message;
  if (message.content !== undefined && message.content !== null && typeof message.content !== "string") {
    malformed('"message.content" is neither text nor null');
  }
  const rawCalls = message.tool_calls ?? [];
  if (!Array.isArray(rawCalls)) malformed('"message.tool_calls" is not an array');
  const toolCalls = rawCalls.map((raw, i): ModelToolCall => {
    const fn = isObject(raw) ? raw.function : undefined;
    if (!isObject(fn) || typeof fn.name !== "string" || fn.name === "") malformed(`tool call ${i} has no name`);
    // A few servers send the arguments as an object rather than JSON text.
    const args = typeof fn.arguments === "string"
      ? fn.arguments
      : isObject(fn.arguments)
      ? JSON.stringify(fn.arguments)
      : undefined;
    if (args === undefined) malformed(`tool call ${i} ("${fn.name}") has no arguments`);
    const id = isObject(raw) && typeof raw.id === "string" && raw.id !== "" ? raw.id : `call_${turn}_${i}`;
    return { id, name: fn.name, arguments: args };
  });
  // `null` only when the model called tools and said nothing.
  const text = typeof message.content === "string" ? message.content : "";
  const content = text === "" && toolCalls.length > 0 ? null : text;
  const finishReason = typeof choice.finish_reason === "string"
    ? choice.finish_reason
    : toolCalls.length > 0
    ? "tool_calls"
    : "stop";
  return { content, toolCalls, finishReason, usage: parseUsage(json.usage) };
}

function parseUsage(usage: unknown): Parsed["usage"] {
  // Some local servers omit usage; they cost nothing, so zero tokens is the honest count we have.
  if (usage === undefined || usage === null) return { inputTokens: 0, outputTokens: 0 };
  if (!isObject(usage)) malformed('"usage" is not an object');
  const count = (v: unknown, name: string) => {
    if (v === undefined || v === null) return 0;
    if (typeof v !== "number" || !Number.isInteger(v) || v < 0) malformed(`"usage.${name}" is not a token count`);
    return v;
  };
  return {
    inputTokens: count(usage.prompt_tokens, "prompt_tokens"),
    outputTokens: count(usage.completion_tokens, "completion_tokens"),
  };
}
