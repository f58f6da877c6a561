import { assertAlmostEquals, assertEquals, assertThrows } from "@std/assert";
import type { EpisodeRecord } from "./record.ts";
import { consistency, cOutTerm, cResTerm, rCon, trajectoryTerms } from "./consistency.ts";

function run(task: string, run: number, success: boolean, extra: Partial<EpisodeRecord> = {}): EpisodeRecord {
  return { agent: "a", task, run, condition: "nominal", success, ...extra };
}
const runs = (task: string, outcomes: boolean[]) => outcomes.map((s, i) => run(task, i, s));

Deno.test("consistency() C_out is the mean over tasks of (2p − 1)²", () => {
  // t/0: 3 of 4 → (1.5 − 1)² = 0.25; t/1: 0 of 2 → 1; t/2: 1 of 2 → 0. Mean (0.25 + 1 + 0) / 3 = 0.41666…
  const records = [
    ...runs("t/0", [true, true, true, false]),
    ...runs("t/1", [false, false]),
    ...runs("t/2", [true, false]),
  ];
  assertAlmostEquals(consistency(records).C_out!, 1.25 / 3, 1e-12);
  assertEquals(cOutTerm(4, 3), 0.25);
  assertThrows(() => cOutTerm(0, 0), RangeError);
});

Deno.test("consistency() C_out ignores other conditions and is 1 when every task always succeeds or always fails", () => {
  const records = [
    ...runs("t/0", [true, true, true]),
    ...runs("t/1", [false, false, false]),
    { ...run("t/0", 9, false), condition: "fault" as const },
  ];
  assertEquals(consistency(records).C_out, 1);
});

Deno.test("consistency() C_traj_d and C_traj_s compare successful runs with actions, pairwise", () => {
  // Kept: ["a","b"] and ["a","a"] (the failed run and the empty success are dropped).
  // JSD((½,½), (1,0)) = 0.3112781 bits → C_traj_d = 0.6887219.
  // Levenshtein(ab, aa) = 1, over the longer length 2 → 0.5 → C_traj_s = 0.5.
  // t/1 has a single successful run: skipped.
  const records = [
    run("t/0", 0, true, { actions: ["a", "b"] }),
    run("t/0", 1, true, { actions: ["a", "a"] }),
    run("t/0", 2, false, { actions: ["z"] }),
    run("t/0", 3, true, { actions: [] }),
    run("t/1", 0, true, { actions: ["a"] }),
    run("t/1", 1, false, { actions: ["b"] }),
  ];
  const c = consistency(records);
  assertAlmostEquals(c.C_traj_d!, 1 - 0.31127812445913283, 1e-12);
  assertEquals(c.C_traj_s, 0.5);
});

Deno.test("trajectoryTerms() averages over all pairs of three runs", () => {
  // abc/ac: 1 edit / 3; abc/abc: 0; ac/abc: 1/3 → mean 2/9 → s = 7/9.
  // JSD(abc, ac): P = (⅓,⅓,⅓), Q = (½,0,½), M = (5/12, 1/6, 5/12):
  // KL(P‖M) = ⅔·log2(0.8) + ⅓·log2(2) = 0.118709…, KL(Q‖M) = log2(1.2) = 0.263034…; JSD = 0.190872
  // two such pairs and one 0 → d = 1 − 2 · 0.190872 / 3
  const t = trajectoryTerms([["a", "b", "c"], ["a", "c"], ["a", "b", "c"]])!;
  assertAlmostEquals(t.s, 7 / 9, 1e-12);
  const jsd = ((2 / 3) * Math.log2(0.8) + (1 / 3) + Math.log2(1.2)) / 2;
  assertAlmostEquals(t.d, 1 - (2 * jsd) / 3, 1e-12);
});

Deno.test("trajectoryTerms() needs two non-empty sequences", () => {
  assertEquals(trajectoryTerms([["a"]]), null);
  assertEquals(trajectoryTerms([["a"], []]), null);
  assertEquals(trajectoryTerms([]), null);
  assertEquals(trajectoryTerms([["a", "b"], ["b", "a"]]), { d: 1, s: 0 });
});

