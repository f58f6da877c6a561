/**
 * What SQL that someone else wrote (an agent's) may do in a `Store` and how it is answered: the
 * values SQLite binds, the simulated clock and generator SQL reads (`SqlEnv`), the limits of
 * `Store.query()`, what it hands back, and `QueryRefused` when it will not run a query.
 *
 * @module
 */

/** A value SQLite can bind. */
export type SqlValue = null | number | bigint | string | Uint8Array;

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
 * import { assertThrows } from "@std/assert";
 * import { QueryRefused, Store } from "@ark/ark/envs";
 * using store = Store.open("CREATE TABLE t (v INTEGER)");
 * assertThrows(
 *   () => store.query("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c"),
 *   QueryRefused,
 * );
 * ```
 */
export class QueryRefused extends Error {
  /** Makes the error; the message reads after "The query was not run: " or "The query was stopped: ". */
  constructor(message: string) {
    super(message);
    this.name = "QueryRefused";
  }
}

/**
 * Bytes SQLite may allocate in all, in the whole process (its hard heap limit): a query that needs
 * more fails with an error instead of taking the machine's memory.
 */
export const SQLITE_HEAP_LIMIT = 2 ** 30;

/** A column of a table, as `Store.columns()` gives it. */
export interface Column {
  /** The column's name. */
  name: string;
  /** Its 1-based position in the table's primary key; 0 when it is not part of the key. */
  pk: number;
}
