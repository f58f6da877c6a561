// The one module that touches SQLite (Deno's built-in `node:sqlite`).
import { DatabaseSync, type StatementSync } from "node:sqlite";
import type { Json, RowChange, Rows } from "./types.ts";
import { type PlanRow, unboundedPlan } from "./_query_plan.ts";

/** A value SQLite can bind. */
export type SqlValue = null | number | bigint | string | Uint8Array;

// Authorizer action codes (sqlite3.h) that change a database.
const WRITE_ACTIONS = new Set([
  1,
  2,
  3,
  4,
  5,
  6,
  7,
  8, // CREATE_* (index, table, temp ..., trigger, view)
  9, // DELETE
  10,
  11,
  12,
  13,
  14,
  15,
  16,
  17, // DROP_*
  18, // INSERT
  23, // UPDATE
  26, // ALTER_TABLE
  27, // REINDEX
  29,
  30, // CREATE/DROP VTABLE
]);
const SQLITE_OK = 0;
const SQLITE_DENY = 1;
const SQLITE_FUNCTION = 31;
const SQLITE_RECURSIVE = 33;
// Functions whose answer is the connection's history (earlier episodes' writes), not its data.
const HISTORY_FUNCTIONS = new Set(["changes", "total_changes", "last_insert_rowid"]);
// randomblob() answers NULL past this many bytes (SQLite's uses are ids of 16).
const RANDOMBLOB_BYTES = 65_536;
// Columns a query's result may have (SQLite's limit while it runs): with the value limit, a row is bounded.
const QUERY_COLUMNS = 100;

/**
 * What SQL reads for `'now'` and `random()` while a tool runs: the episode's simulated clock and a
 * seeded generator, so a query gives the same answer in every run of the same seed. Without one,
 * `'now'` and `random()` are NULL: SQLite's own would read the host's clock and entropy.
 */
export interface SqlEnv {
  /** The simulated time, `YYYY-MM-DD HH:MM:SS`. */
  now(): string;
  /** A draw in [0, 1). */
  random(): number;
}

/** The limits of `Store.query()`. */
export interface QueryLimits {
  /** Rows handed back at most; more make `truncated` true. */
  maxRows: number;
  /** Rows the query may read from tables, summed over every loop; past it the query is refused. */
  maxReads: number;
  /** Characters of SQL at most. */
  maxLength: number;
  /** Bytes a text or blob value may reach while the query runs. */
  maxValueBytes: number;
}

/** The limits `Store.query()` applies by default. */
export const QUERY_LIMITS: Readonly<QueryLimits> = {
  maxRows: 200,
  maxReads: 1_000_000,
  maxLength: 20_000,
  maxValueBytes: 100_000,
};

/** What `Store.query()` hands back. */
export interface QueryResult {
  /** The result's column names. */
  columns: string[];
  /** At most `maxRows` rows, each a list in column order. */
  rows: SqlValue[][];
  /** Whether more rows than `maxRows` matched. */
  truncated: boolean;
}

/**
 * A query `Store.query()` would not run, or stopped: the message says why, for the one who wrote it.
 *
 * @example
 * ```ts
 * import { QueryRefused, Store } from "./sqlite.ts";
 * using store = Store.open("CREATE TABLE t (v INTEGER)");
 * try {
 *   store.query("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c");
 * } catch (err) {
 *   err instanceof QueryRefused; // true
 * }
 * ```
 */
export class QueryRefused extends Error {
  /** Makes the error; the message reads after "The query was not run: " or "The query was stopped: ". */
  constructor(message: string) {
    super(message);
    this.name = "QueryRefused";
  }
}

// The functions whose answer depends on the host: its clock ('now', and the date functions without a
// time, which mean now) or its entropy. They are replaced by ones that read the store's `SqlEnv`.
const DATE_FUNCTIONS = ["date", "time", "datetime", "julianday", "unixepoch", "strftime", "timediff"];
const NOW_FUNCTIONS: Record<string, string> = {
  current_date: "date",
  current_time: "time",
  current_timestamp: "datetime",
};
// 'localtime' and 'utc' read the host's time zone; the simulated clock has none (it is UTC).
const ZONE_MODIFIER = /^\s*(localtime|utc)\s*$/i;
const NOW = /^\s*now\s*$/i;

