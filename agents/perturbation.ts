/**
 * The perturbations of a tool interface (the `env` condition), both directions side by side:
 * the hints that describe them (`PerturbationHints`, made from a preset by `presetHints()` with
 * the world's renamed columns of `columnRenames()`, and read back from `AgentContext.hints` by
 * `perturbationHints()`); the world's side, which shows the canonical interface perturbed
 * (`encodeText`, `encodeSchema`, `encodeResult`) and reads the agent's arguments back
 * (`decodeArgs`); and the agent's side, which writes its arguments in the shown interface
 * (`encodeArgs`) and reads results back (`decodeResult`). Canonical names and ISO dates are the
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
 * `numbers` writes every number as a string that shows it is one, with a separator or a decimal
 * point: `1234` → `"1,234"`, `54.5` → `"54.5"`, and a whole number below 1,000 with `.0`
 * (`12` → `"12.0"`). The decoder reads back exactly those strings, so a domain's strings of
 * digits alone (a shoe size `"9"`, a zip code) stay strings; a string such as `"1.5"` or
 * `"1,000"` in a world's data would be read back as a number, which the shared round-trip test
 * over every domain's gold calls catches.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { decodeArgs, encodeArgs, presetHints } from "./perturbation.ts";
 * const hints = presetHints("medium", { schemas: [{ properties: { user_id: {}, date: {} } }], columns: {} });
 * const shown = encodeArgs({ user_id: "mia_li_3668", date: "2024-05-16" }, hints);
 * assertEquals(shown, { userId: "mia_li_3668", date: "05/16/2024" });
 * assertEquals(decodeArgs(shown, hints), { args: { user_id: "mia_li_3668", date: "2024-05-16" } });
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

/** Options of the world's encoders that show keys reordered. */
export interface EncodeOptions {
  /**
   * The episode's key order, used when `hints.reordered` (see `seededKeyOrder()`).
   * @default {the keys' own order}
   */
  order?: KeyOrder;
}

const ABBREVIATIONS: Readonly<Record<string, string>> = { Number: "No", Amount: "Amt", Quantity: "Qty" };
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?=$|[T ])/;
const US_DATE = /^(\d{2})\/(\d{2})\/(\d{4})(?=$|[T ])/;
// A number as `numbers` shows it: with a separator, a decimal point, or both.
const FORMATTED_NUMBER = /^-?\d{1,3}(?:(?:,\d{3})+(?:\.\d+)?|\.\d+)$/;

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
  return (keys) => [...keys].sort((a, b) => rank(a) < rank(b) ? -1 : rank(a) > rank(b) ? 1 : 0);
}

const ordered = (keys: string[], hints: PerturbationHints, options: EncodeOptions) =>
  hints.reordered && options.order !== undefined ? options.order(keys) : keys;

// --- Arguments: the agent writes them in the shown interface, the world reads them back. ---

/**
 * Canonical tool arguments in the shown interface: names renamed, ISO dates in the shown format.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { encodeArgs } from "./perturbation.ts";
 * const hints = { names: { user_id: "userId" }, dates: "MM/DD/YYYY" as const, wrapped: false, numbers: null, columns: {}, reordered: false };
 * assertEquals(encodeArgs({ user_id: "mia_li_3668", date: "2024-05-16" }, hints), { userId: "mia_li_3668", date: "05/16/2024" });
 * ```
 */
export function encodeArgs(args: unknown, hints: PerturbationHints): unknown {
  if (Array.isArray(args)) return args.map((a) => encodeArgs(a, hints));
  if (args !== null && typeof args === "object") {
    return Object.fromEntries(
      Object.entries(args).map(([k, v]) => [hints.names[k] ?? k, encodeArgs(v, hints)]),
    );
  }
  if (typeof args === "string" && hints.dates !== null) return args.replace(ISO_DATE, "$2/$3/$1");
  return args;
}

