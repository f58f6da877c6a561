import { assert, assertEquals, assertGreaterOrEqual, assertRejects, assertStringIncludes } from "@std/assert";
import { z } from "zod";
import { defineTool, type Tool, toolParameters, toolSchema } from "../envs/mod.ts";
import {
  anthropicClient,
  cachedClient,
  type ChatRequest,
  type ChatResponse,
  ConcurrencyLimiter,
  FakeModelClient,
  ModelCache,
  type ModelClient,
  ModelError,
  openaiClient,
  priceFor,
  type PriceTable,
} from "../agents/model/mod.ts";
import { closedPort, type FakeReply, startFakeProvider } from "./fixtures/fake_provider.ts";

const getBalance = defineTool({
  name: "get_balance",
  description: "Balance of an account.",
  input: z.object({ account: z.string() }),
  writes: false,
  run: () => 10,
});
const TOOLS: Tool[] = [getBalance as Tool];
const modelTools = TOOLS.map((t) => ({ name: t.name, description: t.description, parameters: toolParameters(t) }));
const FAKE_PRICES: PriceTable = { "fake:fake-model": { input: 0.3, output: 1.2 } };

/** A scripted answer in neutral terms, which each harness turns into its own script. */
interface Scripted {
  text?: string;
  toolCalls?: { id: string; name: string; arguments: string }[];
  usage: { inputTokens: number; outputTokens: number };
}

interface Setup extends AsyncDisposable {
  client: ModelClient;
  prices?: PriceTable;
  /** Tools as request `i` carried them. */
  sentTools(i: number): unknown;
  /** The last message of request `i`, as it went to the provider. */
  sentLast(i: number): unknown;
  /** The tool result for `id` with `content`, in the provider's shape of a last message. */
  toolResultShape(id: string, content: string): unknown;
  toolShape(tool: Tool): unknown;
}

const noSleep = () => Promise.resolve();

function serverSetup(protocol: "openai" | "anthropic", script: Scripted[]): Setup {
  const replies: FakeReply[] = script.map((s) => ({ text: s.text, toolCalls: s.toolCalls, usage: s.usage }));
  const provider = startFakeProvider(replies);
  const body = (i: number) => provider.requests[i].body as Record<string, unknown[]>;
  const client = protocol === "openai"
    ? openaiClient({ model: "gpt-4o-mini-2024-07-18", baseUrl: provider.openaiBaseUrl, sleep: noSleep })
    : anthropicClient({
      model: "claude-3-5-haiku-20241022",
      baseUrl: provider.anthropicBaseUrl,
      apiKey: "k",
      sleep: noSleep,
    });
  return {
    client,
    sentTools: (i) => body(i).tools,
    sentLast: (i) => body(i).messages.at(-1),
    toolResultShape: (id, content) =>
      protocol === "openai"
        ? { role: "tool", tool_call_id: id, content }
        : { role: "user", content: [{ type: "tool_result", tool_use_id: id, content }] },
    toolShape: (tool) => toolSchema(tool, protocol),
    [Symbol.asyncDispose]: () => provider.close(),
  };
}

function fakeSetup(script: Scripted[]): Setup {
  const client = new FakeModelClient(
    script.map((s) => ({ content: s.text, toolCalls: s.toolCalls, usage: s.usage })),
    { prices: FAKE_PRICES },
  );
  return {
    client,
    prices: FAKE_PRICES,
    sentTools: (i) => client.requests[i].tools,
    sentLast: (i) => client.requests[i].messages.at(-1),
    toolResultShape: (id, content) => ({ role: "tool", toolCallId: id, name: "get_balance", content }),
    toolShape: (tool) => ({ name: tool.name, description: tool.description, parameters: toolParameters(tool) }),
    [Symbol.asyncDispose]: () => Promise.resolve(),
  };
}

const HARNESSES: [string, (script: Scripted[]) => Setup][] = [
  ["FakeModelClient", fakeSetup],
  ["openaiClient()", (s) => serverSetup("openai", s)],
  ["anthropicClient()", (s) => serverSetup("anthropic", s)],
];

