import { assert, assertEquals, assertThrows } from "@std/assert";
import { resolveConfig } from "./config.ts";
import { recordLine, recordsJsonl, writeRecordsJsonl } from "./records.ts";
import { appendingSink } from "./records_append.ts";
import { runExperiment } from "./run.ts";
import { MemoryResults, ResultsStore } from "./store.ts";

// A small experiment; every config names its domain, so registering another changes none of these counts.
const config = resolveConfig({
  suite: "tasks",
  domains: ["airline"],
  agents: ["oracle", "noisy"],
  tasks: 3,
  runs: 2,
  conditions: { fault: false, env: false, prompt: false },
});

const lines = (text: string) => text.split("\n").slice(0, -1);

Deno.test("appendingSink() appends each record as its episode is added, one whole line each", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/records.jsonl`;
  const inner = new MemoryResults();
  const seen: number[] = [];
  {
    using sink = appendingSink(inner, path);
    await runExperiment(config, {
      sink,
      onProgress: ({ done }) => seen.push(lines(Deno.readTextFileSync(path)).length - done),
    });
    assertEquals(seen, Array(13).fill(0), "the file has a line per finished episode at every step");
    // Adding an episode the sink holds already changes nothing.
    const first = inner.records()[0];
    assertEquals(
      sink.add({ cell: { ...first, variant: first.variant ?? null, seed: "x" }, record: first, events: [] }),
      false,
    );
  }
  const text = Deno.readTextFileSync(path);
  assert(text.endsWith("\n"));
  assertEquals(lines(text), inner.records().map(recordLine), "in the order the episodes finished");
  await writeRecordsJsonl(inner, path);
  assertEquals(Deno.readTextFileSync(path), recordsJsonl(inner.records()));
  await Deno.remove(dir, { recursive: true });
});

Deno.test("appendingSink() first writes the sink's records in canonical order over whatever the file held", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/records.jsonl`;
  const inner = new MemoryResults();
  await runExperiment({ ...config, tasks: 2 }, { sink: inner });
  // A file cut mid-line and out of order, as another writer might leave it.
  Deno.writeTextFileSync(path, recordLine(inner.records()[3]) + "\n" + '{"agent":"ora');
  using sink = appendingSink(inner, path);
  assertEquals(Deno.readTextFileSync(path), recordsJsonl(inner.records()));
  await runExperiment(config, { sink });
  const text = Deno.readTextFileSync(path);
  assertEquals(lines(text).length, 12);
  assertEquals(lines(text).toSorted(), lines(recordsJsonl(inner.records())).toSorted());
  await Deno.remove(dir, { recursive: true });
});

Deno.test("appendingSink() over a results store: a resumed run's file holds every record once", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/records.jsonl`;
  {
    using store = ResultsStore.open(`${dir}/results.sqlite`, { config });
    using sink = appendingSink(store, path);
    const stop = new AbortController();
    await runExperiment(config, { sink, signal: stop.signal, onProgress: ({ done }) => done === 4 && stop.abort() });
    assertEquals(lines(Deno.readTextFileSync(path)).length, 4);
  }
  using store = ResultsStore.open(`${dir}/results.sqlite`, { config });
  const sink = appendingSink(store, path);
  await runExperiment(config, { sink });
  sink.close();
  sink.close();
  assertEquals(lines(Deno.readTextFileSync(path)).toSorted(), lines(recordsJsonl(store.records())).toSorted());
  assertEquals(lines(Deno.readTextFileSync(path)).length, 12);
  const record = store.records()[0];
  assertThrows(
    () => sink.add({ cell: { ...record, variant: "new", seed: "x" }, record, events: [] }),
    TypeError,
    "records file is closed",
  );
  assertEquals(store.count(), 12, "nothing reaches the store once the file is closed");
  await Deno.remove(dir, { recursive: true });
});

Deno.test("appendingSink() writes the file again when records are replaced", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/records.jsonl`;
  const inner = new MemoryResults();
  using sink = appendingSink(inner, path);
  await runExperiment({ ...config, tasks: 1 }, { sink });
  const record = { ...inner.records()[0], success: !inner.records()[0].success };
  assertEquals(sink.updateRecords([{ cell: { ...record, variant: record.variant ?? null }, record }]), 1);
  assertEquals(Deno.readTextFileSync(path), recordsJsonl(inner.records()));
  assert(Deno.readTextFileSync(path).includes(recordLine(record)));
  await Deno.remove(dir, { recursive: true });
});
