import { assertEquals, assertThrows } from "@std/assert";
import { Store } from "./sqlite.ts";

const SCHEMA =
  "CREATE TABLE t (id TEXT PRIMARY KEY, v INTEGER, w TEXT); CREATE TABLE p (a TEXT, b INTEGER, x TEXT, PRIMARY KEY (a, b))";

Deno.test("Store.track() decodes inserts, updates and deletes into full rows", () => {
  using store = Store.open(SCHEMA);
  store.insert({ t: [{ id: "a", v: 1, w: "x" }, { id: "b", v: 2, w: "y" }], p: [{ a: "k", b: 1, x: "old" }] });
  using tracker = store.track();
  store.run("UPDATE t SET v = 5 WHERE id = 'a'");
  store.run("INSERT INTO t VALUES ('c', 3, NULL)");
  store.run("DELETE FROM t WHERE id = 'b'");
  store.run("UPDATE p SET x = 'new' WHERE a = 'k' AND b = 1");
  assertEquals(tracker.changes(), [
    { table: "p", key: ["k", 1], before: { a: "k", b: 1, x: "old" }, after: { a: "k", b: 1, x: "new" } },
    { table: "t", key: ["a"], before: { id: "a", v: 1, w: "x" }, after: { id: "a", v: 5, w: "x" } },
    { table: "t", key: ["b"], before: { id: "b", v: 2, w: "y" }, after: null },
    { table: "t", key: ["c"], before: null, after: { id: "c", v: 3, w: null } },
  ]);
});

Deno.test("Store.track() leaves out a row changed and changed back", () => {
  using store = Store.open(SCHEMA);
  store.insert({ t: [{ id: "a", v: 1, w: "x" }] });
  using tracker = store.track();
  store.run("UPDATE t SET v = 9 WHERE id = 'a'");
  store.run("UPDATE t SET v = 1 WHERE id = 'a'");
  assertEquals(tracker.changes(), []);
});

Deno.test("Store.readOnly() refuses writes and allows reads", () => {
  using store = Store.open(SCHEMA);
  store.insert({ t: [{ id: "a", v: 1, w: "x" }] });
  assertThrows(() => store.readOnly(() => store.run("UPDATE t SET v = 2")), Error, "not authorized");
  assertEquals(store.readOnly(() => store.get("SELECT v FROM t")), { v: 1 });
  // A statement prepared in write mode is not reused in read-only mode.
  store.run("UPDATE t SET v = 3");
  assertThrows(() => store.readOnly(() => store.run("UPDATE t SET v = 3")), Error, "not authorized");
  assertEquals(store.get<{ v: number }>("SELECT v FROM t")?.v, 3);
});

Deno.test("Store.snapshot() and restore() bring back the whole state", () => {
  using store = Store.open(SCHEMA);
  store.insert({ t: [{ id: "a", v: 1, w: "x" }] });
  const image = store.snapshot();
  store.run("UPDATE t SET v = 2");
  store.restore(image);
  assertEquals(store.get("SELECT v FROM t"), { v: 1 });
  using copy = Store.fromSnapshot(image);
  assertEquals(copy.all("SELECT id FROM t"), [{ id: "a" }]);
});

Deno.test("Store.begin() and rollback() undo an episode's writes", () => {
  using store = Store.open(SCHEMA);
  store.insert({ t: [{ id: "a", v: 1, w: "x" }] });
  store.begin();
  store.run("UPDATE t SET v = 2");
  store.rollback();
  assertEquals(store.get("SELECT v FROM t"), { v: 1 });
});