function expectedCost(setup: Setup, usage: Scripted["usage"]): number {
  const price = priceFor(setup.client.provider, setup.client.model, { prices: setup.prices });
  assert(price.known, `no price for ${setup.client.provider}:${setup.client.model}`);
  return (usage.inputTokens * price.input + usage.outputTokens * price.output) / 1e6;
}

const opening: ChatRequest["messages"] = [
  { role: "system", content: "You are a bank assistant." },
  { role: "user", content: "What is the balance of account A?" },
];

for (const [name, setup] of HARNESSES) {
  Deno.test(`${name} answers text with its usage and the cost from the price table`, async () => {
    const usage = { inputTokens: 1234, outputTokens: 56 };
    await using s = setup([{ text: "Hello there", usage }]);
    const answer = await s.client.chat({ messages: opening, temperature: 0 });
    assertEquals(answer.content, "Hello there");
    assertEquals(answer.toolCalls, []);
    assert(["stop", "end_turn"].includes(answer.finishReason), answer.finishReason);
    assertEquals(answer.usage, usage);
    assertEquals(answer.cost, expectedCost(s, usage));
    assert(answer.cost !== null && answer.cost > 0);
    assertEquals([answer.retries, answer.cached], [0, false]);
    assertGreaterOrEqual(answer.latencyMs, 0);
  });

  Deno.test(`${name} makes a tool call round trip in the provider's shape`, async () => {
    const usage = { inputTokens: 40, outputTokens: 9 };
    await using s = setup([
      { toolCalls: [{ id: "call_A1", name: "get_balance", arguments: '{"account":"A"}' }], usage },
      { text: "The balance of A is 10.", usage },
    ]);
    const first = await s.client.chat({ messages: opening, tools: modelTools });
    assertEquals(s.sentTools(0), TOOLS.map((t) => s.toolShape(t)));
    assertEquals(first.content, null);
    assert(["tool_calls", "tool_use"].includes(first.finishReason), first.finishReason);
    assertEquals(first.toolCalls.length, 1);
    const [call] = first.toolCalls;
    assertEquals([call.id, call.name, JSON.parse(call.arguments)], ["call_A1", "get_balance", { account: "A" }]);
    const second = await s.client.chat({
      messages: [
        ...opening,
        { role: "assistant", content: null, toolCalls: first.toolCalls },
        { role: "tool", toolCallId: call.id, name: call.name, content: "10" },
      ],
      tools: modelTools,
    });
    assertEquals(s.sentLast(1), s.toolResultShape("call_A1", "10"));
    assertEquals(second.content, "The balance of A is 10.");
    assertEquals(second.cost, expectedCost(s, usage));
  });

  Deno.test(`${name} rejects a tool result that answers no tool call`, async () => {
    await using s = setup([{ text: "never sent", usage: { inputTokens: 1, outputTokens: 1 } }]);
    const err = await assertRejects(
      () => s.client.chat({ messages: [...opening, { role: "tool", toolCallId: "nope", name: "x", content: "1" }] }),
      ModelError,
    );
    assertEquals(err.code, "bad_request");
  });
}

// Resilience, on both protocols.
const PROTOCOLS = ["openai", "anthropic"] as const;

function clientFor(
  protocol: "openai" | "anthropic",
  baseUrl: string,
  options: { waits?: number[]; timeoutMs?: number; retries?: number; apiKey?: string } = {},
): ModelClient {
  const sleep = (ms: number) => {
    options.waits?.push(ms);
    return Promise.resolve();
  };
  const common = { sleep, timeoutMs: options.timeoutMs, retries: options.retries, apiKey: options.apiKey };
  return protocol === "openai"
    ? openaiClient({ model: "gpt-4o", baseUrl: `${baseUrl}/v1`, ...common })
    : anthropicClient({ model: "claude-sonnet-4-20250514", baseUrl, ...common });
}

const hello: ChatRequest = { messages: [{ role: "user", content: "Hello" }] };

