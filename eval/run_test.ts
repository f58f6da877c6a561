import { assert, assertEquals } from "@std/assert";
import { resolveConfig } from "./plan.ts";
import { recordsJsonl } from "./records.ts";
import { type Progress, runExperiment } from "./run.ts";
import { MemoryResults } from "./store.ts";

const config = resolveConfig({ tasks: 4, runs: 2, seed: "3" });

Deno.test("runExperiment() runs every cell once and reports progress up to the total", async () => {
  const sink = new MemoryResults();
  const progress: Progress[] = [];
  const summary = await runExperiment(config, { sink, onProgress: (p) => progress.push(p) });
  assertEquals(summary, { total: 24, skipped: 0, ran: 24 });
  assertEquals(sink.count(), 24);
  assertEquals(progress[0], { done: 0, total: 24 });
  assertEquals(progress.at(-1), { done: 24, total: 24 });
  const oracle = sink.records().filter((r) => r.agent === "oracle");
  assert(oracle.length === 8 && oracle.every((r) => r.steps > 0 && r.actions.length === r.resources.num_actions));
  assert(sink.events(oracle[0]).length > 0);
});

Deno.test("runExperiment() gives the same records for the same seed", async () => {
  const a = new MemoryResults(), b = new MemoryResults();
  await runExperiment(config, { sink: a });
  await runExperiment(config, { sink: b });
  assertEquals(recordsJsonl(a.records()), recordsJsonl(b.records()));
});

Deno.test("runExperiment() skips finished cells and ends with what an uninterrupted run has", async () => {
  const whole = new MemoryResults();
  await runExperiment(config, { sink: whole });
  // A sink that fails after 10 episodes, as a killed process would.
  const partial = new MemoryResults();
  const add = partial.add.bind(partial);
  partial.add = (e) => {
    if (partial.count() === 10) throw new Error("killed");
    return add(e);
  };
  await runExperiment(config, { sink: partial }).catch(() => {});
  assertEquals(partial.count(), 10);
  partial.add = add;
  const summary = await runExperiment(config, { sink: partial });
  assertEquals(summary, { total: 24, skipped: 10, ran: 14 });
  assertEquals(recordsJsonl(partial.records()), recordsJsonl(whole.records()));
});
