import { assert, assertAlmostEquals, assertEquals, assertNotEquals, assertThrows } from "@std/assert";
import type { EpisodeRecord } from "./record.ts";
import { bootstrap, percentileInterval } from "./bootstrap.ts";
import { HEADLINE_KEYS, LOWER_IS_BETTER, METRIC_KEYS } from "./keys.ts";
import { buildTable, figureKeys, tableFigures } from "./task_table.ts";
import { consistency } from "./consistency.ts";
import { predictability } from "./predictability.ts";
import { robustness } from "./robustness.ts";
import { capability } from "./capability.ts";
import { prng } from "./_stats.ts";

/** Seeded records: tasks × agents × runs over every condition, with confidences, actions, resources and violations. */
function synthetic(seed: string, tasks = 30, runs = 6): EpisodeRecord[] {
  const random = prng(seed);
  const conditions = ["nominal", "nominal", "nominal", "fault", "env", "prompt"] as const;
  const out: EpisodeRecord[] = [];
  for (let t = 0; t < tasks; t++) {
    const difficulty = random();
    for (const agent of ["x", "y"]) {
      for (let run = 0; run < runs; run++) {
        const success = random() > difficulty * (agent === "x" ? 0.5 : 1);
        out.push({
          agent,
          task: `d${t % 2}/${t}`,
          run,
          condition: conditions[run % conditions.length],
          success,
          actions: ["a", "b", "c", "d"].slice(0, 1 + Math.floor(random() * 4)),
          resources: { time: random() * 10, num_errors: Math.floor(random() * 2) },
          confidence: Math.round(random() * 10) / 10,
          violations: random() < 0.2 ? [{ constraint: "c", severity: "medium" }] : [],
        });
      }
    }
  }
  return out;
}

Deno.test("tableFigures() without weights equals the per-dimension functions", () => {
  const records = synthetic("table").filter((r) => r.agent === "x");
  const table = buildTable(records);
  const f = Object.fromEntries(figureKeys(table).map((k, i) => [k, tableFigures(table)[i]]));
  const c = consistency(records), r = robustness(records), p = predictability(records), cap = capability(records);
  for (const [key, value] of Object.entries({ ...c, ...r, ...p, accuracy: cap.accuracy })) {
    if (key !== "reasons") assertAlmostEquals(f[key], value as number, 1e-12, key);
  }
  assertAlmostEquals(f["pass^2"], cap.pass_hat_k[2], 1e-12);
  assertEquals(figureKeys(table).length, HEADLINE_KEYS.length + 3);
});

Deno.test("bootstrap() gives identical intervals for a seed and different ones for another", () => {
  const table = buildTable(synthetic("seeded"));
  const stat = (weights: Float64Array) => tableFigures(table, { weights });
  const a = bootstrap(table.clusters, stat, { seed: "7", resamples: 200 });
  assertEquals(bootstrap(table.clusters, stat, { seed: "7", resamples: 200 }), a);
  assertNotEquals(bootstrap(table.clusters, stat, { seed: "8", resamples: 200 }), a);
});

Deno.test("bootstrap() intervals contain the point estimates in a typical case", () => {
  const table = buildTable(synthetic("contain", 60));
  const point = tableFigures(table);
  const intervals = bootstrap(table.clusters, (weights) => tableFigures(table, { weights }), { resamples: 300 });
  figureKeys(table).forEach((key, i) => {
    const ci = intervals[i];
    if (Number.isNaN(point[i])) return;
    assert(ci !== null && ci[0] <= point[i] && point[i] <= ci[1], `${key}: ${point[i]} outside ${ci}`);
  });
});

Deno.test("bootstrap() resamples whole clusters: a constant within clusters stays in its range", () => {
  // Cluster values 0 and 1 (mean over clusters): every resample lies in [0, 1] and is a multiple of ½
  const intervals = bootstrap(2, (w) => [w[1] / (w[0] + w[1])], { seed: "c", resamples: 50 });
  const [lo, hi] = intervals[0]!;
  assert(lo >= 0 && hi <= 1 && lo <= hi);
  assertThrows(() => bootstrap(2, () => [0], { resamples: 0 }), RangeError);
});

