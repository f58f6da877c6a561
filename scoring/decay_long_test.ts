import { assert, assertAlmostEquals, assertEquals } from "@std/assert";
import { decayProfile, meltdownStep, R_INF_MIN_LENGTH } from "./decay.ts";
import type { EpisodeRecord } from "./record.ts";

Deno.test("meltdownStep() finds the first of three bad calls in a row with no progress after it", () => {
  assertEquals(meltdownStep("oxxx"), 2);
  assertEquals(meltdownStep("Oxxxo"), 2); // progress at step 1 only, a good call after does not undo it
  assertEquals(meltdownStep("xxxO"), null); // a milestone after: not a meltdown
  assertEquals(meltdownStep("xmxmx"), 1); // messages between calls do not break the run
  assertEquals(meltdownStep("orrr"), 2); // repeats of a successful call
  assertEquals(meltdownStep("xx"), null);
  assertEquals(meltdownStep(""), null);
  assertEquals(meltdownStep("ooxxRx"), null); // the repeat at step 5 reached a milestone
  assertEquals(meltdownStep("oxxxMoxxx"), 7); // the first run is followed by progress at step 5
});

function rec(task: string, run: number, m: [number, number, number], extra: Partial<EpisodeRecord>): EpisodeRecord {
  const [total, reached, achieved] = m;
  return {
    agent: "a",
    task,
    run,
    condition: "nominal",
    success: reached === total,
    milestones: { total, reached, achieved },
    family: "f",
    length: total,
    ...extra,
  };
}

const strong = { dependency: "strong" as const }, weak = { dependency: "weak" as const };
// t/1: 5 strong, t/2: 20 strong, t/3: 5 weak.
const LONG = [
  rec("t/1", 0, [5, 5, 5], { ...strong, step_outcomes: "oOOOOO", steps: 6 }),
  rec("t/1", 1, [5, 2, 3], { ...strong, step_outcomes: "oxxx", steps: 4 }), // melts at 2 of 4: 0.5
  rec("t/1", 2, [5, 5, 5], { ...strong, step_outcomes: "o", steps: 1 }),
  rec("t/2", 0, [20, 20, 20], { ...strong, step_outcomes: "oo", steps: 2 }),
  rec("t/2", 1, [20, 4, 4], { ...strong, step_outcomes: "Oxrrx", steps: 5 }), // melts at 2 of 5: 0.4
  rec("t/3", 0, [5, 1, 4], { ...weak, step_outcomes: "om", steps: 2 }),
  rec("t/3", 1, [5, 5, 5], { ...weak, step_outcomes: "om", steps: 2 }),
];

Deno.test("decayProfile() gives completion share, meltdown and R_len worked by hand", () => {
  const p = decayProfile(LONG, { seed: "s", resamples: 200 });
  // achieved / total: 1, 0.6, 1, 1, 0.2, 0.8, 1 → 5.6 / 7 = 0.8.
  assertAlmostEquals(p.completion_share!, 0.8, 1e-12);
  // Two of seven melt down, at 0.5 and 0.4 of their steps: median 0.45.
  assertEquals([p.meltdown_rate, p.meltdown_onset], [2 / 7, 0.45]);
  assert(p.ci.meltdown_rate![0] <= 2 / 7 && 2 / 7 <= p.ci.meltdown_rate![1]);
  assertEquals(Object.keys(p.by_length_dependency!), ["5/strong", "5/weak", "20/strong"]);
  const s5 = p.by_length_dependency!["5/strong"];
  assertEquals([s5.n, s5.meltdown_rate, s5.meltdown_onset], [3, 1 / 3, 0.5]);
  assertAlmostEquals(s5.completion_share!, 2.6 / 3, 1e-12);
  // One task: every resample draws it.
  assertEquals(s5.ci.meltdown_rate, [1 / 3, 1 / 3]);
  // Strong 5: R(t) = [1, 1, 1, 2/3, 2/3, 2/3] (reached 5, 2, 5).
  assertEquals(s5.curve.map((c) => c.R), [1, 1, 1, 2 / 3, 2 / 3, 2 / 3]);
  assertEquals(s5.r_inf, null);
  assertEquals(
    s5.reasons.r_inf,
    `reported for length classes of at least ${R_INF_MIN_LENGTH} milestones only (this one has 5)`,
  );
  assertEquals(p.by_length["5"].r_inf, null);
  assert(p.by_length_dependency!["20/strong"].r_inf !== null);
  const w5 = p.by_length_dependency!["5/weak"];
  assertEquals([w5.meltdown_rate, w5.meltdown_onset], [0, null]);
  assertAlmostEquals(w5.completion_share!, 0.9, 1e-12);
  assertEquals(w5.reasons.meltdown_onset, "no episode melted down");
  // Strong: Acc_5 = 2/3, Acc_20 = 1/2 → R_len = min(0.75, 1) = 0.75; a resample drawing one task only has no ratio.
  assertEquals(p.r_len!.f.strong, {
    value: 0.75,
    ci: [0.75, 0.75],
    shortest: 5,
    longest: 20,
    accuracy: { "5": 2 / 3, "20": 0.5 },
  });
  assertEquals(p.r_len!.f.weak.value, null);
  assertEquals(p.r_len!.f.weak.reason, "the family has one length class (5)");
  assertEquals(p.runs_by_length, {
    "5": { episodes: 5, tasks: 2, runs: { min: 2, max: 3 } },
    "20": { episodes: 2, tasks: 1, runs: { min: 2, max: 2 } },
  });
});

