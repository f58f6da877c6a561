import { assert, assertEquals, assertStringIncludes, assertThrows } from "@std/assert";
import { type EpisodeEvent, Store } from "../envs/mod.ts";
import { type Cell, cellKey } from "./plan.ts";
import { runExperiment } from "./run.ts";
import { resolveConfig } from "./config.ts";
import type { EpisodeRecord } from "./records.ts";
import { appendingSink } from "./records_append.ts";
import { type FinishedEpisode, MemoryResults, type ResultsSink, ResultsStore, ResultsStoreError } from "./store.ts";

const config = resolveConfig({ tasks: 2, runs: 2 });

function episode(agent: string, task: string, run: number, variant: string | null = null): FinishedEpisode {
  const cell: Cell = { agent, task, run, condition: "nominal", variant, seed: `seed-${agent}-${task}-${run}` };
  const record: EpisodeRecord = {
    ...cell,
    success: run % 2 === 0,
    actions: ["get_user_details", "cancel_reservation"],
    resources: { time: 12.5, api_calls: 2, num_actions: 2, num_errors: 0 },
    confidence: null,
    milestones: { total: 3, reached: 2, achieved: 2 },
    steps: 4,
    first_error_step: null,
    faults: 0,
    recovered: false,
  };
  delete (record as Partial<Cell>).seed;
  const events: EpisodeEvent[] = [
    {
      step: 0,
      actor: "user",
      kind: "message",
      text: "Hi",
      intent: { kind: "request", goal: "cancel", facts: {} },
      latency_ms: 2000,
    },
    {
      step: 1,
      actor: "tool",
      kind: "tool",
      tool: "get_user_details",
      args: { user_id: "u" },
      result: { name: "U" },
      latency_ms: 90,
    },
    {
      step: 2,
      actor: "tool",
      kind: "tool",
      tool: "cancel_reservation",
      args: {},
      error: { code: "invalid_args", message: "no" },
      latency_ms: 80,
    },
    { step: 3, actor: "tool", kind: "tool", tool: "think", args: null, result: null, latency_ms: 85 },
    {
      step: 3,
      actor: "tool",
      kind: "tool",
      tool: "cancel_reservation",
      args: { reservationId: "R1" },
      result: "ok",
      world_args: { reservation_id: "R1" },
      changes: [{ table: "reservations", key: ["R1"], before: { status: null }, after: { status: "cancelled" } }],
      latency_ms: 80,
    },
    { step: 4, actor: "agent", kind: "end", confidence: 0.5, latency_ms: 0 },
  ];
  return { cell, record, events };
}

// The one contract every ResultsSink passes.
function contract(name: string, open: () => ResultsSink & Partial<Disposable>): void {
  Deno.test(`${name}.add() stores an episode once and finishedKeys() lists it`, () => {
    using sink = withDispose(open());
    assertEquals(sink.count(), 0);
    assertEquals(sink.add(episode("oracle", "airline/1", 0)), true);
    assertEquals(sink.add(episode("oracle", "airline/1", 0)), false);
    assertEquals(sink.add(episode("oracle", "airline/1", 1)), true);
    assertEquals(sink.count(), 2);
    assertEquals([...sink.finishedKeys()].length, 2);
  });

  Deno.test(`${name}.add() treats a null variant as one value and other variants as other cells`, () => {
    using sink = withDispose(open());
    assert(sink.add(episode("oracle", "airline/1", 0, null)));
    assert(!sink.add(episode("oracle", "airline/1", 0, null)));
    assert(sink.add(episode("oracle", "airline/1", 0, "p1")));
    assertEquals(sink.count(), 2);
  });

  Deno.test(`${name}.records() gives back each record as added`, () => {
    using sink = withDispose(open());
    const a = episode("noisy", "airline/2", 1), b = episode("oracle", "airline/10", 0, "p2");
    b.record.violations = [
      { constraint: "explicit_confirmation", severity: "high", step: 2, evidence: "no yes", source: "rules" },
    ];
    b.record.confidence = 0.9;
    sink.add(a);
    sink.add(b);
    assertEquals(sink.records(), [a.record, b.record]);
  });

  Deno.test(`${name}.events() gives back the events in order, absent fields absent`, () => {
    using sink = withDispose(open());
    const e = episode("oracle", "airline/3", 0);
    sink.add(e);
    sink.add(episode("oracle", "airline/3", 1));
    assertEquals(sink.events(e.cell), e.events);
    assertEquals(sink.events({ ...e.cell, run: 7 }), []);
  });

  Deno.test(`${name}.add() keeps what was stored when the caller changes its objects later`, () => {
    using sink = withDispose(open());
    const e = episode("oracle", "airline/4", 0);
    sink.add(e);
    e.record.success = !e.record.success;
    (e.events as EpisodeEvent[]).length = 0;
    assertEquals(sink.records()[0].success, !e.record.success);
    assertEquals(sink.events(e.cell).length, 6);
  });

  Deno.test(`${name}.flush() stores what was added: it is then refused again, and reads see it`, () => {
    using sink = withDispose(open());
    const a = episode("oracle", "airline/8", 0), b = episode("noisy", "airline/8", 0);
    assert(sink.add(a));
    sink.flush();
    sink.flush();
    assert(!sink.add(a));
    assert(sink.add(b));
    assertEquals([sink.count(), sink.records()], [2, [a.record, b.record]]);
    sink.flush();
    assertEquals([sink.count(), sink.events(b.cell)], [2, b.events]);
  });

  Deno.test(`${name}.updateRecords() replaces stored records and skips episodes not stored`, () => {
    using sink = withDispose(open());
    const a = episode("oracle", "airline/5", 0), b = episode("oracle", "airline/5", 1);
    sink.add(a);
    sink.add(b);
    const judged = { ...a.record, success: !a.record.success, violations: [] };
    const missing = episode("oracle", "airline/6", 0);
    assertEquals(sink.updateRecords([{ cell: a.cell, record: judged }, missing]), 1);
    assertEquals(sink.records(), [judged, b.record]);
    assertEquals(sink.events(a.cell), a.events);
  });
}