for (const protocol of PROTOCOLS) {
  Deno.test(`${protocol}: a 429 with Retry-After: 2 is retried after at least 2000 ms`, async () => {
    await using provider = startFakeProvider([{ status: 429, headers: { "retry-after": "2" } }, { text: "Hi" }]);
    const waits: number[] = [];
    const answer = await clientFor(protocol, provider.url, { waits }).chat(hello);
    assertEquals([answer.content, answer.retries, provider.requests.length], ["Hi", 1, 2]);
    assertEquals(waits.length, 1);
    assertGreaterOrEqual(waits[0], 2000);
  });

  Deno.test(`${protocol}: a Retry-After HTTP date is measured from the response's Date`, async () => {
    const now = Date.UTC(2026, 0, 1, 12, 0, 0);
    const headers = { "retry-after": new Date(now + 3000).toUTCString(), date: new Date(now).toUTCString() };
    await using provider = startFakeProvider([{ status: 503, headers }, { text: "Hi" }]);
    const waits: number[] = [];
    await clientFor(protocol, provider.url, { waits }).chat(hello);
    assertEquals(waits, [3000]);
  });

  Deno.test(`${protocol}: 500, 500, 200 succeeds with retries 2 after exponential backoff`, async () => {
    await using provider = startFakeProvider([{ status: 500 }, { status: 500 }, { text: "Hi" }]);
    const waits: number[] = [];
    const answer = await clientFor(protocol, provider.url, { waits }).chat(hello);
    assertEquals([answer.content, answer.retries], ["Hi", 2]);
    assert(waits[0] >= 500 && waits[0] < 1000 && waits[1] >= 1000 && waits[1] < 1500, String(waits));
  });

  Deno.test(`${protocol}: the failed attempts and backoff waits are retryWaitMs, apart from the answer's latency`, async () => {
    // A virtual clock: the provider advances it while answering, and a backoff wait advances it by its length.
    let clock = 0;
    const replies = [{ spend: 40, status: 503 }, { spend: 25, status: 500 }, { spend: 120, text: "Hi" }];
    await using provider = startFakeProvider((_, i) => {
      clock += replies[i].spend;
      return replies[i];
    });
    const waits: number[] = [];
    const sleep = (ms: number) => {
      waits.push(ms);
      clock += ms;
      return Promise.resolve();
    };
    const common = { sleep, now: () => clock };
    const client = protocol === "openai"
      ? openaiClient({ model: "gpt-4o", baseUrl: provider.openaiBaseUrl, ...common })
      : anthropicClient({ model: "claude-sonnet-4-20250514", baseUrl: provider.anthropicBaseUrl, ...common });
    const answer = await client.chat(hello);
    assertEquals([answer.retries, answer.latencyMs, waits.length], [2, 120, 2]);
    assertEquals(answer.retryWaitMs, 40 + waits[0] + 25 + waits[1]);
  });

  Deno.test(`${protocol}: 5xx after every retry is a "server" error`, async () => {
    await using provider = startFakeProvider(() => ({ status: 502 }));
    const err = await assertRejects(() => clientFor(protocol, provider.url, { retries: 2 }).chat(hello), ModelError);
    assertEquals([err.code, provider.requests.length], ["server", 3]);
    assertStringIncludes(err.message, "HTTP 502");
  });

  Deno.test(`${protocol}: an answer slower than timeoutMs is retried, then a "timeout"`, async () => {
    await using provider = startFakeProvider(() => ({ delayMs: 5000, text: "late" }));
    const waits: number[] = [];
    const client = clientFor(protocol, provider.url, { waits, timeoutMs: 100, retries: 1 });
    const err = await assertRejects(() => client.chat(hello), ModelError);
    assertEquals([err.code, provider.requests.length, waits.length], ["timeout", 2, 1]);
    assertStringIncludes(err.message, "100 ms");
  });

  Deno.test(`${protocol}: truncated JSON is retried once, then "malformed"`, async () => {
    await using provider = startFakeProvider(() => ({ raw: '{"id": "x", "choices": [{"message": {"content": "Hi' }));
    const err = await assertRejects(() => clientFor(protocol, provider.url).chat(hello), ModelError);
    assertEquals([err.code, provider.requests.length], ["malformed", 2]);
    assertStringIncludes(err.message, "truncated");
  });

  Deno.test(`${protocol}: a 401 is "auth" at once and the message never shows the key`, async () => {
    await using provider = startFakeProvider([{ text: "never" }], { apiKey: "right-key" });
    const waits: number[] = [];
    const client = clientFor(protocol, provider.url, { waits, apiKey: "sk-wrong-secret" });
    const err = await assertRejects(() => client.chat(hello), ModelError);
    assertEquals([err.code, provider.requests.length, waits.length], ["auth", 1, 0]);
    assert(!err.message.includes("sk-wrong-secret"), err.message);
  });

  Deno.test(`${protocol}: a 400 is "bad_request" at once`, async () => {
    await using provider = startFakeProvider([{ status: 400 }]);
    const err = await assertRejects(() => clientFor(protocol, provider.url).chat(hello), ModelError);
    assertEquals([err.code, provider.requests.length], ["bad_request", 1]);
  });

  Deno.test(`${protocol}: nothing listening is "unreachable" after the retries`, async () => {
    const waits: number[] = [];
    const url = `http://127.0.0.1:${closedPort()}`;
    const err = await assertRejects(() => clientFor(protocol, url, { waits, retries: 2 }).chat(hello), ModelError);
    assertEquals([err.code, waits.length], ["unreachable", 2]);
    assertStringIncludes(err.message, "is unreachable");
    assertStringIncludes(err.message, "connection refused");
    assertStringIncludes(err.message, url);
  });

  Deno.test(`${protocol}: an unknown tool name comes back as the model sent it`, async () => {
    await using provider = startFakeProvider([{ toolCalls: [{ name: "launch_rockets", arguments: { n: 3 } }] }]);
    const answer = await clientFor(protocol, provider.url).chat({ ...hello, tools: modelTools });
    assertEquals(answer.toolCalls.map((c) => [c.name, JSON.parse(c.arguments)]), [["launch_rockets", { n: 3 }]]);
  });
}

