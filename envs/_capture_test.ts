// Store.capture() (triggers) against Store.track() (a SQLite session, the reference it replaces):
// the same changes in the same order and shapes, case by case, on random writes, and on every
// registered domain's gold calls.
import { assert, assertEquals, assertThrows } from "@std/assert";
import { Store } from "./sqlite.ts";
import { Rng } from "./rng.ts";
import { World } from "./world.ts";
import { domains } from "./domains.ts";
import type { RowChange } from "./changeset.ts";
import type { SqlValue } from "./query.ts";

const SCHEMA = `
CREATE TABLE t (id TEXT PRIMARY KEY, v INTEGER, w);
CREATE TABLE p (a TEXT, b INTEGER, x TEXT, PRIMARY KEY (a, b)) WITHOUT ROWID;
CREATE TABLE r (id INTEGER PRIMARY KEY, u TEXT UNIQUE, v REAL);
CREATE TABLE n (x);`;

function seeded(): Store {
  const store = Store.open(SCHEMA);
  store.insert({
    t: [{ id: "a", v: 1, w: "x" }, { id: "b", v: 2, w: "y" }],
    p: [{ a: "k", b: 1, x: "old" }],
    r: [{ id: 1, u: "e1", v: 1.5 }],
  });
  return store;
}

// JSON text that also tells an object without a prototype (node:sqlite's rows) from a plain one.
function shape(changes: readonly RowChange[]): string {
  return JSON.stringify(
    changes,
    (_k, v) =>
      v !== null && typeof v === "object" && !Array.isArray(v)
        ? { proto: Object.getPrototypeOf(v) === null ? "none" : "object", ...v }
        : v,
  );
}

// Runs `writes` under both a session and a capture; asserts they give the same changes, and returns them.
function both(store: Store, writes: () => void): RowChange[] {
  using session = store.track();
  using capture = store.capture();
  writes();
  const want = session.changes();
  assertEquals(shape(capture.changes()), shape(want));
  return want;
}

Deno.test("Store.capture() gives inserts, updates and deletes as full rows, as a session does", () => {
  using store = seeded();
  const changes = both(store, () => {
    store.run("UPDATE t SET v = 5 WHERE id = 'a'");
    store.run("INSERT INTO t VALUES ('c', 3, NULL)");
    store.run("DELETE FROM t WHERE id = 'b'");
    store.run("UPDATE p SET x = 'new' WHERE a = 'k' AND b = 1");
  });
  assertEquals(changes, [
    { table: "p", key: ["k", 1], before: { a: "k", b: 1, x: "old" }, after: { a: "k", b: 1, x: "new" } },
    { table: "t", key: ["a"], before: { id: "a", v: 1, w: "x" }, after: { id: "a", v: 5, w: "x" } },
    { table: "t", key: ["b"], before: { id: "b", v: 2, w: "y" }, after: null },
    { table: "t", key: ["c"], before: null, after: { id: "c", v: 3, w: null } },
  ]);
});

Deno.test("Store.capture() leaves out updates that change nothing, rows changed back, rows inserted then deleted", () => {
  using store = seeded();
  const changes = both(store, () => {
    store.run("UPDATE t SET v = v, w = w");
    store.run("UPDATE t SET v = 9 WHERE id = 'a'");
    store.run("UPDATE t SET v = 1 WHERE id = 'a'");
    store.run("INSERT INTO t VALUES ('c', 3, NULL)");
    store.run("DELETE FROM t WHERE id = 'c'");
    store.run("DELETE FROM t WHERE id = 'b'");
    store.run("INSERT INTO t VALUES ('b', 2, 'y')");
    // A table without a primary key is not tracked (a session ignores it).
    store.run("INSERT INTO n VALUES (1)");
  });
  assertEquals(changes, []);
});

