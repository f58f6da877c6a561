// End to end: `deno task eval` with language-model agents and users against a fake provider on
// loopback, scripted from the tasks' gold calls; the model cache, replay, the budget, preflight
// and user errors.
import { assert, assertEquals, assertGreater, assertLess, assertMatch, assertStringIncludes } from "@std/assert";
import { getDomain, type Task, World } from "../envs/mod.ts";
import { closedPort, type FakeReply, type RecordedRequest, startFakeProvider } from "./fixtures/fake_provider.ts";
import { contentText as text, goldReply } from "./fixtures/gold_model.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const EVAL = new URL("../cli/eval.ts", import.meta.url).pathname;
const SCORE = new URL("../cli/score.ts", import.meta.url).pathname;
// The nominal condition only: the fake model plays the gold calls of a task's nominal opening.
const NOMINAL = ["--conditions", "nominal"];
// Every experiment names its domain, so registering another changes none of these counts.
const AIRLINE = ["--domains", "airline", "--suite", "tasks"];
const SMALL = [...AIRLINE, "--tasks", "3", "--runs", "2", ...NOMINAL];
const KEY = "sk-test-do-not-store-4711";
// $1 and $2 per million input and output tokens; every answer uses 100 + 20 tokens.
const PRICES = { "openai:fake-model": { input: 1, output: 2 }, "anthropic:fake-model": { input: 1, output: 2 } };
const USAGE = { inputTokens: 100, outputTokens: 20 };
const CALL_COST = (100 * 1 + 20 * 2) / 1e6;

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

// The child never sees the developer's own keys or endpoints.
async function cli(script: string, args: string[], env: Record<string, string> = {}): Promise<Outcome> {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", script, ...args],
    cwd: ROOT,
    stdin: "null",
    env: {
      NO_COLOR: "1",
      OPENAI_API_KEY: "",
      ANTHROPIC_API_KEY: "",
      OPENAI_BASE_URL: "",
      ANTHROPIC_BASE_URL: "",
      ...env,
    },
  }).output();
  const text = new TextDecoder();
  return { code, stdout: text.decode(stdout), stderr: text.decode(stderr) };
}

const evalCli = (args: string[], env?: Record<string, string>) => cli(EVAL, args, env);

type Json = Record<string, unknown>;

const tasks: Task[] = (() => {
  using world = World.open(getDomain("airline"), { seed: "0" });
  return world.defaultTasks(4);
})();

function isUserSimulator(request: RecordedRequest): boolean {
  const body = request.body as Json;
  const system = request.protocol === "anthropic" ? text(body.system) : text((body.messages as Json[])[0].content);
  return system.startsWith("You are a customer");
}

/**
 * The fake model: as an agent, the gold model (`fixtures/gold_model.ts`). As a user, it ends the
 * conversation on its first reply for `airline/0` (the guard trips) and thanks the agent for the others.
 */
function script(request: RecordedRequest): FakeReply {
  if (isUserSimulator(request)) {
    const all = JSON.stringify((request.body as Json).messages);
    const trip = all.includes(JSON.stringify(tasks[0].openings[0]).slice(1, -1));
    return { text: trip ? "Thanks. ###STOP###" : "Okay, thanks.", usage: USAGE };
  }
  return goldReply(tasks, request, USAGE);
}

async function pricesFile(dir: string): Promise<string> {
  const path = `${dir}/prices.json`;
  await Deno.writeTextFile(path, JSON.stringify(PRICES));
  return path;
}

async function records(dir: string): Promise<Json[]> {
  const text = await Deno.readTextFile(`${dir}/records.jsonl`);
  return text.trimEnd().split("\n").map((l) => JSON.parse(l));
}

const chats = (requests: RecordedRequest[]) => requests.filter((r) => r.method === "POST");

// The dollars of n calls, summed one call at a time as the agent's meter does.
function costOf(n: number): number {
  let cost = 0;
  for (let i = 0; i < n; i++) cost += CALL_COST;
  return cost;
}

function checkAccounting(list: Json[], requests: RecordedRequest[]): void {
  let calls = 0;
  for (const r of list) {
    const res = r.resources as Json;
    const n = res.api_calls as number;
    assertGreater(n, 1);
    assertEquals(res.tokens, n * 120);
    assertEquals(res.cost, costOf(n));
    assert((res.call_latency as number) >= 0);
    assertEquals(r.confidence, 0.9);
    assertEquals(r.confidence_source, "elicited");
    assertEquals("agent_error" in r, false);
    calls += n;
  }
  assertEquals(calls, chats(requests).length);
}

