import { assert, assertAlmostEquals, assertEquals, assertLess, assertNotEquals, assertThrows } from "@std/assert";
import { decayProfile, type HazardPoint, wilsonInterval } from "./decay.ts";
import type { EpisodeRecord } from "./record.ts";
import { prng } from "./_stats.ts";

function rec(task: string, run: number, reached: number, total: number, extra: Partial<EpisodeRecord> = {}) {
  return {
    agent: "a",
    task,
    run,
    condition: "nominal",
    success: reached === total,
    milestones: { total, reached },
    ...extra,
  } satisfies EpisodeRecord as EpisodeRecord;
}

// Tasks a, b, c of 3 milestones, 4 runs each; reached: a 3 3 2 1, b 3 3 2 0, c 3 3 1 0.
const TOOLS = ["search", "book", "pay"];
const LABELS = ["find the booking", "cancel reservation", "tell the refund"];
const SMALL = Object.entries({ a: [3, 3, 2, 1], b: [3, 3, 2, 0], c: [3, 3, 1, 0] })
  .flatMap(([task, reached]) => reached.map((k, run) => rec(task, run, k, 3, { milestone_tools: TOOLS })));

/** The hazard points without their intervals (checked on their own below). */
const bare = (hazard: readonly HazardPoint[]) => hazard.map(({ ci: _, ...rest }) => rest);

