// The one module that touches SQLite (Deno's built-in `node:sqlite`).
import { DatabaseSync, type StatementSync } from "node:sqlite";
import type { Json, RowChange, Rows } from "./types.ts";

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

  private constructor(db: DatabaseSync) {
    this.#db = db;
    // `setAuthorizer` exists at run time but not yet in Deno's type declarations.
    (this.#db as unknown as { setAuthorizer(fn: (action: number) => number): void }).setAuthorizer((action: number) =>
      this.#readOnly && WRITE_ACTIONS.has(action) ? SQLITE_DENY : SQLITE_OK
    );
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