Deno.test("Store.capture() nets several writes to a row, within a call and across calls", () => {
  using store = seeded();
  using session = store.track();
  using episode = store.capture();
  const call = (fn: () => void) => both(store, fn);
  const first = call(() => {
    store.run("UPDATE t SET v = v + 1 WHERE id = 'a'");
    store.run("UPDATE t SET v = v + 1, w = 'z' WHERE id = 'a'");
  });
  assertEquals(first, [{
    table: "t",
    key: ["a"],
    before: { id: "a", v: 1, w: "x" },
    after: { id: "a", v: 3, w: "z" },
  }]);
  const second = call(() => store.run("UPDATE t SET v = v + 1 WHERE id = 'a'"));
  // The second call's own change: from where the first left the row.
  assertEquals(second, [{
    table: "t",
    key: ["a"],
    before: { id: "a", v: 3, w: "z" },
    after: { id: "a", v: 4, w: "z" },
  }]);
  call(() => store.run("UPDATE t SET id = 'q' WHERE id = 'a'"));
  assertEquals(shape(episode.changes()), shape(session.changes()));
  assertEquals(episode.changes().map((c) => [c.key, c.before === null, c.after === null]), [
    [["a"], false, true],
    [["q"], true, false],
  ]);
});

Deno.test("Store.capture() sees a REPLACE's deletes, an upsert, types and blobs as a session does", () => {
  using store = seeded();
  both(store, () => {
    store.run("INSERT OR REPLACE INTO r (u, v) VALUES ('e1', 2.5)");
    store.run("INSERT INTO r (u, v) VALUES ('e2', 3) ON CONFLICT (u) DO UPDATE SET v = excluded.v");
    store.run("INSERT INTO r (u, v) VALUES ('e2', 4) ON CONFLICT (u) DO UPDATE SET v = excluded.v");
    store.run("UPDATE t SET w = x'0102' WHERE id = 'a'");
    // An integer and a real of one value are two values to SQLite.
    store.run("UPDATE t SET w = 2.0 WHERE id = 'b'");
    store.run("UPDATE t SET w = NULL WHERE id = 'b'");
  });
  store.run("UPDATE t SET w = 2 WHERE id = 'b'");
  const changes = both(store, () => store.run("UPDATE t SET w = 2.0 WHERE id = 'b'"));
  assertEquals(changes.length, 1);
});

Deno.test("Store.capture() starts afresh after a rollback, a restore and a new table", () => {
  using store = seeded();
  for (let i = 0; i < 3; i++) {
    store.begin();
    const changes = both(store, () => store.run("UPDATE t SET v = v + 1 WHERE id = 'a'"));
    assertEquals(changes.map((c) => [c.before?.v, c.after?.v]), [[1, 2]]);
    store.rollback();
  }
  // Made inside a transaction, the triggers go with its rollback: the next capture makes them again.
  using other = seeded();
  other.begin();
  {
    using _capture = other.capture();
  }
  other.rollback();
  both(other, () => other.run("DELETE FROM t"));
  const image = store.snapshot();
  store.run("UPDATE t SET v = 7");
  store.query("SELECT * FROM t");
  store.restore(image);
  assertEquals(both(store, () => store.run("UPDATE t SET v = 8 WHERE id = 'b'")).length, 1);
  store.exec("CREATE TABLE u (id INTEGER PRIMARY KEY, s TEXT)");
  assertEquals(both(store, () => store.run("INSERT INTO u VALUES (5, 's')")), [
    { table: "u", key: [5], before: null, after: { id: 5, s: "s" } },
  ]);
});

Deno.test("Store.capture() keeps what it logged when a table is made while it is open", () => {
  using store = seeded();
  both(store, () => {
    store.run("UPDATE t SET v = 5 WHERE id = 'a'");
    store.exec("CREATE TABLE a_first (id INTEGER PRIMARY KEY)");
    // A capture opened now makes the triggers again, the new table's among them (it sorts first).
    both(store, () => store.run("INSERT INTO a_first VALUES (1)"));
    store.run("UPDATE t SET v = 6 WHERE id = 'a'");
    store.run("DELETE FROM p");
  });
});

