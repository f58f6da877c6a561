/**
 * Values through a perturbed tool interface (the `env` condition), both directions side by side:
 * the world's side, which shows the canonical interface perturbed (`encodeText`, `encodeSchema`,
 * `encodeResult`) and reads the agent's arguments back (`decodeArgs`); and the agent's side, which
 * writes its arguments in the shown interface (`encodeArgs`) and reads results back
 * (`decodeResult`). What is perturbed is said by the hints (`PerturbationHints`, perturbation.ts).
 * Canonical names and ISO dates are the domain's own; nothing here knows a domain or a tool by name.
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
 * import { decodeArgs, encodeArgs } from "./perturbation_codec.ts";
 * import { presetHints } from "./perturbation.ts";
 * const hints = presetHints("medium", { schemas: [{ properties: { user_id: {}, date: {} } }], columns: {} });
 * const shown = encodeArgs({ user_id: "mia_li_3668", date: "2024-05-16" }, hints);
 * assertEquals(shown, { userId: "mia_li_3668", date: "05/16/2024" });
 * assertEquals(decodeArgs(shown, hints), { args: { user_id: "mia_li_3668", date: "2024-05-16" } });
 * ```
 *
 * @module
 */
import type { Json } from "../envs/mod.ts";
import type { KeyOrder, PerturbationHints } from "./perturbation.ts";

/** Options of the world's encoders that show keys reordered. */
export interface EncodeOptions {
  /**
   * The episode's key order, used when `hints.reordered` (see `seededKeyOrder()`).
   * @default {the keys' own order}
   */
  order?: KeyOrder;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?=$|[T ])/;
const US_DATE = /^(\d{2})\/(\d{2})\/(\d{4})(?=$|[T ])/;
// A number as `numbers` shows it: with a separator, a decimal point, or both.
const FORMATTED_NUMBER = /^-?\d{1,3}(?:(?:,\d{3})+(?:\.\d+)?|\.\d+)$/;

const ordered = (keys: string[], hints: PerturbationHints, options: EncodeOptions) =>
  hints.reordered && options.order !== undefined ? options.order(keys) : keys;

// --- Arguments: the agent writes them in the shown interface, the world reads them back. ---

/**
 * Canonical tool arguments in the shown interface: names renamed, ISO dates in the shown format.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { encodeArgs } from "./perturbation_codec.ts";
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
 * import { decodeArgs } from "./perturbation_codec.ts";
 * const hints = { names: { user_id: "userId" }, dates: null, wrapped: false, numbers: null, columns: {}, reordered: false };
 * assertEquals(decodeArgs({ userId: "u1" }, hints), { args: { user_id: "u1" } });
 * assertEquals(decodeArgs({ user_id: "u1" }, hints), { error: '"user_id": unknown field, expected "userId"' });
 * ```
 */
export function decodeArgs(args: unknown, hints: PerturbationHints): { args: unknown } | { error: string } {
  const canonical = shownToCanonical(hints.names);
  const errors: string[] = [];
  const walk = (v: unknown, path: string): unknown => {
    if (Array.isArray(v)) return v.map((x, i) => walk(x, `${path}[${i}]`));
    if (v !== null && typeof v === "object") {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) {
        const at = path ? `${path}.${k}` : k;
        if (hints.names[k] !== undefined) errors.push(`"${at}": unknown field, expected "${hints.names[k]}"`);
        out[canonical.get(k) ?? k] = walk(x, at);
      }
      return out;
    }
    if (typeof v === "string" && hints.dates !== null) {
      if (ISO_DATE.test(v)) errors.push(`"${path}": expected a date as MM/DD/YYYY, got "${v}"`);
      return v.replace(US_DATE, "$3-$1-$2");
    }
    return v;
  };
  const decoded = walk(args, "");
  return errors.length > 0 ? { error: errors.join("; ") } : { args: decoded };
}