/**
 * Bytes SQLite may allocate in all, in the whole process (its hard heap limit): a query that needs
 * more fails with an error instead of taking the machine's memory.
 */
export const SQLITE_HEAP_LIMIT = 2 ** 30;
let heapLimited = false;

let pristine: DatabaseSync | undefined;
const pristineCalls = new Map<string, StatementSync>();
const dateAnswers = new Map<string, SqlValue>();

// SQLite's own date function on a connection where nothing is replaced (args hold no 'now' by then).
// It never throws (see `#replaceHostFunctions`); answers of short arguments are kept.
function builtinDate(name: string, args: SqlValue[]): SqlValue {
  const key = JSON.stringify([name, args.map((a) => typeof a === "bigint" ? `${a}n` : a)]);
  const keep = key.length <= 200 && !args.some((a) => a instanceof Uint8Array);
  if (keep && dateAnswers.has(key)) return dateAnswers.get(key)!;
  let v: SqlValue;
  try {
    pristine ??= new DatabaseSync(":memory:");
    const sql = `SELECT ${name}(${args.map(() => "?").join(", ")}) AS v`;
    let stmt = pristineCalls.get(sql);
    if (!stmt) {
      stmt = pristine.prepare(sql);
      // deno-lint-ignore no-explicit-any
      (stmt as any).setReadBigInts(true);
      pristineCalls.set(sql, stmt);
    }
    v = (stmt.get(...args) as { v: SqlValue }).v;
  } catch {
    v = null;
  }
  if (keep) {
    if (dateAnswers.size >= 10_000) dateAnswers.clear();
    dateAnswers.set(key, v);
  }
  return v;
}

// A value as SQLite's date functions read it: a blob as text, and text up to its first NUL.
function asDateText(value: SqlValue): SqlValue {
  const text = value instanceof Uint8Array ? new TextDecoder().decode(value) : value;
  return typeof text === "string" && text.includes("\0") ? text.slice(0, text.indexOf("\0")) : text;
}

// "main." before a name, however it is quoted; read in SQL whose string literals and comments are blanked.
const MAIN_SCHEMA = /(^|[^\w$])(main|"main"|`main`|\[main\])\s*\./i;