Deno.test("Store.capture() takes no touch from read-only SQL or an agent's query", () => {
  using store = seeded();
  using capture = store.capture();
  store.readOnly(() => store.get("SELECT __ark_touch(0, 0, 'a', 99, 'zz')"));
  try {
    store.query("SELECT __ark_touch(0, 0, 'a', 99, 'zz')");
  } catch {
    // refused or not: it must record nothing
  }
  store.run("UPDATE t SET v = 5 WHERE id = 'a'");
  assertEquals(capture.changes().map((c) => c.before), [{ id: "a", v: 1, w: "x" }]);
  capture[Symbol.dispose]();
  assertThrows(() => capture.changes(), Error, "capture that is closed");
});

// Random writes over the tables, checked against a session in nested stretches. A key column holds
// values of one type (as every domain's do): `compareKeys()` orders keys of one type only, so keys of
// mixed types would come in the order each gathered them.
Deno.test("Store.capture() agrees with a session on random writes", () => {
  const rng = new Rng("capture");
  const values: SqlValue[] = [null, 0, 1, 2, 1.5, 2.0, -0.0, "a", "b", "", new Uint8Array([1, 2])];
  const ids = ["a", "b", "c", "d", "1", null];
  // ?1 a text key, ?2 any value, ?3 another text key, ?4 an integer.
  const writes = [
    "UPDATE t SET v = ?2, w = ?4 WHERE id = ?1",
    "INSERT OR IGNORE INTO t (id, v, w) VALUES (?1, ?2, ?4)",
    "INSERT OR REPLACE INTO r (id, u, v) VALUES (?4, ?2, ?1)",
    "UPDATE r SET u = ?2, v = ?1 WHERE id = ?4",
    "UPDATE OR REPLACE r SET id = ?4 WHERE u = ?2",
    "DELETE FROM t WHERE id = ?1 OR v = ?2",
    "INSERT INTO p (a, b, x) VALUES (?1, ?4, ?2) ON CONFLICT (a, b) DO UPDATE SET x = excluded.x",
    "UPDATE t SET id = ?3 WHERE id = ?1",
    "UPDATE p SET b = ?4 WHERE a = ?1",
  ];
  let compared = 0;
  for (let round = 0; round < 40; round++) {
    using store = seeded();
    store.begin();
    using session = store.track();
    using episode = store.capture();
    for (let call = 0; call < 6; call++) {
      both(store, () => {
        for (let i = rng.int(0, 4); i > 0; i--) {
          try {
            store.run(rng.pick(writes), rng.pick(ids), rng.pick(values), rng.pick(ids), rng.int(0, 3));
          } catch {
            // a constraint: the statement is undone, and its touches must not count
          }
        }
      });
      compared++;
    }
    assertEquals(shape(episode.changes()), shape(session.changes()));
    store.rollback();
  }
  assertEquals(compared, 240);
});

Deno.test("World.beginEpisode() records what a session records of every domain's gold calls", () => {
  for (const domain of Object.values(domains)) {
    using world = World.open(domain, { seed: "0" });
    let writes = 0;
    for (const task of world.defaultTasks(50)) {
      using recording = world.beginEpisode();
      using session = world.store.track();
      const ctx = world.taskContext(task);
      for (const call of task.gold) {
        const tool = world.tool(call.name);
        if (!tool?.writes || tool.terminates) {
          world.call(ctx, call.name, call.args);
          continue;
        }
        using own = world.store.track();
        const { changes } = recording.during(() => world.call(ctx, call.name, call.args));
        assertEquals(shape(changes), shape(own.changes()), `${task.id} ${call.name}`);
        writes += changes.length > 0 ? 1 : 0;
      }
      assertEquals(shape(recording.changes()), shape(session.changes()), task.id);
    }
    assert(writes > 0, domain.name);
  }
});