/**
 * Arguments as the agent gave them, back in canonical names and formats; canonical names and ISO
 * dates where the shown interface has others are refused, every one named in `error`.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { decodeArgs } from "./perturbation.ts";
 * const hints = { names: { user_id: "userId" }, dates: null, wrapped: false, numbers: null, columns: {}, reordered: false };
 * assertEquals(decodeArgs({ userId: "u1" }, hints), { args: { user_id: "u1" } });
 * assertEquals(decodeArgs({ user_id: "u1" }, hints), { error: '"user_id": unknown field, expected "userId"' });
 * ```
 */
export function decodeArgs(args: unknown, hints: PerturbationHints): { args: unknown } | { error: string } {
  const shownToCanonical = new Map(Object.entries(hints.names).map(([c, s]) => [s, c]));
  const errors: string[] = [];
  const walk = (v: unknown, path: string): unknown => {
    if (Array.isArray(v)) return v.map((x, i) => walk(x, `${path}[${i}]`));
    if (v !== null && typeof v === "object") {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) {
        const at = path ? `${path}.${k}` : k;
        if (hints.names[k] !== undefined) errors.push(`"${at}": unknown field, expected "${hints.names[k]}"`);
        out[shownToCanonical.get(k) ?? k] = walk(x, at);
      }
      return out;
    }
    if (typeof v === "string" && hints.dates !== null) {
      if (ISO_DATE.test(v)) errors.push(`"${path}": expected a date as MM/DD/YYYY, got "${v}"`);
      return v.replace(US_DATE, "$3-$1-$2");
    }
    return v;
  };
  const canonical = walk(args, "");
  return errors.length > 0 ? { error: errors.join("; ") } : { args: canonical };
}

// --- Results: the world shows them perturbed, the agent reads them back. ---

/**
 * A world's result as shown: numbers formatted, dates reformatted, columns renamed, keys reordered, wrapped.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { encodeResult } from "./perturbation.ts";
 * const hints = { names: {}, dates: null, wrapped: true, numbers: "formatted" as const, columns: { flight_number: "flightNo" }, reordered: false };
 * assertEquals(encodeResult({ flight_number: "HAT001", price: 1234 }, hints), { status: "ok", data: { flightNo: "HAT001", price: "1,234" } });
 * ```
 */
export function encodeResult(result: Json, hints: PerturbationHints, options: EncodeOptions = {}): Json {
  const { numbers, columns } = hints;
  const date = (s: string) => hints.dates === null ? s : s.replace(ISO_DATE, "$2/$3/$1");
  const walk = (v: Json): Json => {
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === "object") {
      const entries = Object.entries(v).map(([k, x]) => [date(columns[k] ?? k), walk(x)] as const);
      const byKey = new Map(entries);
      return Object.fromEntries(ordered(entries.map(([k]) => k), hints, options).map((k) => [k, byKey.get(k)!]));
    }
    if (typeof v === "number" && numbers !== null) {
      const text = formatNumber(v);
      if (FORMATTED_NUMBER.test(text)) return text;
      return /^-?\d+$/.test(text) ? `${text}.0` : v;
    }
    if (typeof v === "string") return date(v);
    return v;
  };
  const shown = walk(result);
  return hints.wrapped ? { status: "ok", data: shown } : shown;
}

/**
 * A perturbed tool result back in the canonical interface: unwrapped, keys renamed back, dates
 * in ISO 8601, formatted numbers (with a separator or a decimal point) as numbers.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { decodeResult } from "./perturbation.ts";
 * const hints = { names: {}, dates: null, wrapped: true, numbers: "formatted" as const, columns: { flight_number: "flightNo" }, reordered: true };
 * assertEquals(decodeResult({ status: "ok", data: { price: "1,234", flightNo: "HAT001" } }, hints), { price: 1234, flight_number: "HAT001" });
 * ```
 */
