import { assert, assertEquals, assertMatch, assertNotEquals, assertStringIncludes, assertThrows } from "@std/assert";
import { deriveSeed, domains, getDomain, World } from "../envs/mod.ts";
import {
  cellSeed,
  compareCells,
  conditionVariants,
  MAX_PLANNED_EPISODES,
  planCells,
  plannedEpisodes,
  runsOf,
} from "./plan.ts";
import { experimentTasks } from "./worlds.ts";
import { configIdentity, resolveConfig } from "./config.ts";

const tasks = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `airline/${i}` }));
const NOMINAL_ONLY = { fault: false, env: false, prompt: false } as const;
const nominal = (agents: string[], runs: number, seed: string) =>
  resolveConfig({ agents, runs, seed, conditions: NOMINAL_ONLY });

Deno.test("resolveConfig() fills every default and names the experiment", () => {
  // The default domains are every registered one, named in the experiment in registry order.
  const all = Object.keys(domains);
  const experiment = `${all.join("+")}-s0-t50-k5`;
  assertEquals(resolveConfig(), {
    domains: all,
    agents: ["oracle", "noisy", "reckless", "literal"],
    tasks: 50,
    runs: 5,
    conditions: {
      nominal: { runs: 5 },
      fault: { p_fault: 0.2, runs: 5 },
      env: { presets: ["low", "medium", "high"], runs: 5 },
      prompt: { variants: 5, paraphrases: "templates", runs: 1 },
    },
    seed: "0",
    worldSeed: "0",
    maxSteps: 30,
    longRuns: null,
    suite: "all",
    longTasks: 20,
    scenarioPairs: 2,
    scenarioRuns: 1,
    user: "scripted",
    judge: "rules",
    temperature: null,
    maxTokens: null,
    baseUrl: "https://api.openai.com/v1",
    anthropicBaseUrl: "https://api.anthropic.com",
    prices: null,
    replay: null,
    maxCost: null,
    concurrency: 1,
    workers: null,
    experiment,
    out: `results/${experiment}`,
  });
});

