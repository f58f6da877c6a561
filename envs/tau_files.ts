/**
 * τ-bench's files as ark reads them (`TauBenchTask`, and the known differences of its results,
 * `TauBenchDifference`), and reading a domain's τ-bench folder: its `db.json` (with the tables the
 * domain expects) and one of its task files, each a clear one-line error naming the file when it is
 * missing, unreadable or not the JSON expected. A domain's `tauBench.load` calls it and types what it returns.
 *
 * @module
 */
import { type Json, jsonEqual } from "./json.ts";

/** A known reason a result τ-bench recorded differs from the one ark's world gives for the same call. */
export interface TauBenchDifference {
  /** A short name, e.g. `"address_province"`. */
  name: string;
  /** What differs and why, one sentence for the import report. */
  reason: string;
  /**
   * Whether the two results say the same thing in other words (a renamed field), rather than
   * differ in substance (a τ-bench quirk ark deliberately does not reproduce).
   */
  equivalent: boolean;
  /**
   * Whether this explains a call's difference: the tool, its arguments, the recorded result (its
   * JSON parsed, or the text) and the world's (its result, or `"Error: "` and the message).
   */
  explains(call: { tool: string; args: unknown; recorded: Json; result: Json }): boolean;
}

/** A τ-bench task as its task file holds it: the customer, the gold actions in order and the outputs. */
export interface TauBenchTask {
  /** The task's index in τ-bench's task file. */
  task_id: number;
  /** The customer the simulated user is. */
  user_id: string;
  /** The hidden brief of τ-bench's simulated user. */
  instruction?: string;
  /** The gold actions, in order. */
  actions: { name: string; kwargs: Record<string, Json> }[];
  /** Strings the agent's replies must contain. */
  outputs?: string[];
}

/** Options of `readTauBenchFolder()`. */
export interface TauBenchFolderOptions {
  /** The top-level objects `db.json` must hold, e.g. `["flights", "reservations", "users"]`. */
  tables: readonly string[];
  /**
   * The task file: `tasks_<split>.json`.
   * @default {"test"}
   */
  split?: "test" | "train" | "dev";
  /**
   * How `db.json`'s text is parsed (e.g. keeping Python's integral floats).
   * @default {JSON.parse}
   */
  parse?: (text: string) => unknown;
}

/**
 * `db.json` and the task file of a τ-bench folder, checked for their shape (each table an object,
 * each task with its `actions`). Throws an `Error` naming the file otherwise.
 *
 * @example
 * ```ts ignore
 * import { readTauBenchFolder } from "./tau_files.ts";
 * const { data, tasks } = readTauBenchFolder("../shared/tau-bench/airline", { tables: ["users"] });
 * ```
 */
export function readTauBenchFolder(
  dir: string,
  options: TauBenchFolderOptions,
): { data: Record<string, Json>; tasks: Record<string, Json>[] } {
  const data = readTauBenchDb(dir, options);
  const file = `tasks_${options.split ?? "test"}.json`;
  const tasks = readJson(dir, file, JSON.parse);
  if (!Array.isArray(tasks) || !tasks.every((t) => isObject(t) && Array.isArray(t.actions))) {
    throw new Error(`Cannot load "${join(dir, file)}": expected an array of tasks with "actions"`);
  }
  return { data, tasks: tasks as Record<string, Json>[] };
}

/**
 * The `db.json` of a folder of τ-bench's or τ²-bench's files (τ²'s is τ-bench's with each user's
 * own `user_id` in its record), checked for the tables; no task file is read. Throws an `Error`
 * naming the file when it is missing, unreadable or not the JSON expected.
 *
 * @example
 * ```ts
 * import { assertEquals, assertThrows } from "@std/assert";
 * import { readTauBenchDb } from "./tau_files.ts";
 * const dir = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${dir}/db.json`, JSON.stringify({ users: { u1: { user_id: "u1" } } }));
 * assertEquals(readTauBenchDb(dir, { tables: ["users"] }), { users: { u1: { user_id: "u1" } } });
 * assertThrows(() => readTauBenchDb(dir, { tables: ["orders"] }), Error, "db.json");
 * Deno.removeSync(dir, { recursive: true });
 * ```
 */
export function readTauBenchDb(
  dir: string,
  options: Pick<TauBenchFolderOptions, "tables" | "parse">,
): Record<string, Json> {
  const data = readJson(dir, "db.json", options.parse ?? JSON.parse);
  for (const table of options.tables) {
    if (!isObject(data) || !isObject(data[table])) {
      throw new Error(`Cannot load "${join(dir, "db.json")}": expected an object with a "${table}" object`);
    }
  }
  return data as Record<string, Json>;
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

/**
 * The known difference of a record that the other harness's data hold one field more of (τ²'s user
 * records hold their own `user_id`): a recorded result of one of `tools` that, with `field` removed from it
 * (and from the objects it holds), equals the world's. Equivalent: the rest is the same.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { extraFieldDifference } from "./tau_files.ts";
 * const d = extraFieldDifference({ name: "user_id_field", reason: "τ² keeps it", tools: ["get_user"], field: "user_id" });
 * assertEquals(d.explains({ tool: "get_user", args: {}, recorded: { user_id: "u", name: "A" }, result: { name: "A" } }), true);
 * ```
 */
export function extraFieldDifference(
  options: { name: string; reason: string; tools: readonly string[]; field: string },
): TauBenchDifference {
  const without = (value: Json): Json => {
    if (Array.isArray(value)) return value.map(without);
    if (!isObject(value)) return value;
    return Object.fromEntries(
      Object.entries(value).filter(([k]) => k !== options.field).map(([k, v]) => [k, without(v)]),
    );
  };
  return {
    name: options.name,
    reason: options.reason,
    equivalent: true,
    explains: ({ tool, recorded, result }) =>
      options.tools.includes(tool) && !jsonEqual(recorded, result) && jsonEqual(without(recorded), result),
  };
}

// The value with every object key whose value is null left out.
function withoutNulls(value: Json): Json {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (!isObject(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null).map(([k, v]) => [k, withoutNulls(v)]));
}

/**
 * The known differences of τ²-bench's results from any world's that τ² does not reproduce
 * differently: τ²'s models print unset optional fields as `null` (ark leaves them out), and τ²
 * answers arguments it cannot validate with pydantic's error text (ark with its own). Both say the
 * same thing in other words.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { tau2CommonDifferences } from "./tau_files.ts";
 * const [nulls] = tau2CommonDifferences();
 * assertEquals(nulls.explains({ tool: "t", args: {}, recorded: { a: 1, status: null }, result: { a: 1 } }), true);
 * ```
 */
export function tau2CommonDifferences(): TauBenchDifference[] {
  return [
    {
      name: "unset_fields_null",
      reason: "τ²-bench lists unset optional fields as null (a reservation's status, a search result's date); " +
        "ark leaves them out (the same result otherwise)",
      equivalent: true,
      explains: ({ recorded, result }) => !jsonEqual(recorded, result) && jsonEqual(withoutNulls(recorded), result),
    },
    {
      name: "validation_error_text",
      reason: "ark rejects a call whose arguments are missing, unknown or of the wrong type in its own words; " +
        "τ²-bench answers with pydantic's validation error (both refuse the call)",
      equivalent: true,
      explains: ({ tool, recorded, result }) =>
        typeof recorded === "string" && /^Error: \d+ validation errors? for /.test(recorded) &&
        typeof result === "string" && result.startsWith(`Error: Invalid arguments for "${tool}": `),
    },
  ];
}
