// The long-horizon families of the orders world end to end: run by the eval's runner, recorded,
// and scored. Length robustness R_len = min(Acc_100 / Acc_5, 1) falls as noisy's per-step error
// rate grows, and the oracle keeps R(t) = 1 at every length and dependency.
import { assert, assertEquals } from "@std/assert";
import type { AgentFactory } from "../envs/mod.ts";
import { noisy } from "../agents/mod.ts";
import { MemoryResults, resolveConfig, runExperiment } from "../eval/mod.ts";
import { scoreRecords } from "../scoring/mod.ts";

// The first 36 default tasks of the orders world hold its six long tasks (both families at 5, 20, 100).
const CONFIG = { domains: ["orders"], tasks: 36, runs: 12, conditions: { fault: false, env: false, prompt: false } };

async function profile(agent: string, rate?: number) {
  const sink = new MemoryResults();
  const agents: Record<string, AgentFactory> = rate === undefined
    ? {}
    : { noisy: noisy({ rates: { ...NO_ERRORS, wrongArgument: rate } }) };
  await runExperiment(resolveConfig({ suite: "tasks", ...CONFIG, agents: [agent] }), { sink, agents });
  const long = sink.records().filter((r) => r.family !== undefined);
  assertEquals(long.length, 6 * 12);
  return scoreRecords(long, { resamples: 50 })[agent];
}
const NO_ERRORS = { wrongArgument: 0, skippedConfirmation: 0, skippedLookup: 0, wrongTool: 0, prematureEnd: 0 };

Deno.test("orders: R_len falls as noisy's per-step error rate grows; the oracle's is 1 with R(t) = 1 throughout", async () => {
  const oracleProfile = await profile("oracle");
  const oracle = oracleProfile.decay;
  for (const [key, group] of Object.entries(oracle.by_length_dependency ?? {})) {
    assert(group.curve.every((p) => p.R === 1), `oracle ${key}: ${JSON.stringify(group.curve.map((p) => p.R))}`);
  }
  assertEquals(Object.keys(oracle.by_length_dependency ?? {}).sort(), [
    "100/strong",
    "100/weak",
    "20/strong",
    "20/weak",
    "5/strong",
    "5/weak",
  ]);
  const rLen = (p: Awaited<ReturnType<typeof profile>>, family: string, dependency: string) =>
    p.decay.r_len?.[family]?.[dependency]?.value ?? null;
  assertEquals(rLen(oracleProfile, "referral_chain", "strong"), 1);
  const byRate = [];
  for (const rate of [0.002, 0.01, 0.03]) {
    const p = await profile("noisy", rate);
    byRate.push({ strong: rLen(p, "referral_chain", "strong")!, weak: rLen(p, "order_totals", "weak")! });
  }
  // Each step of a 100-milestone task can go wrong: the longer task loses more as r grows, either dependency.
  for (const kind of ["strong", "weak"] as const) {
    const values = byRate.map((b) => b[kind]);
    assert(values[0] > values[1] && values[1] > values[2], `${kind}: R_len ${values.join(", ")}`);
  }
});

Deno.test("--suite long runs long:<domain>/<n> tasks per class, nominal only, counted toward their domain", async () => {
  // A small suite: 3 tasks per class, 4 runs; the full one (20 per class) is `deno task eval --suite long`.
  const sink = new MemoryResults();
  const config = resolveConfig({ suite: "long", longTasks: 3, runs: 4, agents: ["noisy"] });
  await runExperiment(config, { sink });
  const records = sink.records();
  // Only the orders domain has long task families: 2 families × 3 lengths × 3 tasks × 4 runs.
  assertEquals(records.length, 6 * 3 * 4);
  assert(records.every((r) => /^long:orders\/\d+$/.test(r.task) && r.condition === "nominal"), "ids and conditions");
  const decay = scoreRecords(records, { by: "domain", resamples: 50 }).orders.decay;
  for (const [key, g] of Object.entries(decay.by_length_dependency ?? {})) {
    assertEquals(g.tasks, 3, key);
    const ci = g.ci.completion_share ?? null;
    assert(ci !== null && ci[0] < ci[1], key);
  }
  // Strong dependency: an early wrong id costs every later step, so the chains complete less.
  assert(
    decay.by_length_dependency!["100/strong"].completion_share! <
      decay.by_length_dependency!["100/weak"].completion_share!,
  );
  // R∞ only for a class of 20 or more milestones.
  assertEquals(decay.by_length_dependency!["5/weak"].r_inf, null);
  assert(decay.by_length_dependency!["20/weak"].r_inf !== null);
});
