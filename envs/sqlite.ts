/**
 * `Store`, the one module that touches SQLite (Deno's built-in `node:sqlite`) besides its guards
 * (`_sql_host.ts`) and its change log (`_capture.ts`): cached prepared statements, read-only sections,
 * bounded queries, snapshots and change tracking (by SQLite sessions, or cheaper by triggers).
 *
 * @module
 */
import { DatabaseSync, type StatementSync } from "node:sqlite";
import { ChangeTracker, type RowChange } from "./changeset.ts";
import { ChangeLog } from "./_capture.ts";
import type { Json } from "./json.ts";
import {
  type Column,
  QUERY_LIMITS,
  type QueryLimits,
  QueryRefused,
  type QueryResult,
  type SqlEnv,
  SQLITE_HEAP_LIMIT,
  type SqlValue,
} from "./query.ts";
import { type PlanRow, unboundedPlan } from "./_query_plan.ts";
import {
  authorize,
  type Bounded,
  MAIN_SCHEMA,
  QUERY_COLUMNS,
  quoteName,
  replaceHostFunctions,
  runRefusal,
  SQLITE_OK,
  withoutLiterals,
} from "./_sql_host.ts";

/** The rows of a world, by table, in insertion order. */
export type Rows = Record<string, Record<string, Json>[]>;

let heapLimited = false;

/**
 * A SQLite database: cached prepared statements, read-only sections, snapshots,
 * and change tracking through SQLite sessions.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { Store } from "./sqlite.ts";
 * using store = Store.open("CREATE TABLE t (id TEXT PRIMARY KEY, v INTEGER)");
 * assertEquals(store.run("INSERT INTO t VALUES (?, ?)", "a", 1), 1);
 * assertEquals(store.get<{ v: number }>("SELECT v FROM t WHERE id = ?", "a"), { v: 1 });
 * ```
 */
export class Store {
  #db: DatabaseSync;
  #rw = new Map<string, StatementSync>();
  #ro = new Map<string, StatementSync>();
  #readOnly = false;
  #columns = new Map<string, Column[]>();

  #env: SqlEnv | null = null;
  // While `query()` runs: rows left to read, whether they ran out, and why the authorizer refused.
  #bounded: Bounded | null = null;
  #ddl = false;
  #changeLog: ChangeLog | null = null; // the rows writes touch while a `capture()` is open

  private constructor(db: DatabaseSync) {
    this.#db = db;
    // SQLite's hard heap limit is the process's, and the pragma can only lower it: set once, for all.
    if (!heapLimited) {
      db.exec(`PRAGMA hard_heap_limit = ${SQLITE_HEAP_LIMIT}`);
      heapLimited = true;
    }
    // `setAuthorizer` exists at run time but not yet in Deno's type declarations.
    (this.#db as unknown as {
      setAuthorizer(fn: (action: number, a: string | null, b: string | null) => number): void;
    }).setAuthorizer((action, _a, b) => this.#authorize(action, b));
    this.#replaceHostFunctions();
  }

