import { assertAlmostEquals, assertEquals } from "@std/assert";
import { type EpisodeRecord, type Profile, scoreRecords } from "../scoring/mod.ts";
import { weaknesses } from "./weaknesses.ts";
import { describeWeaknesses } from "./terminal.ts";

/** A real profile with crafted figures over it. */
function crafted(changes: Partial<Profile>): Profile {
  const r = { agent: "a", task: "t/0", run: 0, condition: "nominal" as const, success: true };
  return { ...scoreRecords([r, { ...r, run: 1 }], { resamples: 10 }).a, ...changes };
}

Deno.test("weaknesses() lists the three lowest component metrics below 1, ties in docs/metrics.md order", () => {
  const p = crafted({ C_out: 0.9, C_res: 0.4, R_fault: 0.4, P_cal: 0.7, P_auroc: 0.95, S_comp: 1, R: 0.1, R_con: 0.2 });
  const w = weaknesses(p);
  assertEquals(w.lowest.map((m) => [m.key, m.value]), [["C_res", 0.4], ["R_fault", 0.4], ["P_cal", 0.7]]);
  assertEquals(weaknesses(crafted({})).lowest, []);
  assertEquals(weaknesses(crafted({})).reasons.lowest, "every component metric that could be computed is 1");
  const nothing = Object.fromEntries(["C_out", "C_traj_d", "C_traj_s", "C_res"].map((k) => [k, null]));
  assertEquals(weaknesses(crafted(nothing)).reasons.lowest, "no component metric could be computed");
});

Deno.test("weaknesses() picks the most frequent violation, ties to the heavier severity", () => {
  const operational = {
    tool_call_accuracy: null,
    critical_step_success: null,
    mean_time: null,
    violation_count: { alpha: { low: 5, medium: 2 }, beta: { critical: 5 }, gamma: { high: 4 } },
  };
  assertEquals(weaknesses(crafted({ operational })).violation, { constraint: "beta", severity: "critical", count: 5 });
  const none = weaknesses(crafted({ operational: { ...operational, violation_count: {} } }));
  assertEquals([none.violation, none.reasons.violation], [null, "no violation found in the analysed episodes"]);
});

Deno.test("weaknesses() names the fragile step's label from the episodes that stopped there when records disagree", () => {
  // Tasks of three milestones: ten runs stop at milestone 2, labelled "pay" in seven and "book" in three
  // (older records name it in milestone_tools: they vote all the same).
  const records: EpisodeRecord[] = [];
  for (let i = 0; i < 30; i++) {
    const stop = i < 10;
    const names = ["find", i % 10 < 7 ? "pay" : "book", "end"];
    records.push({
      agent: "a",
      task: `t/${i}`,
      run: 0,
      condition: "nominal",
      success: !stop,
      milestones: { total: 3, reached: stop ? 1 : 3 },
      ...(i % 2 === 0 ? { milestone_labels: names } : { milestone_tools: names }),
    });
  }
  const p = scoreRecords(records, { resamples: 10 }).a;
  const w = weaknesses(p, { records });
  const { hazard, ci, ...step } = w.fragile_step!;
  assertEquals(step, { t: 2, label: "pay", label_share: { named: 7, of: 10 }, at_risk: 30, condition: "nominal" });
  assertAlmostEquals(hazard, 1 / 3, 1e-12);
  // Wilson of 10 of 30: p̂ = 1/3, z²/n = 0.12805, centre (0.33333 + 0.06403) / 1.12805 = 0.35226,
  // half-width 1.96 · √(0.0074074 + 0.0010671) / 1.12805 = 0.15994: [0.1923, 0.5122].
  assertAlmostEquals(ci![0], 0.1923, 1e-4);
  assertAlmostEquals(ci![1], 0.5122, 1e-4);
  assertEquals(
    describeWeaknesses(w)[1],
    "most fragile step (nominal): milestone 2 (pay, named by 7 of the 10 episodes that stopped there): " +
      "hazard 0.333 [0.192, 0.512] over 30 episodes at risk",
  );
});

Deno.test("weaknesses() takes the nominal fragile step even where the fault records fail more often elsewhere", () => {
  // Nominal: 20 episodes, 6 stop at milestone 2 ("cancel reservation"). Fault: 40 episodes, 20 stop at
  // milestone 1. Pooled, milestone 1 would have the higher hazard (20/60 against 6/40).
  const labels = ["find the booking", "cancel reservation", "tell the refund"];
  const records: EpisodeRecord[] = [
    ...Array.from({ length: 20 }, (_, i) => ({ reached: i < 6 ? 1 : 3, condition: "nominal" as const })),
    ...Array.from({ length: 40 }, (_, i) => ({ reached: i < 20 ? 0 : 3, condition: "fault" as const })),
  ].map(({ reached, condition }, i) => ({
    agent: "a",
    task: `t/${i % 6}`,
    run: i,
    condition,
    success: reached === 3,
    milestones: { total: 3, reached },
    milestone_labels: labels,
  }));
  const w = weaknesses(scoreRecords(records, { resamples: 10 }).a, { records });
  assertEquals([w.fragile_step?.t, w.fragile_step?.label, w.fragile_step?.at_risk], [2, "cancel reservation", 20]);
  assertEquals(
    describeWeaknesses(w)[1],
    // 6 of 20: Wilson [0.1455, 0.5190] (see scoring/decay_test.ts).
    "most fragile step (nominal): milestone 2 (cancel reservation): hazard 0.300 [0.145, 0.519] over 20 episodes at risk",
  );
  const none = weaknesses(crafted({}));
  assertEquals(describeWeaknesses(none)[1], `most fragile step: none: ${none.reasons.fragile_step}`);
});
