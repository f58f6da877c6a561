/**
 * Change capture by triggers, for `Store.capture()`: a temporary trigger on every table with a
 * primary key hands each row a write touches (its table, its key and, for an update or a delete, its
 * values before) to a log in memory; the net change of a stretch is the first touch of each row in it
 * against the row as it is now. That is what a SQLite session records (`Store.track()`, decoded by
 * `decodeChangeset()`), and it is given in the same shapes: a row changed and changed back, or
 * inserted and deleted, is left out; an update gives its live row after, and before it the same row
 * with the changed columns (and the key) at their first values. A session costs its setup, a
 * changeset and its decoding on every call; this costs a function call per row touched and a
 * look-up per row changed.
 *
 * @module
 */
import type { DatabaseSync, StatementSync } from "node:sqlite";
import { compareKeys, type RowChange } from "./changeset.ts";
import type { Json } from "./json.ts";
import type { SqlValue } from "./query.ts";
import { quoteName } from "./_sql_host.ts";

// A table the triggers watch: its columns, its primary key's positions in key order, and the look-up
// of a row by key (integers read as bigints, so an integer and a real of one value differ as in SQLite).
interface Watched {
  name: string;
  cols: string[];
  pk: number[];
  isPk: boolean[];
  select: StatementSync;
}

// One row touched: its table, its identity (table name and typed key), its key, and its values
// before (`null` for a row a write inserted).
interface Touch {
  table: Watched;
  id: string;
  key: SqlValue[];
  old: SqlValue[] | null;
}

const FUNCTION = "__ark_touch";
const TRIGGER_PREFIX = "__ark_capture_";
const OLD = 0, NEW = 1;
// The kind as the function receives it (integer arguments arrive as bigints).
const OLD_ARG = BigInt(OLD);

/** What the log needs of its store: whether a touch is a write's (not read-only SQL), and a section for its DDL. */
export interface CaptureHost {
  /** Whether the store runs writes now (SQL in a read-only section or an agent's query touches nothing). */
  writing(): boolean;
  /** Runs the triggers' DDL with the authorizer standing aside. */
  ddl(fn: () => void): void;
}

/** The log of rows touched while a capture is open, and the net changes of its stretches. */
export class ChangeLog {
  readonly #db: DatabaseSync;
  readonly #host: CaptureHost;
  #tables: Watched[] = [];
  #log: Touch[] = [];
  #open = 0;
  // The main schema's version the triggers were made for (-1: they must be made again), how many
  // there are, and whether they were made outside a transaction (inside one, a rollback takes them).
  #version = -1;
  #triggers = 0;
  #lasting = false;
  // Prepared again after `beforeReplace()`: deserialising finalises every statement.
  #versionStatement: StatementSync | null = null;

