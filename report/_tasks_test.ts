import { assertEquals } from "@std/assert";
import { compareCells } from "../eval/plan.ts";
import type { EpisodeRecord } from "../scoring/mod.ts";
import { sortRecords } from "./_tasks.ts";

// A small seeded generator, so the shuffles are the same at every run.
function lcg(seed: number): () => number {
  let s = seed;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 4294967296;
}

function records(tasks: readonly string[], random: () => number): EpisodeRecord[] {
  const conditions = ["nominal", "fault", "env", "prompt"] as const;
  return Array.from({ length: 400 }, (_, i) => ({
    agent: ["b", "a", "c"][Math.floor(random() * 3)],
    task: tasks[Math.floor(random() * tasks.length)],
    run: Math.floor(random() * 4),
    condition: conditions[Math.floor(random() * 4)],
    ...(random() < 0.5 ? {} : { variant: random() < 0.3 ? null : ["v1", "v0"][Math.floor(random() * 2)] }),
    success: random() < 0.5,
    steps: i, // tells equal keys apart: the sort must keep their input order
  }));
}

Deno.test("sortRecords() orders records exactly as a sort by compareCells() does", () => {
  const random = lcg(7);
  const parsed = ["airline/10", "airline/9", "airline/09", "orders/1", "abstention:airline/2", "tau-bench:retail/3"];
  const unparsed = [...parsed, "plain", "airline/x"];
  for (const tasks of [parsed, unparsed]) {
    for (let trial = 0; trial < 20; trial++) {
      const rs = records(tasks, random);
      assertEquals(sortRecords(rs).map((r) => r.steps), [...rs].sort(compareCells).map((r) => r.steps));
    }
  }
});