Deno.test("openaiClient() passes temperature, seed and max_tokens through only when set", async () => {
  await using provider = startFakeProvider([{ text: "a" }, { text: "b" }]);
  const client = openaiClient({ model: "gpt-4o", baseUrl: provider.openaiBaseUrl, apiKey: "sk-test" });
  await client.chat({ ...hello, temperature: 0.2, seed: 7, maxTokens: 99 });
  await client.chat(hello);
  const [set, unset] = provider.requests.map((r) => r.body as Record<string, unknown>);
  assertEquals([set.temperature, set.seed, set.max_tokens], [0.2, 7, 99]);
  assertEquals(["temperature", "seed", "max_tokens", "tools"].filter((k) => k in unset), []);
  assertEquals(provider.requests[0].headers.authorization, "Bearer sk-test");
  assertEquals(provider.requests[0].path, "/v1/chat/completions");
});

Deno.test("openaiClient() sends no Authorization header without a key", async () => {
  await using provider = startFakeProvider([{ text: "a" }]);
  await openaiClient({ model: "llama3.1:8b", baseUrl: provider.openaiBaseUrl }).chat(hello);
  assertEquals(provider.requests[0].headers.authorization, undefined);
});

Deno.test("anthropicClient() sends system, temperature, max_tokens and its headers, and no seed", async () => {
  await using provider = startFakeProvider([{ text: "a" }, { text: "b" }]);
  const client = anthropicClient({ model: "claude-opus-4-20250514", baseUrl: provider.anthropicBaseUrl, apiKey: "ak" });
  await client.chat({ messages: opening, temperature: 0.5, seed: 7, maxTokens: 99 });
  await client.chat(hello);
  const [set, unset] = provider.requests.map((r) => r.body as Record<string, unknown>);
  assertEquals([set.system, set.temperature, set.max_tokens, "seed" in set], [opening[0].content, 0.5, 99, false]);
  assertEquals([unset.max_tokens, "temperature" in unset, "system" in unset], [1024, false, false]);
  const headers = provider.requests[0].headers;
  assertEquals([headers["x-api-key"], headers["anthropic-version"]], ["ak", "2023-06-01"]);
});

