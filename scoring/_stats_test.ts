import { assertAlmostEquals, assertEquals, assertNotEquals } from "@std/assert";
import {
  binomRatio,
  jsdBits,
  levenshtein,
  mean,
  prng,
  quantileSorted,
  sampleStd,
  selectQuantiles,
  units,
} from "./_stats.ts";

Deno.test("mean() and sampleStd() use n and n − 1", () => {
  // [2, 4, 6]: mean 4; squares 4 + 0 + 4 = 8; 8 / 2 = 4; √4 = 2
  assertEquals(mean([2, 4, 6]), 4);
  assertEquals(sampleStd([2, 4, 6]), 2);
  assertEquals(Number.isNaN(sampleStd([1])), true);
});

Deno.test("jsdBits() is the base-2 divergence, 0 for equal and 1 for disjoint distributions", () => {
  // P = (½, ½), Q = (1, 0), M = (¾, ¼): KL(P‖M) = ½log2(⅔) + ½log2(2) = 0.2075187…,
  // KL(Q‖M) = log2(4/3) = 0.4150375…; JSD = (0.2075187 + 0.4150375) / 2 = 0.3112781…
  assertAlmostEquals(jsdBits([1, 1], [2, 0]), 0.31127812445913283, 1e-12);
  assertEquals(jsdBits([3, 1], [6, 2]), 0);
  assertEquals(jsdBits([1, 0], [0, 5]), 1);
});

Deno.test("levenshtein() counts unit edits between symbol sequences", () => {
  assertEquals(levenshtein(["a", "b", "c"], ["a", "c"]), 1);
  assertEquals(levenshtein("kitten".split(""), "sitting".split("")), 3);
  assertEquals(levenshtein([], [1, 2]), 2);
  assertEquals(levenshtein([1, 2], [2, 1]), 2);
});

Deno.test("binomRatio() is C(c, k) / C(n, k) without overflow", () => {
  assertEquals(binomRatio({ n: 4, c: 2 }, 2), 1 / 6); // C(2,2)/C(4,2) = 1/6
  assertEquals(binomRatio({ n: 4, c: 1 }, 2), 0);
  assertEquals(binomRatio({ n: 5, c: 5 }, 5), 1);
  // C(999, 500) / C(1000, 500) = 500 / 1000, though both binomials overflow a double
  assertAlmostEquals(binomRatio({ n: 1000, c: 999 }, 500), 0.5, 1e-12);
});

Deno.test("prng() repeats for a seed and differs between seeds", () => {
  const a = prng("0"), b = prng("0"), c = prng("1");
  const xs = [a(), a(), a()];
  assertEquals([b(), b(), b()], xs);
  assertNotEquals([c(), c(), c()], xs);
  for (const x of xs) assertEquals(x >= 0 && x < 1, true);
});

Deno.test("quantileSorted() interpolates linearly like numpy", () => {
  // position 0.25 · 4 = 1 → 2; 0.1 · 4 = 0.4 → 1 + 0.4 · (2 − 1) = 1.4
  assertEquals(quantileSorted([1, 2, 3, 4, 5], 0.25), 2);
  assertAlmostEquals(quantileSorted([1, 2, 3, 4, 5], 0.1), 1.4, 1e-12);
});

Deno.test("selectQuantiles() gives exactly quantileSorted() of the sorted values, ties and infinities included", () => {
  const random = prng("select");
  for (let trial = 0; trial < 300; trial++) {
    const n = 1 + Math.floor(random() * 1200), distinct = 1 + Math.floor(random() * 40);
    // Few distinct values (many ties, as bootstrap draws of small groups have), or many.
    const values = Float64Array.from(
      { length: n },
      () =>
        trial % 3 === 0
          ? random()
          : trial % 7 === 0 && random() < 0.05
          ? -Infinity
          : Math.floor(random() * distinct) / 7,
    );
    const sorted = values.slice().sort();
    const qs = trial % 5 === 0 ? [0.9, 0.1, 0.5] : [0, 0.025, 0.5, 0.975, 1];
    const buffer = new Float64Array(n + 3).fill(99); // values past n are not read
    buffer.set(values);
    assertEquals(selectQuantiles(buffer, n, qs), qs.map((q) => quantileSorted(sorted, q)));
    assertEquals(buffer.subarray(0, n).sort(), sorted); // reordered, not changed
  }
});

Deno.test("units() groups by agent and task, sorted, runs in a fixed order", () => {
  const r = (agent: string, task: string, run: number, condition: "nominal" | "fault" = "nominal") => ({
    agent,
    task,
    run,
    condition,
    success: true,
  });
  const us = units([r("b", "t/1", 1), r("a", "t/1", 0), r("b", "t/1", 0, "fault"), r("b", "t/1", 0), r("a", "s/0", 0)]);
  assertEquals(us.map((u) => `${u.task} ${u.agent}`), ["s/0 a", "t/1 a", "t/1 b"]);
  assertEquals(us[2].runs.map((x) => `${x.condition}${x.run}`), ["nominal0", "nominal1", "fault0"]);
});
