/**
 * τ-bench compatibility: load τ-bench's retail data and tasks from a folder keeping Python's
 * int/float types, open a world holding them, and export a world's state back in db.json shape
 * with the same types.
 *
 * @module
 */
import { Store } from "../sqlite.ts";
import { readTauBenchDb, readTauBenchFolder } from "../tau_files.ts";
import type { TauBenchTask } from "../tau_files.ts";
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
  const { data, tasks } = readTauBenchFolder(dir, {
    tables: ["orders", "products", "users"],
    split: options.split,
    parse: parseTyped,
  });
  return { data: data as unknown as RetailData, tasks: tasks as unknown as TauBenchTask[] };
}

/**
 * A new in-memory retail world holding the given data (e.g. τ-bench's db.json).
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { openTauRetail } from "./tau.ts";
 * using db = openTauRetail({ orders: {}, products: {}, users: {} });
 * assertEquals(db.get("SELECT count(*) AS n FROM users"), { n: 0 });
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
 * import { assertEquals } from "@std/assert";
 * import { Store } from "../sqlite.ts";
 * import { RETAIL_SCHEMA } from "./schema.ts";
 * import { exportTauRetail } from "./tau.ts";
 * using db = Store.open(RETAIL_SCHEMA);
 * assertEquals(exportTauRetail(db), { orders: {}, products: {}, users: {} });
 * ```
 */
export function exportTauRetail(db: Store): RetailData {
  return readRetail(db);
}

/**
 * Reads the retail data of a folder of τ²-bench's files (or τ-bench's: τ²'s `db.json` is τ-bench's
 * but for each user's own `user_id` in its record, which the world's rows do not keep). Throws an
 * `Error` naming the file when it is missing, unreadable or not the expected JSON.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { loadTau2Retail } from "./tau.ts";
 * const dir = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${dir}/db.json`, JSON.stringify({ orders: {}, products: {}, users: {} }));
 * assertEquals(loadTau2Retail(dir), { orders: {}, products: {}, users: {} });
 * Deno.removeSync(dir, { recursive: true });
 * ```
 */
export function loadTau2Retail(dir: string): RetailData {
  return readTauBenchDb(dir, { tables: ["orders", "products", "users"], parse: parseTyped }) as unknown as RetailData;
}