function withDispose<T extends Partial<Disposable>>(sink: T): T & Disposable {
  const dispose = sink[Symbol.dispose]?.bind(sink) ?? (() => {});
  return Object.assign(sink, { [Symbol.dispose]: dispose });
}

function tempStore(): ResultsStore {
  const dir = Deno.makeTempDirSync();
  const store = ResultsStore.open(`${dir}/results.sqlite`, { config });
  return Object.assign(store, {
    [Symbol.dispose]() {
      store.close();
      Deno.removeSync(dir, { recursive: true });
    },
  });
}

// An appending sink over another, its records file in a temporary folder.
function appending(inner: () => ResultsSink & Partial<Disposable>): () => ResultsSink & Disposable {
  return () => {
    const dir = Deno.makeTempDirSync();
    const sink = withDispose(inner());
    const outer = appendingSink(sink, `${dir}/records.jsonl`);
    return Object.assign(outer, {
      [Symbol.dispose]() {
        outer.close();
        sink[Symbol.dispose]();
        Deno.removeSync(dir, { recursive: true });
      },
    });
  };
}

contract("MemoryResults", () => new MemoryResults());
contract("ResultsStore", tempStore);
contract("appendingSink(MemoryResults)", appending(() => new MemoryResults()));
contract("appendingSink(ResultsStore)", appending(tempStore));

Deno.test("ResultsStore.open() keeps finished episodes across reopening", () => {
  const dir = Deno.makeTempDirSync();
  const path = `${dir}/results.sqlite`;
  {
    using store = ResultsStore.open(path, { config });
    store.add(episode("oracle", "airline/1", 0));
    store.add(episode("oracle", "airline/1", 1));
  }
  using store = ResultsStore.open(path, { config });
  assertEquals(store.count(), 2);
  assertEquals(store.add(episode("oracle", "airline/1", 1)), false);
  assertEquals(store.records(), [episode("oracle", "airline/1", 0).record, episode("oracle", "airline/1", 1).record]);
  Deno.removeSync(dir, { recursive: true });
});

Deno.test("ResultsStore.open() refuses a store of another experiment, naming the file and the field", () => {
  const dir = Deno.makeTempDirSync();
  const path = `${dir}/results.sqlite`;
  ResultsStore.open(path, { config }).close();
  const err = assertThrows(
    () => ResultsStore.open(path, { config: resolveConfig({ tasks: 2, runs: 2, seed: "7", out: config.out }) }),
    ResultsStoreError,
  );
  assertEquals(err.code, "mismatch");
  assertStringIncludes(err.message, `"${path}"`);
  assertStringIncludes(err.message, `"seed" is "0" there, "7" here`);
  assert(!err.message.includes("\n"));
  // The output folder is not part of the experiment.
  ResultsStore.open(path, { config: { ...config, out: "elsewhere" } }).close();
  Deno.removeSync(dir, { recursive: true });
});

