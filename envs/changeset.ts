/**
 * Row-level changes of a world: a changed row (`RowChange`), the `ChangeTracker` that `Store.track()`
 * gives, and the decoding of a SQLite session changeset into full rows before and after.
 *
 * @module
 */
import type { Json } from "./json.ts";
import type { Column, SqlValue } from "./query.ts";

/** One changed row: its table, primary key, and values before and after (`null` when absent). */
export interface RowChange {
  /** The table's name. */
  table: string;
  /** The row's primary-key values, in the key's column order. */
  key: Json[];
  /** The whole row before the change; `null` for an inserted row. */
  before: Record<string, Json> | null;
  /** The whole row after the change; `null` for a deleted row. */
  after: Record<string, Json> | null;
}

/** What decoding a changeset reads of the database it was taken from (a `Store`). */
export interface ChangeSource {
  /** Column names and primary-key positions of a table. */
  columns(table: string): Column[];
  /** The first row of a query, or `undefined`. */
  get<T = Record<string, SqlValue>>(sql: string, ...params: SqlValue[]): T | undefined;
}

/** Records what changed in a store since `Store.track()`. */
export class ChangeTracker {
  #store: ChangeSource;
  // deno-lint-ignore no-explicit-any
  #session: any;

  /** Reads the changes a `node:sqlite` session of the store records; made by `Store.track()`. */
  // deno-lint-ignore no-explicit-any
  constructor(store: ChangeSource, session: any) {
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

/** Decodes a SQLite session changeset into full rows before and after each change. */
export function decodeChangeset(bytes: Uint8Array, store: ChangeSource): RowChange[] {
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