Deno.test("decayProfile() R_len is null with a reason when the shortest class never succeeds", () => {
  const records = [
    rec("t/1", 0, [5, 2, 2], strong),
    rec("t/2", 0, [20, 20, 20], strong),
  ];
  const p = decayProfile(records, { resamples: 10 });
  assertEquals(p.r_len!.f.strong.value, null);
  assertEquals(p.r_len!.f.strong.reason, "Acc_shortest is 0 (length 5)");
  assertEquals(p.meltdown_rate, null);
  assertEquals(p.reasons.meltdown_rate, "no record has step_outcomes");
  const none = decayProfile(records.map(({ family: _, ...r }) => r), { resamples: 10 });
  assertEquals([none.r_len, none.reasons.r_len], [null, "no record has a family"]);
});

Deno.test("decayProfile() without the long-horizon fields adds none of their keys, and splitting by dependency changes no old figure", () => {
  const plain = LONG.map(({ family: _f, length: _l, dependency: _d, step_outcomes: _s, ...r }) => r);
  const p = decayProfile(plain, { seed: "s", resamples: 50 });
  for (const key of ["by_length_dependency", "runs_by_length", "r_len", "completion_share", "meltdown_rate"]) {
    assertEquals(key in p, false, key);
  }
  assertEquals("meltdown_rate" in p.ci, false);
  assert(p.by_length["5"].r_inf !== null); // the old rule, kept for old records
  const split = decayProfile(plain.map((r, i) => ({ ...r, dependency: i % 2 === 0 ? "strong" : "weak" })), {
    seed: "s",
    resamples: 50,
  });
  assertEquals(split.curve, p.curve);
  assertEquals(split.by_length["20"].curve, p.by_length["20"].curve);
  assertEquals(split.per_step_reliability, p.per_step_reliability);
  assertEquals(split.ci.per_step_reliability, p.ci.per_step_reliability);
  assertEquals(split.hazard, p.hazard);
});

Deno.test("decayProfile() long-horizon figures give the same digits in any record order", () => {
  const a = decayProfile(LONG, { seed: "x", resamples: 100 });
  const b = decayProfile([...LONG].reverse(), { seed: "x", resamples: 100 });
  assertEquals(JSON.stringify(a), JSON.stringify(b));
});

Deno.test("decayProfile() counts runs per length class over the long-horizon records only", () => {
  const short = { agent: "a", task: "t/9", run: 0, condition: "nominal" as const, success: true };
  const p = decayProfile([...LONG, { ...short, milestones: { total: 1, reached: 1 } }], { resamples: 0 });
  assertEquals(Object.keys(p.runs_by_length!), ["5", "20"]);
  const byTotal = decayProfile([rec("t/1", 0, [5, 5, 5], { step_outcomes: "o", length: undefined })], {
    resamples: 0,
  });
  assertEquals(byTotal.runs_by_length, { "5": { episodes: 1, tasks: 1, runs: { min: 1, max: 1 } } });
});

Deno.test("decayProfile() takes completion share and meltdown over long tasks only, R∞ over one class of ≥ 20 only", () => {
  // Two short tasks (no length) always complete; a 30-milestone strong task achieves 3 of 30 and 30 of 30.
  const short = (task: string, run: number): EpisodeRecord => ({
    agent: "a",
    task,
    run,
    condition: "nominal",
    success: true,
    milestones: { total: 2, reached: 2, achieved: 2 },
  });
  const long = (run: number, reached: number) =>
    rec("t/9", run, [30, reached, reached], { ...strong, step_outcomes: "o".repeat(reached) });
  const p = decayProfile([short("s/0", 0), short("s/1", 0), long(0, 3), long(1, 30)], { resamples: 50 });
  // Over the long task alone: (3/30 + 30/30) / 2 = 0.55; pooled with the short ones it would be 0.775.
  assertAlmostEquals(p.completion_share!, 0.55, 1e-12);
  assertEquals(p.by_length["2"].completion_share, null);
  assertEquals(p.by_length["2"].reasons.completion_share, "no long-horizon task (a record with a length) in the group");
  // R∞: null overall (lengths 2 and 30 pooled) and for the 2-milestone class, given for the 30 one.
  assertEquals(p.r_inf, null);
  assertEquals(
    p.reasons.r_inf,
    "reported for one length class only, never for a group that pools lengths (this one has 2)",
  );
  assertEquals(p.by_condition.nominal.r_inf, null);
  assertEquals(p.by_length["2"].r_inf, null);
  assert(p.by_length["30"].r_inf !== null);
  assert(p.by_length_dependency!["30/strong"].r_inf !== null);
});

Deno.test("decayProfile() notes on λ when failures sit at the start", () => {
  // 10 runs of a 20-milestone task: 4 fail at milestone 1, 1 at milestone 11, 5 complete. R(1) = 0.6,
  // R(20) = 0.5: 80% of the drop is at milestone 1.
  const runs = [0, 0, 0, 0, 10, 20, 20, 20, 20, 20].map((reached, run) =>
    rec("t/5", run, [20, reached, reached], { ...weak })
  );
  const p = decayProfile(runs, { resamples: 0 });
  assert(p.lambda !== null);
  assertEquals(
    p.notes?.lambda,
    "80% of the drop of R(t) is at milestone 1: failures sit at the start, " +
      "which the fit ln R(t) ≈ −λ·t reads as a steady decay per milestone",
  );
  // Failures spread over the milestones: no note.
  const spread = [2, 5, 8, 11, 14, 17, 20, 20, 20, 20].map((reached, run) =>
    rec("t/6", run, [20, reached, reached], { ...weak })
  );
  assertEquals(decayProfile(spread, { resamples: 0 }).notes, undefined);
});