Deno.test("eval runs an OpenAI-compatible model: usage and cost in records, replay byte for byte offline", async () => {
  const dir = await Deno.makeTempDir();
  const prices = await pricesFile(dir);
  const provider = startFakeProvider(script, { apiKey: KEY });
  const agents = ["--agents", "openai:fake-model", "--base-url", provider.openaiBaseUrl, "--prices", prices];
  const env = { OPENAI_API_KEY: KEY };
  const [live, parallel] = await Promise.all([
    evalCli([...agents, ...SMALL, "--out", `${dir}/live`], env),
    evalCli([...agents, ...SMALL, "--concurrency", "3", "--out", `${dir}/parallel`], env),
  ]);
  await provider.close();
  assertEquals([live.code, parallel.code], [0, 0], live.stderr + parallel.stderr);
  const list = await records(`${dir}/live`);
  assertEquals(list.length, 6);
  assertEquals(list.map((r) => r.agent), Array(6).fill("openai:fake-model"));
  assert(list.some((r) => r.success), "the fake model follows the gold calls");
  const requests = provider.requests.filter((r) => r.method === "POST");
  assertEquals(requests.every((r) => r.headers.authorization === `Bearer ${KEY}`), true);
  checkAccounting([...list, ...await records(`${dir}/parallel`)], provider.requests);
  assertMatch(live.stdout, /^openai:fake-model +\d+ +\d+ +\$0\.\d+ +0 +0$/m);
  assertStringIncludes(live.stdout, "Model cost of the experiment: $");

  // Wall-clock latencies aside, the same records whatever the concurrency.
  const strip = (r: Json) => ({ ...r, resources: { ...r.resources as Json, time: 0, call_latency: 0 } });
  assertEquals((await records(`${dir}/parallel`)).map(strip), list.map(strip));

  // The server is gone: replays come from the cache, byte for byte, at any concurrency.
  const original = await Deno.readTextFile(`${dir}/live/records.jsonl`);
  const [replay, replay3, miss] = await Promise.all([
    evalCli([...agents, ...SMALL, "--replay", `${dir}/live`, "--out", `${dir}/replay`]),
    evalCli([
      ...agents,
      ...SMALL,
      "--replay",
      `${dir}/live/model_cache.sqlite`,
      "--concurrency",
      "3",
      "--out",
      `${dir}/r3`,
    ]),
    evalCli([
      ...agents,
      ...AIRLINE,
      "--tasks",
      "4",
      "--runs",
      "2",
      ...NOMINAL,
      // A cache file, not the results folder: the flags say the experiment, here one more task.
      "--replay",
      `${dir}/live/model_cache.sqlite`,
      "--out",
      `${dir}/miss`,
    ]),
  ]);
  assertEquals([replay.code, replay3.code], [0, 0], replay.stderr + replay3.stderr);
  assertEquals(await Deno.readTextFile(`${dir}/replay/records.jsonl`), original);
  assertEquals(await Deno.readTextFile(`${dir}/r3/records.jsonl`), original);
  assertEquals(miss.code, 1);
  assertEquals(miss.stderr.trimEnd().split("\n").length, 1, miss.stderr);
  assertStringIncludes(miss.stderr, "airline/3");
  assertStringIncludes(miss.stderr, "No cached answer");

  // The key reached the endpoint but no file.
  for (const file of ["live/results.sqlite", "live/model_cache.sqlite", "live/records.jsonl"]) {
    const bytes = new TextDecoder().decode(await Deno.readFile(`${dir}/${file}`));
    assertEquals(bytes.includes(KEY), false, file);
  }
  await Deno.remove(dir, { recursive: true });
});