Deno.test("anthropicClient() merges consecutive tool results into one user turn, sending {} for bad arguments", async () => {
  await using provider = startFakeProvider([{ text: "done" }]);
  const client = anthropicClient({
    model: "claude-3-5-sonnet-latest",
    baseUrl: provider.anthropicBaseUrl,
    apiKey: "k",
  });
  const answer = await client.chat({
    messages: [
      ...opening,
      {
        role: "assistant",
        content: "Looking.",
        toolCalls: [
          { id: "t1", name: "get_balance", arguments: '{"account":"A"}' },
          { id: "t2", name: "get_balance", arguments: "{not json" },
        ],
      },
      { role: "tool", toolCallId: "t1", name: "get_balance", content: "10" },
      { role: "tool", toolCallId: "t2", name: "get_balance", content: "Invalid arguments" },
    ],
  });
  assertEquals(answer.content, "done");
  const messages = (provider.requests[0].body as { messages: unknown[] }).messages;
  assertEquals(messages.slice(1), [
    {
      role: "assistant",
      content: [
        { type: "text", text: "Looking." },
        { type: "tool_use", id: "t1", name: "get_balance", input: { account: "A" } },
        { type: "tool_use", id: "t2", name: "get_balance", input: {} },
      ],
    },
    {
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "t1", content: "10" },
        { type: "tool_result", tool_use_id: "t2", content: "Invalid arguments" },
      ],
    },
  ]);
});

// The cache between a live run and its replay.
const record = ({ cached: _, ...rest }: ChatResponse) => JSON.stringify(rest);

Deno.test("cachedClient() replays a live run byte for byte without contacting the server", async () => {
  const path = await Deno.makeTempFile({ suffix: ".sqlite" });
  try {
    const provider = startFakeProvider([
      { text: "run 0", usage: { inputTokens: 100, outputTokens: 10 } },
      {
        toolCalls: [{ name: "get_balance", arguments: { account: "A" } }],
        usage: { inputTokens: 90, outputTokens: 20 },
      },
    ]);
    const inner = openaiClient({ model: "gpt-4o", baseUrl: provider.openaiBaseUrl, sleep: noSleep });
    const live: ChatResponse[] = [];
    {
      using cache = ModelCache.open(path);
      const client = cachedClient(inner, cache, { mode: "live" });
      live.push(await client.chat(hello, { runIndex: 0 }), await client.chat(hello, { runIndex: 1 }));
      assertEquals(cache.size, 2);
      const again = await client.chat(hello, { runIndex: 1 });
      assertEquals([again.cached, record(again)], [true, record(live[1])]);
    }
    await provider.close();
    assertEquals(provider.requests.length, 2);
    assertEquals([live[0].content, live[1].toolCalls[0].name], ["run 0", "get_balance"]);

    using cache = ModelCache.open(path);
    const replay = cachedClient(inner, cache, { mode: "replay" });
    const replayed = [await replay.chat(hello, { runIndex: 0 }), await replay.chat(hello, { runIndex: 1 })];
    assertEquals(replayed.map(record), live.map(record));
    assert(replayed.every((r) => r.cached));
    const err = await assertRejects(() => replay.chat(hello, { runIndex: 2 }), ModelError);
    assertEquals(err.code, "cache_miss");
    assertStringIncludes(err.message, 'model "gpt-4o" (run 2, key "');
    assert(!Deno.readTextFileSync(path).includes("Bearer"));
  } finally {
    await Deno.remove(path);
  }
});

Deno.test("a shared ConcurrencyLimiter keeps at most N requests in flight at the server", async () => {
  await using provider = startFakeProvider(() => ({ delayMs: 20, text: "ok" }));
  const limiter = new ConcurrencyLimiter(2);
  const openai = openaiClient({ model: "gpt-4o", baseUrl: provider.openaiBaseUrl, limiter });
  const answers = await Promise.all(Array.from({ length: 8 }, () => openai.chat(hello)));
  assertEquals(answers.length, 8);
  assertEquals(provider.maxInFlight, 2);
});

Deno.test("the fake provider lists a model at GET /v1/models", async () => {
  await using provider = startFakeProvider([]);
  const response = await fetch(`${provider.openaiBaseUrl}/models`);
  const body = await response.json();
  assertEquals(body.data[0].id, "fake-model");
});
