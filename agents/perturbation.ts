/**
 * The perturbations of a tool interface (the `env` condition) and the hints that describe them
 * (`PerturbationHints`, made from a preset by `presetHints()` with the world's renamed columns of
 * `columnRenames()`, and read back from `AgentContext.hints` by `perturbationHints()`). Values go
 * through the perturbed interface by perturbation_codec.ts. Canonical names and ISO dates are the
 * domain's own; nothing here knows a domain or a tool by name.
 *
 * Perturbations, and the presets that turn them on:
 *
 * | perturbation | what changes                                                    | low | medium | high |
 * | ------------ | --------------------------------------------------------------- | --- | ------ | ---- |
 * | `names`      | parameter names in camelCase (`user_id` → `userId`), any depth  |  x  |   x    |  x   |
 * | `reorder`    | keys of schemas and results in a seeded order                   |  x  |   x    |  x   |
 * | `wrap`       | results wrapped as `{ status: "ok", data }`                     |     |   x    |  x   |
 * | `dates`      | dates as `MM/DD/YYYY` in arguments, results and messages        |     |   x    |  x   |
 * | `numbers`    | numbers in results as strings with separators (`"1,234.5"`, `"12.0"`) | |        |  x   |
 * | `columns`    | result keys that are the world's column names renamed (`flight_number` → `flightNo`) | | | x |
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { ENV_PRESETS, presetHints } from "./perturbation.ts";
 * assertEquals(ENV_PRESETS.medium, ["names", "reorder", "wrap", "dates"]);
 * assertEquals(presetHints("medium", { schemas: [{ properties: { user_id: {} } }], columns: {} }).dates, "MM/DD/YYYY");
 * ```
 *
 * @module
 */
import { deriveSeed, type Json, type Store } from "../envs/mod.ts";

/** One perturbation of the tool interface. */
export type Perturbation = "names" | "reorder" | "wrap" | "dates" | "numbers" | "columns";

/** A preset of the `env` condition. */
export type EnvPreset = "low" | "medium" | "high";

/** The presets' names, mildest first. */
export const ENV_PRESET_NAMES: readonly EnvPreset[] = ["low", "medium", "high"];

/** Which perturbations each preset turns on. */
export const ENV_PRESETS: Readonly<Record<EnvPreset, readonly Perturbation[]>> = Object.freeze({
  low: ["names", "reorder"],
  medium: ["names", "reorder", "wrap", "dates"],
  high: ["names", "reorder", "wrap", "dates", "numbers", "columns"],
});

/**
 * What an `env` condition tells an agent about its perturbed tools, as
 * `AgentContext.hints.perturbation` (JSON). Canonical names and ISO dates are the domain's own.
 */
export interface PerturbationHints {
  /** Argument names, canonical → shown (at any depth); names not listed are unchanged. */
  names: Record<string, string>;
  /** The date format of arguments and results when not ISO 8601 (`YYYY-MM-DD`). */
  dates: "MM/DD/YYYY" | null;
  /** Whether results come wrapped as `{ status: "ok", data: <result> }`. */
  wrapped: boolean;
  /** Whether numbers in results come as strings with thousands separators, e.g. `"1,234.5"`. */
  numbers: "formatted" | null;
  /** Keys of results, canonical → shown (at any depth); keys not listed are unchanged. */
  columns: Record<string, string>;
  /** Whether the keys of results and schemas come in another order (nothing to undo). */
  reordered: boolean;
}

/** The order a perturbed interface shows keys in: the same key always ranks the same. */
export type KeyOrder = (keys: string[]) => string[];

const ABBREVIATIONS: Readonly<Record<string, string>> = { Number: "No", Amount: "Amt", Quantity: "Qty" };

/**
 * The hints of a preset: which perturbations are on, the parameter names of the tools' JSON
 * Schemas renamed (any depth; a rename that would clash with another name is left out), and the
 * world's renamed columns when `columns` is on.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { presetHints } from "./perturbation.ts";
 * assertEquals(presetHints("low", { schemas: [{ properties: { user_id: {} } }], columns: { flight_number: "flightNo" } }), { names: { user_id: "userId" }, dates: null, wrapped: false, numbers: null, columns: {}, reordered: true });
 * ```
 */
