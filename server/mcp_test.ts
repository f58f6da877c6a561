import { assert, assertEquals, assertRejects, assertStringIncludes, assertThrows } from "@std/assert";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { EpisodeEvent } from "../envs/mod.ts";
import { MemoryResults, resolveConfig, runExperiment } from "../eval/mod.ts";
import { mcpHandler, type McpOptions } from "./mcp.ts";
import { remoteActions, RemoteEpisode } from "./session.ts";

// The endpoint on a loopback port, closed (sessions, then the listener) when the test is done.
function serve(options: McpOptions = {}) {
  const mcp = mcpHandler(options);
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, mcp);
  return {
    mcp,
    url: `http://127.0.0.1:${server.addr.port}/mcp`,
    async [Symbol.asyncDispose]() {
      await mcp.close();
      await server.shutdown();
    },
  };
}

async function connect(url: string, query: Record<string, string>) {
  const client = new Client({ name: "mcp_test", version: "0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${url}?${new URLSearchParams(query)}`));
  await client.connect(transport);
  return {
    client,
    transport,
    async [Symbol.asyncDispose]() {
      await client.close();
    },
  };
}

type Content = { type: string; text?: string }[];
const textOf = (result: { content?: unknown }) => (result.content as Content).map((c) => c.text).join("\n");

Deno.test("mcpHandler() offers the world's tools and policy, and its episode gets the record of the same actions in-process", async () => {
  await using served = serve();
  const request = { domain: "airline", task: "airline/0" };
  // The same episode, driven in-process, is what the MCP one must match.
  const reference = await RemoteEpisode.open("reference", request);
  await using session = await connect(served.url, request);
  const { client } = session;
  assertEquals(served.mcp.open, 1);

  const { tools } = await client.listTools() as {
    tools: { name: string; description?: string; inputSchema: unknown }[];
  };
  const worldTools = reference.opening.tools.map((t) => t.function);
  assertEquals(tools.map((t) => t.name), [...worldTools.map((t) => t.name), "send_message_to_user", "end_episode"]);
  assertEquals(tools[0].inputSchema, worldTools[0].parameters);
  assertEquals(tools[0].description, worldTools[0].description);
  const instructions = client.getInstructions() ?? "";
  assertStringIncludes(instructions, reference.opening.policy.trim());
  assertStringIncludes(instructions, `> ${reference.opening.messages[0].text}`);

  // A look-up that works, one with bad arguments, and a message to the user.
  const userId = "omar_zimmerman_3258";
  const found = await client.callTool({ name: "get_user_details", arguments: { user_id: userId } });
  const expected = await reference.episode.tool("get_user_details", { user_id: userId });
  assertEquals([found.isError ?? false, JSON.parse(textOf(found))], [false, expected.tool!.result]);
  assertStringIncludes(textOf(found), "ZH45RN");
  const bad = await client.callTool({ name: "get_user_details", arguments: {} });
  assertEquals(bad.isError, true);
  assertEquals(JSON.parse(textOf(bad)).error.code, "invalid_args");
  await reference.episode.tool("get_user_details", {});
  // Calls made at once each get their own result (the same call twice, so the order they arrive in
  // does not change the record).
  const lookup = { name: "get_reservation_details", arguments: { reservation_id: "ZH45RN" } };
  const both = await Promise.all([client.callTool(lookup), client.callTool(lookup)]);
  const expectedLookup = await reference.episode.tool(lookup.name, lookup.arguments);
  await reference.episode.tool(lookup.name, lookup.arguments);
  assertEquals(both.map((r: { content?: unknown }) => JSON.parse(textOf(r))), [
    expectedLookup.tool!.result,
    expectedLookup.tool!.result,
  ]);
  const reply = await client.callTool({ name: "send_message_to_user", arguments: { text: "How can I help?" } });
  const expectedReply = await reference.episode.message("How can I help?");
  assertEquals(textOf(reply), expectedReply.message!.text);
  const refused = await client.callTool({ name: "send_message_to_user", arguments: { text: "" } });
  assertEquals([refused.isError, textOf(refused).startsWith("Invalid send_message_to_user arguments")], [true, true]);

  const trajectory = await client.readResource({ uri: "ark://episode/trajectory" });
  const items = JSON.parse((trajectory.contents[0] as { text: string }).text);
  assertEquals(items.length, 1 + 4 + 2, "the opening, four tool calls, a message and its reply");
  assertEquals(items[0].intent, undefined, "a language agent sees no intents");

  const ended = await client.callTool({ name: "end_episode", arguments: { confidence: 0.3 } });
  const verdict = JSON.parse(textOf(ended));
  const expectedVerdict = await reference.episode.end(0.3);
  assertEquals([verdict.success, verdict.record.agent, verdict.record.confidence], [false, "remote", 0.3]);
  assertEquals(verdict, JSON.parse(JSON.stringify(expectedVerdict)));
  const late = await client.callTool({ name: "get_user_details", arguments: { user_id: userId } });
  assertEquals([late.isError, textOf(late)], [
    true,
    "The episode has ended: call end_episode for the grade and the record",
  ]);

  // Deleting the session closes it; a later request with its id is told why it is gone.
  const id = session.transport.sessionId!;
  await session.transport.terminateSession();
  assertEquals(served.mcp.open, 0);
  const after = await fetch(served.url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-session-id": id,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/list" }),
  });
  assertEquals(after.status, 404);
  assertEquals((await after.json()).error.message, `MCP session "${id}" expired: the client closed the MCP session`);
});

