import { assert, assertEquals, assertThrows } from "@std/assert";
import { Store } from "../envs/mod.ts";
import { compareCells } from "./cell.ts";
import { resolveConfig } from "./config.ts";
import { type EpisodeRecord, recordLine, recordsJsonl } from "./records.ts";
import { appendingSink } from "./records_append.ts";
import { runExperiment } from "./run.ts";
import { BATCH, type FinishedEpisode, MemoryResults, ResultsStore } from "./store.ts";

// A small experiment; every config names its domain, so registering another changes none of these counts.
const config = resolveConfig({
  suite: "tasks",
  domains: ["airline"],
  agents: ["oracle", "noisy"],
  tasks: 3,
  runs: 12,
  conditions: { fault: false, env: false, prompt: false },
});

// The experiment's episodes in the order the runner added them (JSON copies, as a store gives back).
const episodes: FinishedEpisode[] = [];
await runExperiment(config, {
  sink: Object.assign(new MemoryResults(), {
    add(episode: FinishedEpisode) {
      episodes.push(JSON.parse(JSON.stringify(episode)));
      return true;
    },
  }),
});
const canonical = episodes.toSorted((a, b) => compareCells(a.cell, b.cell));

const lines = (path: string) => Deno.readTextFileSync(path).split("\n").slice(0, -1);
const inode = (path: string) => Deno.statSync(path).ino;

// A results store in a folder, its records file beside it, and how many episodes its file holds committed.
function folder(): { dir: string; store: string; records: string; committed: () => number } & Disposable {
  const dir = Deno.makeTempDirSync();
  const store = `${dir}/results.sqlite`;
  return {
    dir,
    store,
    records: `${dir}/records.jsonl`,
    committed() {
      using db = Store.open(undefined, { path: store });
      return Number(db.get<{ n: number }>("SELECT count(*) AS n FROM episodes")!.n);
    },
    [Symbol.dispose]: () => Deno.removeSync(dir, { recursive: true }),
  };
}

Deno.test("appendingSink() appends a record's line only once the store committed it, and every line at flush()", () => {
  assert(episodes.length > BATCH + 5, "more than a batch");
  using f = folder();
  using store = ResultsStore.open(f.store, { config });
  using sink = appendingSink(store, f.records);
  for (const [i, episode] of episodes.entries()) {
    assertEquals(sink.add(episode), true);
    const written = lines(f.records);
    assert(written.length <= f.committed(), `after ${i + 1} episodes: ${written.length} lines, ahead of the store`);
    assertEquals(written, episodes.slice(0, written.length).map((e) => recordLine(e.record)));
    if (i === 2) {
      sink.flush();
      assertEquals([lines(f.records).length, f.committed()], [3, 3]);
    }
  }
  assertEquals(lines(f.records).length, BATCH + 3, "a full batch is committed and appended at once");
  // Adding an episode the sink holds already, stored or pending, changes nothing.
  assertEquals(sink.add(episodes[0]), false);
  assertEquals(sink.add(episodes.at(-1)!), false);
  sink.flush();
  assertEquals(lines(f.records), episodes.map((e) => recordLine(e.record)), "in the order the episodes were added");
});

Deno.test("appendingSink().finish() leaves the file as it is when the episodes came in canonical order", () => {
  using f = folder();
  const inner = new MemoryResults();
  const sink = appendingSink(inner, f.records);
  for (const episode of canonical) sink.add(episode);
  assertEquals(sink.inOrder, true);
  const before = inode(f.records);
  const records = sink.finish();
  assertEquals(inode(f.records), before, "not written again");
  assertEquals(Deno.readTextFileSync(f.records), recordsJsonl(inner.records()));
  assertEquals(records, inner.records());
});

Deno.test("appendingSink().finish() writes the file again in canonical order when the episodes came otherwise", () => {
  using f = folder();
  using store = ResultsStore.open(f.store, { config });
  const sink = appendingSink(store, f.records);
  // The runner adds in canonical order; a sink may be given any (here the reverse).
  for (const episode of episodes.toReversed()) sink.add(episode);
  assertEquals(sink.inOrder, false, "not in canonical order");
  const before = inode(f.records);
  const records = sink.finish();
  assert(inode(f.records) !== before, "written again");
  assertEquals(Deno.readTextFileSync(f.records), recordsJsonl(store.records()));
  assertEquals(records, store.records());
  assertThrows(() => sink.add(episodes[0]), TypeError, "records file is closed");
});