export function presetHints(
  preset: EnvPreset,
  options: { schemas: readonly unknown[]; columns: Record<string, string> },
): PerturbationHints {
  if (!ENV_PRESET_NAMES.includes(preset)) {
    throw new RangeError(`Unknown env preset "${preset}": expected one of "low", "medium", "high"`);
  }
  const on = new Set(ENV_PRESETS[preset]);
  return {
    names: on.has("names") ? parameterRenames(options.schemas) : {},
    dates: on.has("dates") ? "MM/DD/YYYY" : null,
    wrapped: on.has("wrap"),
    numbers: on.has("numbers") ? "formatted" : null,
    columns: on.has("columns") ? { ...options.columns } : {},
    reordered: on.has("reorder"),
  };
}

// Every property name of the tools' schemas, at any depth, that camelCase changes.
function parameterRenames(schemas: readonly unknown[]): Record<string, string> {
  const found = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (node === null || typeof node !== "object") return;
    for (const [k, v] of Object.entries(node)) {
      if (k === "properties" && v !== null && typeof v === "object") Object.keys(v).forEach((p) => found.add(p));
      walk(v);
    }
  };
  schemas.forEach(walk);
  const out: Record<string, string> = {};
  for (const name of [...found].sort()) {
    const renamed = camelCase(name);
    if (renamed !== name && !found.has(renamed)) out[name] = renamed;
  }
  return out;
}

/**
 * The hints of a perturbed interface in an episode's `AgentContext.hints`, or `null` when there are none.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { perturbationHints } from "./perturbation.ts";
 * assertEquals(perturbationHints({}), null);
 * ```
 */
export function perturbationHints(hints: Record<string, Json> | undefined): PerturbationHints | null {
  const p = hints?.perturbation;
  if (p === null || typeof p !== "object" || Array.isArray(p)) return null;
  const map = (v: Json | undefined): Record<string, string> =>
    v !== null && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).filter((e): e is [string, string] => typeof e[1] === "string"))
      : {};
  return {
    names: map(p.names),
    dates: p.dates === "MM/DD/YYYY" ? "MM/DD/YYYY" : null,
    wrapped: p.wrapped === true,
    numbers: p.numbers === "formatted" ? "formatted" : null,
    columns: map(p.columns),
    reordered: p.reordered === true,
  };
}

/**
 * The key order of an episode: keys sorted by a rank derived from the seed and the key alone.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { seededKeyOrder } from "./perturbation.ts";
 * const order = seededKeyOrder("s");
 * assertEquals(order(["a", "b", "c"]), order(["c", "b", "a"]));
 * ```
 */
export function seededKeyOrder(seed: string): KeyOrder {
  const ranks = new Map<string, string>();
  const rank = (k: string) => {
    let r = ranks.get(k);
    if (r === undefined) ranks.set(k, r = deriveSeed(seed, "key", k));
    return r;
  };
  // A list of records shows the same keys again and again: each list of keys is sorted once.
  const sorted = new Map<string, readonly string[]>();
  return (keys) => {
    const key = JSON.stringify(keys);
    let order = sorted.get(key);
    if (order === undefined) {
      const by = keys.map(rank);
      const at = keys.map((_, i) => i).sort((a, b) => by[a] < by[b] ? -1 : by[a] > by[b] ? 1 : 0);
      if (sorted.size >= 1024) sorted.clear();
      sorted.set(key, order = at.map((i) => keys[i]));
    }
    return [...order];
  };
}

/**
 * The renamed columns of a world: every column of its tables whose name has more than one
 * word, in camelCase with a final "number", "amount" or "quantity" abbreviated
 * (`flight_number` → `flightNo`). A rename that would clash with another column is left out.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { Store } from "../envs/mod.ts";
 * import { columnRenames } from "./perturbation.ts";
 * using db = Store.open("CREATE TABLE f (flight_number TEXT PRIMARY KEY, price INTEGER)");
 * assertEquals(columnRenames(db), { flight_number: "flightNo" });
 * ```
 */
export function columnRenames(db: Store): Record<string, string> {
  const tables = db.all<{ name: string }>(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
  );
  const names = new Set(tables.flatMap((t) => db.columns(t.name).map((c) => c.name)));
  const out: Record<string, string> = {};
  for (const name of [...names].sort()) {
    if (!/^[a-z][a-z0-9]*(_[a-z0-9]+)+$/.test(name)) continue;
    const renamed = camelCase(name).replace(/(Number|Amount|Quantity)$/, (w) => ABBREVIATIONS[w]);
    if (!names.has(renamed)) out[name] = renamed;
  }
  return out;
}

/**
 * A snake_case name in camelCase (`reservation_id` → `reservationId`).
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { camelCase } from "./perturbation.ts";
 * assertEquals(camelCase("scheduled_departure_time_est"), "scheduledDepartureTimeEst");
 * ```
 */
export function camelCase(name: string): string {
  return name.replace(/_+([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}