// The canonical names of a renaming by their shown ones. A renaming comes from hints read once per
// episode and never changed, and is asked for at every call: the reverse is made once per renaming.
const reversed = new WeakMap<Readonly<Record<string, string>>, ReadonlyMap<string, string>>();
function shownToCanonical(names: Readonly<Record<string, string>>): ReadonlyMap<string, string> {
  let map = reversed.get(names);
  if (map === undefined) reversed.set(names, map = new Map(Object.entries(names).map(([c, s]) => [s, c])));
  return map;
}

// Sets a key as `Object.fromEntries()` does: an own property, even one named "__proto__".
function put(out: Record<string, Json>, key: string, value: Json): void {
  if (key === "__proto__") {
    Object.defineProperty(out, key, { value, writable: true, enumerable: true, configurable: true });
  } else out[key] = value;
}

// Whether a string may be a date: it starts with a digit (anything else is given to the pattern as before).
const mayBeDate = (s: string) =>
  typeof s !== "string" || (s.length > 0 && s.charCodeAt(0) >= 48 && s.charCodeAt(0) <= 57);

// --- Results: the world shows them perturbed, the agent reads them back. ---

/**
 * A world's result as shown: numbers formatted, dates reformatted, columns renamed, keys reordered, wrapped.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { encodeResult } from "./perturbation_codec.ts";
 * const hints = { names: {}, dates: null, wrapped: true, numbers: "formatted" as const, columns: { flight_number: "flightNo" }, reordered: false };
 * assertEquals(encodeResult({ flight_number: "HAT001", price: 1234 }, hints), { status: "ok", data: { flightNo: "HAT001", price: "1,234" } });
 * ```
 */
export function encodeResult(result: Json, hints: PerturbationHints, options: EncodeOptions = {}): Json {
  const { numbers, columns } = hints;
  const order = hints.reordered && options.order !== undefined ? options.order : null;
  const date = (s: string) => hints.dates === null || !mayBeDate(s) ? s : s.replace(ISO_DATE, "$2/$3/$1");
  const walk = (v: Json): Json => {
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === "object") {
      const keys = Object.keys(v);
      const out: Record<string, Json> = {};
      if (order === null) {
        // Keys as they come; of two shown alike, the first one's place and the last one's value.
        for (const k of keys) put(out, date(columns[k] ?? k), walk(v[k]));
        return out;
      }
      const shown = keys.map((k) => date(columns[k] ?? k));
      const byKey = new Map(shown.map((k, i) => [k, walk(v[keys[i]])]));
      for (const k of order(shown)) put(out, k, byKey.get(k)!);
      return out;
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
 * import { decodeResult } from "./perturbation_codec.ts";
 * const hints = { names: {}, dates: null, wrapped: true, numbers: "formatted" as const, columns: { flight_number: "flightNo" }, reordered: true };
 * assertEquals(decodeResult({ status: "ok", data: { price: "1,234", flightNo: "HAT001" } }, hints), { price: 1234, flight_number: "HAT001" });
 * ```
 */
export function decodeResult(result: Json, hints: PerturbationHints): Json {
  let value = result;
  if (hints.wrapped && value !== null && typeof value === "object" && !Array.isArray(value) && "data" in value) {
    value = value.data;
  }
  const columns = shownToCanonical(hints.columns);
  const date = (s: string) => hints.dates === null || !mayBeDate(s) ? s : s.replace(US_DATE, "$3-$1-$2");
  const walk = (v: Json): Json => {
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === "object") {
      const out: Record<string, Json> = {};
      for (const k of Object.keys(v)) put(out, date(columns.get(k) ?? k), walk(v[k]));
      return out;
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
 * import { encodeText } from "./perturbation_codec.ts";
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
 * import { encodeSchema } from "./perturbation_codec.ts";
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
 * A number with thousands separators, its fraction as JavaScript writes it (`1234.5` → `"1,234.5"`);
 * a number JavaScript writes with an exponent is written as JavaScript writes it.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { formatNumber } from "./perturbation_codec.ts";
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
