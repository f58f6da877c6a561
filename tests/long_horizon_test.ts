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
