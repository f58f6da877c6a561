/**
 * JSON values: the `Json` type, and value equality for JSON-like data (rows from SQLite have no
 * prototype; numbers compare as numbers), containment, canonical text and the scalars a value holds.
 *
 * @module
 */

/** A JSON value. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Deep equality ignoring object key order and prototypes; arrays in order. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === "number" && typeof b === "number") return Number.isNaN(a) && Number.isNaN(b);
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((v, i) => jsonEqual(v, bb[i]));
  }
  const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  if (ka.length !== kb.length) return false;
  return ka.every((k) =>
    Object.hasOwn(b, k) && jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])
  );
}

/** Whether every key of `subset` is in `value` with an equal value. */
export function jsonContains(value: unknown, subset: Record<string, Json>): boolean {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  return Object.entries(subset).every(([k, v]) => jsonEqual((value as Record<string, unknown>)[k], v));
}

/** JSON text with object keys sorted, for stable hashing and comparison. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_k, v) => {
    if (v && typeof v === "object" && !Array.isArray(v)) {
      return Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k]]));
    }
    return v;
  });
}

/** The strings and numbers a value holds, in objects and lists at any depth; a blank string is not one. */
export function scalars(value: Json): (string | number)[] {
  if (typeof value === "string") return value.trim() === "" ? [] : [value];
  if (typeof value === "number") return [value];
  if (Array.isArray(value)) return value.flatMap(scalars);
  if (value !== null && typeof value === "object") return Object.values(value).flatMap(scalars);
  return [];
}
