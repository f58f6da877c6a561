import { getDomain } from "./envs/mod.ts";
import { pythonJson, tauResults } from "./tests/fixtures/tau_results.ts";
let t = performance.now();
const eps = await tauResults(getDomain("retail"), "/work/shared/tau-bench/retail", {
  trials: 1,
  play: (task) => task < 20 ? "confirmed" : null,
});
console.log("20 episodes", (performance.now() - t).toFixed(0), "ms");
t = performance.now();
pythonJson(eps);
console.log("json", (performance.now() - t).toFixed(0));