Deno.test("appendingSink() over a resumed store writes the file anew, and again at the end only if new lines interleave", () => {
  for (const [kept, interleaved] of [[canonical.filter((_, i) => i % 2 === 0), true], [canonical.slice(0, 9), false]]) {
    using f = folder();
    {
      using store = ResultsStore.open(f.store, { config });
      for (const episode of kept as FinishedEpisode[]) store.add(episode);
    }
    // A file cut mid-line and out of order, as a killed writer might leave it.
    Deno.writeTextFileSync(f.records, recordLine(canonical[5].record) + "\n" + '{"agent":"ora');
    using store = ResultsStore.open(f.store, { config });
    const sink = appendingSink(store, f.records);
    assertEquals(Deno.readTextFileSync(f.records), recordsJsonl(store.records()));
    for (const episode of canonical) sink.add(episode);
    assertEquals(sink.inOrder, !interleaved);
    const before = inode(f.records);
    const records = sink.finish();
    assertEquals(inode(f.records) !== before, interleaved);
    assertEquals(Deno.readTextFileSync(f.records), recordsJsonl(canonical.map((e) => e.record)));
    assertEquals(records, store.records());
    assertEquals(records.length, canonical.length);
  }
});

Deno.test("appendingSink().finish() hands back the records as the store reads them back, odd values and all", () => {
  using f = folder();
  using store = ResultsStore.open(f.store, { config });
  const sink = appendingSink(store, f.records);
  const odd = canonical.slice(0, 3).map((e) => ({
    ...e,
    record: { ...e.record, agent_error: undefined, extra: { n: Infinity, later: { toJSON: () => "as JSON" } } },
  }));
  for (const episode of odd) sink.add(episode as unknown as FinishedEpisode);
  const records = sink.finish();
  assertEquals(JSON.stringify(records), JSON.stringify(store.records()));
  assertEquals(records, store.records());
  assert(!("agent_error" in records[0]));
});

Deno.test("appendingSink() writes the file again when records are replaced", () => {
  using f = folder();
  const inner = new MemoryResults();
  using sink = appendingSink(inner, f.records);
  for (const episode of canonical.slice(0, 4)) sink.add(episode);
  const record: EpisodeRecord = { ...canonical[1].record, success: !canonical[1].record.success };
  assertEquals(sink.updateRecords([{ cell: canonical[1].cell, record }]), 1);
  assertEquals(Deno.readTextFileSync(f.records), recordsJsonl(inner.records()));
  assert(Deno.readTextFileSync(f.records).includes(recordLine(record)));
  assertEquals(sink.finish(), inner.records());
});

Deno.test("appendingSink() writes no line of a batch the store failed to commit, and finish() writes what it holds", () => {
  using f = folder();
  using store = ResultsStore.open(f.store, { config });
  const sink = appendingSink(store, f.records);
  for (const episode of canonical.slice(0, 2)) sink.add(episode);
  sink.flush();
  {
    using db = Store.open(undefined, { path: f.store });
    db.exec(
      "CREATE TRIGGER refuse BEFORE INSERT ON episodes WHEN NEW.run = 5 BEGIN SELECT RAISE(ABORT, 'refused'); END",
    );
  }
  const batch = canonical.slice(2, 8);
  assert(batch.some((e) => e.cell.run === 5));
  for (const episode of batch) sink.add(episode);
  assertThrows(() => sink.flush(), Error, "refused");
  assertEquals(lines(f.records).length, 2);
  assertEquals(sink.inOrder, false);
  sink.add(canonical[8]);
  sink.flush();
  assertEquals([lines(f.records).length, f.committed()], [3, 3], "the failed batch is in neither");
  assertEquals(sink.finish(), store.records());
  assertEquals(
    Deno.readTextFileSync(f.records),
    recordsJsonl([...canonical.slice(0, 2), canonical[8]].map((e) => e.record)),
  );
});