function shuffled<T>(items: readonly T[], seed: string): T[] {
  const random = prng(seed), out = items.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

Deno.test("decayProfile() gives the curve, hazard and fragile step worked by hand", () => {
  const p = decayProfile(SMALL, { resamples: 0 });
  // n = 12; episodes with reached ≥ t: S = [12, 10, 8, 6], so R = S / 12.
  assertEquals(p.n, 12);
  assertEquals(p.tasks, 3);
  assertEquals(p.curve.map((c) => c.R), [1, 10 / 12, 8 / 12, 6 / 12]);
  assertEquals(p.curve[1], { t: 1, R: 10 / 12, lo: null, hi: null });
  assertEquals(p.reasons.band, "resamples is 0");
  // h(1) = 1 − 10/12 = 0.1667 (12 at risk), h(2) = 1 − 8/10 = 0.2 (10), h(3) = 1 − 6/8 = 0.25 (8).
  assertEquals(bare(p.hazard), [
    { t: 1, h: 1 - 10 / 12, at_risk: 12 },
    { t: 2, h: 1 - 8 / 10, at_risk: 10 },
    { t: 3, h: 1 - 6 / 8, at_risk: 8 },
  ]);
  // Milestone 3 has the highest hazard but only 8 episodes attempted it (< 10): the fragile step is 2,
  // 2 failures of 10 at risk: Wilson p̂ = 0.2, z²/n = 0.38415, centre (0.2 + 0.19207) / 1.38415 = 0.28326,
  // half-width 1.96 · √(0.016 + 0.0096037) / 1.38415 = 0.22661: [0.0567, 0.5098].
  const { ci, ...step } = p.fragile_step!;
  assertEquals(step, { t: 2, label: "book", hazard: 1 - 8 / 10, at_risk: 10, condition: "nominal" });
  assertAlmostEquals(ci![0], 0.0567, 1e-4);
  assertAlmostEquals(ci![1], 0.5098, 1e-4);
  assertEquals(ci, p.hazard[1].ci);
});

Deno.test("decayProfile() fits λ and takes the mean path length of failures by hand", () => {
  const p = decayProfile(SMALL, { resamples: 0 });
  // λ = −(1·ln(10/12) + 2·ln(8/12) + 3·ln(6/12)) / (1 + 4 + 9) = (0.18232 + 0.81093 + 2.07944) / 14 = 0.21948.
  assertAlmostEquals(p.lambda!, 0.219478, 1e-6);
  assertAlmostEquals(p.lambda!, -(Math.log(10 / 12) + 2 * Math.log(8 / 12) + 3 * Math.log(6 / 12)) / 14, 1e-15);
  // e^{−0.21948} = 0.80294.
  assertAlmostEquals(p.per_step_reliability!, 0.802938, 1e-6);
  // Failed episodes reached 2, 1, 2, 0, 1, 0: 6 / 6 = 1.
  assertEquals(p.mean_path_length, 1);
});

Deno.test("decayProfile() fits the steady state of a curve that follows the model", () => {
  // 32 episodes of 4 milestones; reached 0 ×8, 1 ×4, 2 ×2, 3 ×1, 4 ×17, so S = [32, 24, 20, 18, 17] and
  // R = [1, 0.75, 0.625, 0.5625, 0.53125] = 0.5 + 0.5 · 0.5^t: R∞ = 0.5, λ = ln 2, no residual.
  const reached = [...Array(8).fill(0), ...Array(4).fill(1), 2, 2, 3, ...Array(17).fill(4)];
  const p = decayProfile(reached.map((k, i) => rec(`t/${i % 4}`, i, k, 4)), { resamples: 0 });
  assertEquals(p.curve.map((c) => c.R), [1, 0.75, 0.625, 0.5625, 0.53125]);
  assertAlmostEquals(p.r_inf!.value, 0.5, 1e-7);
  assertAlmostEquals(p.r_inf!.lambda!, Math.LN2, 1e-7);
  assertAlmostEquals(p.r_inf!.rmse, 0, 1e-7);
});

Deno.test("decayProfile() gives λ = 0 and R∞ = 1 when every episode reaches every milestone", () => {
  const p = decayProfile([0, 1, 2].flatMap((run) => [rec("x", run, 5, 5), rec("y", run, 5, 5)]), { resamples: 50 });
  assertEquals(p.curve.map((c) => [c.R, c.lo, c.hi]), Array(6).fill([1, 1, 1]));
  assertEquals(p.hazard.map((h) => h.h), [0, 0, 0, 0, 0]);
  // No failure among 6 at risk: Wilson [0, z²/(n + z²)] = [0, 3.8415 / 9.8415] = [0, 0.3903].
  assertEquals(p.hazard[0].ci![0], 0);
  assertAlmostEquals(p.hazard[0].ci![1], 0.3903, 1e-4);
  assertEquals([p.lambda, p.per_step_reliability], [0, 1]);
  assertEquals(p.r_inf, { value: 1, lambda: 0, rmse: 0 });
  assertEquals(p.fragile_step, null);
  assertEquals(p.reasons.fragile_step, "no milestone was attempted by at least 10 nominal episodes");
  assertEquals(p.mean_path_length, null);
  assertEquals(p.reasons.mean_path_length, "no episode failed");
  assertEquals(p.ci.per_step_reliability, [1, 1]);
});

Deno.test("decayProfile() gives a per-step reliability of 0 when every episode fails at milestone 1", () => {
  const p = decayProfile(Array.from({ length: 12 }, (_, i) => rec(`t/${i % 3}`, i, 0, 5)), { resamples: 0 });
  assertEquals(p.curve.map((c) => c.R), [1, 0, 0, 0, 0, 0]);
  // λ is infinite: null with its reason, and e^{−∞} = 0.
  assertEquals([p.lambda, p.per_step_reliability], [null, 0]);
  assertEquals(p.reasons.lambda, "infinite: no episode reached milestone 1");
  // R(t) = 0 for t ≥ 1 is R∞ = 0 reached at once: λ of the fit infinite too.
  assertEquals(p.r_inf, { value: 0, lambda: null, rmse: 0 });
  assertEquals(p.reasons["r_inf.lambda"], "infinite: the fit drops to R∞ after one step");
  // h(1) = 1 − 0/12 = 1 with 12 at risk; later hazards have nobody at risk.
  // Wilson of 12 failures of 12: [n/(n + z²), 1] = [12 / 15.8415, 1] = [0.7575, 1].
  assertEquals(bare(p.hazard.slice(0, 2)), [{ t: 1, h: 1, at_risk: 12 }, { t: 2, h: null, at_risk: 0 }]);
  assertAlmostEquals(p.hazard[0].ci![0], 0.7575, 1e-4);
  assertEquals([p.hazard[0].ci![1], p.hazard[1].ci], [1, null]);
  assertEquals(p.fragile_step, { t: 1, label: null, hazard: 1, ci: p.hazard[0].ci, at_risk: 12, condition: "nominal" });
  assertEquals(p.reasons["fragile_step.label"], "the records do not name one label for this milestone");
  assertEquals(p.mean_path_length, 0);
});

Deno.test("decayProfile() names no fragile label when the records disagree", () => {
  const records = SMALL.map((r, i) => i === 0 ? { ...r, milestone_tools: ["search", "rebook", "pay"] } : r);
  assertEquals(decayProfile(records, { resamples: 0 }).fragile_step?.label, null);
  // A record without milestone_tools does not vote.
  const some = SMALL.map((r, i) => i === 0 ? { ...r, milestone_tools: undefined } : r);
  assertEquals(decayProfile(some, { resamples: 0 }).fragile_step?.label, "book");
});

Deno.test("decayProfile() names the fragile step by milestone_labels, falling back to milestone_tools", () => {
  const labelled = SMALL.map((r) => ({ ...r, milestone_labels: LABELS }));
  assertEquals(decayProfile(labelled, { resamples: 0 }).fragile_step?.label, "cancel reservation");
  // Older records name tools only: they vote with their tool, which here disagrees with the labels.
  const mixed = SMALL.map((r, i) => i < 6 ? { ...r, milestone_labels: LABELS } : r);
  assertEquals(decayProfile(mixed, { resamples: 0 }).fragile_step?.label, null);
});

Deno.test("decayProfile() is null with reasons without milestone data", () => {
  const p = decayProfile([{ agent: "a", task: "t", run: 0, condition: "nominal", success: true }]);
  assertEquals([p.n, p.curve, p.hazard, p.lambda, p.r_inf, p.alpha], [0, [], [], null, null, null]);
  assertEquals(p.reasons.lambda, "no record has milestones");
  assertEquals(p.reasons.recovery_cost, "no record has milestones");
  assertEquals([p.by_length, p.by_condition], [{}, {}]);
  assertEquals(JSON.parse(JSON.stringify(p)), p);
});

Deno.test("decayProfile() fits V_{t+1} = (1 + α)·V_t + β on var(m_t), pooling tasks, by hand", () => {
  const m = (task: string, run: number, missed: number[]) => rec(task, run, missed.length, missed.length, { missed });
  const p = decayProfile([
    // Task A: V_t = sample variance of m_t over 2 runs = [0.5, 2, 2]: pairs (0.5, 2), (2, 2).
    m("A", 0, [0, 0, 1]),
    m("A", 1, [1, 2, 3]),
    // Task B: V_1 = var(0, 0, 1) = 1/3, V_2 = var(0, 1, 2) = 1: pair (1/3, 1).
    m("B", 0, [0, 0]),
    m("B", 1, [0, 1]),
    m("B", 2, [1, 2]),
    // Task C: equal runs, V_t = 0 everywhere: pair (0, 0).
    m("C", 0, [1, 2]),
    m("C", 1, [1, 2]),
  ], { resamples: 0 });
  // Least squares over the four pairs: slope 86/113, so α = −27/113 and β = (Σy − slope·Σx)/4 = 241/339.
  assertAlmostEquals(p.alpha!, -27 / 113, 1e-12);
  assertAlmostEquals(p.beta!, 241 / 339, 1e-12);
  const flat = decayProfile([m("C", 0, [1, 2]), m("C", 1, [1, 2])], { resamples: 0 });
  assertEquals([flat.alpha, flat.beta], [null, null]);
  assertEquals(
    flat.reasons.alpha,
    "V_t = var(m_t) does not vary over the milestones (the runs never drift apart), or under two runs per task",
  );
  assertEquals(
    decayProfile(SMALL, { resamples: 0 }).reasons.alpha,
    "no record has missed (m_t of a long-horizon task)",
  );
});

Deno.test("decayProfile() gives α ≈ 0 and β ≈ p(1 − p) for independent errors, where d_t would give −1/(t + 1)", () => {
  // 400 runs of one 30-milestone task, each milestone missed independently with p = 0.2 (a seeded
  // draw): V_t = var(Binomial(t, p)) = t·p(1 − p) grows by p(1 − p) = 0.16 per milestone.
  let state = 7;
  const draw = () => (state = (state * 48271) % 2147483647) / 2147483647;
  const runs = Array.from({ length: 400 }, (_, run) => {
    const missed: number[] = [];
    for (let t = 0, k = 0; t < 30; t++) missed.push(k += draw() < 0.2 ? 1 : 0);
    return rec("T", run, 30, 30, { missed });
  });
  const p = decayProfile(runs, { resamples: 0 });
  assertLess(Math.abs(p.alpha!), 0.05);
  assertLess(Math.abs(p.beta! - 0.16), 0.04);
});

Deno.test("decayProfile() gives the error recovery rate and cost by hand", () => {
  const p = decayProfile([
    rec("t", 0, 2, 2, { faults: 2, recovery_steps: [1, 3] }),
    rec("t", 1, 2, 2, { faults: 1, recovery_steps: [2] }),
    rec("t", 2, 1, 2, { faults: 1, recovery_steps: [] }),
    rec("t", 3, 2, 2, { faults: 3, recovery_steps: [0] }),
    rec("t", 4, 0, 2, { faults: 0 }),
  ], { resamples: 0 });
  // Faulted episodes: 4, of which 3 succeeded: 0.75. Recovery steps 1, 3, 2, 0: 6 / 4 = 1.5.
  assertEquals([p.error_recovery_rate, p.recovery_cost], [0.75, 1.5]);
  const none = decayProfile(SMALL, { resamples: 0 });
  assertEquals([none.error_recovery_rate, none.recovery_cost], [null, null]);
  assertEquals(none.reasons.error_recovery_rate, "no episode had faults");
});

Deno.test("decayProfile() reports each length class and condition, and does not take a class's end for failures", () => {
  const records = [
    // 10 episodes of 1 milestone, all complete; 10 of 2, half complete, half stop after 1.
    ...Array.from({ length: 10 }, (_, i) => rec(`short/${i % 2}`, i, 1, 1)),
    ...Array.from({ length: 10 }, (_, i) => rec(`long/${i % 2}`, i, i < 5 ? 2 : 1, 2, { condition: "fault" })),
  ];
  const p = decayProfile(records, { resamples: 0 });
  // Overall S = [20, 20, 5]. At t = 2 the 10 short episodes had no milestone 2 to miss:
  // at risk 20 − 10 = 10, h(2) = 1 − 5/10 = 0.5 (not 1 − 5/20), and R(2) = 1 · (1 − 0.5) = 0.5
  // (the plain fraction 5/20 = 0.25 would count the short class's end as failures).
  assertEquals(p.curve.map((c) => c.R), [1, 1, 0.5]);
  assertEquals(bare(p.hazard), [{ t: 1, h: 0, at_risk: 20 }, { t: 2, h: 0.5, at_risk: 10 }]);
  // The fragile step is per condition: the nominal (short) episodes never miss, so overall has none;
  // under fault, 5 of 10 stop at milestone 2.
  assertEquals(p.fragile_step, null);
  assertEquals(p.reasons.fragile_step, "no milestone attempted by at least 10 nominal episodes was ever missed");
  assertEquals(p.by_condition.fault.fragile_step?.t, 2);
  assertEquals(p.by_condition.fault.fragile_step?.condition, "fault");
  // Length 2 has fault records only: its fragile step is that condition's.
  assertEquals(p.by_length["2"].fragile_step, p.by_condition.fault.fragile_step);
  assertEquals(Object.keys(p.by_length), ["1", "2"]);
  assertEquals(p.by_length["1"].curve.map((c) => c.R), [1, 1]);
  assertEquals(p.by_length["2"].curve.map((c) => c.R), [1, 1, 0.5]);
  assertEquals(bare(p.by_length["2"].hazard)[1], { t: 2, h: 0.5, at_risk: 10 });
  assertEquals(Object.keys(p.by_condition), ["nominal", "fault"]);
  assertEquals(p.by_condition.fault.n, 10);
  assertEquals(p.by_condition.nominal.tasks, 2);
});

Deno.test("decayProfile() never pools conditions for the fragile step: overall and each length take nominal's", () => {
  // 3 milestones. Nominal: 20 episodes, 6 stop at milestone 2 (h(2) = 6/20 = 0.3), the rest complete.
  // Fault: 40 episodes, 20 stop at milestone 1 (h(1) = 0.5), the rest complete. Pooled, milestone 1
  // would win: h(1) = 20/60 = 0.333 > h(2) = 6/40 = 0.15.
  const records = [
    ...Array.from({ length: 20 }, (_, i) => rec(`t/${i % 5}`, i, i < 6 ? 1 : 3, 3, { milestone_labels: LABELS })),
    ...Array.from(
      { length: 40 },
      (_, i) => rec(`t/${i % 5}`, 100 + i, i < 20 ? 0 : 3, 3, { condition: "fault", milestone_labels: LABELS }),
    ),
  ];
  const p = decayProfile(records, { resamples: 20 });
  assertAlmostEquals(p.hazard[0].h!, 1 / 3, 1e-12);
  assertAlmostEquals(p.hazard[1].h!, 0.15, 1e-12);
  // Wilson of 6 of 20: p̂ = 0.3, z²/n = 0.19207, centre (0.3 + 0.09604) / 1.19207 = 0.33223,
  // half-width 1.96 · √(0.0105 + 0.0024009) / 1.19207 = 0.18675: [0.1455, 0.5190].
  const { ci, hazard, ...step } = p.fragile_step!;
  assertEquals(step, { t: 2, label: "cancel reservation", at_risk: 20, condition: "nominal" });
  assertAlmostEquals(hazard, 0.3, 1e-12);
  assertAlmostEquals(ci![0], 0.1455, 1e-4);
  assertAlmostEquals(ci![1], 0.5190, 1e-4);
  assertEquals(p.by_length["3"].fragile_step, p.fragile_step);
  assertEquals(p.by_condition.nominal.fragile_step, p.fragile_step);
  const fault = p.by_condition.fault.fragile_step!;
  assertEquals([fault.t, fault.hazard, fault.at_risk, fault.condition], [1, 0.5, 40, "fault"]);

  // Without nominal records and with two conditions, a pooled group has none, and says where to look.
  const perturbed = records.filter((r) => r.condition === "fault")
    .flatMap((r) => [r, { ...r, condition: "env" as const }]);
  const q = decayProfile(perturbed, { resamples: 0 });
  assertEquals([q.fragile_step, q.by_length["3"].fragile_step], [null, null]);
  assertEquals(
    q.reasons.fragile_step,
    "per condition, never pooled, and this group has no nominal records: " +
      "see by_condition.fault.fragile_step, by_condition.env.fragile_step",
  );
  assertEquals(q.by_condition.env.fragile_step?.condition, "env");
});

Deno.test("wilsonInterval() matches hand-worked values and refuses an impossible proportion", () => {
  // 6 of 20 (worked above) and 2 of 10: [0.0567, 0.5098]; 0 of 20: [0, 3.8415 / 23.8415] = [0, 0.1611].
  const round = (ci: [number, number]) => ci.map((x) => Math.round(x * 1e4) / 1e4);
  assertEquals([round(wilsonInterval(6, 20)), round(wilsonInterval(2, 10)), round(wilsonInterval(0, 20))], [
    [0.1455, 0.519],
    [0.0567, 0.5098],
    [0, 0.1611],
  ]);
  assertThrows(() => wilsonInterval(3, 2), RangeError, 'Invalid proportion "3" of "2"');
  assertThrows(() => wilsonInterval(0, 0), RangeError);
});

// Tasks of 3 and 8 milestones under two conditions, with divergences, missed counts, faults and tools.
function rich(seed: string, tasks = 24, runs = 6): EpisodeRecord[] {
  const random = prng(seed), out: EpisodeRecord[] = [];
  for (let i = 0; i < tasks; i++) {
    const total = i % 3 === 0 ? 3 : 8;
    for (let run = 0; run < runs; run++) {
      let reached = 0;
      while (reached < total && random() > 0.15) reached++;
      const fault = run % 2 === 1;
      out.push(rec(`t/${i}`, run, reached, total, {
        condition: fault ? "fault" : "nominal",
        milestone_tools: Array.from({ length: total }, (_, k) => `tool_${k}`),
        divergence: Array.from({ length: total }, (_, k) => k < reached ? 0.1 * random() : 0.3 + 0.7 * random()),
        missed: Array.from({ length: total }, (_, k) => k < reached ? 0 : k - reached + 1),
        ...(fault ? { faults: 1, recovery_steps: [random() * 3] } : {}),
      }));
    }
  }
  return out;
}

Deno.test("decayProfile() does not depend on the order of the records", () => {
  const records = rich("order");
  const a = JSON.stringify(decayProfile(records, { seed: "1", resamples: 200 }));
  assertEquals(JSON.stringify(decayProfile(shuffled(records, "x"), { seed: "1", resamples: 200 })), a);
  assertEquals(JSON.stringify(decayProfile(records.toReversed(), { seed: "1", resamples: 200 })), a);
});

Deno.test("decayProfile() gives the same band for the same seed and another for another", () => {
  const records = rich("band");
  const a = decayProfile(records, { seed: "1", resamples: 300 });
  assertEquals(decayProfile(records, { seed: "1", resamples: 300 }), a);
  const b = decayProfile(records, { seed: "2", resamples: 300 });
  assertNotEquals(b.curve, a.curve);
  assertEquals(b.curve.map((c) => c.R), a.curve.map((c) => c.R));
  for (const { R, lo, hi } of a.curve) {
    assert(0 <= lo! && lo! <= R && R <= hi! && hi! <= 1, `band ${lo}..${hi} for ${R}`);
  }
  for (const [name, ci] of Object.entries(a.ci)) assert(ci !== null && ci[0] <= ci[1], name);
});

Deno.test("decayProfile() gives a band of zero width for a single task", () => {
  const p = decayProfile(SMALL.filter((r) => r.task === "a"), { resamples: 100 });
  for (const { R, lo, hi } of p.curve) assertEquals([lo, hi], [R, R]);
  assertEquals(p.ci.mean_path_length, [1.5, 1.5]); // (2 + 1) / 2
});

Deno.test("decayProfile() resamples task ids: every agent's runs of a task move together", () => {
  // Two agents on one task id: one cluster, so every resample is the data itself.
  const records = [...SMALL.filter((r) => r.task === "a"), ...SMALL.filter((r) => r.task === "b")]
    .map((r) => ({ ...r, task: "same", agent: r.task }));
  const p = decayProfile(records, { resamples: 50 });
  assertEquals(p.tasks, 1);
  for (const { R, lo, hi } of p.curve) assertEquals([lo, hi], [R, R]);
  assertEquals(decayProfile(SMALL, { resamples: 0 }).by_length["3"].tasks, 3);
});

Deno.test("decayProfile() stays JSON-safe: no NaN, Infinity or undefined anywhere", () => {
  const cases = [
    rich("json"),
    SMALL,
    Array.from({ length: 12 }, (_, i) => rec(`t/${i % 3}`, i, 0, 5)),
    [rec("z", 0, 0, 0), rec("z", 1, 0, 0)],
  ];
  for (const records of cases) {
    const p = decayProfile(records, { resamples: 30 });
    assertEquals(JSON.parse(JSON.stringify(p)), p);
  }
  const zero = decayProfile([rec("z", 0, 0, 0)], { resamples: 0 });
  assertEquals([zero.curve, zero.lambda, zero.per_step_reliability, zero.r_inf], [
    [
      { t: 0, R: 1, lo: null, hi: null },
    ],
    null,
    null,
    null,
  ]);
});

Deno.test("decayProfile() recovers a constant hazard: e^{−λ} within 0.02 of 1 − h", () => {
  // 100 tasks × 20 runs of 20 milestones, each missed independently with h = 0.1.
  const random = prng("hazard"), records: EpisodeRecord[] = [];
  for (let task = 0; task < 100; task++) {
    for (let run = 0; run < 20; run++) {
      let reached = 0;
      while (reached < 20 && random() >= 0.1) reached++;
      records.push(rec(`t/${task}`, run, reached, 20));
    }
  }
  const p = decayProfile(records, { seed: "0", resamples: 100 });
  assertAlmostEquals(p.per_step_reliability!, 0.9, 0.02);
  assertAlmostEquals(p.r_inf!.lambda!, -Math.log(0.9), 0.02);
  assertAlmostEquals(p.r_inf!.value, 0, 0.05);
  const [lo, hi] = p.ci.per_step_reliability!;
  assert(lo <= 0.9 && 0.9 <= hi, `interval ${lo}..${hi}`);
});

Deno.test("decayProfile() rejects impossible milestones and bad options", () => {
  assertThrows(() => decayProfile([rec("t", 0, 4, 3)]), RangeError, 'task "t" run 0: reached 4 exceeds total 3');
  assertThrows(() => decayProfile(SMALL, { resamples: -1 }), RangeError, '"-1" resamples');
  assertThrows(() => decayProfile(SMALL, { resamples: 1.5 }), RangeError, "expected an integer ≥ 0");
});