export function decodeResult(result: Json, hints: PerturbationHints): Json {
  let value = result;
  if (hints.wrapped && value !== null && typeof value === "object" && !Array.isArray(value) && "data" in value) {
    value = value.data;
  }
  const columns = new Map(Object.entries(hints.columns).map(([canonical, shown]) => [shown, canonical]));
  const date = (s: string) => hints.dates === null ? s : s.replace(US_DATE, "$3-$1-$2");
  const walk = (v: Json): Json => {
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === "object") {
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [date(columns.get(k) ?? k), walk(x)]));
    }
    if (typeof v !== "string") return v;
    if (hints.numbers !== null && FORMATTED_NUMBER.test(v)) return Number(v.replaceAll(",", ""));
    return date(v);
  };
  return walk(value);
}

// --- Descriptions and schemas: shown perturbed, nothing to read back. ---

/**
 * Free text (descriptions, error messages) as shown: parameter names and dates in the shown interface.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { encodeText } from "./perturbation.ts";
 * const hints = { names: { user_id: "userId" }, dates: "MM/DD/YYYY" as const, wrapped: false, numbers: null, columns: {}, reordered: false };
 * assertEquals(encodeText("Give user_id and a date (YYYY-MM-DD), e.g. 2024-05-16", hints), "Give userId and a date (MM/DD/YYYY), e.g. 05/16/2024");
 * ```
 */
export function encodeText(text: string, hints: PerturbationHints): string {
  let out = text;
  for (const [canonical, shown] of Object.entries(hints.names)) {
    out = out.replace(new RegExp(`\\b${canonical}\\b`, "g"), shown);
  }
  if (hints.dates !== null) {
    out = out.replaceAll("YYYY-MM-DD", "MM/DD/YYYY").replace(/\b(\d{4})-(\d{2})-(\d{2})\b/g, "$2/$3/$1");
  }
  return out;
}

/**
 * A JSON Schema as shown: properties renamed (and `required` with them), keys reordered,
 * descriptions in the shown formats, a date format as the shown pattern. The input is not changed.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { encodeSchema } from "./perturbation.ts";
 * const hints = { names: { user_id: "userId" }, dates: null, wrapped: false, numbers: null, columns: {}, reordered: false };
 * assertEquals(encodeSchema({ type: "object", properties: { user_id: { type: "string" } }, required: ["user_id"] }, hints), { type: "object", properties: { userId: { type: "string" } }, required: ["userId"] });
 * ```
 */
export function encodeSchema(schema: unknown, hints: PerturbationHints, options: EncodeOptions = {}): unknown {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== "object") return node;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node as Record<string, unknown>)) {
      if (k === "properties" && v !== null && typeof v === "object") {
        const props = v as Record<string, unknown>;
        const renamed = Object.keys(props).map((p) => [hints.names[p] ?? p, p] as const);
        const byShown = new Map(renamed);
        const order = ordered(renamed.map(([shown]) => shown), hints, options);
        out[k] = Object.fromEntries(order.map((shown) => [shown, walk(props[byShown.get(shown)!])]));
      } else if (k === "required" && Array.isArray(v)) {
        out[k] = v.map((p) => typeof p === "string" ? hints.names[p] ?? p : p);
      } else if (k === "description" && typeof v === "string") {
        out[k] = encodeText(v, hints);
      } else if (k === "format" && v === "date" && hints.dates !== null) {
        out.pattern = "^\\d{2}/\\d{2}/\\d{4}$";
      } else {
        out[k] = walk(v);
      }
    }
    return out;
  };
  return walk(schema);
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

/**
 * A number with thousands separators, its fraction as JavaScript writes it (`1234.5` → `"1,234.5"`);
 * a number JavaScript writes with an exponent is written as JavaScript writes it.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { formatNumber } from "./perturbation.ts";
 * assertEquals(formatNumber(-1234567.25), "-1,234,567.25");
 * ```
 */
export function formatNumber(n: number): string {
  const text = String(n);
  if (!/^-?\d+(\.\d+)?$/.test(text)) return text;
  const [whole, fraction] = text.split(".");
  const sign = whole.startsWith("-") ? "-" : "";
  const digits = sign ? whole.slice(1) : whole;
  const grouped = digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${sign}${grouped}${fraction === undefined ? "" : `.${fraction}`}`;
}