Deno.test("eval runs an Anthropic model with the same accounting", async () => {
  const dir = await Deno.makeTempDir();
  const prices = await pricesFile(dir);
  await using provider = startFakeProvider(script);
  const out = await evalCli([
    "--agents",
    "anthropic:fake-model",
    "--anthropic-base-url",
    provider.anthropicBaseUrl,
    "--prices",
    prices,
    ...SMALL,
    "--out",
    dir,
  ]);
  assertEquals(out.code, 0, out.stderr);
  const list = await records(dir);
  assertEquals(list.length, 6);
  assert(list.some((r) => r.success));
  checkAccounting(list, provider.requests);
  assertEquals(chats(provider.requests).every((r) => r.protocol === "anthropic"), true);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("eval --max-cost stops within one episode of the budget, and a higher budget resumes to the end", async () => {
  const dir = await Deno.makeTempDir();
  const prices = await pricesFile(dir);
  await using provider = startFakeProvider(script);
  const args = ["--agents", "openai:fake-model", "--base-url", provider.openaiBaseUrl, "--prices", prices, ...SMALL];
  const budget = CALL_COST * 12;
  const stopped = await evalCli([...args, "--max-cost", String(budget), "--out", dir]);
  assertEquals(stopped.code, 3, stopped.stderr);
  assertEquals(stopped.stderr.trimEnd().split("\n").length, 1, stopped.stderr);
  assertMatch(stopped.stderr, /^Stopped at the cost budget: \$[\d.]+ of \$[\d.]+ spent, \d of 6 episodes done;/);
  const first = await records(dir);
  const costs = first.map((r) => (r.resources as Json).cost as number);
  const spent = costs.reduce((a, b) => a + b, 0);
  assertGreater(first.length, 0);
  assertLess(first.length, 6);
  assert(spent >= budget, `${spent} spent of ${budget}`);
  assert(spent - costs.at(-1)! < budget, "an episode started after the budget was spent");
  assertStringIncludes(stopped.stderr, `${first.length} of 6 episodes done`);

  const resumed = await evalCli([...args, "--max-cost", "1", "--out", dir]);
  assertEquals(resumed.code, 0, resumed.stderr);
  assertStringIncludes(resumed.stdout, `${first.length} resumed`);
  const all = await records(dir);
  assertEquals(all.length, 6);
  assertEquals(new Set(all.map((r) => `${r.task}#${r.run}`)).size, 6);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("eval refuses to start without a key or an endpoint: one line, exit 1, no episode", async () => {
  const dir = await Deno.makeTempDir();
  const [noKey, noKeyAnthropic, down] = await Promise.all([
    evalCli(["--agents", "openai:gpt-4o-mini", "--base-url", "https://api.example.com/v1", "--out", `${dir}/a`]),
    evalCli(["--agents", "oracle", "--user", "llm:anthropic:claude-3-5-haiku-latest", "--out", `${dir}/b`]),
    evalCli(["--agents", "openai:x", "--base-url", `http://127.0.0.1:${closedPort()}/v1`, "--out", `${dir}/c`]),
  ]);
  assertEquals([noKey.code, noKeyAnthropic.code, down.code], [1, 1, 1]);
  assertEquals(noKey.stderr, 'Cannot run "openai:gpt-4o-mini": OPENAI_API_KEY is not set\n');
  assertEquals(noKeyAnthropic.stderr, 'Cannot run "anthropic:claude-3-5-haiku-latest": ANTHROPIC_API_KEY is not set\n');
  assertMatch(down.stderr, /^Cannot reach "http:\/\/127\.0\.0\.1:\d+\/v1" for "openai:x": connection refused\n$/);
  for (const sub of ["a", "b", "c"]) {
    assertEquals(await Deno.stat(`${dir}/${sub}`).then(() => true, () => false), false, sub);
  }
  await Deno.remove(dir, { recursive: true });
});

Deno.test("eval says in one line what is wrong with prices, a budget it cannot keep, or a rejected key", async () => {
  const dir = await Deno.makeTempDir();
  await using provider = startFakeProvider(script, { apiKey: KEY });
  const local = ["--agents", "openai:fake-model", "--base-url", provider.openaiBaseUrl, ...SMALL];
  const [noPrices, unpriced, rejected] = await Promise.all([
    evalCli([...local, "--prices", `${dir}/none.json`, "--out", `${dir}/a`]),
    evalCli([...local, "--max-cost", "1", "--out", `${dir}/b`]),
    evalCli([...local, "--out", `${dir}/c`], { OPENAI_API_KEY: "sk-wrong" }),
  ]);
  assertEquals([noPrices.code, unpriced.code, rejected.code], [2, 2, 1]);
  assertEquals(noPrices.stderr, `Cannot read price file "${dir}/none.json": no such file or folder\n`);
  assertStringIncludes(unpriced.stderr, '"openai:fake-model" has no price');
  assertEquals(rejected.stderr.trimEnd().split("\n").length, 1, rejected.stderr);
  assertMatch(rejected.stderr, /^Cannot run "openai:fake-model" on airline\/0 run [01]: /);
  assertEquals(await Deno.readTextFile(`${dir}/c/records.jsonl`), "", "no episode recorded");
  await Deno.remove(dir, { recursive: true });
});

Deno.test("eval --user llm: a guard trip is a user_error, left out of scoring and counted", async () => {
  const dir = await Deno.makeTempDir();
  const prices = await pricesFile(dir);
  await using provider = startFakeProvider(script);
  const out = await evalCli([
    "--agents",
    "openai:fake-model",
    "--user",
    "llm:openai:fake-model",
    "--base-url",
    provider.openaiBaseUrl,
    "--prices",
    prices,
    ...SMALL,
    "--out",
    dir,
  ]);
  assertEquals(out.code, 0, out.stderr);
  const list = await records(dir);
  const tripped = list.filter((r) => r.user_error !== undefined);
  assertEquals(tripped.map((r) => r.task), ["airline/0", "airline/0"]);
  assertStringIncludes(tripped[0].user_error as string, "first reply");
  for (const r of list) {
    assertEquals((r.user_resources as Json).tokens, ((r.user_resources as Json).api_calls as number) * 120);
  }
  // The user's calls are not the agent's.
  const agentCalls = list.reduce((n, r) => n + ((r.resources as Json).api_calls as number), 0);
  const userCalls = list.reduce((n, r) => n + ((r.user_resources as Json).api_calls as number), 0);
  assertEquals(agentCalls + userCalls, chats(provider.requests).length);
  assertMatch(out.stdout, /^openai:fake-model +\d+ +\d+ +\$[\d.]+ +0 +2$/m);
  assertStringIncludes(out.stdout, "User simulator: ");
  assertMatch(out.stdout, /^openai:fake-model \(4 episodes, 2 tasks\)$/m);

  const scored = await cli(SCORE, ["--records", `${dir}/records.jsonl`, "--json", "--resamples", "20"]);
  assertEquals(scored.code, 0, scored.stderr);
  assertEquals(JSON.parse(scored.stdout)["openai:fake-model"].n, { records: 4, tasks: 2, user_errors: 2 });
  const table = await cli(SCORE, ["--records", `${dir}/records.jsonl`, "--resamples", "20"]);
  assertMatch(table.stdout, /^user errors +2$/m);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("eval records retried calls apart from time, an unpriced cost as null, and a replay gives both back", async () => {
  const dir = await Deno.makeTempDir();
  // A 429 (with Retry-After) and a 500 among the answers: each is retried once by the client.
  const flaky = (request: RecordedRequest, index: number): FakeReply =>
    index === 2 ? { status: 429, headers: { "retry-after": "0" } } : index === 5 ? { status: 500 } : script(request);
  const provider = startFakeProvider(flaky);
  // No --prices: "openai:fake-model" has no price, so its cost is unknown, not $0.
  const live = await evalCli([
    ...["--agents", "openai:fake-model", "--base-url", provider.openaiBaseUrl],
    ...AIRLINE,
    ...["--tasks", "2", "--runs", "1", ...NOMINAL, "--out", `${dir}/live`],
  ]);
  await provider.close();
  assertEquals(live.code, 0, live.stderr);
  const list = await records(`${dir}/live`);
  assertEquals(list.reduce((n, r) => n + (r.model_retries as number), 0), 2);
  // Every request the server saw is a model call that answered or an attempt that was retried.
  const calls = list.reduce((n, r) => n + ((r.resources as Json).api_calls as number), 0);
  assertEquals(calls + 2, chats(provider.requests).length);
  // The retries' backoff (at least 500 ms each) is retry_wait, never time.
  const waited = list.filter((r) => (r.model_retries as number) > 0).map((r) => (r.resources as Json).retry_wait);
  assert(waited.length > 0 && waited.every((w) => typeof w === "number" && w >= 0.5), String(waited));
  assert(list.every((r) => (r.resources as Json).cost === null), "an unpriced model's cost is null");
  assertMatch(live.stdout, /^openai:fake-model +\d+ +\d+ +unknown +0 +0$/m);
  assertStringIncludes(live.stdout, '"openai:fake-model": not in the price table');
  // The results folder alone replays it, byte for byte, without the flags or a price.
  const replay = await evalCli(["--replay", `${dir}/live`, "--out", `${dir}/r`]);
  assertEquals(replay.code, 0, replay.stderr);
  assertEquals(await Deno.readTextFile(`${dir}/r/records.jsonl`), await Deno.readTextFile(`${dir}/live/records.jsonl`));
  await Deno.remove(dir, { recursive: true });
});
