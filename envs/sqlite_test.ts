import { assertEquals, assertStringIncludes, assertThrows } from "@std/assert";
import { QueryRefused, SQLITE_HEAP_LIMIT } from "./query.ts";
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

const numbers = () => {
  const store = Store.open("CREATE TABLE n (v INTEGER PRIMARY KEY, k TEXT)");
  store.insert({ n: Array.from({ length: 300 }, (_, i) => ({ v: i, k: i % 2 === 0 ? "even" : "odd" })) });
  return store;
};

Deno.test("Store.query() hands back at most maxRows rows in the query's order, and says when there were more", () => {
  using store = numbers();
  const r = store.query("SELECT v, k FROM n ORDER BY v DESC", { maxRows: 3 });
  assertEquals(r, { columns: ["v", "k"], rows: [[299, "odd"], [298, "even"], [297, "odd"]], truncated: true });
  assertEquals(store.query("SELECT count(*) AS c FROM n").rows, [[300]]);
  // An error met while rows are made is thrown, not a short answer.
  assertThrows(() => store.query("SELECT v, abs(-9223372036854775807 - 1 + v) FROM n"), Error, "integer overflow");
});

Deno.test("Store.query() refuses what its reads do not bound, saying why, and leaves the store as it was", () => {
  using store = numbers();
  const refused = (sql: string, limits = {}) => {
    try {
      store.query(sql, limits);
      return "ran";
    } catch (err) {
      return err instanceof QueryRefused ? err.message : `other: ${err}`;
    }
  };
  assertStringIncludes(
    refused("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c"),
    "recursive",
  );
  assertStringIncludes(refused("SELECT count(*) FROM n a, n b, n c", { maxReads: 10_000 }), "more than 10000 rows");
  assertStringIncludes(
    refused("WITH x AS MATERIALIZED (SELECT * FROM n) SELECT count(*) FROM x a, x b"),
    "once for every row",
  );
  assertStringIncludes(refused("SELECT count(*) FROM (VALUES (1), (2)) a, (VALUES (3), (4)) b"), "a VALUES list");
  assertStringIncludes(refused('SELECT count(*) FROM "main" . n'), 'names the schema "main"');
  assertStringIncludes(refused("DELETE FROM n"), "change the database");
  assertStringIncludes(refused("SELECT 1 " + " ".repeat(20_000)), "characters long");
  assertStringIncludes(refused("SELECT length(zeroblob(2000000))"), "longer than");
  assertStringIncludes(refused('SELECT count(*) AS "--" FROM main.n a, main.n b'), 'names the schema "main"');
  assertStringIncludes(refused('SELECT count(*) FROM n AS "main.x"'), "a quoted name holds a dot");
  assertStringIncludes(refused("SELECT total_changes(), last_insert_rowid()"), "earlier statements");
  assertStringIncludes(
    refused("WITH x AS MATERIALIZED (SELECT k FROM n) SELECT count(*) FROM x a JOIN x b ON a.k = b.k"),
    "looks up",
  );
  assertStringIncludes(refused("SELECT count(*) FROM n, json_each('[1,2]')"), "a table function");
  // Free rows around counted ones stop the query once the count runs out.
  assertStringIncludes(
    refused(
      "SELECT count(*) FROM json_each('[' || substr(replace(hex(zeroblob(5000)), '00', '0,'), 1, 9999) || ']') j CROSS JOIN n",
      {
        maxReads: 10_000,
      },
    ),
    "more than 10000 rows",
  );
  // Words inside a string are not SQL, and a join on a condition reads what it needs.
  assertEquals(store.query("SELECT 'main.n' AS s").rows, [["main.n"]]);
  assertEquals(store.query("SELECT count(*) FROM n a JOIN n b ON b.v = a.v").rows, [[300]]);
  // No view is left behind, writes work again, and long values are allowed again outside the query.
  assertEquals(store.all("SELECT name FROM temp.sqlite_schema"), []);
  assertEquals(store.run("DELETE FROM n WHERE v = 0"), 1);
  assertEquals(store.get("SELECT length(zeroblob(2000000)) AS l")?.l, 2_000_000);
  assertEquals(store.get("PRAGMA hard_heap_limit")?.hard_heap_limit, SQLITE_HEAP_LIMIT);
});

Deno.test("Store.withEnv(): 'now' and random() come from the environment given, and are NULL without one", () => {
  using store = Store.open();
  const sql = "SELECT date('now') AS d, datetime('now', '+1 day', 'localtime') AS t, unixepoch() AS u, random() AS r";
  const env = (seed: number) => {
    let x = seed;
    return { now: () => "2025-03-01 09:00:00", random: () => (x = (x * 9301 + 49297) % 233280) / 233280 };
  };
  const a = store.withEnv(env(1), () => store.get(sql));
  assertEquals([a?.d, a?.t, a?.u], ["2025-03-01", "2025-03-02 09:00:00", Date.parse("2025-03-01T09:00:00Z") / 1000]);
  assertEquals(store.withEnv(env(1), () => store.get(sql))?.r, a?.r);
  assertEquals({ ...store.get(sql) }, { d: null, t: null, u: null, r: null });
  // 'now' as a blob or cut by a NUL is still the environment's, and a zone is still none.
  const odd =
    "SELECT date(x'6e6f77') AS b, datetime('now' || char(0)) AS z, datetime('2024-01-01 12:00', 'localtime' || char(0)) AS l";
  assertEquals({ ...store.withEnv(env(1), () => store.get(odd)) }, {
    b: "2025-03-01",
    z: "2025-03-01 09:00:00",
    l: "2024-01-01 12:00:00",
  });
  // Integers past 2^53 and wrong argument counts are NULL, not a hang.
  assertEquals(
    { ...store.get("SELECT date(9223372036854775807) AS a, timediff('2020-01-01') AS b, strftime() AS c") },
    { a: null, b: null, c: null },
  );
  // A date function on a given date answers as SQLite's own.
  assertEquals(store.get("SELECT date('2024-02-28', '+1 day') AS d")?.d, "2024-02-29");
});
