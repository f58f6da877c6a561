import { assertEquals, assertThrows } from "@std/assert";
import { Malformed } from "./_http.ts";
import { anthropicBody, anthropicClient, parseAnthropicResponse } from "./anthropic.ts";

Deno.test("anthropicBody() moves system prompts to `system` and keeps turns alternating", () => {
  const body = anthropicBody("claude-sonnet-4-20250514", {
    messages: [
      { role: "system", content: "Be brief." },
      { role: "user", content: "Hi" },
      { role: "assistant", content: "", toolCalls: [] },
      { role: "user", content: "Still there?" },
      { role: "assistant", content: null, toolCalls: [{ id: "t1", name: "f", arguments: "[1]" }] },
      { role: "tool", toolCallId: "t1", name: "f", content: "done" },
      { role: "user", content: "Thanks" },
    ],
    tools: [{ name: "f", description: "F.", parameters: { type: "object" } }],
    temperature: 0,
  }, { maxTokens: 200 });
  assertEquals(body, {
    model: "claude-sonnet-4-20250514",
    max_tokens: 200,
    system: "Be brief.",
    messages: [
      { role: "user", content: [{ type: "text", text: "Hi" }, { type: "text", text: "Still there?" }] },
      { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "f", input: {} }] },
      {
        role: "user",
        content: [{ type: "tool_result", tool_use_id: "t1", content: "done" }, { type: "text", text: "Thanks" }],
      },
    ],
    tools: [{ name: "f", description: "F.", input_schema: { type: "object" } }],
    temperature: 0,
  });
});

Deno.test("parseAnthropicResponse() joins text blocks and turns tool_use blocks into tool calls", () => {
  const parsed = parseAnthropicResponse({
    content: [
      { type: "text", text: "Let me " },
      { type: "text", text: "look." },
      { type: "tool_use", id: "toolu_1", name: "get_balance", input: { account: "A" } },
    ],
    stop_reason: "tool_use",
    usage: { input_tokens: 30, output_tokens: 12 },
  });
  assertEquals(parsed, {
    content: "Let me look.",
    toolCalls: [{ id: "toolu_1", name: "get_balance", arguments: '{"account":"A"}' }],
    finishReason: "tool_use",
    usage: { inputTokens: 30, outputTokens: 12 },
  });
  const onlyTools = parseAnthropicResponse({
    content: [{ type: "tool_use", id: "t", name: "f", input: {} }],
    stop_reason: "tool_use",
    usage: { input_tokens: 1, output_tokens: 1 },
  });
  assertEquals(onlyTools.content, null);
});

Deno.test("parseAnthropicResponse() calls a body malformed when the protocol's fields are missing", () => {
  const usage = { input_tokens: 1, output_tokens: 1 };
  const cases: [unknown, string][] = [
    ["text", "not a JSON object"],
    [{ usage }, '"content"'],
    [{ content: [{ type: "text" }], usage }, "no text"],
    [{ content: [{ type: "tool_use", id: "t", input: {} }], usage }, "no name"],
    [{ content: [{ type: "tool_use", id: "t", name: "f", input: "{oops" }], usage }, "no input object"],
    [{ content: [] }, '"usage"'],
    [{ content: [], usage: { input_tokens: 1 } }, "usage.output_tokens"],
  ];
  for (const [json, fragment] of cases) assertThrows(() => parseAnthropicResponse(json), Malformed, fragment);
});

Deno.test("anthropicClient() refuses options of the wrong shape or range", () => {
  assertThrows(() => anthropicClient({ model: "" }), TypeError, '"model"');
  assertThrows(
    () => anthropicClient({ model: "m", baseUrl: "http://127.0.0.1:7", maxTokens: 0 }),
    RangeError,
    "maxTokens",
  );
  assertThrows(
    () => anthropicClient({ model: "m", baseUrl: "http://127.0.0.1:7", timeoutMs: -5 }),
    RangeError,
    "timeoutMs",
  );
});
