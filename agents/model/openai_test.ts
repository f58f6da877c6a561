import { assertEquals, assertThrows } from "@std/assert";
import { Malformed } from "./_http.ts";
import { openaiBody, openaiClient, parseOpenAIResponse } from "./openai.ts";
import { ModelError } from "./types.ts";

Deno.test("openaiBody() maps neutral messages and tools to Chat Completions", () => {
  const body = openaiBody("gpt-4o", {
    messages: [
      { role: "system", content: "Be brief." },
      { role: "user", content: "Balance of A?" },
      {
        role: "assistant",
        content: null,
        toolCalls: [{ id: "c1", name: "get_balance", arguments: '{"account":"A"}' }],
      },
      { role: "tool", toolCallId: "c1", name: "get_balance", content: "10" },
      { role: "assistant", content: "It is 10." },
    ],
    tools: [{ name: "get_balance", description: "Balance.", parameters: { type: "object" } }],
    seed: 3,
  });
  assertEquals(body, {
    model: "gpt-4o",
    messages: [
      { role: "system", content: "Be brief." },
      { role: "user", content: "Balance of A?" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "c1", type: "function", function: { name: "get_balance", arguments: '{"account":"A"}' } }],
      },
      { role: "tool", tool_call_id: "c1", content: "10" },
      { role: "assistant", content: "It is 10." },
    ],
    tools: [{
      type: "function",
      function: { name: "get_balance", description: "Balance.", parameters: { type: "object" } },
    }],
    seed: 3,
  });
});

const ok = (message: unknown, extra: Record<string, unknown> = {}) => ({
  choices: [{ message, finish_reason: "stop" }],
  usage: { prompt_tokens: 5, completion_tokens: 2 },
  ...extra,
});

Deno.test("parseOpenAIResponse() reads text, tool calls, finish reason and usage", () => {
  assertEquals(parseOpenAIResponse(ok({ role: "assistant", content: "Hi" })), {
    content: "Hi",
    toolCalls: [],
    finishReason: "stop",
    usage: { inputTokens: 5, outputTokens: 2 },
  });
  const calls = parseOpenAIResponse(
    ok({ content: "", tool_calls: [{ id: "x", type: "function", function: { name: "f", arguments: "{}" } }] }),
  );
  assertEquals([calls.content, calls.toolCalls], [null, [{ id: "x", name: "f", arguments: "{}" }]]);
});

Deno.test("parseOpenAIResponse() accepts what local servers send: no ids, object arguments, no usage", () => {
  const parsed = parseOpenAIResponse({
    choices: [{ message: { content: null, tool_calls: [{ function: { name: "f", arguments: { a: 1 } } }] } }],
  }, 4);
  assertEquals(parsed, {
    content: null,
    toolCalls: [{ id: "call_4_0", name: "f", arguments: '{"a":1}' }],
    finishReason: "tool_calls",
    usage: { inputTokens: 0, outputTokens: 0 },
  });
});

Deno.test("parseOpenAIResponse() calls a body malformed when the protocol's fields are missing", () => {
  const cases: [unknown, string][] = [
    [[], "not a JSON object"],
    [{ id: "x" }, '"choices"'],
    [{ choices: [] }, '"choices"'],
    [{ choices: [{}] }, "message"],
    [ok({ content: 3 }), "content"],
    [ok({ tool_calls: [{ id: "x", function: { arguments: "{}" } }] }), "has no name"],
    [ok({ tool_calls: [{ id: "x", function: { name: "f" } }] }), "has no arguments"],
    [ok({ content: "Hi" }, { usage: { prompt_tokens: "5" } }), "usage.prompt_tokens"],
    [{ error: { message: "model not found" } }, "model not found"],
  ];
  for (const [json, fragment] of cases) assertThrows(() => parseOpenAIResponse(json), Malformed, fragment);
});

Deno.test("parseOpenAIResponse() retries OpenRouter's rate limits and upstream failures sent with a 200", () => {
  const limited = assertThrows(() => parseOpenAIResponse({ error: { code: 429, message: "slow down" } }), ModelError);
  const upstream = assertThrows(() => parseOpenAIResponse({ error: { code: 502, message: "upstream" } }), ModelError);
  assertEquals([limited.code, upstream.code], ["rate_limited", "server"]);
});

Deno.test("openaiClient() refuses options of the wrong shape or range", () => {
  assertThrows(() => openaiClient({ model: "" }), TypeError, '"model"');
  assertThrows(() => openaiClient({ model: "m", baseUrl: "not a url" }), TypeError, "baseUrl");
  assertThrows(
    () => openaiClient({ model: "m", baseUrl: "http://127.0.0.1:7/v1", retries: -1 }),
    RangeError,
    "retries",
  );
});