// SQL with its string literals and comments blanked, read left to right as SQLite's tokenizer does, so
// a quote or a comment mark inside a quoted name is not taken for one; `null` when a quoted name
// holds a dot (a name such as "main.x" would read as a table of main in the query's plan).
function withoutLiterals(sql: string): string | null {
  let out = "";
  let i = 0;
  while (i < sql.length) {
    const c = sql[i];
    const close = c === "'" ? "'" : c === '"' ? '"' : c === "`" ? "`" : c === "[" ? "]" : null;
    if (close !== null) {
      let j = i + 1;
      while (j < sql.length) {
        if (sql[j] === close) {
          if (close !== "]" && sql[j + 1] === close) {
            j += 2;
            continue;
          }
          break;
        }
        j++;
      }
      const body = sql.slice(i, j + 1);
      if (c === "'") out += " ";
      else if (body.slice(1, -1).includes(".")) return null;
      else out += body;
      i = j + 1;
    } else if (sql.startsWith("--", i)) {
      const end = sql.indexOf("\n", i);
      out += " ";
      i = end < 0 ? sql.length : end;
    } else if (sql.startsWith("/*", i)) {
      const end = sql.indexOf("*/", i + 2);
      out += " ";
      i = end < 0 ? sql.length : end + 2;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

function quoteName(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** A column of a table, as `Store.columns()` gives it. */
export interface Column {
  /** The column's name. */
  name: string;
  /** Its 1-based position in the table's primary key; 0 when it is not part of the key. */
  pk: number;
}

/**
 * A SQLite database: cached prepared statements, read-only sections, snapshots,
 * and change tracking through SQLite sessions.
 *
 * @example
 * ```ts
 * import { Store } from "./sqlite.ts";
 * using store = Store.open("CREATE TABLE t (id TEXT PRIMARY KEY, v INTEGER)");
 * store.run("INSERT INTO t VALUES (?, ?)", "a", 1);
 * store.get<{ v: number }>("SELECT v FROM t WHERE id = ?", "a"); // { v: 1 }
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
  #bounded: { left: number; exhausted: boolean; refused: string | null; stop: string } | null = null;
  #ddl = false;

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
    if (this.#ddl) return SQLITE_OK;
    const bounded = this.#bounded;
    if (bounded) {
      if (WRITE_ACTIONS.has(action)) {
        bounded.refused ??= "it would change the database";
        return SQLITE_DENY;
      }
      if (action === SQLITE_FUNCTION && HISTORY_FUNCTIONS.has((fn ?? "").toLowerCase())) {
        bounded.refused ??= `it calls ${fn}(), which reads what earlier statements did, not the data`;
        return SQLITE_DENY;
      }
      if (action === SQLITE_RECURSIVE) {
        bounded.refused ??= "it is recursive (WITH RECURSIVE), and nothing bounds how many rows it makes";
        return SQLITE_DENY;
      }
    }
    return this.#readOnly && WRITE_ACTIONS.has(action) ? SQLITE_DENY : SQLITE_OK;
  }

  // A user function must never throw: an exception in one leaves node:sqlite's statement hanging.
  #replaceHostFunctions(): void {
    const db = this.#db;
    // Integers past 2^53 reach a function as bigints (as numbers node:sqlite would throw before it runs).
    const big = { useBigIntArguments: true };
    // Once the rows run out it answers a value longer than the query's length limit: SQLite stops the
    // statement with "string or blob too big" (a throw would hang it), and query() says why.
    db.function("__ark_read", { ...big, deterministic: false }, (_row: SqlValue) => {
      const b = this.#bounded;
      if (!b) return 1;
      if (b.left <= 0) {
        b.exhausted = true;
        return b.stop;
      }
      b.left--;
      return 1;
    });
    db.function("random", { ...big, deterministic: false }, () => {
      const env = this.#env;
      if (!env) return null;
      // SQLite's is a 64-bit integer; this one stays within JavaScript's exact integers.
      return Math.floor((env.random() * 2 - 1) * Number.MAX_SAFE_INTEGER);
    });
    db.function("randomblob", { ...big, deterministic: false }, (n: SqlValue) => {
      const env = this.#env;
      const asked = typeof n === "bigint" ? (n > 1_000_000n ? 1_000_001 : Number(n)) : Math.floor(Number(n) || 0);
      const size = Math.max(1, asked);
      if (!env || size > RANDOMBLOB_BYTES) return null;
      // One draw seeds the bytes (xorshift32), so a long blob costs no more draws than a short one.
      let x = Math.floor(env.random() * 2 ** 32) >>> 0 || 1;
      const out = new Uint8Array(size);
      for (let i = 0; i < size; i++) {
        x ^= x << 13;
        x ^= x >>> 17;
        x ^= x << 5;
        out[i] = x & 255;
      }
      return out;
    });
    for (const name of DATE_FUNCTIONS) {
      // Deterministic as SQLite's own are within a statement ('now' is one time for a whole call), so a
      // date of the query's parameters is worked out once, not on every row.
      db.function(name, { ...big, deterministic: true, varargs: true }, (...args: SqlValue[]) => {
        // Without a time value a date function means now (`date()`); strftime() and timediff() need theirs.
        if (name === "strftime" && args.length === 0) return null;
        const at = name === "strftime" ? 1 : 0;
        const given = (args.length > at || name === "timediff" ? args : [...args, "now"]).map(asDateText);
        const out: SqlValue[] = [];
        for (const [i, a] of given.entries()) {
          if (typeof a === "string" && NOW.test(a)) {
            if (!this.#env) return null;
            out.push(this.#env.now());
          } else if (!(i > at && typeof a === "string" && ZONE_MODIFIER.test(a))) out.push(a);
        }
        return builtinDate(name, out);
      });
    }
    for (const [name, base] of Object.entries(NOW_FUNCTIONS)) {
      db.function(name, { deterministic: false }, () => this.#env ? builtinDate(base, [this.#env.now()]) : null);
    }
  }

  /**
   * Runs `fn` with `'now'` and `random()` in SQL answered from `env` (see `SqlEnv`).
   *
   * @example
   * ```ts
   * import { Store } from "./sqlite.ts";
   * using store = Store.open();
   * store.withEnv({ now: () => "2024-05-15 15:00:00", random: () => 0.5 }, () => store.get("SELECT date('now') AS d"));
   * // { d: "2024-05-15" }
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
   * import { Store } from "./sqlite.ts";
   * using store = Store.open("CREATE TABLE t (v INTEGER); INSERT INTO t VALUES (1), (2), (3)");
   * store.query("SELECT v FROM t ORDER BY v", { maxRows: 2 });
   * // { columns: ["v"], rows: [[1], [2]], truncated: true }
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
    this.#ddl = true;
    try {
      for (const t of tables) {
        const first = quoteName(this.columns(t)[0].name);
        db.exec(
          `CREATE TEMP VIEW ${quoteName(t)} AS SELECT * FROM main.${quoteName(t)} WHERE __ark_read(main.${
            quoteName(t)
          }.${first})`,
        );
      }
    } finally {
      this.#ddl = false;
    }
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
        const message = err instanceof Error ? err.message : String(err);
        if (state.exhausted) {
          throw new QueryRefused(
            `it read more than ${lim.maxReads} rows from tables; narrow it (a WHERE, a join condition) and try again`,
          );
        }
        if (/out of memory/i.test(message)) {
          throw new QueryRefused(`it needed more memory than SQLite may have (${SQLITE_HEAP_LIMIT / 2 ** 30} GiB)`);
        }
        if (/too big/i.test(message)) {
          throw new QueryRefused(`it made a value longer than ${lim.maxValueBytes} bytes`);
        }
        throw err;
      }
      if (state.exhausted) {
        throw new QueryRefused(
          `it read more than ${lim.maxReads} rows from tables; narrow it (a WHERE, a join condition) and try again`,
        );
      }
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
      this.#ddl = true;
      try {
        for (const t of tables) db.exec(`DROP VIEW IF EXISTS temp.${quoteName(t)}`);
      } finally {
        this.#ddl = false;
      }
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
    // deno-lint-ignore no-explicit-any
    (this.#db as any).deserialize(image);
  }

  /** Starts recording every change to every table; read the changes with `changes()` on the result. */
  track(): ChangeTracker {
    return new ChangeTracker(this, this.#db.createSession());
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

/** Records what changed in a store since `Store.track()`. */
export class ChangeTracker {
  #store: Store;
  // deno-lint-ignore no-explicit-any
  #session: any;

  /** Reads the changes a `node:sqlite` session of the store records; made by `Store.track()`. */
  // deno-lint-ignore no-explicit-any
  constructor(store: Store, session: any) {
    this.#store = store;
    this.#session = session;
  }

  /** The raw SQLite changeset. */
  changeset(): Uint8Array {
    return this.#session.changeset();
  }

  /** Row-level changes since tracking started, sorted by table and key. Call while the changed state is live. */
  changes(): RowChange[] {
    return decodeChangeset(this.changeset(), this.#store);
  }

  /** Stops tracking. */
  close(): void {
    this.#session.close();
  }

  /** Stops tracking, if the tracker and its database are still open (`using tracker = store.track()`). */
  [Symbol.dispose](): void {
    try {
      this.close();
    } catch {
      // already closed, or its database is gone
    }
  }
}

function toSql(value: Json | undefined): SqlValue {
  if (value === undefined || value === null) return null;
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "object") return JSON.stringify(value);
  return value;
}

/** Decodes a SQLite session changeset into full rows before and after each change. */
export function decodeChangeset(bytes: Uint8Array, store: Store): RowChange[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const decoder = new TextDecoder();
  let pos = 0;
  const out: RowChange[] = [];
  let table = "";
  let cols: Column[] = [];
  let nCol = 0;
  let pkCols: number[] = [];

  const varint = (): number => {
    let v = 0;
    for (let i = 0; i < 9; i++) {
      const b = bytes[pos++];
      if (i === 8) return v * 256 + b;
      v = v * 128 + (b & 0x7f);
      if (!(b & 0x80)) return v;
    }
    return v;
  };
  // undefined = "not in this record" (an unchanged column of an update)
  const value = (): Json | undefined => {
    const type = bytes[pos++];
    switch (type) {
      case 0:
        return undefined;
      case 1: {
        const v = view.getBigInt64(pos);
        pos += 8;
        return Number(v);
      }
      case 2: {
        const v = view.getFloat64(pos);
        pos += 8;
        return v;
      }
      case 3:
      case 4: {
        const n = varint();
        const s = bytes.subarray(pos, pos + n);
        pos += n;
        return type === 3 ? decoder.decode(s) : Array.from(s);
      }
      case 5:
        return null;
      default:
        throw new SyntaxError(`Cannot decode changeset: unknown value type ${type} at byte ${pos - 1}`);
    }
  };
  const record = (): (Json | undefined)[] => Array.from({ length: nCol }, value);
  const toRow = (vals: (Json | undefined)[]): Record<string, Json> => {
    const row: Record<string, Json> = {};
    cols.forEach((c, i) => row[c.name] = vals[i] === undefined ? null : vals[i] as Json);
    return row;
  };
  const liveRow = (key: Json[]): Record<string, Json> | null => {
    const where = pkCols.map((i) => `"${cols[i].name}" = ?`).join(" AND ");
    return store.get<Record<string, Json>>(`SELECT * FROM "${table}" WHERE ${where}`, ...(key as SqlValue[])) ?? null;
  };

  while (pos < bytes.length) {
    const op = bytes[pos++];
    if (op === 0x54) { // 'T': table header
      nCol = varint();
      const pkFlags = Array.from(bytes.subarray(pos, pos + nCol));
      pos += nCol;
      const end = bytes.indexOf(0, pos);
      table = decoder.decode(bytes.subarray(pos, end));
      pos = end + 1;
      cols = store.columns(table);
      pkCols = pkFlags.map((f, i) => [f, i]).filter(([f]) => f > 0).sort((a, b) => a[0] - b[0]).map(([, i]) => i);
      continue;
    }
    pos++; // indirect flag
    if (op === 18) { // INSERT
      const after = record();
      out.push({ table, key: pkCols.map((i) => after[i] as Json), before: null, after: toRow(after) });
    } else if (op === 9) { // DELETE
      const before = record();
      out.push({ table, key: pkCols.map((i) => before[i] as Json), before: toRow(before), after: null });
    } else if (op === 23) { // UPDATE: old values of the key and changed columns, new values of changed columns
      const old = record();
      const neu = record();
      const key = pkCols.map((i) => old[i] as Json);
      const after = liveRow(key) ?? toRow(neu.map((v, i) => v === undefined ? old[i] : v));
      const before = { ...after };
      cols.forEach((c, i) => {
        if (old[i] !== undefined) before[c.name] = old[i] as Json;
      });
      out.push({ table, key, before, after });
    } else {
      throw new SyntaxError(`Cannot decode changeset: unknown operation ${op} at byte ${pos - 2}`);
    }
  }
  out.sort((a, b) => a.table < b.table ? -1 : a.table > b.table ? 1 : compareKeys(a.key, b.key));
  return out;
}

/** Orders two primary keys of one table, column by column. */
export function compareKeys(a: readonly Json[], b: readonly Json[]): number {
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as string | number, y = b[i] as string | number;
    if (x < y) return -1;
    if (x > y) return 1;
  }
  return 0;
}
