import { assertAlmostEquals, assertEquals } from "@std/assert";
import type { EpisodeRecord } from "./record.ts";
import { robustness, robustnessRatio, rRob } from "./robustness.ts";

type Condition = EpisodeRecord["condition"];
const tally = (condition: Condition, n: number, successes: number): EpisodeRecord[] =>
  Array.from({ length: n }, (_, i) => ({ agent: "a", task: `t/${i % 3}`, run: i, condition, success: i < successes }));

Deno.test("robustness() R_fault, R_env, R_prompt are pooled accuracy ratios capped at 1; R_rob their mean", () => {
  // Acc_nominal = 8/10 = 0.8; fault 4/10 → 0.4/0.8 = 0.5; env 10/10 → min(1.25, 1) = 1; prompt: no records.
  // R_rob = (0.5 + 1) / 2 = 0.75
  const r = robustness([...tally("nominal", 10, 8), ...tally("fault", 10, 4), ...tally("env", 10, 10)]);
  assertAlmostEquals(r.R_fault!, 0.5, 1e-12);
  assertEquals([r.R_env, r.R_prompt], [1, null]);
  assertAlmostEquals(r.R_rob!, 0.75, 1e-12);
  assertEquals(r.reasons, { R_prompt: "no prompt records" });
});

Deno.test("robustness() is null when nominal accuracy is 0 or there are no nominal records", () => {
  const zero = robustness([...tally("nominal", 4, 0), ...tally("fault", 4, 2)]);
  assertEquals([zero.R_fault, zero.R_rob], [null, null]);
  assertEquals(zero.reasons.R_fault, "nominal accuracy is 0");
  assertEquals(zero.reasons.R_rob, "no robustness term: R_fault, R_env and R_prompt are all null");
  assertEquals(robustness(tally("fault", 4, 2)).reasons.R_fault, "no nominal records");
});

Deno.test("robustnessRatio() keeps a tiny but positive nominal accuracy", () => {
  // 1 of 10^7 runs: 1e-7 ≥ ε = 1e-8
  assertEquals(robustnessRatio({ name: "env", n: 10, successes: 0 }, { n: 1e7, successes: 1 }), 0);
  assertEquals(
    robustnessRatio({ name: "env", n: 10, successes: 0 }, { n: 1e9, successes: 1 }),
    "nominal accuracy is 0",
  );
  assertEquals(rRob([null, null, null]), null);
});
