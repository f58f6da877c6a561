import { assertEquals } from "@std/assert";
import { formatDollars, formatUsage, summarizeUsage, totalCost } from "./usage.ts";

const record = (agent: string, extra: Record<string, unknown> = {}) => ({
  agent,
  resources: { time: 3, api_calls: 4, num_actions: 2, num_errors: 0 },
  ...extra,
});
const model = (calls: number, cost: number) => ({ api_calls: calls, tokens: calls * 100, cost, call_latency: 300 });

Deno.test("summarizeUsage() sums a model agent's calls, tokens and cost and counts errors, scripted agents apart", () => {
  const records = [
    record("oracle"),
    record("openai:m", { resources: { time: 5, ...model(3, 0.25) }, agent_error: "timeout: no answer" }),
    record("openai:m", {
      resources: { time: 5, ...model(2, 0.5) },
      user_resources: model(1, 0.125),
      user_error: "user gave an empty reply",
    }),
  ];
  const [oracle, m] = summarizeUsage(records, { agents: ["oracle", "openai:m"], user: "llm:openai:u" });
  assertEquals(oracle, { agent: "oracle", agentUsage: null, userUsage: null, agentErrors: 0, userErrors: 0 });
  assertEquals(m, {
    agent: "openai:m",
    agentUsage: { calls: 5, tokens: 500, cost: 0.75, costKnown: true },
    userUsage: { calls: 1, tokens: 100, cost: 0.125, costKnown: true },
    agentErrors: 1,
    userErrors: 1,
  });
  assertEquals(totalCost([oracle, m]), 0.875);
  const unknown = summarizeUsage(records, { unpriced: ["openai:m", "openai:u"], user: "llm:openai:u" });
  assertEquals([unknown[1].agentUsage?.costKnown, unknown[1].userUsage?.costKnown], [false, false]);
  // A record's cost: null says so too, whatever the price table given now.
  const unpriced = summarizeUsage([record("openai:x", { resources: { ...model(2, 0), cost: null } })]);
  assertEquals(unpriced[0].agentUsage, { calls: 2, tokens: 200, cost: 0, costKnown: false });
  assertEquals(
    formatUsage(unpriced).split("\n").at(-2),
    'Model cost of the experiment: $0 for the models with a price; unknown for "openai:x": not in the price table (give a price with --prices FILE.json)',
  );
});

Deno.test("formatUsage() prints nothing for scripted runs and says which costs are unknown", () => {
  assertEquals(formatUsage(summarizeUsage([record("oracle"), record("noisy")])), "");
  const usage = { calls: 12, tokens: 3400, cost: 0.0021, costKnown: true };
  const m = { agent: "openai:m", agentUsage: usage, userUsage: null, agentErrors: 1, userErrors: 0 };
  assertEquals(
    formatUsage([m, { agent: "oracle", agentUsage: null, userUsage: null, agentErrors: 0, userErrors: 0 }]),
    "agent     model calls  tokens      cost  agent errors  user errors\n" +
      "openai:m           12    3400  $0.00210             1            0\n" +
      "Model cost of the experiment: $0.00210\n",
  );
  const free = { ...m, agent: "openai:llama", agentUsage: { ...usage, cost: 0, costKnown: false } };
  const withUser = { ...m, userUsage: { calls: 3, tokens: 900, cost: 0.001, costKnown: true } };
  assertEquals(
    formatUsage([withUser, free], { unpriced: ["openai:llama"] }).split("\n").slice(2),
    [
      "openai:llama           12    3400   unknown             1            0",
      "User simulator: 3 model calls, 900 tokens, $0.00100 (in the experiment's cost, not the agents')",
      'Model cost of the experiment: $0.00310 for the models with a price; unknown for "openai:llama": ' +
      "not in the price table (give a price with --prices FILE.json)",
      "",
    ],
  );
});

Deno.test("formatDollars() keeps three significant digits below a dollar and cents above", () => {
  assertEquals(
    [0, 0.000123, 0.0021, 0.5, 1, 12.345].map(formatDollars),
    ["$0", "$0.000123", "$0.00210", "$0.500", "$1.00", "$12.35"],
  );
});

Deno.test("summarizeUsage() counts the LLM judge's calls apart, and formatUsage() adds them to the cost", () => {
  const judged = {
    agent: "oracle",
    resources: { api_calls: 4 },
    judge_resources: { api_calls: 1, tokens: 940, cost: 0.0004 },
  };
  const [u] = summarizeUsage([judged, judged], { judge: "llm:openai:m" });
  assertEquals([u.agentUsage, u.judgeUsage], [null, { calls: 2, tokens: 1880, cost: 0.0008, costKnown: true }]);
  assertEquals(formatUsage([u]).split("\n").slice(2), [
    "LLM judge: 2 model calls, 1880 tokens, $0.000800 (in the experiment's cost, not the agents')",
    "Model cost of the experiment: $0.000800",
    "",
  ]);
  const unknown = summarizeUsage([judged], { judge: "llm:openai:m", unpriced: ["openai:m"] })[0].judgeUsage;
  assertEquals(unknown?.costKnown, false);
});
