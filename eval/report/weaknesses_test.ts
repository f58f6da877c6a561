import { assertAlmostEquals, assertEquals } from "@std/assert";
import { type EpisodeRecord, type Profile, scoreRecords } from "../../scoring/mod.ts";
import { weaknesses } from "./weaknesses.ts";
import { describeWeaknesses } from "./terminal.ts";

/** A real profile with crafted figures over it. */
function crafted(changes: Partial<Profile>): Profile {
  const r = { agent: "a", task: "t/0", run: 0, condition: "nominal" as const, success: true };
  return { ...scoreRecords([r], { resamples: 10 }).a, ...changes };
}

Deno.test("weaknesses() lists the three lowest component metrics below 1, ties in METRICS.md order", () => {
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

Deno.test("weaknesses() names the fragile step's tool from the episodes that stopped there when records disagree", () => {
  // Tasks of three milestones: ten runs stop at milestone 2, which is "pay" in seven and "book" in three.
  const records: EpisodeRecord[] = [];
  for (let i = 0; i < 30; i++) {
    const stop = i < 10;
    records.push({
      agent: "a",
      task: `t/${i}`,
      run: 0,
      condition: "nominal",
      success: !stop,
      milestones: { total: 3, reached: stop ? 1 : 3 },
      milestone_tools: ["find", i % 10 < 7 ? "pay" : "book", "end"],
    });
  }
  const p = scoreRecords(records, { resamples: 10 }).a;
  const w = weaknesses(p, { records });
  const { hazard, ...step } = w.fragile_step!;
  assertEquals(step, { t: 2, tool: "pay", tool_share: { named: 7, of: 10 }, at_risk: 30 });
  assertAlmostEquals(hazard, 1 / 3, 1e-12);
  assertEquals(
    describeWeaknesses(w)[1],
    "most fragile step: milestone 2 (pay, named by 7 of the 10 episodes that stopped there): hazard 0.333 over 30 episodes at risk",
  );
});