// Drives an MCP episode with the actions an in-process episode's agent took, in order.
async function replay(client: Client, events: EpisodeEvent[], confidence: number | undefined) {
  for (const a of remoteActions(events, confidence)) {
    if (a.type === "message") {
      const args = { text: a.text, ...(a.intent ? { intent: a.intent } : {}) };
      await client.callTool({ name: "send_message_to_user", arguments: args });
    } else if (a.type === "tool") {
      await client.callTool({ name: a.name, arguments: a.arguments as Record<string, unknown> });
    } else {
      const ended = await client.callTool({
        name: "end_episode",
        arguments: a.confidence === undefined ? {} : { confidence: a.confidence },
      });
      return JSON.parse(textOf(ended));
    }
  }
  throw new Error("remoteActions() gave no end");
}

Deno.test("mcpHandler() with intents: an MCP episode given the oracle's decisions gets the oracle's in-process record", async () => {
  const config = resolveConfig({ suite: "tasks", domains: ["airline"], agents: ["oracle"], tasks: 2, runs: 1 });
  const sink = new MemoryResults();
  await runExperiment(config, { sink });
  const records = sink.records();
  assert(records.some((r) => r.success) && records.some((r) => r.condition === "fault"));
  await using served = serve({ intents: true });
  for (const r of records) {
    const query = {
      domain: "airline",
      task: r.task,
      agent: "oracle",
      condition: r.condition,
      variant: r.variant ?? "",
    };
    if (r.variant === undefined || r.variant === null) delete (query as Partial<typeof query>).variant;
    await using session = await connect(served.url, query);
    const verdict = await replay(session.client, sink.events(r), r.confidence ?? undefined);
    assertEquals(verdict.record, JSON.parse(JSON.stringify(r)), `${r.task} ${r.condition}`);
  }
});

Deno.test("mcpHandler() refuses a bad episode, a session past the limit and an idle one in one line", async () => {
  let clock = 0;
  await using served = serve({ maxSessions: 1, now: () => clock });
  const refusal = async (query: Record<string, string>, expected: string) => {
    const err = await assertRejects(() => connect(served.url, query));
    const message = (err as Error).message;
    assertStringIncludes(message, expected);
    assertEquals(message.includes("\n"), false, message);
  };
  await refusal({ domain: "nowhere", task: "nowhere/0" }, 'Unknown domain \\"nowhere\\": expected one of');
  await refusal({ domain: "airline", task: "retail/0" }, 'Unknown task \\"retail/0\\"');
  await refusal({ domain: "airline" }, 'Missing query parameter \\"task\\"');
  await refusal(
    { domain: "airline", task: "airline/0", tasks: "3" },
    'Unknown query parameter \\"tasks\\": expected domain',
  );
  await refusal(
    { domain: "airline", task: "airline/0", run: "x" },
    'Invalid query parameter \\"run\\": expected a whole number of at least 0, got \\"x\\"',
  );
  assertEquals(served.mcp.open, 0);

  await using first = await connect(served.url, { domain: "airline", task: "airline/1" });
  await refusal({ domain: "airline", task: "airline/2" }, "Too many open MCP sessions (1)");
  clock += 601_000;
  const err = await assertRejects(() => first.client.listTools());
  assertStringIncludes((err as Error).message, "expired: idle for more than 600 s");
  assertEquals(served.mcp.open, 0);
  // The idle session's place is free again.
  await using second = await connect(served.url, { domain: "airline", task: "airline/2" });
  assertEquals([served.mcp.open, second.transport.sessionId === first.transport.sessionId], [1, false]);
});

Deno.test("mcpHandler() rejects an option out of range", () => {
  assertThrows(() => mcpHandler({ maxSessions: 0 }), RangeError, "Invalid maxSessions 0: expected a whole number");
});

Deno.test("mcpHandler() refuses tool arguments past 64 levels or 64 KB, and bodies nested too deep, with HTTP 400; the session goes on", async () => {
  await using served = serve();
  await using session = await connect(served.url, { domain: "airline", task: "airline/0" });
  const nested = (n: number) => "[".repeat(n) + "]".repeat(n);
  const send = async (body: string) => {
    const res = await fetch(served.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-session-id": session.transport.sessionId!,
        "mcp-protocol-version": session.transport.protocolVersion ?? "2025-03-26",
      },
      body,
    });
    const answer = await res.json();
    assertEquals(answer.error.message.includes("\n"), false, answer.error.message);
    return [res.status, answer.id, answer.error.message];
  };
  const call = (args: string) =>
    `{"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "get_user_details", "arguments": ${args}}}`;
  assertEquals(await send(call(`{"user_id": ${nested(200_000)}}`)), [
    400,
    7,
    'Invalid arguments for tool "get_user_details": they are over 65536 bytes as JSON',
  ]);
  assertEquals(await send(call(`{"user_id": ${nested(100)}}`)), [
    400,
    7,
    'Invalid arguments for tool "get_user_details": they nest deeper than 64 levels',
  ]);
  assertEquals(await send(call(JSON.stringify({ user_id: "x".repeat(100_000) }))), [
    400,
    7,
    'Invalid arguments for tool "get_user_details": they are over 65536 bytes as JSON',
  ]);
  const [status, , message] = await send(
    `{"jsonrpc": "2.0", "id": 8, "method": "resources/list", "params": {"_meta": ${nested(200_000)}}}`,
  );
  assertEquals(status, 400);
  assertStringIncludes(message, "Invalid body: JSON nested deeper than 68 levels");
  // None reached the episode: it answers the next call, and its trajectory holds the opening alone.
  const trajectory = await session.client.readResource({ uri: "ark://episode/trajectory" });
  assertEquals(JSON.parse((trajectory.contents[0] as { text: string }).text).length, 1);
  const next = await session.client.callTool({ name: "get_user_details", arguments: { user_id: "nobody" } });
  assertEquals([next.isError, JSON.parse(textOf(next)).error.code], [true, "not_found"]);
});
