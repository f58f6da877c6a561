/**
 * What `Store` does to SQLite besides running SQL: the authorizer's answers, the functions that would
 * read the host (its clock, its entropy) replaced by ones that read the episode's, and the guards of
 * `Store.query()` (the schema-qualified names it refuses, the row counter).
 *
 * @module
 */
import { DatabaseSync, type StatementSync } from "node:sqlite";
import { type QueryLimits, QueryRefused, type SqlEnv, SQLITE_HEAP_LIMIT, type SqlValue } from "./query.ts";

/** The state of a running `Store.query()`: rows left to read, whether they ran out, and why the authorizer refused. */
export interface Bounded {
  /** Rows the query may still read from tables. */
  left: number;
  /** Whether it ran out of them. */
  exhausted: boolean;
  /** Why the authorizer refused an action, when it did. */
  refused: string | null;
  /** The value the row counter answers once the rows run out (longer than the length limit). */
  stop: string;
}

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
export const SQLITE_OK = 0;
const SQLITE_DENY = 1;
const SQLITE_FUNCTION = 31;
const SQLITE_RECURSIVE = 33;
// Functions whose answer is the connection's history (earlier episodes' writes), not its data.
const HISTORY_FUNCTIONS = new Set(["changes", "total_changes", "last_insert_rowid"]);
// randomblob() answers NULL past this many bytes (SQLite's uses are ids of 16).
const RANDOMBLOB_BYTES = 65_536;
// Columns a query's result may have (SQLite's limit while it runs): with the value limit, a row is bounded.
export const QUERY_COLUMNS = 100;

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

let pristine: DatabaseSync | undefined;
const pristineCalls = new Map<string, StatementSync>();
const dateAnswers = new Map<string, SqlValue>();

// SQLite's own date function on a connection where nothing is replaced (args hold no 'now' by then).
// It never throws (see `replaceHostFunctions()`); answers of short arguments are kept.
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
export const MAIN_SCHEMA = /(^|[^\w$])(main|"main"|`main`|\[main\])\s*\./i;

// SQL with its string literals and comments blanked, read left to right as SQLite's tokenizer does, so
// a quote or a comment mark inside a quoted name is not taken for one; `null` when a quoted name
// holds a dot (a name such as "main.x" would read as a table of main in the query's plan).
export function withoutLiterals(sql: string): string | null {
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

export function quoteName(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * The authorizer's answer to an action: while `Store.query()` runs (`bounded`), writes, history
 * functions and recursion are refused (the reason kept for its message); in a read-only section,
 * writes are.
 */
export function authorize(action: number, fn: string | null, bounded: Bounded | null, readOnly: boolean): number {
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
  return readOnly && WRITE_ACTIONS.has(action) ? SQLITE_DENY : SQLITE_OK;
}

/**
 * Why `Store.query()` stopped a query while it ran (`err` the error it threw, or `null`): it read
 * more rows than it may, needed more memory than SQLite may have, or made too long a value; `null`
 * when the error is SQLite's own.
 */
export function runRefusal(err: unknown, state: Bounded, lim: QueryLimits): QueryRefused | null {
  const message = err instanceof Error ? err.message : String(err);
  if (state.exhausted) {
    return new QueryRefused(
      `it read more than ${lim.maxReads} rows from tables; narrow it (a WHERE, a join condition) and try again`,
    );
  }
  if (/out of memory/i.test(message)) {
    return new QueryRefused(`it needed more memory than SQLite may have (${SQLITE_HEAP_LIMIT / 2 ** 30} GiB)`);
  }
  if (/too big/i.test(message)) return new QueryRefused(`it made a value longer than ${lim.maxValueBytes} bytes`);
  return null;
}

/** What the replaced functions read of their store while they run. */
export interface HostState {
  /** The bounds of the `Store.query()` running, if one is. */
  bounded(): Bounded | null;
  /** The simulated clock and generator SQL reads, if any (see `SqlEnv`). */
  env(): SqlEnv | null;
}

/**
 * Replaces the functions whose answer depends on the host (its clock, its entropy) by ones that read
 * `host.env()`, and adds the row counter of `Store.query()`. A user function must never throw: an
 * exception in one leaves node:sqlite's statement hanging.
 */
export function replaceHostFunctions(db: DatabaseSync, host: HostState): void {
  // Integers past 2^53 reach a function as bigints (as numbers node:sqlite would throw before it runs).
  const big = { useBigIntArguments: true };
  // Once the rows run out it answers a value longer than the query's length limit: SQLite stops the
  // statement with "string or blob too big" (a throw would hang it), and query() says why.
  db.function("__ark_read", { ...big, deterministic: false }, (_row: SqlValue) => {
    const b = host.bounded();
    if (!b) return 1;
    if (b.left <= 0) {
      b.exhausted = true;
      return b.stop;
    }
    b.left--;
    return 1;
  });
  db.function("random", { ...big, deterministic: false }, () => {
    const env = host.env();
    if (!env) return null;
    // SQLite's is a 64-bit integer; this one stays within JavaScript's exact integers.
    return Math.floor((env.random() * 2 - 1) * Number.MAX_SAFE_INTEGER);
  });
  db.function("randomblob", { ...big, deterministic: false }, (n: SqlValue) => {
    const env = host.env();
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
          const env = host.env();
          if (!env) return null;
          out.push(env.now());
        } else if (!(i > at && typeof a === "string" && ZONE_MODIFIER.test(a))) out.push(a);
      }
      return builtinDate(name, out);
    });
  }
  for (const [name, base] of Object.entries(NOW_FUNCTIONS)) {
    db.function(name, { deterministic: false }, () => {
      const env = host.env();
      return env ? builtinDate(base, [env.now()]) : null;
    });
  }
}
