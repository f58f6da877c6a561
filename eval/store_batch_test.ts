// ResultsStore's batches: what is pending, when it is committed, and a batch that fails.
import { assert, assertEquals, assertThrows } from "@std/assert";
import { type EpisodeEvent, type Json, Store } from "../envs/mod.ts";
import type { Cell } from "./cell.ts";
import { resolveConfig } from "./config.ts";
import type { EpisodeRecord } from "./records.ts";
import { BATCH, type FinishedEpisode, ResultsStore } from "./store.ts";
import { SQUEEZE_FROM } from "./_store_codec.ts";

const config = resolveConfig({ tasks: 2, runs: 2 });

function episode(run: number, result: Json = { run }): FinishedEpisode {
  const cell: Cell = { agent: "oracle", task: "airline/1", run, condition: "nominal", variant: null, seed: `s${run}` };
  const record = {
    agent: cell.agent,
    task: cell.task,
    run,
    condition: cell.condition,
    variant: null,
    success: true,
    actions: ["get_user_details"],
    resources: { time: 1 },
    confidence: null,
    milestones: { total: 1, reached: 1, achieved: 1 },
    steps: 2,
    first_error_step: null,
    faults: 0,
    recovered: false,
  } as unknown as EpisodeRecord;
  const events: EpisodeEvent[] = [
    { step: 0, actor: "user", kind: "message", text: "Hi", latency_ms: 5 },
    { step: 1, actor: "tool", kind: "tool", tool: "get_user_details", args: { id: "u" }, result, latency_ms: 7 },
  ];
  return { cell, record, events };
}

// A store in a temporary folder, and a second connection to its file that sees only what is committed.
function stores(): { store: ResultsStore; committed: (sql?: string) => number } & Disposable {
  const dir = Deno.makeTempDirSync();
  const path = `${dir}/results.sqlite`;
  const store = ResultsStore.open(path, { config });
  const other = Store.open(undefined, { path });
  return {
    store,
    committed: (sql = "SELECT count(*) AS n FROM episodes") => Number(other.get<{ n: number }>(sql)!.n),
    [Symbol.dispose]() {
      other.close();
      store.close();
      Deno.removeSync(dir, { recursive: true });
    },
  };
}

Deno.test("ResultsStore.add() keeps episodes pending, refuses a pending cell, and flush() commits them", () => {
  using s = stores();
  assertEquals(s.store.add(episode(0)), true);
  assertEquals(s.store.add(episode(1)), true);
  assertEquals(s.store.add(episode(0)), false, "pending already");
  assertEquals(s.committed(), 0);
  s.store.flush();
  assertEquals(s.committed(), 2);
  assertEquals(s.store.add(episode(1)), false, "stored already");
  s.store.flush();
  assertEquals(s.committed(), 2);
});

Deno.test("ResultsStore commits a full batch at once, and every read commits what is pending first", () => {
  using s = stores();
  for (let run = 0; run < BATCH; run++) s.store.add(episode(run));
  assertEquals(s.committed(), BATCH);
  s.store.add(episode(BATCH));
  assertEquals(s.committed(), BATCH);
  const reads: [string, () => unknown][] = [
    ["count", () => s.store.count()],
    ["finishedKeys", () => s.store.finishedKeys()],
    ["records", () => s.store.records()],
    ["events", () => s.store.events(episode(0).cell)],
    ["updateRecords", () => s.store.updateRecords([])],
  ];
  for (const [name, read] of reads) {
    const run = BATCH + 1 + reads.findIndex(([n]) => n === name);
    s.store.add(episode(run));
    read();
    assertEquals(s.committed(), run + 1, `${name}() commits first`);
  }
});

Deno.test("ResultsStore.close() commits what is pending", () => {
  const dir = Deno.makeTempDirSync();
  const path = `${dir}/results.sqlite`;
  {
    using store = ResultsStore.open(path, { config });
    store.add(episode(0));
    store.add(episode(1));
  }
  using store = ResultsStore.read(path);
  assertEquals(store.records(), [episode(0).record, episode(1).record]);
  Deno.removeSync(dir, { recursive: true });
});

