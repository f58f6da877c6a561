import { assertAlmostEquals, assertEquals, assertThrows } from "@std/assert";
import type { EpisodeRecord } from "../eval/records.ts";
import { formatReport, passHatK, summarize } from "./summary.ts";

function record(agent: string, task: string, run: number, success: boolean, steps = 10): EpisodeRecord {
  return {
    agent,
    task,
    run,
    condition: "nominal",
    variant: null,
    success,
    actions: [],
    resources: {},
    confidence: null,
    milestones: { total: 0, reached: 0, achieved: 0 },
    steps,
    first_error_step: null,
    faults: 0,
    recovered: false,
  };
}

// Task a: 4 of 4 runs succeed; b: 2 of 4; c: 0 of 4.
const runs = (task: string, successes: number) => [0, 1, 2, 3].map((r) => record("x", task, r, r < successes));
const example = [...runs("t/0", 4), ...runs("t/1", 2), ...runs("t/2", 0)];

Deno.test("passHatK() matches the τ-bench estimator worked by hand", () => {
  // k=1: (1 + 2/4 + 0) / 3 = 0.5
  assertAlmostEquals(passHatK(example, 1)!, 0.5, 1e-12);
  // k=2: (1 + C(2,2)/C(4,2) + 0) / 3 = (1 + 1/6) / 3 = 7/18
  assertAlmostEquals(passHatK(example, 2)!, 7 / 18, 1e-12);
  // k=3: (1 + 0 + 0) / 3: two successes cannot make three
  assertAlmostEquals(passHatK(example, 3)!, 1 / 3, 1e-12);
  assertAlmostEquals(passHatK(example, 4)!, 1 / 3, 1e-12);
});

Deno.test("passHatK() skips tasks with fewer than k runs and is null when none has k", () => {
  const uneven = [...runs("t/0", 4), record("x", "t/1", 0, false)];
  assertAlmostEquals(passHatK(uneven, 1)!, 0.5, 1e-12);
  assertEquals(passHatK(uneven, 2), 1);
  assertEquals(passHatK(uneven, 5), null);
  assertThrows(() => passHatK(uneven, 0), RangeError);
});

Deno.test("summarize() gives accuracy, pass^1..K and mean steps per agent in the order asked", () => {
  const records = [...example, record("y", "t/0", 0, true, 4), record("y", "t/0", 1, false, 6)];
  const [y, x] = summarize(records, { agents: ["y", "x"] });
  // y: one task, 1 of 2 runs: C_out = 0, the only consistency term; no confidences, conditions or judge.
  const scores = { R: 0, R_con: 0, R_rob: null, R_pred: null, R_saf: null };
  assertEquals(y, { agent: "y", episodes: 2, tasks: 1, scores, accuracy: 0.5, passHat: [0.5, 0], meanSteps: 5 });
  assertEquals(x.agent, "x");
  assertEquals(x.passHat.length, 4);
  assertAlmostEquals(x.accuracy, 0.5, 1e-12);
});

Deno.test("summarize() leaves other conditions out of capability, but not out of R_rob", () => {
  const faulty = { ...record("x", "t/0", 0, false), condition: "fault" as const };
  const [x] = summarize([...runs("t/0", 4), faulty, { ...faulty, run: 1, success: true }]);
  assertEquals([x.accuracy, x.episodes], [1, 4]);
  // R_fault = min(0.5 / 1, 1) = 0.5, the only robustness term; R = mean(R_con = 1, R_rob = 0.5)
  assertEquals([x.scores.R_rob, x.scores.R], [0.5, 0.75]);
});

Deno.test("formatReport() aligns columns and formats numbers to fixed digits", () => {
  const text = formatReport(
    summarize(example, { k: 2 }).concat([
      {
        agent: "reckless",
        episodes: 120,
        tasks: 1,
        scores: { R: 0.5, R_con: 0.25, R_rob: 0.75, R_pred: null, R_saf: 0.0004 },
        accuracy: 1 / 3,
        passHat: [1 / 3, null],
        meanSteps: 12.345,
      },
    ]),
  );
  assertEquals(
    text,
    [
      "agent     episodes      R  R_con  R_rob  R_pred  R_saf  accuracy  pass^1  pass^2  mean steps",
      "x               12  0.667  0.667      -       -      -     0.500   0.500   0.389       10.00",
      "reckless       120  0.500  0.250  0.750       -  0.000     0.333   0.333       -       12.35",
      "",
    ].join("\n"),
  );
});

Deno.test("summarize() leaves out the episodes whose user simulator left its script", () => {
  const failedByUser = { ...record("x", "t/0", 4, false), user_error: "user gave an empty reply" };
  const [x] = summarize([...runs("t/0", 4), failedByUser]);
  assertEquals([x.episodes, x.accuracy, x.passHat.length], [4, 1, 4]);
});
