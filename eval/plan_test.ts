import { assert, assertEquals, assertNotEquals, assertStringIncludes, assertThrows } from "@std/assert";
import { deriveSeed } from "../envs/mod.ts";
import { compareCells, configIdentity, planCells, resolveConfig } from "./plan.ts";

const tasks = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `airline/${i}` }));

Deno.test("resolveConfig() fills every default and names the experiment", () => {
  assertEquals(resolveConfig(), {
    domain: "airline",
    agents: ["oracle", "noisy", "reckless"],
    tasks: 50,
    runs: 5,
    seed: "0",
    worldSeed: "0",
    maxSteps: 30,
    user: "scripted",
    temperature: null,
    maxTokens: null,
    baseUrl: "https://api.openai.com/v1",
    anthropicBaseUrl: "https://api.anthropic.com",
    prices: null,
    replay: null,
    maxCost: null,
    concurrency: 1,
    experiment: "airline-s0-t50-k5",
    out: "results/airline-s0-t50-k5",
  });
});

Deno.test("resolveConfig() accepts model specs and names them path-safely, with the user and sampling", () => {
  const input = {
    agents: ["openai:gpt-4o-mini", "anthropic:claude-3-5-haiku-latest"],
    user: "llm:openai:llama3.1:8b",
    temperature: 0.5,
    maxTokens: 256,
    tasks: 3,
    runs: 2,
    baseUrl: "http://127.0.0.1:11434/v1/",
  };
  const c = resolveConfig(input);
  assertEquals(
    c.experiment,
    "airline-s0-t3-k2-openai_gpt-4o-mini+anthropic_claude-3-5-haiku-latest-user_llm_openai_llama3.1_8b-temp0.5-mt256",
  );
  assertEquals(c.baseUrl, "http://127.0.0.1:11434/v1");
  assertEquals(configIdentity(c).user, "llm:openai:llama3.1:8b");
  assertEquals("user" in configIdentity(resolveConfig()), false);
  // Neither endpoints nor the budget, the replay or the concurrency change what an episode is.
  const other = resolveConfig({ ...input, baseUrl: "http://x/v1", maxCost: 1, replay: "r", concurrency: 4 });
  assertEquals(configIdentity(other), configIdentity(c));
});

Deno.test("resolveConfig() rejects unknown providers and users, bad URLs and negative budgets", () => {
  assertThrows(() => resolveConfig({ agents: ["gemini:pro"] }), RangeError, '"gemini:pro"');
  assertThrows(() => resolveConfig({ agents: ["openai:"] }), RangeError, '"openai:"');
  assertThrows(() => resolveConfig({ user: "robot" }), RangeError, '"robot"');
  assertThrows(() => resolveConfig({ user: "llm:gpt" }), RangeError, '"llm:gpt"');
  assertThrows(() => resolveConfig({ baseUrl: "localhost:11434" }), TypeError, '"baseUrl"');
  assertThrows(() => resolveConfig({ maxCost: -1 }), RangeError, '"maxCost"');
  assertThrows(() => resolveConfig({ concurrency: 0 }), RangeError, '"concurrency"');
  assertThrows(() => resolveConfig({ temperature: -0.1 }), RangeError, '"temperature"');
});

Deno.test("resolveConfig() puts non-default agents and step limits in the experiment name", () => {
  const c = resolveConfig({ agents: ["oracle"], seed: "a b/c", tasks: 6, runs: 2, maxSteps: 12 });
  assertEquals(c.experiment, "airline-sa_b_c-t6-k2-oracle-m12");
  assertEquals(resolveConfig({ out: "x" }).out, "x");
  assertEquals(resolveConfig({ worldSeed: "3" }).experiment, "airline-s0-t50-k5-w3");
});

Deno.test("resolveConfig() rejects wrong shapes, numbers out of range and unknown names", () => {
  assertThrows(() => resolveConfig({ tasks: "6" as unknown as number }), TypeError, '"tasks"');
  assertThrows(() => resolveConfig({ tasks: 0 }), RangeError, '"tasks"');
  assertThrows(() => resolveConfig({ runs: 1.5 }), RangeError, '"runs"');
  assertThrows(() => resolveConfig({ agents: [] }), RangeError, '"agents"');
  assertThrows(() => resolveConfig({ colour: "red" } as never), TypeError);
  const domain = assertThrows(() => resolveConfig({ domain: "bakery" }), RangeError);
  assertStringIncludes(domain.message, '"bakery"');
  assertStringIncludes(domain.message, '"airline"');
  assertThrows(() => resolveConfig({ agents: ["oracle", "genius"] }), RangeError, '"genius"');
});

Deno.test("planCells() lays out agent × task × run in order with derived seeds", () => {
  const cells = planCells({ agents: ["oracle", "noisy"], runs: 2, seed: "0" }, tasks(3));
  assertEquals(cells.length, 12);
  assertEquals(cells.slice(0, 3).map((c) => [c.agent, c.task, c.run]), [
    ["oracle", "airline/0", 0],
    ["oracle", "airline/0", 1],
    ["oracle", "airline/1", 0],
  ]);
  assertEquals(cells[0].seed, deriveSeed("0", "oracle", "airline/0", 0, "nominal"));
  assertEquals(new Set(cells.map((c) => c.seed)).size, 12);
  assert(cells.every((c) => c.condition === "nominal" && c.variant === null));
});

Deno.test("planCells() keeps every cell's seed when tasks, runs or agents are added", () => {
  const small = planCells({ agents: ["noisy"], runs: 2, seed: "7" }, tasks(3));
  const big = planCells({ agents: ["oracle", "noisy"], runs: 4, seed: "7" }, tasks(10));
  const seeds = new Map(big.map((c) => [`${c.agent} ${c.task} ${c.run}`, c.seed]));
  for (const c of small) assertEquals(seeds.get(`${c.agent} ${c.task} ${c.run}`), c.seed);
  assertNotEquals(planCells({ agents: ["noisy"], runs: 2, seed: "8" }, tasks(3))[0].seed, small[0].seed);
});

Deno.test("compareCells() orders task indexes numerically within a domain", () => {
  const key = (task: string, run = 0) => ({ agent: "a", task, run, condition: "nominal" as const, variant: null });
  const sorted = [key("airline/10"), key("retail/1"), key("airline/9", 1), key("airline/9")].sort(compareCells);
  assertEquals(sorted.map((k) => `${k.task}#${k.run}`), ["airline/9#0", "airline/9#1", "airline/10#0", "retail/1#0"]);
});