  constructor(db: DatabaseSync, host: CaptureHost) {
    this.#db = db;
    this.#host = host;
    // A user function must never throw (see `replaceHostFunctions()`).
    db.function(FUNCTION, { useBigIntArguments: true, varargs: true, deterministic: false }, (...args: SqlValue[]) => {
      if (this.#open > 0 && this.#host.writing()) this.#touch(args);
      return null;
    });
  }

  /** Starts a stretch: the position in the log it reads from. */
  open(): number {
    if (this.#schemaVersion() !== this.#version) this.#install();
    else if (!this.#lasting) {
      if (this.#triggerCount() !== this.#triggers) this.#install();
      else this.#lasting = !this.#db.isTransaction;
    }
    this.#open++;
    return this.#log.length;
  }

  /** A stretch from now: its changes, until it is disposed (what `Store.capture()` gives). */
  capture(): { changes(): RowChange[] } & Disposable {
    const from = this.open();
    let open = true;
    return {
      changes: () => {
        if (!open) throw new Error("Cannot read the changes of a capture that is closed");
        return this.changes(from);
      },
      [Symbol.dispose]: () => {
        if (open) this.close();
        open = false;
      },
    };
  }

  /** Ends a stretch; the log empties once none is open. */
  close(): void {
    if (this.#open === 0) return;
    this.#open--;
    if (this.#open === 0) this.#log = [];
  }

  /**
   * Before the database is replaced (`Store.restore()`): its triggers are dropped while they still
   * refer to its tables (dropping them after deserialising crashes SQLite), and made again at the
   * next `open()`; the statements go too (deserialising finalises every statement).
   */
  beforeReplace(): void {
    // None to drop when none were made since the last replacement.
    if (this.#version !== -1) this.#dropTriggers();
    this.#version = -1;
    this.#versionStatement = null;
    this.#tables = [];
  }

  /** After the database was replaced: the triggers made again if a stretch is open. */
  replaced(): void {
    if (this.#open > 0) this.#install();
  }

  #dropTriggers(): void {
    this.#host.ddl(() => {
      const old = this.#db.prepare(
        "SELECT name FROM temp.sqlite_schema WHERE type = 'trigger' AND substr(name, 1, ?) = ?",
      ).all(TRIGGER_PREFIX.length, TRIGGER_PREFIX) as { name: string }[];
      for (const { name } of old) this.#db.exec(`DROP TRIGGER temp.${quoteName(name)}`);
    });
  }

  // (A table-valued pragma, pragma_schema_version, would crash on a statement made again after deserialising.)
  #schemaVersion(): number {
    this.#versionStatement ??= this.#db.prepare("PRAGMA main.schema_version");
    return Number((this.#versionStatement.get() as { schema_version: number | bigint }).schema_version);
  }

  #triggerCount(): number {
    const row = this.#db.prepare(
      "SELECT count(*) AS n FROM temp.sqlite_schema WHERE type = 'trigger' AND substr(name, 1, ?) = ?",
    ).get(TRIGGER_PREFIX.length, TRIGGER_PREFIX) as { n: number | bigint };
    return Number(row.n);
  }

  /** The net change since position `from`, sorted by table and key. */
  changes(from: number): RowChange[] {
    const first = new Map<string, Touch>();
    for (let i = from; i < this.#log.length; i++) {
      const t = this.#log[i];
      if (!first.has(t.id)) first.set(t.id, t);
    }
    const out: RowChange[] = [];
    for (const t of first.values()) {
      const change = netChange(t.table, t);
      if (change !== null) out.push(change);
    }
    return out.sort((a, b) => a.table < b.table ? -1 : a.table > b.table ? 1 : compareKeys(a.key, b.key));
  }

  // args: the table's index, OLD (then the whole row before) or NEW (then the key after). Touches
  // hold their table, so tables made again (a new table in the schema) leave earlier ones readable.
  #touch(args: SqlValue[]): void {
    const table = this.#tables[Number(args[0])];
    if (table === undefined) return;
    const values = args.slice(2);
    const isOld = args[1] === OLD_ARG;
    const key = isOld ? table.pk.map((i) => values[i]) : values;
    if (key.length !== table.pk.length) return;
    let id = table.name;
    for (const v of key) {
      // A session leaves out a row with NULL in its key.
      if (v === null) return;
      id += typeof v === "string"
        ? `\u0000s${v.length}:${v}`
        : v instanceof Uint8Array
        ? `\u0000b${Array.from(v).join(",")}`
        : `\u0000${typeof v === "bigint" ? "i" : "r"}${v}`;
    }
    this.#log.push({ table, id, key, old: isOld ? values : null });
  }

  // The triggers on every table of main with a primary key, made again for the schema as it is.
  #install(): void {
    const db = this.#db;
    this.#dropTriggers();
    this.#host.ddl(() => {
      // A REPLACE's deletes fire delete triggers only with recursive triggers on (a session sees them).
      db.exec("PRAGMA recursive_triggers = ON");
      const names = db.prepare(
        "SELECT name FROM main.sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' " +
          "AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY name",
      ).all() as { name: string }[];
      this.#tables = [];
      for (const { name } of names) {
        const info = db.prepare(`PRAGMA main.table_info(${quoteName(name)})`).all() as {
          name: string;
          pk: number | bigint;
        }[];
        const pk = info.map((c, i) => [Number(c.pk), i]).filter(([p]) => p > 0).sort((a, b) => a[0] - b[0])
          .map(([, i]) => i);
        if (pk.length === 0) continue;
        const index = this.#tables.length;
        const cols = info.map((c) => c.name);
        const q = cols.map(quoteName);
        const where = pk.map((i) => `${q[i]} IS ?`).join(" AND ");
        const select = db.prepare(`SELECT * FROM main.${quoteName(name)} WHERE ${where}`);
        select.setReadBigInts(true);
        // `setReturnArrays` exists at run time but not yet in Deno's type declarations.
        (select as unknown as { setReturnArrays(on: boolean): void }).setReturnArrays(true);
        this.#tables.push({ name, cols, pk, isPk: cols.map((_, i) => pk.includes(i)), select });
        const on = `ON main.${quoteName(name)}`;
        const old = q.map((c) => `OLD.${c}`).join(", ");
        const newKey = pk.map((i) => `NEW.${q[i]}`).join(", ");
        const keyMoved = pk.map((i) => `OLD.${q[i]} IS NOT NEW.${q[i]}`).join(" OR ");
        const trigger = (kind: string) => quoteName(`${TRIGGER_PREFIX}${index}_${kind}`);
        db.exec(
          `CREATE TEMP TRIGGER ${
            trigger("d")
          } BEFORE DELETE ${on} BEGIN SELECT ${FUNCTION}(${index}, ${OLD}, ${old}); END;
           CREATE TEMP TRIGGER ${
            trigger("u")
          } BEFORE UPDATE ${on} BEGIN SELECT ${FUNCTION}(${index}, ${OLD}, ${old}); END;
           CREATE TEMP TRIGGER ${trigger("k")} AFTER UPDATE ${on} WHEN ${keyMoved}
             BEGIN SELECT ${FUNCTION}(${index}, ${NEW}, ${newKey}); END;
           CREATE TEMP TRIGGER ${
            trigger("i")
          } AFTER INSERT ${on} BEGIN SELECT ${FUNCTION}(${index}, ${NEW}, ${newKey}); END;`,
        );
      }
    });
    this.#version = this.#schemaVersion();
    this.#triggers = this.#triggerCount();
    this.#lasting = !db.isTransaction;
  }
}

