import { assert, assertEquals, assertMatch, assertNotEquals, assertRejects, assertThrows } from "@std/assert";
import { type Agent, type AgentContext, getDomain, Rng, type Task, toolSchema } from "../envs/mod.ts";
import { agentFactory, modelSpec } from "./mod.ts";
import { ModelError } from "./model/mod.ts";
import { remoteAgent, type RemoteAgentOptions } from "./remote.ts";

const airline = getDomain("airline");
const TASK = { id: "airline/7" } as Task;
const CTX: AgentContext = {
  domain: "airline",
  policy: "Be kind.",
  tools: airline.tools.slice(0, 2),
  now: "2024-05-15T15:00:00Z",
};
const noWait = () => Promise.resolve();

type Answer = { status?: number; body: unknown; delayMs?: number };

/** A fake agent server answering each step body from a script, and `{}` to the rest. */
function fakeServer(steps: Answer[]) {
  const bodies: Record<string, unknown>[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    const body = await request.json();
    bodies.push(body);
    const answer: Answer = body.type === "step" ? steps.shift() ?? { body: { type: "end" } } : { body: {} };
    if (answer.delayMs) await new Promise((done) => setTimeout(done, answer.delayMs));
    return Response.json(answer.body, { status: answer.status ?? 200 });
  });
  return { server, bodies, url: `http://127.0.0.1:${server.addr.port}/agent` };
}

function episode(url: string, options: RemoteAgentOptions = {}, run = 0, seed = "s"): Agent {
  return remoteAgent(url, { sleep: noWait, ...options })({ rng: new Rng(seed), domain: airline, task: TASK, run });
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

Deno.test("remoteAgent() sends start, step and finish bodies as documented and takes the server's actions", async () => {
  const fake = fakeServer([
    { body: { type: "tool", name: "get_user_details", arguments: { user_id: "ann_1" } } },
    { body: { type: "message", text: "Done." } },
    { body: { type: "end", confidence: 0.8 } },
  ]);
  await using _server = fake.server;
  const agent = episode(fake.url);
  assertEquals(agent.name, fake.url);
  await agent.start(CTX);
  const opening = { role: "user" as const, text: "Hi", intent: { kind: "request" as const, goal: "g", facts: {} } };
  assertEquals(await agent.step({ step: 0, message: opening }), {
    type: "tool",
    name: "get_user_details",
    args: { user_id: "ann_1" },
  });
  const tool = { name: "get_user_details", args: { user_id: "ann_1" }, ok: true, result: { name: "Ann" } };
  assertEquals(await agent.step({ step: 1, tool }), { type: "message", text: "Done." });
  assertEquals(await agent.step({ step: 2, message: { role: "user", text: "Thanks" } }), {
    type: "end",
    confidence: 0.8,
  });
  assertEquals(await agent.finish!(), { retries: 0, confidence: 0.8, confidenceSource: "stated" });

  const [start, ...rest] = fake.bodies;
  const id = start.episode as string;
  assertMatch(id, /^airline\/7#0-[0-9a-f]{8}$/);
  const first = CTX.tools[0];
  assertEquals(start, {
    type: "start",
    episode: id,
    domain: "airline",
    policy: "Be kind.",
    tools: CTX.tools.map((t) => toolSchema(t, "openai")),
    now: "2024-05-15T15:00:00Z",
    hints: {},
  });
  const tools = start.tools as {
    type: string;
    function: { name: string; description: string; parameters: { type: string } };
  }[];
  assertEquals([tools[0].type, tools[0].function.name, tools[0].function.description], [
    "function",
    first.name,
    first.description,
  ]);
  assertEquals(tools[0].function.parameters.type, "object");
  assertEquals(rest, [
    { type: "step", episode: id, observation: { step: 0, message: { role: "user", text: "Hi" } } },
    {
      type: "step",
      episode: id,
      observation: {
        step: 1,
        tool: { name: "get_user_details", arguments: { user_id: "ann_1" }, ok: true, result: { name: "Ann" } },
      },
    },
    { type: "step", episode: id, observation: { step: 2, message: { role: "user", text: "Thanks" } } },
    { type: "finish", episode: id },
  ]);
});

Deno.test("remoteAgent() derives the episode id from the task, the run and the episode's generator", async () => {
  const fake = fakeServer([]);
  await using _server = fake.server;
  for (const agent of [episode(fake.url), episode(fake.url), episode(fake.url, {}, 1), episode(fake.url, {}, 0, "t")]) {
    await agent.start(CTX);
  }
  const ids = fake.bodies.map((b) => b.episode as string);
  assertEquals(ids[0], ids[1]);
  assert(ids[2].startsWith("airline/7#1-"), ids[2]);
  assertNotEquals(ids[3], ids[0]);
});

Deno.test("remoteAgent() ends the episode with an agent error naming what was wrong with an action", async () => {
  const fake = fakeServer([{ body: { type: "tool", arguments: {} } }, { body: { type: "jump" } }]);
  await using _server = fake.server;
  const agent = episode(fake.url);
  await agent.start(CTX);
  const error = `Agent server "${fake.url}" gave a malformed answer to "step" at step 0: "name": ` +
    "Invalid input: expected string, received undefined";
  assertEquals(await agent.step({ step: 0 }), { type: "end", error });
  assertEquals((await agent.finish!()).error, error);

  const again = episode(fake.url);
  await again.start(CTX);
  const action = await again.step({ step: 0 });
  assertEquals(
    action.type === "end" && action.error?.endsWith(`"type": expected "type" to be "tool", "message" or "end"`),
    true,
  );
});

Deno.test("remoteAgent() retries a 5xx answer with backoff and counts the retries in its report", async () => {
  const fake = fakeServer([
    { status: 503, body: {} },
    { status: 500, body: {} },
    { body: { type: "end" } },
    { status: 502, body: {} },
    { status: 502, body: {} },
    { status: 502, body: {} },
  ]);
  await using _server = fake.server;
  const waits: number[] = [];
  const sleep = (ms: number) => (waits.push(ms), Promise.resolve());
  const agent = episode(fake.url, { sleep });
  await agent.start(CTX);
  assertEquals(await agent.step({ step: 0 }), { type: "end" });
  assertEquals(waits, [250, 500]);
  assertEquals(await agent.finish!(), { retries: 2 });

  const failing = episode(fake.url, { sleep });
  await failing.start(CTX);
  const error = `Agent server "${fake.url}" answered HTTP 502 (after 3 attempts)`;
  assertEquals(await failing.step({ step: 0 }), { type: "end", error });
  assertEquals(await failing.finish!(), { retries: 2, error });
});

Deno.test("remoteAgent() gives up on a slow server after the timeout and its retries", async () => {
  const fake = fakeServer([{ body: { type: "end" }, delayMs: 300 }, { body: { type: "end" }, delayMs: 300 }]);
  await using _server = fake.server;
  const agent = episode(fake.url, { timeoutMs: 50, retries: 1 });
  await agent.start(CTX);
  const error = `Agent server "${fake.url}" gave no answer within 0.05 s (after 2 attempts)`;
  assertEquals(await agent.step({ step: 0 }), { type: "end", error });
  assertEquals((await agent.finish!()).retries, 1);
});

Deno.test("remoteAgent() takes a 4xx answer or a body that is not JSON as the agent's error, unretried", async () => {
  let requests = 0;
  await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    requests++;
    const body = await request.json();
    if (body.type !== "start") return new Response("no", { status: 404 });
    return new URL(request.url).pathname === "/text" ? new Response("ok?") : Response.json({});
  });
  const base = `http://127.0.0.1:${server.addr.port}`;
  const agent = episode(`${base}/agent`);
  await agent.start(CTX);
  const notFound = `Agent server "${base}/agent" answered HTTP 404`;
  assertEquals(await agent.step({ step: 0 }), { type: "end", error: notFound });
  assertEquals(await agent.finish!(), { retries: 0, error: notFound });
  assertEquals(requests, 3);

  const text = episode(`${base}/text`);
  await text.start(CTX);
  const error = `Agent server "${base}/text" answered with a body that is not JSON`;
  assertEquals(await text.step({ step: 0 }), { type: "end", error });
  assertEquals(await text.finish!(), { retries: 0, error });
});

