/**
 * τ-bench compatibility: load τ-bench's airline data and test tasks from a folder, open a
 * world holding them, and export a world's state back in τ-bench's db.json shape.
 *
 * @module
 */
import { Store } from "../sqlite.ts";
import { readTauBenchDb, readTauBenchFolder } from "../tau_files.ts";
import type { Json } from "../json.ts";
import type { AirlineData } from "./data.ts";
import { readAirline } from "./_read.ts";
import { airlineRows } from "./_rows.ts";
import { AIRLINE_SCHEMA } from "./schema.ts";

/** One gold action of a τ-bench task: a tool name and its keyword arguments. */
export interface TauAction {
  name: string;
  kwargs: Record<string, Json>;
}

/** A τ-bench task as stored in `tasks_test.json`. */
export interface TauTask {
  task_id: number;
  annotator?: string;
  user_id: string;
  instruction: string;
  /** The gold actions, in order. */
  actions: TauAction[];
  /** Strings the agent's replies must contain. */
  outputs: string[];
}

/**
 * Reads `db.json` and a task file (`tasks_test.json`, or the `split` given) from a τ-bench airline folder. Throws an `Error`
 * naming the file when it is missing, unreadable or not the expected JSON.
 *
 * @example
 * ```ts ignore
 * import { loadTauAirline } from "./tau.ts";
 * const { data, tasks } = loadTauAirline("../shared/tau-bench/airline");
 * ```
 */
export function loadTauAirline(
  dir: string,
  options: { split?: "test" | "train" | "dev" } = {},
): { data: AirlineData; tasks: TauTask[] } {
  const { data, tasks } = readTauBenchFolder(dir, {
    tables: ["flights", "reservations", "users"],
    split: options.split,
  });
  return { data: data as unknown as AirlineData, tasks: tasks as unknown as TauTask[] };
}

/**
 * A new in-memory airline world holding the given data (e.g. τ-bench's db.json).
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { openTauAirline } from "./tau.ts";
 * using db = openTauAirline({ flights: {}, reservations: {}, users: {} });
 * assertEquals(db.get("SELECT count(*) AS n FROM users"), { n: 0 });
 * ```
 */
export function openTauAirline(data: AirlineData): Store {
  const db = Store.open(AIRLINE_SCHEMA);
  db.insert(airlineRows(data));
  return db;
}

/**
 * The world's state in τ-bench's db.json shape (the same as `readAirline`).
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { Store } from "../sqlite.ts";
 * import { AIRLINE_SCHEMA } from "./schema.ts";
 * import { exportTauAirline } from "./tau.ts";
 * using db = Store.open(AIRLINE_SCHEMA);
 * assertEquals(exportTauAirline(db), { flights: {}, reservations: {}, users: {} });
 * ```
 */
export function exportTauAirline(db: Store): AirlineData {
  return readAirline(db);
}

/**
 * Reads the airline data of a folder of τ²-bench's files (or τ-bench's: τ²'s `db.json` is τ-bench's
 * but for each user's own `user_id` in its record, which the world's rows do not keep). Throws an
 * `Error` naming the file when it is missing, unreadable or not the expected JSON.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { loadTau2Airline } from "./tau.ts";
 * const dir = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${dir}/db.json`, JSON.stringify({ flights: {}, reservations: {}, users: {} }));
 * assertEquals(loadTau2Airline(dir), { flights: {}, reservations: {}, users: {} });
 * Deno.removeSync(dir, { recursive: true });
 * ```
 */
export function loadTau2Airline(dir: string): AirlineData {
  return readTauBenchDb(dir, { tables: ["flights", "reservations", "users"] }) as unknown as AirlineData;
}
