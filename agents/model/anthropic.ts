/**
 * A client for Anthropic's Messages API (`POST {baseUrl}/v1/messages`).
 *
 * @module
 */
import { clientSetup, malformed, postJson } from "./_http.ts";
import { callCost } from "./prices.ts";
import type { ChatOptions, ChatRequest, ChatResponse, ClientOptions, ModelClient, ModelToolCall } from "./types.ts";

/** Options of `anthropicClient()`. */
export interface AnthropicClientOptions extends ClientOptions {
  /** The model id, e.g. "claude-3-5-haiku-20241022". */
  model: string;
  /**
   * The API root, without `/v1/messages`.
   * @default {"https://api.anthropic.com"}
   */
  baseUrl?: string;
  /**
   * Sent as `x-api-key`. `ANTHROPIC_API_KEY` is read only for the default
   * `baseUrl`, so a key never goes to another host unasked.
   * @default {undefined}
   */
  apiKey?: string;
  /**
   * `max_tokens` when a request sets none (the API requires one).
   * @default {1024}
   */
  maxTokens?: number;
}

/** The default API root of `anthropic:` models (Anthropic's own endpoint). */
export const ANTHROPIC_BASE_URL = "https://api.anthropic.com";
const VERSION = "2023-06-01";

/**
 * A `ModelClient` for Anthropic's Messages API.
 *
 * @example
 * ```ts ignore
 * import { anthropicClient } from "./anthropic.ts";
 * const claude = anthropicClient({ model: "claude-3-5-haiku-20241022" }); // key from ANTHROPIC_API_KEY
 * const answer = await claude.chat({ messages: [{ role: "user", content: "Say hi" }], maxTokens: 64 });
 * console.log(answer.content, answer.usage, answer.cost);
 * ```
 */
export function anthropicClient(options: AnthropicClientOptions): ModelClient {
  const { model, baseUrl, apiKey, resilience, price, label, keyHint } = clientSetup(options, {
    name: "anthropic",
    title: "Anthropic",
    defaultUrl: ANTHROPIC_BASE_URL,
    keyVar: "ANTHROPIC_API_KEY",
  });
  const maxTokens = options.maxTokens ?? 1024;
  if (!Number.isInteger(maxTokens) || maxTokens < 1) {
    throw new RangeError(`Invalid maxTokens ${maxTokens}: expected a positive integer`);
  }
  const headers: Record<string, string> = { "anthropic-version": VERSION };
  if (apiKey) headers["x-api-key"] = apiKey;

  return {
    provider: "anthropic",
    model,
    async chat(request: ChatRequest, chatOptions: ChatOptions = {}): Promise<ChatResponse> {
      const answer = await postJson({
        label,
        model,
        url: `${baseUrl}/v1/messages`,
        headers,
        body: anthropicBody(model, request, { maxTokens }),
        keyHint,
        parse: parseAnthropicResponse,
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

type Block = Record<string, unknown>;
interface AnthropicMessage {
  role: "user" | "assistant";
  content: string | Block[];
}

/**
 * The Messages request body for a neutral request: system prompts go to `system`,
 * tool results become `tool_result` blocks of a user turn, and consecutive turns
 * of one role are merged, as the API wants them alternating.
 */
export function anthropicBody(
  model: string,
  request: ChatRequest,
  options: { maxTokens?: number } = {},
): Record<string, unknown> {
  const system: string[] = [];
  const messages: AnthropicMessage[] = [];
  const push = (role: AnthropicMessage["role"], blocks: Block[]) => {
    const last = messages.at(-1);
    if (last?.role === role) {
      if (typeof last.content === "string") last.content = [{ type: "text", text: last.content }];
      last.content.push(...blocks);
    } else messages.push({ role, content: blocks });
  };
  for (const m of request.messages) {
    if (m.role === "system") system.push(m.content);
    else if (m.role === "user") {
      if (messages.at(-1)?.role === "user") push("user", [{ type: "text", text: m.content }]);
      else messages.push({ role: "user", content: m.content });
    } else if (m.role === "tool") {
      push("user", [{ type: "tool_result", tool_use_id: m.toolCallId, content: m.content }]);
    } else {
      const blocks: Block[] = m.content ? [{ type: "text", text: m.content }] : [];
      for (const call of m.toolCalls ?? []) {
        blocks.push({ type: "tool_use", id: call.id, name: call.name, input: toolInput(call.arguments) });
      }
      // The API refuses an empty turn; a silent assistant turn carries nothing anyway.
      if (blocks.length > 0) push("assistant", blocks);
    }
  }
  const body: Record<string, unknown> = { model, max_tokens: request.maxTokens ?? options.maxTokens ?? 1024 };
  if (system.length > 0) body.system = system.join("\n\n");
  body.messages = messages;
  if (request.tools?.length) {
    body.tools = request.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters }));
  }
  if (request.temperature !== undefined) body.temperature = request.temperature;
  return body;
}

// A model's unparsable arguments still have to be sent back as an object: send {} and let the tool's error speak.
function toolInput(args: string): Record<string, unknown> {
  try {
    const value = JSON.parse(args);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}

type Parsed = Pick<ChatResponse, "content" | "toolCalls" | "finishReason" | "usage">;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The answer in a Messages response body. */
export function parseAnthropicResponse(json: unknown): Parsed {
  if (!isObject(json)) malformed("the body is not a JSON object");
  if (!Array.isArray(json.content)) malformed('no "content" array');
  const texts: string[] = [];
  const toolCalls: ModelToolCall[] = [];
  json.content.forEach((block, i) => {
    if (!isObject(block)) malformed(`content block ${i} is not an object`);
    if (block.type === "text") {
      if (typeof block.text !== "string") malformed(`text block ${i} has no text`);
      texts.push(block.text);
    } else if (block.type === "tool_use") {
      if (typeof block.name !== "string" || block.name === "") malformed(`tool_use block ${i} has no name`);
      if (!isObject(block.input)) malformed(`tool_use block ${i} ("${block.name}") has no input object`);
      if (typeof block.id !== "string" || block.id === "") malformed(`tool_use block ${i} ("${block.name}") has no id`);
      toolCalls.push({ id: block.id, name: block.name, arguments: JSON.stringify(block.input) });
    }
    // Other blocks (thinking, …) carry nothing the neutral response holds.
  });
  // `null` only when the model called tools and said nothing.
  const text = texts.join("");
  const content = text === "" && toolCalls.length > 0 ? null : text;
  const finishReason = typeof json.stop_reason === "string"
    ? json.stop_reason
    : toolCalls.length > 0
    ? "tool_use"
    : "end_turn";
  const usage = json.usage;
  if (!isObject(usage)) malformed('no "usage"');
  const count = (v: unknown, name: string) => {
    if (typeof v !== "number" || !Number.isInteger(v) || v < 0) malformed(`"usage.${name}" is not a token count`);
    return v;
  };
  return {
    content,
    toolCalls,
    finishReason,
    usage: {
      inputTokens: count(usage.input_tokens, "input_tokens"),
      outputTokens: count(usage.output_tokens, "output_tokens"),
    },
  };
}
