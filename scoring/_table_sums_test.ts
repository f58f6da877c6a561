import { assertEquals } from "@std/assert";
import { buildTable } from "./task_table.ts";
import { denseSums, weightedSums } from "./_table_sums.ts";
import { prng } from "./_stats.ts";
import type { EpisodeRecord } from "./record.ts";

const LAYOUT = { core: 21, bins: 21, pass: 51 };
const SAFETY = new Set([16, 17, 18, 19, 20]);

function records(seed: string, runs?: number): EpisodeRecord[] {
  const random = prng(seed), out: EpisodeRecord[] = [];
  const conditions = ["nominal", "nominal", "fault", "env", "prompt"] as const;
  for (let t = 0; t < 40; t++) {
    for (let run = 0; run < (runs ?? 1 + (t % 7)); run++) {
      out.push({
        agent: "a",
        task: `t/${t}`,
        run,
        condition: conditions[run % 5],
        success: random() < 0.6,
        confidence: t % 5 === 0 ? undefined : Math.round(random() * 20) / 20,
        actions: random() < 0.5 ? ["a", "b"] : ["a"],
        violations: random() < 0.2 ? [{ constraint: "c", severity: "high", step: 1 }] : [],
      });
    }
  }
  return out;
}

Deno.test("weightedSums() adds the same sums, bit for bit, as the dense row-by-row sum", () => {
  const table = buildTable(records("sums"));
  const random = prng("weights");
  for (let b = 0; b < 20; b++) {
    const w = Int32Array.from({ length: table.clusters }, () => Math.floor(random() * 3));
    assertEquals(weightedSums(table, w, LAYOUT), denseSums(table, w, LAYOUT));
    assertEquals(weightedSums(table, w, LAYOUT, SAFETY), denseSums(table, w, LAYOUT, SAFETY));
  }
});

Deno.test("weightedSums() lets an infinite weight make NaN of a column's zeros, as the dense sum does", () => {
  const table = buildTable(records("inf"));
  const w = new Float64Array(table.clusters).fill(1);
  w[3] = Infinity;
  const sums = weightedSums(table, w, LAYOUT);
  assertEquals(sums, denseSums(table, w, LAYOUT));
  assertEquals(sums.some(Number.isNaN), true);
});

Deno.test("weightedSums() sums a count every row holds alike as the dense sum does, whatever the weights", () => {
  // Ten runs of every task: the counts by condition are the same in every row.
  const table = buildTable(records("same", 10));
  const random = prng("constant");
  const draws = [
    Int32Array.from({ length: table.clusters }, () => Math.floor(random() * 4)),
    Float64Array.from({ length: table.clusters }, () => Math.floor(random() * 7) - 3), // negative ones too
    Float64Array.from({ length: table.clusters }, () => random() * 3), // fractions
    new Float64Array(table.clusters).fill(2 ** 40), // past whole sums below 2^53
  ];
  for (const w of draws) {
    assertEquals(weightedSums(table, w, LAYOUT), denseSums(table, w, LAYOUT));
    assertEquals(weightedSums(table, w, LAYOUT, SAFETY), denseSums(table, w, LAYOUT, SAFETY));
  }
});
