// A results store of format 4, as ark 0.2.0 wrote it before format 5 (testdata/results_format4.json:
// its tables' rows, and the records and events that ark read back from them), is still read, and
// resumed in format 4.
import { assert, assertEquals } from "@std/assert";
import { type EpisodeEvent, Store } from "../envs/mod.ts";
import { resolveConfig } from "./config.ts";
import { configIdentity } from "./experiment.ts";
import type { EpisodeRecord } from "./records.ts";
import { ARK_VERSION, ResultsStore } from "./store.ts";
import { FORMAT_4, SCHEMA_4 } from "./_store_file.ts";

type Row = Record<string, string | number | null | { base64: string }>;
interface Fixture {
  names: Row[];
  vals: Row[];
  episodes: Row[];
  records: EpisodeRecord[];
  events: EpisodeEvent[][];
}
const fixture: Fixture = JSON.parse(Deno.readTextFileSync(new URL("testdata/results_format4.json", import.meta.url)));

// The experiment the fixture's episodes ran (its experiment row is written anew below, from this
// config, so that the test is about the encoding, not about this ark's identity fields).
const config = resolveConfig({
  domains: ["airline"],
  agents: ["oracle", "noisy"],
  tasks: 1,
  runs: 1,
  suite: "tasks",
  conditions: { fault: true, env: false, prompt: false },
});

const bytes = (b64: string) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));

// The fixture's tables in a file of format 4's schema.
function format4Store(dir: string): string {
  const path = `${dir}/results.sqlite`;
  using db = Store.open(SCHEMA_4, { path });
  const { "ark version": _, ...identity } = { ...configIdentity(config) } as Record<string, unknown>;
  db.run(
    "INSERT INTO experiment (id, name, config, seed, ark_version) VALUES (1, ?, ?, ?, ?)",
    config.experiment,
    JSON.stringify(identity),
    config.seed,
    ARK_VERSION,
  );
  for (const table of ["names", "vals", "episodes"] as const) {
    for (const row of fixture[table]) {
      const columns = Object.keys(row);
      const values = columns.map((c) => {
        const v = row[c];
        return v !== null && typeof v === "object" ? bytes(v.base64) : v;
      });
      db.run(`INSERT INTO ${table} (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`, ...values);
    }
  }
  return path;
}

const version = (path: string) => {
  using db = Store.open(undefined, { path });
  return Number(db.get<{ v: number }>("SELECT user_version AS v FROM pragma_user_version")!.v);
};

Deno.test("ResultsStore.read() reads a store of format 4 back as the ark that wrote it did", () => {
  const dir = Deno.makeTempDirSync();
  try {
    const path = format4Store(dir);
    assertEquals(version(path), FORMAT_4);
    using store = ResultsStore.read(path);
    assertEquals(store.count(), fixture.records.length);
    assertEquals(store.records(), fixture.records);
    for (const [i, r] of fixture.records.entries()) {
      assertEquals(store.events({ ...r, variant: r.variant ?? null }), fixture.events[i]);
    }
    // The fixture holds what events carry beyond the common fields.
    const events = fixture.events.flat();
    assert(events.some((e) => e.fault !== undefined) && events.some((e) => e.changes !== undefined));
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("ResultsStore.open() resumes a store of format 4 in format 4, in batches, and reads it back whole", () => {
  const dir = Deno.makeTempDirSync();
  try {
    const path = format4Store(dir);
    const added = fixture.records.map((record, i) => ({
      cell: { ...record, variant: record.variant ?? null, run: 7, seed: `resumed-${i}` },
      record: { ...record, run: 7 },
      events: fixture.events[i],
    }));
    {
      using store = ResultsStore.open(path, { config });
      assertEquals(store.finishedKeys().size, fixture.records.length);
      // A stored cell is refused; new ones are taken, and a pending one refused too.
      const first = fixture.records[0];
      assertEquals(store.add({ ...added[0], cell: { ...added[0].cell, run: first.run } }), false);
      for (const episode of added) assertEquals(store.add(episode), true);
      assertEquals(store.add(added[1]), false);
    }
    assertEquals(version(path), FORMAT_4, "still a store an older ark reads");
    using store = ResultsStore.read(path);
    assertEquals(store.records(), [...fixture.records, ...added.map((e) => e.record)]);
    for (const episode of added) assertEquals(store.events(episode.cell), episode.events);
    for (const [i, r] of fixture.records.entries()) {
      assertEquals(store.events({ ...r, variant: r.variant ?? null }), fixture.events[i]);
    }
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("ResultsStore.updateRecords() replaces a record of a store of format 4", () => {
  const dir = Deno.makeTempDirSync();
  try {
    const path = format4Store(dir);
    const [first, ...rest] = fixture.records;
    const judged = { ...first, success: !first.success, violations: [] };
    {
      using store = ResultsStore.open(path, { config });
      assertEquals(store.updateRecords([{ cell: { ...first, variant: first.variant ?? null }, record: judged }]), 1);
    }
    using store = ResultsStore.read(path);
    assertEquals(store.records(), [judged, ...rest]);
    assertEquals(store.events({ ...first, variant: first.variant ?? null }), fixture.events[0]);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