// A row's net change from its first touch to now, as a decoded changeset gives it; null when none.
function netChange(w: Watched, t: Touch): RowChange | null {
  const now = w.select.get(...t.key) as unknown as SqlValue[] | undefined;
  if (t.old === null) {
    if (now === undefined) return null;
    return { table: w.name, key: w.pk.map((i) => decoded(now[i])), before: null, after: decodedRow(w, now) };
  }
  const old = t.old;
  const key = w.pk.map((i) => decoded(old[i]));
  if (now === undefined) return { table: w.name, key, before: decodedRow(w, old), after: null };
  const changed = w.cols.map((_, i) => !sameValue(old[i], now[i]));
  if (!changed.includes(true)) return null;
  // The live row as node:sqlite reads it, and before it the changed columns and the key as decoded.
  const after = Object.create(null) as Record<string, Json>;
  w.cols.forEach((c, i) => after[c] = read(now[i]));
  const before: Record<string, Json> = { ...after };
  w.cols.forEach((c, i) => {
    if (changed[i] || w.isPk[i]) before[c] = decoded(old[i]);
  });
  return { table: w.name, key, before, after };
}

// Whether SQLite's session would take two values for one: the same type and value.
function sameValue(a: SqlValue, b: SqlValue): boolean {
  if (a === null || b === null) return a === b;
  if (a instanceof Uint8Array || b instanceof Uint8Array) {
    return a instanceof Uint8Array && b instanceof Uint8Array && a.length === b.length && a.every((x, i) => x === b[i]);
  }
  return typeof a === typeof b && a === b;
}

function decodedRow(w: Watched, values: readonly SqlValue[]): Record<string, Json> {
  const row: Record<string, Json> = {};
  w.cols.forEach((c, i) => row[c] = decoded(values[i]));
  return row;
}

// A value as a decoded changeset holds it: integers as numbers, blobs as arrays of bytes.
function decoded(v: SqlValue): Json {
  if (typeof v === "bigint") return Number(v);
  if (v instanceof Uint8Array) return Array.from(v);
  return v as Json;
}

// A value as node:sqlite reads it by default: integers as numbers (an error past 2^53), blobs as bytes.
function read(v: SqlValue): Json {
  if (typeof v !== "bigint") return v as Json;
  if (v > BigInt(Number.MAX_SAFE_INTEGER) || v < -BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new RangeError(`Value is too large to be represented as a JavaScript number: ${v}`);
  }
  return Number(v);
}