Deno.test("resolveConfig() accepts model specs and names them path-safely, with the user and sampling", () => {
  const input = {
    domains: ["airline"],
    agents: ["openai:gpt-4o-mini", "anthropic:claude-3-5-haiku-latest"],
    user: "llm:openai:llama3.1:8b",
    temperature: 0.5,
    maxTokens: 256,
    tasks: 3,
    runs: 2,
    baseUrl: "http://127.0.0.1:11434/v1/",
  };
  const c = resolveConfig(input);
  assertMatch(c.experiment, /^airline-s0-t3-k2-[0-9a-f]{8}$/);
  assertEquals(c.baseUrl, "http://127.0.0.1:11434/v1");
  assertEquals(configIdentity(c).user, "llm:openai:llama3.1:8b");
  assertEquals("user" in configIdentity(resolveConfig({ domains: ["airline"] })), false);
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

Deno.test("resolveConfig() names the experiment by domains, seed, tasks and runs, with a hash of anything else", () => {
  // Each config names its domain: the names do not depend on what else is registered.
  const airline = ["airline"];
  assertEquals(
    resolveConfig({ domains: airline, seed: "a b/c", tasks: 6, runs: 2 }).experiment,
    "airline-sa_b_c-t6-k2",
  );
  const names = [
    { agents: ["oracle"] },
    { maxSteps: 12 },
    { worldSeed: "3" },
    { conditions: { env: false } },
    { conditions: { fault: { p_fault: 0.1 } } },
  ].map((extra) => resolveConfig({ domains: airline, tasks: 6, runs: 2, ...extra }).experiment);
  for (const name of names) assertMatch(name, /^airline-s0-t6-k2-[0-9a-f]{8}$/);
  assertEquals(new Set(names).size, names.length);
  // Spelling out a default changes nothing.
  assertEquals(
    resolveConfig({ domains: airline, runs: 2, conditions: { fault: { p_fault: 0.2, runs: 2 }, env: true } })
      .experiment,
    "airline-s0-t50-k2",
  );
  assertEquals(resolveConfig({ out: "x" }).out, "x");
});

Deno.test("resolveConfig() rejects wrong shapes, numbers out of range and unknown names", () => {
  assertThrows(() => resolveConfig({ tasks: "6" as unknown as number }), TypeError, '"tasks"');
  assertThrows(() => resolveConfig({ tasks: 0 }), RangeError, '"tasks"');
  assertThrows(() => resolveConfig({ runs: 1.5 }), RangeError, '"runs"');
  assertThrows(() => resolveConfig({ agents: [] }), RangeError, '"agents"');
  assertThrows(() => resolveConfig({ colour: "red" } as never), TypeError);
  const domain = assertThrows(() => resolveConfig({ domains: ["bakery"] }), RangeError);
  assertStringIncludes(domain.message, '"bakery"');
  assertStringIncludes(domain.message, '"airline"');
  assertThrows(() => resolveConfig({ agents: ["oracle", "genius"] }), RangeError, '"genius"');
});

Deno.test("planCells() lays out agent × task × run in order with derived seeds", () => {
  const cells = planCells(nominal(["oracle", "noisy"], 2, "0"), tasks(3));
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

Deno.test("planCells() lays out every condition's variants and runs, each cell with its own seed", () => {
  const config = resolveConfig({
    agents: ["oracle"],
    runs: 2,
    conditions: { env: { runs: 1 }, prompt: { variants: 3 } },
  });
  assertEquals(conditionVariants(config, "fault"), [["p0.2", 2]]);
  const cells = planCells(config, tasks(2));
  // Per task: nominal 2 + fault 2 + env 3 presets × 1 + prompt 3 variants × 1.
  assertEquals(cells.length, 2 * (2 + 2 + 3 + 3));
  assertEquals(cells.slice(0, 10).map((c) => `${c.condition}/${c.variant}/${c.run}`), [
    "nominal/null/0",
    "nominal/null/1",
    "fault/p0.2/0",
    "fault/p0.2/1",
    "env/low/0",
    "env/medium/0",
    "env/high/0",
    "prompt/j1/0",
    "prompt/j2/0",
    "prompt/j3/0",
  ]);
  assertEquals(new Set(cells.map((c) => c.seed)).size, cells.length);
  const env = cells.find((c) => c.condition === "env")!;
  assertEquals(env.seed, deriveSeed(config.seed, "oracle", "airline/0", 0, "env", "low"));
  assertEquals(cellSeed(config.seed, env), env.seed);
});

Deno.test("planCells() keeps every cell's seed when tasks, runs, agents or conditions are added", () => {
  const small = planCells(nominal(["noisy"], 2, "7"), tasks(3));
  const big = planCells(resolveConfig({ agents: ["oracle", "noisy"], runs: 4, seed: "7" }), tasks(10));
  const seeds = new Map(big.map((c) => [`${c.agent} ${c.task} ${c.run} ${c.condition}`, c.seed]));
  for (const c of small) assertEquals(seeds.get(`${c.agent} ${c.task} ${c.run} ${c.condition}`), c.seed);
  assertNotEquals(planCells(nominal(["noisy"], 2, "8"), tasks(3))[0].seed, small[0].seed);
});

Deno.test("planCells() lays out domains in the order their tasks come", () => {
  const cells = planCells(nominal(["oracle", "noisy"], 1, "0"), [{ id: "b/0" }, { id: "a/0" }, { id: "b/1" }]);
  assertEquals(cells.map((c) => `${c.agent} ${c.task}`), [
    "oracle b/0",
    "oracle b/1",
    "noisy b/0",
    "noisy b/1",
    "oracle a/0",
    "noisy a/0",
  ]);
});

Deno.test("compareCells() orders task indexes numerically within a domain", () => {
  const key = (task: string, run = 0) => ({ agent: "a", task, run, condition: "nominal" as const, variant: null });
  const sorted = [key("airline/10"), key("retail/1"), key("airline/9", 1), key("airline/9")].sort(compareCells);
  assertEquals(sorted.map((k) => `${k.task}#${k.run}`), ["airline/9#0", "airline/9#1", "airline/10#0", "retail/1#0"]);
});

Deno.test("planCells() runs a task of 100 or more milestones longRuns times per variant, the others as set", () => {
  const milestone = { kind: "told" as const, label: "m", outputs: [] };
  const long = { id: "airline/1", milestones: new Array(100).fill(milestone) };
  const short = { id: "airline/0", milestones: new Array(99).fill(milestone) };
  const config = resolveConfig({ agents: ["oracle"], runs: 5, longRuns: 2, conditions: { prompt: false } });
  const cells = planCells(config, [short, long]);
  const count = (task: string, condition: string) =>
    cells.filter((c) => c.task === task && c.condition === condition).length;
  // nominal 5, fault 5, env 3 presets × 5 for the short task; at most 2 per variant for the long one.
  assertEquals([count("airline/0", "nominal"), count("airline/0", "env")], [5, 15]);
  assertEquals([count("airline/1", "nominal"), count("airline/1", "fault"), count("airline/1", "env")], [2, 2, 6]);
  // The capped cells are the first runs of the full plan, seeds included.
  const full = planCells(resolveConfig({ agents: ["oracle"], runs: 5, conditions: { prompt: false } }), [short, long]);
  for (const c of cells) assert(full.some((f) => f.seed === c.seed && f.run === c.run && f.task === c.task));
  assertEquals([runsOf(long, 1, 2), runsOf(long, 5, null)], [1, 5]);
  // A capped experiment is another experiment.
  assertNotEquals(
    config.experiment,
    resolveConfig({ agents: ["oracle"], runs: 5, conditions: { prompt: false } }).experiment,
  );
  assertEquals(configIdentity(config).longRuns, 2);
});

Deno.test("plannedEpisodes() counts, from the config alone, the cells planCells() lays out", () => {
  const configs = [
    resolveConfig({ domains: ["airline"], agents: ["oracle", "noisy"], tasks: 3, runs: 2 }),
    resolveConfig({ domains: ["orders", "retail"], agents: ["oracle"], tasks: 2, runs: 1, suite: "tasks" }),
    resolveConfig({ domains: ["airline"], agents: ["oracle"], suite: "abstention", scenarioPairs: 1, scenarioRuns: 2 }),
    resolveConfig({ domains: ["orders"], agents: ["oracle"], suite: "long", longTasks: 1, runs: 2 }),
  ];
  for (const config of configs) {
    const worlds = config.domains.map((d) => World.open(getDomain(d), { seed: config.worldSeed }));
    try {
      const cells = planCells(config, [...experimentTasks(config, worlds).values()]);
      assertEquals(plannedEpisodes(config), cells.length, `${config.suite} ${config.domains}`);
    } finally {
      for (const world of worlds) world.close();
    }
  }
});

Deno.test("plannedEpisodes() of a million tasks is worked out at once, without generating one", () => {
  const config = resolveConfig({ domains: ["airline"], agents: ["oracle"], tasks: 1_000_000, runs: 1, suite: "tasks" });
  // Nominal 1, fault 1, env 3 presets of 1, prompt 5 variants of 1.
  assertEquals(plannedEpisodes(config), 1_000_000 * 10);
  assert(plannedEpisodes(config) > MAX_PLANNED_EPISODES);
});