Deno.test("ResultsStore.open() names the file when it is not a SQLite database or not a results store", () => {
  const dir = Deno.makeTempDirSync();
  const garbage = `${dir}/garbage.sqlite`;
  Deno.writeTextFileSync(garbage, "this is not a database, just text that goes on for a while ".repeat(20));
  const err = assertThrows(() => ResultsStore.open(garbage, { config }), ResultsStoreError);
  assertEquals(err.code, "corrupt");
  assertEquals(
    err.message,
    `Cannot open results store "${garbage}": not an ark store (the file is corrupt: it is not a SQLite database); ` +
      "move it away",
  );

  const foreign = `${dir}/foreign.sqlite`;
  Store.open("CREATE TABLE episodes (x TEXT)", { path: foreign }).close();
  const err2 = assertThrows(() => ResultsStore.open(foreign, { config }), ResultsStoreError);
  assertEquals(err2.code, "not_results");
  assertStringIncludes(err2.message, `"${foreign}"`);

  // An older ark's store: refused, saying so, and left as it was.
  const older = `${dir}/older.sqlite`;
  Store.open("CREATE TABLE episodes (x TEXT); PRAGMA user_version = 2", { path: older }).close();
  const err3 = assertThrows(() => ResultsStore.read(older), ResultsStoreError);
  assertStringIncludes(err3.message, "of format 2, written by an older ark");
  Deno.removeSync(dir, { recursive: true });
});