Deno.test("ResultsStore.flush() of a batch that fails stores nothing of it, throws, and the store goes on", () => {
  using s = stores();
  s.store.add(episode(0));
  s.store.flush();
  const tables = () => ["episodes", "names", "vals"].map((t) => s.committed(`SELECT count(*) AS n FROM ${t}`));
  const before = tables();
  // The commit fails at the batch's last episode, after the others, their names and values went in.
  {
    using db = Store.open(undefined, { path: s.store.path });
    db.exec(
      "CREATE TRIGGER refuse BEFORE INSERT ON episodes WHEN NEW.run = 9 BEGIN SELECT RAISE(ABORT, 'refused'); END",
    );
  }
  const batch = [
    episode(1, { new: "value" }),
    { ...episode(2), cell: { ...episode(2).cell, agent: "noisy" } },
    episode(9),
  ];
  for (const e of batch) assertEquals(s.store.add(e), true);
  assertThrows(() => s.store.flush(), Error, "refused");
  assertEquals(tables(), before, "no row of the batch is left");
  // What failed is not stored: the same cells are taken again, and nothing points at ids given before.
  {
    using db = Store.open(undefined, { path: s.store.path });
    db.exec("DROP TRIGGER refuse");
  }
  for (const e of batch) assertEquals(s.store.add(e), true);
  assertEquals(s.store.count(), 4);
  assertEquals(s.store.records(), [episode(0), ...batch].map((e) => e.record));
  for (const e of [episode(0), ...batch]) assertEquals(s.store.events(e.cell), e.events);
});

Deno.test("ResultsStore.add() that throws half-way leaves no value of that episode for others to point at", () => {
  using s = stores();
  const circular: Record<string, unknown> = {};
  circular.self = circular;
  const bad = episode(0, { first: "held" });
  (bad.events as EpisodeEvent[]).push({ step: 2, actor: "tool", kind: "tool", args: circular, latency_ms: 1 });
  assertThrows(() => s.store.add(bad), TypeError);
  const good = episode(1, { first: "held" });
  assert(s.store.add(good));
  assertEquals(s.store.events(good.cell), good.events);
  assertEquals(s.store.count(), 1);
});

Deno.test("ResultsStore.add() refuses at once an episode SQLite would refuse only at the commit", () => {
  using s = stores();
  s.store.add(episode(0));
  const bad = episode(1);
  delete (bad.record as Partial<EpisodeRecord>).steps;
  assertThrows(() => s.store.add(bad), TypeError, 'Cannot store an episode of "airline/1"');
  assertEquals(s.store.count(), 1, "the batch's other episodes are stored");
});

Deno.test("ResultsStore resumed stores a value once: one that episodes before the reopening held is not stored again", () => {
  const dir = Deno.makeTempDirSync();
  const path = `${dir}/results.sqlite`;
  const vals = () => {
    using db = Store.open(undefined, { path });
    return Number(db.get<{ n: number }>("SELECT count(*) AS n FROM vals")!.n);
  };
  {
    using store = ResultsStore.open(path, { config });
    store.add(episode(0, { shared: [1, 2, 3] }));
  }
  const before = vals();
  {
    using store = ResultsStore.open(path, { config });
    store.add(episode(1, { shared: [1, 2, 3] }));
    store.add(episode(2, { fresh: true }));
  }
  assertEquals(vals(), before + 1);
  using store = ResultsStore.read(path);
  for (const run of [0, 1, 2]) {
    const result: Json = run === 2 ? { fresh: true } : { shared: [1, 2, 3] };
    assertEquals(store.events(episode(run).cell), episode(run, result).events);
  }
  Deno.removeSync(dir, { recursive: true });
});

Deno.test("ResultsStore deflates an episode's text only when it is long, and reads both back", () => {
  const dir = Deno.makeTempDirSync();
  try {
    const path = `${dir}/results.sqlite`;
    const long = { text: "a long result ".repeat(SQUEEZE_FROM / 7) };
    {
      using store = ResultsStore.open(path, { config: resolveConfig({}) });
      store.add(episode(0, { short: true }));
      store.add(episode(1, long));
    }
    using db = Store.open(undefined, { path });
    const kinds = db.all<{ kind: string }>("SELECT typeof(data) AS kind FROM episodes ORDER BY id").map((r) => r.kind);
    assertEquals(kinds, ["text", "blob"]);
    using store = ResultsStore.read(path);
    const cell = (run: number) => ({ ...episode(run).cell });
    assertEquals(store.events(cell(0)), episode(0, { short: true }).events);
    assertEquals(store.events(cell(1)), episode(1, long).events);
    assertEquals(store.records().map((r) => r.run), [0, 1]);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