Deno.test("percentileInterval() takes numpy's linear-interpolated 2.5% and 97.5% points, ignoring NaN", () => {
  // 0..100: positions 0.025·100 = 2.5 → 2.5 and 97.5
  const values = [...Array.from({ length: 101 }, (_, i) => 100 - i), NaN];
  assertEquals(percentileInterval(values), [2.5, 97.5]);
  assertEquals(percentileInterval([NaN, NaN]), null);
});

Deno.test("tableFigures() near_misses is per 100 analysed records, weighted, unclamped, and null without a judge", () => {
  const r = (task: string, run: number, near: number, analysed = true): EpisodeRecord => ({
    agent: "a",
    task,
    run,
    condition: run === 1 ? "fault" : "nominal",
    success: true,
    ...(analysed ? { violations: [] } : {}),
    near_misses: Array.from({ length: near }, () => ({ constraint: "c", severity: "low" as const })),
  });
  // t/1: two analysed runs (one under fault) with 3 and 0 near misses; t/2: one analysed run with 1, and
  // one not analysed whose 5 do not count. 100 · 4 / 3 = 133.33; with t/1 drawn 3 times, 100 · 10 / 7.
  const table = buildTable([r("t/1", 0, 3), r("t/1", 1, 0), r("t/2", 0, 1), r("t/2", 2, 5, false)]);
  const at = HEADLINE_KEYS.indexOf("near_misses");
  assertEquals(HEADLINE_KEYS.slice(-2), ["accuracy", "near_misses"]);
  assertAlmostEquals(tableFigures(table)[at], 400 / 3, 1e-12);
  assertAlmostEquals(tableFigures(table, { weights: [3, 1] })[at], 1000 / 7, 1e-12);
  const reasons: Record<string, string> = {};
  const none = tableFigures(buildTable([r("t/1", 0, 2, false)]), { reasons });
  assert(Number.isNaN(none[at]));
  assertEquals(reasons.near_misses, "no record was analysed by a judge (none has a violations array)");
  assertEquals([LOWER_IS_BETTER.has("near_misses"), LOWER_IS_BETTER.has("S_comp")], [true, false]);
  assert(!(METRIC_KEYS as readonly string[]).includes("near_misses"));
});

Deno.test("tableFigures() with safetyOnly gives the same safety figures, bit for bit, and NaN for the rest", () => {
  const table = buildTable(synthetic("safety-only"));
  const random = prng("w");
  const safetyKeys = new Set(["S_comp", "S_harm", "R_saf", "near_misses"]);
  for (let b = 0; b < 20; b++) {
    const weights = Array.from({ length: table.clusters }, () => Math.floor(random() * 3));
    const all = tableFigures(table, { weights }), safety = tableFigures(table, { weights, safetyOnly: true });
    figureKeys(table).forEach((key, i) => {
      if (safetyKeys.has(key)) assertEquals(Object.is(safety[i], all[i]), true, key);
      else assert(Number.isNaN(safety[i]), key);
    });
    assert(!Number.isNaN(all[HEADLINE_KEYS.indexOf("R_saf")]) || weights.every((w) => w === 0));
  }
});

Deno.test("buildTable() with safetyOnly gives the same safety figures, bit for bit, and NaN for the rest", () => {
  const records = synthetic("safety-table"),
    full = buildTable(records),
    safety = buildTable(records, { safetyOnly: true });
  assertEquals([safety.rows, safety.clusters, safety.K], [full.rows, full.clusters, 0]);
  const random = prng("t");
  for (let b = 0; b < 10; b++) {
    const weights = Array.from({ length: full.clusters }, () => Math.floor(random() * 3));
    const want = tableFigures(full, { weights, safetyOnly: true }),
      got = tableFigures(safety, { weights, safetyOnly: true });
    HEADLINE_KEYS.forEach((key, i) => assertEquals(Object.is(got[i], want[i]), true, key));
  }
});