Deno.test("ResultsStore gives back every episode of a run exactly: records and events, every condition", async () => {
  const dir = Deno.makeTempDirSync();
  try {
    const small = resolveConfig({ domains: ["airline"], tasks: 3, runs: 2, suite: "all", out: dir });
    using store = ResultsStore.open(`${dir}/results.sqlite`, { config: small });
    const memory = new MemoryResults();
    const both: ResultsSink = {
      finishedKeys: () => store.finishedKeys(),
      add: (e) => memory.add(e) && store.add(e),
      flush: () => store.flush(),
      count: () => store.count(),
      records: () => store.records(),
      events: (cell) => store.events(cell),
      updateRecords: (updates) => store.updateRecords(updates),
    };
    await runExperiment(small, { sink: both });
    const records = memory.records();
    assertEquals(new Set(records.map((r) => r.condition)), new Set(["nominal", "fault", "env", "prompt"]));
    assert(records.some((r) => r.task.startsWith("abstention:")));
    const events = records.flatMap((r) => memory.events(r));
    assert(events.some((e) => e.fault !== undefined) && events.some((e) => e.world_args !== undefined));
    assert(events.some((e) => e.changes !== undefined) && events.some((e) => e.error !== undefined));
    assertEquals(store.records(), records);
    for (const r of records) assertEquals(store.events(r), memory.events(r), `events of ${cellKey(r)}`);
    assertEquals(store.finishedKeys(), memory.finishedKeys());
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("ResultsStore.add() keeps fields events and records gain later, and JSON's view of odd values", () => {
  using store = tempStore();
  const memory = new MemoryResults();
  const e = episode("oracle", "airline/7", 0);
  const odd = {
    a: undefined,
    b: [undefined, Infinity, -0, "x"],
    c: { toJSON: () => "as JSON" },
    d: { toJSON: () => ({ k: [1] }) },
  };
  (e.events[1] as unknown as Record<string, unknown>).later = { nested: [1, "two"] };
  (e.events[2] as unknown as Record<string, unknown>).args = odd;
  (e.record as unknown as Record<string, unknown>).extra = odd;
  store.add(e);
  memory.add(e);
  assertEquals(store.events(e.cell), memory.events(e.cell));
  assertEquals(store.records(), memory.records());
});

Deno.test("ResultsStore.read() refuses a store of the previous format, saying to run again into another folder", () => {
  const dir = Deno.makeTempDirSync();
  const path = `${dir}/results.sqlite`;
  Store.open(
    "CREATE TABLE episodes (id INTEGER PRIMARY KEY, record TEXT); CREATE TABLE events (x TEXT); PRAGMA user_version = 3",
    { path },
  ).close();
  const err = assertThrows(() => ResultsStore.read(path), ResultsStoreError);
  assertEquals(err.code, "not_results");
  assertStringIncludes(err.message, `"${path}"`);
  assertStringIncludes(
    err.message,
    "of format 3, written by an older ark: run the experiment again into another --out",
  );
  assert(!err.message.includes("\n"));
  Deno.removeSync(dir, { recursive: true });
});

Deno.test("ResultsStore keeps the events table countable with SQL", () => {
  const dir = Deno.makeTempDirSync();
  const path = `${dir}/results.sqlite`;
  {
    using store = ResultsStore.open(path, { config });
    store.add(episode("oracle", "airline/1", 0));
    store.add(episode("oracle", "airline/1", 1));
  }
  {
    using db = Store.open(undefined, { path });
    assertEquals(Number(db.get<{ n: number }>("SELECT count(*) AS n FROM events")!.n), 12);
  }
  Deno.removeSync(dir, { recursive: true });
});

// The config of `smallStore()`: one airline task, oracle, nominal only, two runs.
const tinyConfig = (dir: string) =>
  resolveConfig({
    domains: ["airline"],
    agents: ["oracle"],
    tasks: 1,
    runs: 2,
    suite: "tasks",
    conditions: { fault: false, env: false, prompt: false },
    out: dir,
  });

// A store of two finished episodes, closed, at `<dir>/results.sqlite`.
async function smallStore(dir: string): Promise<string> {
  const path = `${dir}/results.sqlite`;
  using store = ResultsStore.open(path, { config: tinyConfig(dir) });
  await runExperiment(tinyConfig(dir), { sink: store });
  return path;
}

Deno.test("ResultsStore.open() refuses an empty file instead of taking it for a new experiment", () => {
  const dir = Deno.makeTempDirSync();
  try {
    const path = `${dir}/results.sqlite`;
    Deno.writeFileSync(path, new Uint8Array());
    for (const open of [() => ResultsStore.open(path, { config }), () => ResultsStore.read(path)]) {
      const err = assertThrows(open, ResultsStoreError);
      assertEquals(err.code, "corrupt");
      assertEquals(
        err.message,
        `Cannot open results store "${path}": not an ark store (the file is empty); move it away`,
      );
    }
    assertEquals(Deno.statSync(path).size, 0, "left as it was");
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("ResultsStore says in one line that a file with flipped bytes is corrupt, wherever they are", async () => {
  const dir = Deno.makeTempDirSync();
  try {
    const bytes = Deno.readFileSync(await smallStore(dir));
    const damaged = `${dir}/damaged.sqlite`;
    let found = 0;
    // Every 512th byte past the header flipped in turn: each either changes nothing SQLite or the codec
    // reads, or is found, at the open or at a read, as a "corrupt" error; never another error.
    for (let at = 100; at < bytes.length; at += 512) {
      const copy = bytes.slice();
      for (let i = at; i < at + 8 && i < copy.length; i++) copy[i] ^= 0xff;
      Deno.writeFileSync(damaged, copy);
      try {
        using store = ResultsStore.open(damaged, { config: tinyConfig(dir) });
        store.records();
        for (const r of store.records()) store.events({ ...r, variant: r.variant ?? null });
        store.finishedKeys();
      } catch (err) {
        if (!(err instanceof ResultsStoreError) || !["corrupt", "mismatch", "not_results"].includes(err.code)) {
          throw new Error(`byte ${at}: ${err}`);
        }
        assert(!err.message.includes("\n"), err.message);
        if (err.code === "corrupt") found++;
      }
    }
    assert(found > 0, "no flip was found");
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("ResultsStore.open() is refused at once while another writer holds the store, and taken over after", async () => {
  const dir = Deno.makeTempDirSync();
  try {
    const path = await smallStore(dir);
    const first = ResultsStore.open(path, { config: tinyConfig(dir) });
    const before = first.count();
    const err = assertThrows(() => ResultsStore.open(path, { config: tinyConfig(dir) }), ResultsStoreError);
    assertEquals([err.code, err.message], ["locked", `"${dir}" is being written by process ${Deno.pid}`]);
    assertEquals(first.count(), before, "the first writer goes on unharmed");
    first.close();
    assertEquals([...Deno.readDirSync(dir)].some((e) => e.name.endsWith(".lock")), false, "the lock file is gone");
    // A lock file a killed writer left (its process gone, so no lock held on it) is taken over.
    Deno.writeTextFileSync(`${path}.lock`, "999999999\n");
    using again = ResultsStore.open(path, { config: tinyConfig(dir) });
    assertEquals(again.count(), before);
    assertEquals(Deno.readTextFileSync(`${path}.lock`), `${Deno.pid}\n`);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
