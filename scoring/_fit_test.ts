import { assertAlmostEquals, assertEquals } from "@std/assert";
import { drawWeights, fitDecayRate, fitSteadyState, percentileInterval } from "./_fit.ts";
import { prng } from "./_stats.ts";

Deno.test("percentileInterval() takes numpy's linear 2.5% and 97.5% quantiles of the finite values", () => {
  // 0..100: positions 0.025 · 100 = 2.5 and 97.5.
  const values = Float64Array.from({ length: 101 }, (_, i) => 100 - i);
  assertEquals(percentileInterval(values), [2.5, 97.5]);
  assertEquals(percentileInterval(Float64Array.of(NaN, 3, NaN)), [3, 3]);
  assertEquals(percentileInterval(Float64Array.of(NaN)), null);
});

Deno.test("drawWeights() draws as many clusters as there are", () => {
  const w = drawWeights(prng("w"), new Int32Array(50));
  assertEquals(w.reduce((a, b) => a + b, 0), 50);
  assertEquals(drawWeights(prng("w"), new Int32Array(50)), w);
});

Deno.test("fitDecayRate() is infinite when nothing passes step 1 and undefined without steps", () => {
  assertEquals(fitDecayRate([1, 0, 0]), Infinity);
  assertEquals(fitDecayRate([1]), NaN);
  assertEquals(Object.is(fitDecayRate([1, 1, 1]), 0), true);
  // Only t = 1 counts when R(2) = 0: λ = −1·ln 0.5 / 1.
  assertAlmostEquals(fitDecayRate([1, 0.5, 0]), Math.LN2, 1e-15);
});

Deno.test("fitSteadyState() recovers both parameters of the model", () => {
  const curve = Array.from({ length: 11 }, (_, t) => 0.3 + 0.7 * 0.8 ** t);
  const fit = fitSteadyState(curve);
  assertAlmostEquals(fit.rInf, 0.3, 1e-7);
  assertAlmostEquals(fit.q, 0.8, 1e-7);
  assertAlmostEquals(fit.rmse, 0, 1e-7);
});
