import { assert, assertEquals, assertNotEquals } from "@std/assert";
import type { EpisodeEvent } from "../../envs/mod.ts";
import type { AnyRecord } from "./csv.ts";
import { episodeTrace, OTLP_EPOCH_MS, type OtlpAttribute, otlpLines, traceIdOf } from "./otlp.ts";

const record: AnyRecord = {
  agent: "oracle",
  task: "t/3",
  run: 1,
  condition: "fault",
  variant: "p0.2",
  success: false,
  confidence: 0.75,
  resources: { time: 0.0215, api_calls: 2 },
  violations: [],
};

const events: EpisodeEvent[] = [
  { step: 0, actor: "user", kind: "message", text: 'Hello, "agent"', intent: { kind: "confirm" }, latency_ms: 5 },
  { step: 1, actor: "tool", kind: "tool", tool: "look", args: { id: "x" }, result: { ok: 1 }, latency_ms: 1.5 },
  {
    step: 2,
    actor: "tool",
    kind: "tool",
    tool: "change",
    args: { id: "x" },
    error: { code: "fault", message: "503 service unavailable" },
    fault: "http_503",
    latency_ms: 10,
  },
  { step: 3, actor: "agent", kind: "message", text: "Done.", latency_ms: 5 },
  { step: 3, actor: "agent", kind: "end", confidence: 0.75, latency_ms: 0 },
];

const value = (attributes: OtlpAttribute[], key: string) => attributes.find((a) => a.key === key)?.value;
const ns = (ms: number) => String(BigInt(OTLP_EPOCH_MS) * 1_000_000n + BigInt(Math.round(ms * 1e6)));

Deno.test("episodeTrace() makes a root invoke_agent span and an execute_tool child per tool call", () => {
  const trace = episodeTrace(record, events);
  const [root, look, change, ...rest] = trace.resourceSpans[0].scopeSpans[0].spans;
  assertEquals(rest, []);
  assertEquals([root.name, look.name, change.name], [
    "invoke_agent oracle",
    "execute_tool look",
    "execute_tool change",
  ]);
  assertEquals(root.parentSpanId, undefined);
  for (const child of [look, change]) {
    assertEquals(child.traceId, root.traceId);
    assertEquals(child.parentSpanId, root.spanId);
    assertEquals(child.kind, 1);
  }
  assertEquals(new Set([root.spanId, look.spanId, change.spanId]).size, 3);
  assert(/^[0-9a-f]{32}$/.test(root.traceId) && /^[0-9a-f]{16}$/.test(look.spanId));
  assertEquals(value(root.attributes, "gen_ai.operation.name"), { stringValue: "invoke_agent" });
  assertEquals(value(root.attributes, "gen_ai.agent.name"), { stringValue: "oracle" });
  assertEquals(value(root.attributes, "gen_ai.provider.name"), { stringValue: "_OTHER" });
  assertEquals(value(root.attributes, "ark.task"), { stringValue: "t/3" });
  assertEquals(value(root.attributes, "ark.run"), { intValue: "1" });
  assertEquals(value(root.attributes, "ark.success"), { boolValue: false });
  assertEquals(value(root.attributes, "ark.confidence"), { doubleValue: 0.75 });
  assertEquals(value(root.attributes, "ark.violations"), { intValue: "0" });
  assertEquals(value(root.attributes, "ark.agent"), undefined);
  assertEquals(value(look.attributes, "gen_ai.operation.name"), { stringValue: "execute_tool" });
  assertEquals(value(look.attributes, "gen_ai.tool.name"), { stringValue: "look" });
  assertEquals(value(look.attributes, "gen_ai.tool.call.arguments"), { stringValue: '{"id":"x"}' });
  assertEquals(value(look.attributes, "gen_ai.tool.call.result"), { stringValue: '{"ok":1}' });
  assertEquals(look.status, {});
});

Deno.test("episodeTrace() marks a failed call with its error, and times everything from the epoch by latency", () => {
  const [root, look, change] = episodeTrace(record, events).resourceSpans[0].scopeSpans[0].spans;
  assertEquals(change.status, { code: 2, message: "503 service unavailable" });
  assertEquals(value(change.attributes, "error.type"), { stringValue: "fault" });
  assertEquals(value(change.attributes, "ark.fault"), { stringValue: "http_503" });
  assertEquals(value(change.attributes, "gen_ai.tool.call.result"), undefined);
  // 5 ms user message, 1.5 ms look, 10 ms change, 5 ms message, 0 ms end: 21.5 ms in all.
  assertEquals([root.startTimeUnixNano, root.endTimeUnixNano], [ns(0), ns(21.5)]);
  assertEquals([look.startTimeUnixNano, look.endTimeUnixNano], [ns(5), ns(6.5)]);
  assertEquals([change.startTimeUnixNano, change.endTimeUnixNano], [ns(6.5), ns(16.5)]);
  assertEquals(root.events.map((e) => [e.name, e.timeUnixNano]), [
    ["gen_ai.user.message", ns(5)],
    ["gen_ai.assistant.message", ns(21.5)],
    ["ark.end", ns(21.5)],
  ]);
  assertEquals(value(root.events[0].attributes, "content"), { stringValue: 'Hello, "agent"' });
  assertEquals(value(root.events[0].attributes, "ark.intent"), { stringValue: '{"kind":"confirm"}' });
  assertEquals(value(root.events[2].attributes, "ark.confidence"), { doubleValue: 0.75 });
});

Deno.test("episodeTrace() leaves out a large result, and names a language-model agent's provider and model", () => {
  // {"text":"x…x"}: 2 braces, 6 for "text", 1 colon, 100 x and 2 quotes = 111 characters.
  const big = [{ ...events[1], result: { text: "x".repeat(100) } }];
  const model = { ...record, agent: "anthropic:claude-3-5-haiku-latest", agent_error: "model kept failing" };
  const [root, look] = episodeTrace(model, big, { maxResultChars: 50 }).resourceSpans[0].scopeSpans[0].spans;
  assertEquals(value(look.attributes, "gen_ai.tool.call.result"), undefined);
  assertEquals(value(look.attributes, "ark.tool.call.result_chars"), { intValue: "111" });
  assertEquals(value(root.attributes, "gen_ai.provider.name"), { stringValue: "anthropic" });
  assertEquals(value(root.attributes, "gen_ai.request.model"), { stringValue: "claude-3-5-haiku-latest" });
  assertEquals(value(root.attributes, "error.type"), { stringValue: "agent_error" });
  assertEquals(root.status, { code: 2, message: "model kept failing" });
});

Deno.test("otlpLines() writes one trace per line whose ids depend on its own cell only", () => {
  const other = { ...record, run: 2 };
  const one = [...otlpLines([{ record, events }], { resource: { "ark.experiment": "x" } })];
  const two = [...otlpLines([{ record: other, events }, { record, events }], { resource: { "ark.experiment": "x" } })];
  assertEquals(two[1], one[0]);
  assert(one[0].endsWith("}\n") && !one[0].slice(0, -1).includes("\n"));
  assertNotEquals(traceIdOf(other), traceIdOf(record));
  assertEquals(traceIdOf({ ...record, variant: undefined }), traceIdOf({ ...record, variant: null }));
  const resource = JSON.parse(one[0]).resourceSpans[0].resource.attributes as OtlpAttribute[];
  assertEquals(resource.map((a) => a.key), ["service.name", "service.version", "ark.experiment"]);
});