Deno.test("remoteAgent() stops the run with a ModelError when the server cannot be reached at all", async () => {
  const url = `http://127.0.0.1:${freePort()}/agent`;
  const agent = episode(url, { retries: 1 });
  const err = await assertRejects(() => Promise.resolve(agent.start(CTX)), ModelError);
  assertEquals(
    [err.code, err.message],
    ["unreachable", `Cannot reach agent server "${url}" on airline/7 run 0: connection refused (after 2 attempts)`],
  );
});

Deno.test("remoteAgent() refuses a URL that is not http(s) and options out of range", () => {
  assertThrows(() => remoteAgent("ftp://x/agent"), TypeError, 'Invalid agent URL "ftp://x/agent"');
  assertThrows(() => remoteAgent("http://"), TypeError, "expected an http:// or https:// URL");
  assertThrows(() => remoteAgent("http://x/a", { timeoutMs: 0 }), RangeError, "Invalid timeoutMs 0");
  assertThrows(() => remoteAgent("http://x/a", { retries: -1 }), RangeError, "Invalid retries -1");
});

Deno.test("agentFactory() makes a remote agent of an http(s) URL, which is no language model", () => {
  const url = "https://agents.example.com:8443/v1/agent?key=a@b";
  assertEquals(modelSpec(url), null);
  assertEquals(modelSpec(`checkpoint:${url}`), null);
  const agent = agentFactory(url)({ rng: new Rng("s"), domain: airline, task: TASK });
  assertEquals(agent.name, url);
  assertEquals(
    agentFactory(`checkpoint:${url}`)({ rng: new Rng("s"), domain: airline, task: TASK }).name,
    `checkpoint:${url}`,
  );
});
