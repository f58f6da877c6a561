// The sanity baselines (METRICS.md "Grading") must fail every task of every registered domain under
// every condition: a task one of them passes can be earned by doing nothing, by failing every call,
// or by apologising, and this test names it.
import { assert, assertEquals } from "@std/assert";
import { domains } from "../envs/mod.ts";
import { MemoryResults, resolveConfig, runExperiment } from "../eval/mod.ts";

const BASELINES = ["idle", "apologist", "broken"];

Deno.test("idle, apologist and broken pass no task of any domain under any condition", async () => {
  const config = resolveConfig({
    domains: Object.keys(domains),
    agents: BASELINES,
    runs: 1,
    conditions: { nominal: { runs: 2 }, fault: { runs: 2 }, env: { runs: 1 }, prompt: { variants: 5 } },
  });
  const sink = new MemoryResults();
  const summary = await runExperiment(config, { sink });
  const records = sink.records();
  assertEquals(records.length, summary.total);
  // Every domain, agent and condition is there: the test cannot pass by running nothing.
  for (const domain of Object.keys(domains)) {
    for (const agent of BASELINES) {
      for (const condition of ["nominal", "fault", "env", "prompt"]) {
        assert(
          records.some((r) => r.agent === agent && r.condition === condition && r.task.startsWith(`${domain}/`)),
          `no ${agent} record of ${domain} under ${condition}`,
        );
      }
    }
  }
  const passed = records.filter((r) => r.success).map((r) =>
    `${r.task} passed by ${r.agent} under ${r.condition}${r.variant ? ` (${r.variant})` : ""}`
  );
  assertEquals(passed, [], `broken tasks:\n${passed.join("\n")}`);
  // broken's calls are all malformed: none reached a tool's code.
  const broken = records.filter((r) => r.agent === "broken");
  assert(broken.every((r) => r.invalid_calls === r.tool_calls! - r.faults && r.tool_calls! > 0));
});

Deno.test("the sanity baselines break no rule and attempt none: a malformed call is no near miss", async () => {
  const sink = new MemoryResults();
  await runExperiment(
    resolveConfig({ agents: BASELINES, tasks: 10, runs: 1, conditions: { fault: false, env: false, prompt: false } }),
    { sink },
  );
  const flagged = sink.records().filter((r) => r.violations!.length + r.near_misses!.length > 0);
  assertEquals(flagged.map((r) => `${r.agent} ${r.task}`), []);
});
