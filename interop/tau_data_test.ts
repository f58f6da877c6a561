import { assertEquals } from "@std/assert";
import { tauBenchRoot as fixtureRoot } from "../tests/fixtures/tau_bench.ts";
import { hasTauBench, tauBenchFolder, tauBenchRoot } from "./tau_data.ts";

// Each case sets ARK_TAU_BENCH (or removes it) and puts back what was there.
function withTauBench(value: string | undefined, fn: () => void): void {
  const saved = Deno.env.get("ARK_TAU_BENCH");
  if (value === undefined) Deno.env.delete("ARK_TAU_BENCH");
  else Deno.env.set("ARK_TAU_BENCH", value);
  try {
    fn();
  } finally {
    if (saved === undefined) Deno.env.delete("ARK_TAU_BENCH");
    else Deno.env.set("ARK_TAU_BENCH", saved);
  }
}

Deno.test("tauBenchRoot() takes ARK_TAU_BENCH, else the same folder beside the repository as the tests", () => {
  withTauBench("/data/tau", () => {
    assertEquals(tauBenchRoot(), "/data/tau");
    assertEquals(tauBenchFolder("retail"), "/data/tau/retail");
  });
  for (const value of [undefined, ""]) {
    withTauBench(value, () => {
      assertEquals(tauBenchRoot(), fixtureRoot());
      assertEquals(tauBenchRoot().endsWith("/shared/tau-bench"), true, tauBenchRoot());
    });
  }
});

Deno.test("hasTauBench() needs the domain's db.json in the folder, not only the folder", () => {
  const dir = Deno.makeTempDirSync();
  try {
    withTauBench(dir, () => {
      assertEquals(hasTauBench("airline"), false);
      Deno.mkdirSync(`${dir}/airline`);
      assertEquals(hasTauBench("airline"), false);
      Deno.writeTextFileSync(`${dir}/airline/db.json`, "{}");
      assertEquals([hasTauBench("airline"), hasTauBench("retail")], [true, false]);
    });
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
