import { assertAlmostEquals, assertEquals, assertThrows } from "@std/assert";
import type { EpisodeRecord } from "./record.ts";
import { capability, operational, passAtKTerm, passHatKTerm } from "./capability.ts";

const rec = (task: string, run: number, success: boolean, extra: Partial<EpisodeRecord> = {}): EpisodeRecord => ({
  agent: "a",
  task,
  run,
  condition: "nominal",
  success,
  ...extra,
});
const runs = (task: string, n: number, c: number) => Array.from({ length: n }, (_, i) => rec(task, i, i < c));

Deno.test("capability() accuracy, pass@k and pass^k match the τ-bench estimators worked by hand", () => {
  // Tasks: 4 of 4, 2 of 4, 0 of 4. Accuracy = 6/12 = 0.5.
  // pass^2 = (1 + C(2,2)/C(4,2) + 0) / 3 = (1 + 1/6) / 3 = 7/18
  // pass@2 = (1 + (1 − C(2,2)/C(4,2)) + 0) / 3 = (1 + 5/6) / 3 = 11/18
  const c = capability([...runs("t/0", 4, 4), ...runs("t/1", 4, 2), ...runs("t/2", 4, 0)]);
  assertEquals(c.accuracy, 0.5);
  assertEquals(Object.keys(c.pass_hat_k), ["1", "2", "3", "4"]);
  assertAlmostEquals(c.pass_hat_k[2], 7 / 18, 1e-12);
  assertAlmostEquals(c.pass_at_k[2], 11 / 18, 1e-12);
  assertAlmostEquals(c.pass_hat_k[1], 0.5, 1e-12);
  assertAlmostEquals(c.pass_at_k[4], 2 / 3, 1e-12);
});

Deno.test("capability() leaves tasks with fewer than k runs out of pass^k and ignores other conditions", () => {
  // k = 2 only t/0 (2 of 2) qualifies → 1; k = 1: (1 + 0) / 2
  const c = capability([...runs("t/0", 2, 2), rec("t/1", 0, false), { ...rec("t/0", 5, false), condition: "env" }]);
  assertEquals(c.pass_hat_k, { "1": 0.5, "2": 1 });
  assertEquals(capability([]), { accuracy: null, pass_at_k: {}, pass_hat_k: {} });
});

Deno.test("passHatKTerm() and passAtKTerm() reject k outside 1..n", () => {
  assertEquals(passHatKTerm({ runs: 3, successes: 3 }, 3), 1);
  assertEquals(passAtKTerm({ runs: 3, successes: 0 }, 3), 0);
  assertThrows(() => passHatKTerm({ runs: 3, successes: 1 }, 4), RangeError);
  assertThrows(() => passAtKTerm({ runs: 3, successes: 4 }, 1), RangeError);
});

Deno.test("operational() gives tool-call accuracy, critical-step success, violation counts and mean time", () => {
  // Tool calls 6 + 4 = 10, invalid 1 + 1 = 2 → 0.8. Writes 2 + 1 attempted, 1 + 1 succeeded → 2/3.
  // Successful times 10 and 20 → 15 (the failed run's 100 is left out).
  const records = [
    rec("t/0", 0, true, {
      tool_calls: 6,
      invalid_calls: 1,
      writes: { attempted: 2, succeeded: 1 },
      resources: { time: 10 },
      violations: [{ constraint: "confirm", severity: "high" }, { constraint: "confirm", severity: "low" }],
    }),
    rec("t/0", 1, true, {
      tool_calls: 4,
      invalid_calls: 1,
      writes: { attempted: 1, succeeded: 1 },
      resources: { time: 20 },
    }),
    rec("t/0", 2, false, { resources: { time: 100 }, violations: [{ constraint: "auth", severity: "high" }] }),
  ];
  const o = operational(records);
  assertEquals(o.tool_call_accuracy, 0.8);
  assertAlmostEquals(o.critical_step_success!, 2 / 3, 1e-12);
  assertEquals(o.mean_time, 15);
  assertEquals(o.violation_count, { auth: { high: 1 }, confirm: { high: 1, low: 1 } });
});

Deno.test("operational() is null where no record carries the field", () => {
  assertEquals(operational([rec("t/0", 0, false)]), {
    tool_call_accuracy: null,
    critical_step_success: null,
    violation_count: null,
    mean_time: null,
  });
  assertEquals(operational([rec("t/0", 0, true, { violations: [] })]).violation_count, {});
});
