import { assertAlmostEquals, assertEquals, assertGreaterOrEqual, assertThrows } from "@std/assert";
import type { EpisodeRecord } from "./record.ts";
import { BIN_EDGES, calibrationBin, predictability, rankConfidences, weightedAuroc } from "./predictability.ts";
import { prng } from "./_stats.ts";

const rec = (run: number, success: boolean, confidence?: number | null, extra: Partial<EpisodeRecord> = {}) =>
  ({ agent: "a", task: `t/${run % 4}`, run, condition: "nominal", success, confidence, ...extra }) as EpisodeRecord;

// Three successes at 0.9, one failure at 0.9, two failures at 0.2.
const example = [
  rec(0, true, 0.9),
  rec(1, true, 0.9),
  rec(2, true, 0.9),
  rec(3, false, 0.9),
  rec(4, false, 0.2),
  rec(5, false, 0.2),
];

Deno.test("predictability() P_cal is 1 − ECE over ten fixed bins", () => {
  // Bin 9: 4 records, mean confidence 0.9, accuracy 0.75 → (4/6)·0.15 = 0.1
  // Bin 2: 2 records, mean confidence 0.2, accuracy 0 → (2/6)·0.2 = 0.0667. ECE = 0.1667, P_cal = 0.8333
  assertAlmostEquals(predictability(example).P_cal!, 1 - 1 / 6, 1e-12);
});

Deno.test("predictability() P_brier = R_pred = 1 − mean squared error", () => {
  // 3·(0.1)² + (0.9)² + 2·(0.2)² = 0.03 + 0.81 + 0.08 = 0.92; / 6 = 0.15333; 1 − 0.15333 = 0.84667
  const p = predictability(example);
  assertAlmostEquals(p.P_brier!, 1 - 0.92 / 6, 1e-12);
  assertEquals(p.R_pred, p.P_brier);
});

Deno.test("predictability() P_auroc counts ties as ½", () => {
  // Each success at 0.9 beats the two failures at 0.2 and ties the one at 0.9: (2 + ½) / 3; all three alike.
  assertAlmostEquals(predictability(example).P_auroc!, 2.5 / 3, 1e-12);
  // every confidence equal: ½
  assertEquals(predictability([rec(0, true, 0.5), rec(1, false, 0.5)]).P_auroc, 0.5);
});

Deno.test("predictability() P_auroc is null with one class only, with the reason", () => {
  const all = predictability([rec(0, true, 0.9), rec(1, true, 0.4)]);
  assertEquals(all.P_auroc, null);
  assertEquals(all.reasons, { P_auroc: "one class only: every record succeeded" });
  assertEquals(predictability([rec(0, false, 0.9)]).reasons.P_auroc, "one class only: every record failed");
});

Deno.test("predictability() uses nominal records with a confidence only", () => {
  const p = predictability([rec(0, true, null), rec(1, false), { ...rec(2, false, 0.9), condition: "fault" }]);
  assertEquals([p.P_cal, p.P_auroc, p.P_brier, p.R_pred], [null, null, null, null]);
  assertEquals(p.reasons.P_cal, "no nominal record has a confidence");
  assertEquals(predictability([rec(0, true, 1), rec(1, false, 0.2)]).P_brier, 1 - 0.04 / 2);
});

Deno.test("calibrationBin() follows the floating-point edges i * 0.1, with 1.0 in the last bin", () => {
  assertEquals(BIN_EDGES[3], 0.30000000000000004);
  // 0.3 < 0.30000000000000004, so bin 2; likewise 0.6 < 6 * 0.1 and 0.7 < 7 * 0.1
  assertEquals([0, 0.1, 0.2, 0.3, 0.30000000000000004, 0.6, 0.7, 0.95, 1].map(calibrationBin), [
    0,
    1,
    2,
    2,
    3,
    5,
    6,
    9,
    9,
  ]);
  assertThrows(() => calibrationBin(1.5), RangeError);
  assertThrows(() => calibrationBin(NaN), RangeError);
});

Deno.test("weightedAuroc() weighs each record by its cluster's multiplicity", () => {
  // cluster 0: success 0.8; cluster 1: failure 0.5, success 0.3. Weights 2 and 1:
  // positives 2·(0.8) + 1·(0.3), negative 1·(0.5): (2·1 + 1·0) / (3 · 1) = 2/3
  const ranked = rankConfidences({ confidence: [0.8, 0.5, 0.3], success: [true, false, true], cluster: [0, 1, 1] });
  assertAlmostEquals(weightedAuroc(ranked, [2, 1]), 2 / 3, 1e-12);
  assertEquals(weightedAuroc(ranked, [1, 0]), NaN);
});

Deno.test("predictability() recovers good calibration when confidence is the true success probability", () => {
  const random = prng("calibration");
  const records = Array.from({ length: 20000 }, (_, i) => {
    const p = random();
    return rec(i, random() < p, p);
  });
  const p = predictability(records);
  assertGreaterOrEqual(p.P_cal!, 0.95);
  // p ~ U(0, 1): successes have density 2p, failures 2(1 − p); P(p+ > p−) = 4∫x(x − x²/2)dx = 5/6
  assertAlmostEquals(p.P_auroc!, 5 / 6, 0.02);
});