  #authorize(action: number, fn: string | null): number {
    return this.#ddl ? SQLITE_OK : authorize(action, fn, this.#bounded, this.#readOnly);
  }

  // A user function must never throw: an exception in one leaves node:sqlite's statement hanging.
  #replaceHostFunctions(): void {
    replaceHostFunctions(this.#db, { bounded: () => this.#bounded, env: () => this.#env });
  }

  /**
   * Runs `fn` with `'now'` and `random()` in SQL answered from `env` (see `SqlEnv`).
   *
   * @example
   * ```ts
   * import { assertEquals } from "@std/assert";
   * import { Store } from "./sqlite.ts";
   * using store = Store.open();
   * const env = { now: () => "2024-05-15 15:00:00", random: () => 0.5 };
   * assertEquals(store.withEnv(env, () => store.get("SELECT date('now') AS d")), { d: "2024-05-15" });
   * assertEquals(store.get("SELECT date('now') AS d"), { d: null });
   * ```
   */
  withEnv<T>(env: SqlEnv, fn: () => T): T {
    const before = this.#env;
    this.#env = env;
    try {
      return fn();
    } finally {
      this.#env = before;
    }
  }

  /**
   * Runs SQL someone else wrote (an agent's), read-only and bounded: every table is read through a
   * view that counts its rows, and the query is refused when it would change anything, is recursive,
   * loops over a result it made inside another loop (the plan says), or reads more than `maxReads`
   * rows in all. Throws `QueryRefused` saying why, or SQLite's own error for bad SQL.
   *
   * @example
   * ```ts
   * import { assertEquals } from "@std/assert";
   * import { Store } from "./sqlite.ts";
   * using store = Store.open("CREATE TABLE t (v INTEGER); INSERT INTO t VALUES (1), (2), (3)");
   * assertEquals(store.query("SELECT v FROM t ORDER BY v", { maxRows: 2 }), {
   *   columns: ["v"],
   *   rows: [[1], [2]],
   *   truncated: true,
   * });
   * ```
   */
  query(sql: string, limits: Partial<QueryLimits> = {}): QueryResult {
    const lim = { ...QUERY_LIMITS, ...limits };
    if (sql.length > lim.maxLength) {
      throw new QueryRefused(`it is ${sql.length} characters long; at most ${lim.maxLength} are accepted`);
    }
    // A table named with its schema would be read around the view that counts its rows.
    const bare = withoutLiterals(sql);
    if (bare === null) throw new QueryRefused("a quoted name holds a dot: name tables and columns without one");
    if (MAIN_SCHEMA.test(bare)) throw new QueryRefused('it names the schema "main": name tables alone');
    const db = this.#db as unknown as DatabaseSync & { limits: { length: number; column: number } };
    const tables = (db.prepare(
      "SELECT name FROM main.sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name",
    ).all() as { name: string }[]).map((r) => r.name);
    const lengthBefore = db.limits.length;
    const columnsBefore = db.limits.column;
    this.#asDdl(() => {
      for (const t of tables) {
        const first = quoteName(this.columns(t)[0].name);
        db.exec(
          `CREATE TEMP VIEW ${quoteName(t)} AS SELECT * FROM main.${quoteName(t)} WHERE __ark_read(main.${
            quoteName(t)
          }.${first})`,
        );
      }
    });
    const state = { left: lim.maxReads, exhausted: false, refused: null as string | null, stop: "" };
    this.#bounded = state;
    try {
      db.limits.length = lim.maxValueBytes;
      db.limits.column = QUERY_COLUMNS;
      state.stop = "x".repeat(lim.maxValueBytes + 1);
      // node:sqlite's iterate() ends quietly on an error, so the rows are taken whole, one more than
      // are handed back; the columns are named by the query as written.
      const limited = `SELECT * FROM (\n${sql}\n) LIMIT ${lim.maxRows + 1}`;
      let plan: PlanRow[];
      let stmt: StatementSync;
      let columns: string[];
      try {
        columns = db.prepare(sql).columns().map((c) => c.name);
        stmt = db.prepare(limited);
        plan = db.prepare(`EXPLAIN QUERY PLAN ${limited}`).all() as unknown as PlanRow[];
      } catch (err) {
        if (state.refused !== null) throw new QueryRefused(state.refused);
        // A write names a table, which is a counting view here.
        if (/cannot modify .* because it is a view/.test(String(err))) {
          throw new QueryRefused("it would change the database");
        }
        throw err;
      }
      const unbounded = unboundedPlan(
        plan.map((r) => ({ id: Number(r.id), parent: Number(r.parent), detail: String(r.detail) })),
      );
      if (unbounded !== null) throw new QueryRefused(unbounded);
      // `setReturnArrays` exists at run time but not yet in Deno's type declarations.
      (stmt as unknown as { setReturnArrays(on: boolean): void }).setReturnArrays(true);
      stmt.setReadBigInts(true);
      let rows: SqlValue[][];
      try {
        rows = stmt.all() as unknown as SqlValue[][];
      } catch (err) {
        throw runRefusal(err, state, lim) ?? err;
      }
      if (state.exhausted) throw runRefusal(null, state, lim)!;
      // Integers are read as bigints (a number past 2^53 would be an error) and handed back as numbers
      // where they fit.
      const fit = (v: SqlValue) =>
        typeof v === "bigint" && v <= BigInt(Number.MAX_SAFE_INTEGER) && v >= -BigInt(Number.MAX_SAFE_INTEGER)
          ? Number(v)
          : v;
      return {
        columns,
        rows: rows.slice(0, lim.maxRows).map((r) => r.map(fit)),
        truncated: rows.length > lim.maxRows,
      };
    } finally {
      this.#bounded = null;
      db.limits.length = lengthBefore;
      db.limits.column = columnsBefore;
      this.#asDdl(() => {
        for (const t of tables) db.exec(`DROP VIEW IF EXISTS temp.${quoteName(t)}`);
      });
    }
  }

  /** Opens a database (in memory by default) and runs `schema` on it when given. */
  static open(schema?: string, options: { path?: string } = {}): Store {
    const store = new Store(new DatabaseSync(options.path ?? ":memory:"));
    if (schema) store.exec(schema);
    return store;
  }

  /** Opens an in-memory database from an image made by `snapshot()`. */
  static fromSnapshot(image: Uint8Array): Store {
    const store = new Store(new DatabaseSync(":memory:"));
    store.restore(image);
    return store;
  }

  #prepare(sql: string): StatementSync {
    const cache = this.#readOnly ? this.#ro : this.#rw;
    let stmt = cache.get(sql);
    if (!stmt) {
      // Statements are authorised when prepared: read-only ones live in their own cache.
      stmt = this.#db.prepare(sql);
      cache.set(sql, stmt);
    }
    return stmt;
  }

  /** Runs SQL without results (several statements allowed). */
  exec(sql: string): void {
    this.#db.exec(sql);
  }

  /** All rows of a query. */
  all<T = Record<string, SqlValue>>(sql: string, ...params: SqlValue[]): T[] {
    return this.#prepare(sql).all(...params) as T[];
  }

  /** The first row of a query, or `undefined`. */
  get<T = Record<string, SqlValue>>(sql: string, ...params: SqlValue[]): T | undefined {
    return this.#prepare(sql).get(...params) as T | undefined;
  }

  /** Runs one statement and returns how many rows it changed. */
  run(sql: string, ...params: SqlValue[]): number {
    return Number(this.#prepare(sql).run(...params).changes);
  }

  /** Runs `fn` with every write refused by SQLite's authorizer. */
  readOnly<T>(fn: () => T): T {
    if (this.#readOnly) return fn();
    this.#readOnly = true;
    try {
      return fn();
    } finally {
      this.#readOnly = false;
    }
  }

  /** Whether writes are currently refused. */
  get isReadOnly(): boolean {
    return this.#readOnly;
  }

  /** Inserts rows, table by table, in order. JSON objects and arrays are stored as JSON text. */
  insert(rows: Rows): void {
    this.transaction(() => {
      for (const [table, list] of Object.entries(rows)) {
        if (list.length === 0) continue;
        const cols = Object.keys(list[0]);
        const sql = `INSERT INTO "${table}" (${cols.map((c) => `"${c}"`).join(", ")}) VALUES (${
          cols.map(() => "?").join(", ")
        })`;
        const stmt = this.#db.prepare(sql);
        for (const row of list) stmt.run(...cols.map((c) => toSql(row[c])));
      }
    });
  }

  /** Runs `fn` in a transaction: committed if it returns, rolled back if it throws. */
  transaction<T>(fn: () => T): T {
    this.#db.exec("BEGIN");
    try {
      const out = fn();
      this.#db.exec("COMMIT");
      return out;
    } catch (err) {
      this.#db.exec("ROLLBACK");
      throw err;
    }
  }

  /** Starts a transaction that `rollback()` undoes (the fast way to reset a world). */
  begin(): void {
    this.#db.exec("BEGIN");
  }

  /** Undoes everything since `begin()`. */
  rollback(): void {
    if (this.#db.isTransaction) this.#db.exec("ROLLBACK");
  }

  /** Whether a transaction is open. */
  get inTransaction(): boolean {
    return this.#db.isTransaction;
  }

  /** The whole database as a byte image. */
  snapshot(): Uint8Array {
    // deno-lint-ignore no-explicit-any
    return (this.#db as any).serialize();
  }

  /** Replaces the whole database by an image made by `snapshot()`. */
  restore(image: Uint8Array): void {
    // Deserialising finalises every prepared statement.
    this.#rw.clear();
    this.#ro.clear();
    this.#columns.clear();
    this.#changeLog?.beforeReplace();
    // deno-lint-ignore no-explicit-any
    (this.#db as any).deserialize(image);
    this.#changeLog?.replaced();
  }

  /** Starts recording every change to every table; read the changes with `changes()` on the result. */
  track(): ChangeTracker {
    return new ChangeTracker(this, this.#db.createSession());
  }

  /**
   * Starts recording every change as `track()` does, by triggers instead of a session: the same
   * changes, far cheaper. Read them with `changes()` while the changed state is live.
   *
   * @example
   * ```ts
   * import { assertEquals } from "@std/assert";
   * import { Store } from "./sqlite.ts";
   * using store = Store.open("CREATE TABLE t (id TEXT PRIMARY KEY, v INTEGER); INSERT INTO t VALUES ('a', 1)");
   * using capture = store.capture();
   * store.run("UPDATE t SET v = 2 WHERE id = 'a'");
   * assertEquals(capture.changes(), [{ table: "t", key: ["a"], before: { id: "a", v: 1 }, after: { id: "a", v: 2 } }]);
   * ```
   */
  capture(): { changes(): RowChange[] } & Disposable {
    this.#changeLog ??= new ChangeLog(this.#db, {
      writing: () => !this.#readOnly && this.#bounded === null,
      ddl: (fn) => this.#asDdl(fn),
    });
    return this.#changeLog.capture();
  }

  #asDdl(fn: () => void): void {
    this.#ddl = true;
    try {
      fn();
    } finally {
      this.#ddl = false;
    }
  }

  /** Column names and primary-key positions of a table. */
  columns(table: string): Column[] {
    let cols = this.#columns.get(table);
    if (!cols) {
      cols = (this.#db.prepare(`PRAGMA table_info("${table}")`).all() as unknown as Column[])
        .map((c) => ({ name: c.name, pk: Number(c.pk) }));
      this.#columns.set(table, cols);
    }
    return cols;
  }

  /** Closes the database. */
  close(): void {
    if (this.#db.isOpen) this.#db.close();
  }

  /** Closes the database (`using store = Store.open(...)`). */
  [Symbol.dispose](): void {
    this.close();
  }
}

function toSql(value: Json | undefined): SqlValue {
  if (value === undefined || value === null) return null;
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "object") return JSON.stringify(value);
  return value;
}
