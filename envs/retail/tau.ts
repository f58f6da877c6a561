/**
 * τ-bench compatibility: load τ-bench's retail data and tasks from a folder keeping Python's
 * int/float types, open a world holding them, and export a world's state back in db.json shape
 * with the same types.
 *
 * @module
 */
import { Store } from "../sqlite.ts";
import type { Json, TauBenchTask } from "../types.ts";
import type { RetailData } from "./data.ts";
import { parseTyped } from "./_number.ts";
import { readRetail } from "./_read.ts";
import { retailRows } from "./_rows.ts";
import { RETAIL_SCHEMA } from "./schema.ts";

/** Which of τ-bench's retail task files to read. */
export type TauSplit = "test" | "train" | "dev";

/** Options of `loadTauRetail()`. */
export interface LoadTauRetailOptions {
  /**
   * The task file: `tasks_<split>.json`.
   * @default {"test"}
   */
  split?: TauSplit;
}

/**
 * Reads `db.json` (integral floats kept as floats, see `Num`) and a task file from a τ-bench retail
 * folder. Throws an `Error` naming the file when it is missing, unreadable or not the expected JSON.
 *
 * @example
 * ```ts ignore
 * import { loadTauRetail } from "./tau.ts";
 * const { data, tasks } = loadTauRetail("../shared/tau-bench/retail", { split: "dev" });
 * ```
 */
export function loadTauRetail(
  dir: string,
  options: LoadTauRetailOptions = {},
): { data: RetailData; tasks: TauBenchTask[] } {
  const data = readJson(dir, "db.json", parseTyped);
  for (const table of ["orders", "products", "users"]) {
    if (!isObject(data) || !isObject(data[table])) {
      throw new Error(`Cannot load "${join(dir, "db.json")}": expected an object with a "${table}" object`);
    }
  }
  const file = `tasks_${options.split ?? "test"}.json`;
  const tasks = readJson(dir, file, JSON.parse);
  if (!Array.isArray(tasks) || !tasks.every((t) => isObject(t) && Array.isArray(t.actions))) {
    throw new Error(`Cannot load "${join(dir, file)}": expected an array of tasks with "actions"`);
  }
  return { data: data as unknown as RetailData, tasks: tasks as TauBenchTask[] };
}

/**
 * A new in-memory retail world holding the given data (e.g. τ-bench's db.json).
 *
 * @example
 * ```ts
 * import { openTauRetail } from "./tau.ts";
 * using db = openTauRetail({ orders: {}, products: {}, users: {} });
 * db.get("SELECT count(*) AS n FROM users"); // { n: 0 }
 * ```
 */
export function openTauRetail(data: RetailData): Store {
  const db = Store.open(RETAIL_SCHEMA);
  db.insert(retailRows(data));
  return db;
}

/**
 * The world's state in τ-bench's db.json shape with Python's number types: an integral float is a
 * `JSON.rawJSON` value, so `JSON.stringify` prints it as `247.0`.
 *
 * @example
 * ```ts
 * import { Store } from "../sqlite.ts";
 * import { RETAIL_SCHEMA } from "./schema.ts";
 * import { exportTauRetail } from "./tau.ts";
 * using db = Store.open(RETAIL_SCHEMA);
 * exportTauRetail(db); // { orders: {}, products: {}, users: {} }
 * ```
 */
export function exportTauRetail(db: Store): RetailData {
  return readRetail(db);
}

function readJson(dir: string, name: string, parse: (text: string) => unknown): unknown {
  const path = join(dir, name);
  let text: string;
  try {
    text = Deno.readTextFileSync(path);
  } catch (err) {
    const why = err instanceof Deno.errors.NotFound ? "no such file" : err instanceof Error ? err.message : String(err);
    throw new Error(`Cannot load "${path}": ${why}`);
  }
  try {
    return parse(text);
  } catch (err) {
    throw new Error(`Cannot load "${path}": not valid JSON (${err instanceof Error ? err.message : String(err)})`);
  }
}

function join(dir: string, name: string): string {
  return dir.endsWith("/") ? dir + name : `${dir}/${name}`;
}

function isObject(value: unknown): value is Record<string, Json> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