Deno.test("consistency() C_res drops values ≤ 0, keeps zero errors only when their mean is > 0", () => {
  // t/0: time [2, 4, (0 dropped)] → mean 3, std √2, CV 0.4714045; api_calls [3, 3, 3] → CV 0;
  //      num_errors [0, 0, 0] → mean 0, not used. C_res,t = exp(−(0.4714045 + 0) / 2) = 0.7899…
  // t/1: num_errors [0, 1, 2] → mean 1, std 1, CV 1 → exp(−1)
  // t/2: time [5] only → no resource, task left out. C_res = mean of the two.
  const records = [
    run("t/0", 0, true, { resources: { time: 2, api_calls: 3, num_errors: 0 } }),
    run("t/0", 1, true, { resources: { time: 4, api_calls: 3, num_errors: 0 } }),
    run("t/0", 2, false, { resources: { time: 0, api_calls: 3, num_errors: 0 } }),
    run("t/1", 0, true, { resources: { num_errors: 0, tokens: 10 } }),
    run("t/1", 1, true, { resources: { num_errors: 1, tokens: 500 } }),
    run("t/1", 2, true, { resources: { num_errors: 2 } }),
    run("t/2", 0, true, { resources: { time: 5 } }),
    run("t/2", 1, true),
  ];
  const t0 = Math.exp(-(Math.SQRT2 / 3) / 2);
  assertAlmostEquals(cResTerm(records.slice(0, 3).map((r) => r.resources))!, t0, 1e-12);
  assertAlmostEquals(consistency(records).C_res!, (t0 + Math.exp(-1)) / 2, 1e-12);
  assertEquals(cResTerm([{ time: 5 }, undefined]), null);
  // A cost without a price (null) is unknown: dropped like an absent one, never read as $0.
  assertEquals(cResTerm([{ cost: null, time: 5 }, { cost: 0.2, time: 5 }]), 1);
});

Deno.test("rCon() weighs its three terms equally and renormalises over those that exist", () => {
  // ⅓·0.4 + ⅓·(0.8 + 0.6)/2 + ⅓·0.9 = (0.4 + 0.7 + 0.9) / 3 = 2/3
  assertAlmostEquals(rCon({ C_out: 0.4, C_traj_d: 0.8, C_traj_s: 0.6, C_res: 0.9 })!, 2 / 3, 1e-12);
  assertAlmostEquals(rCon({ C_out: 0.4, C_traj_d: 0.8, C_traj_s: 0.6, C_res: null })!, 0.55, 1e-12);
  assertEquals(rCon({ C_out: null, C_traj_d: null, C_traj_s: null, C_res: null }), null);
});

Deno.test("consistency() with one run per task measures nothing: every score null with reasons", () => {
  // (2p − 1)² of one run is 1 whether it succeeded or failed: no consistency is measured.
  const c = consistency([run("t/0", 0, true, { actions: ["a"], resources: { time: 3 } }), run("t/1", 0, false)]);
  assertEquals([c.C_out, c.C_traj_d, c.C_traj_s, c.C_res, c.R_con], [null, null, null, null, null]);
  assertEquals(c.reasons.C_out, "one run per task: consistency needs at least two");
});

Deno.test("consistency() of no nominal records is all null", () => {
  const c = consistency([{ ...run("t/0", 0, true), condition: "env" }]);
  assertEquals([c.C_out, c.R_con], [null, null]);
  assertEquals(c.reasons.C_out, "no nominal records");
});

Deno.test("consistency() treats each agent's runs of a task as its own task", () => {
  // a: 2 of 2 → 1; b: 0 of 2 → 1. Pooled they would give p = ½ → 0.
  const records = [...runs("t/0", [true, true]), ...runs("t/0", [false, false]).map((r) => ({ ...r, agent: "b" }))];
  assertEquals(consistency(records).C_out, 1);
});
