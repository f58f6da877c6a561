// Python's int/float distinction in JavaScript. τ-bench compares states with int 247 and float 247.0
// as different values, and JavaScript has one number type: a float with an integral value is kept as
// a `JSON.rawJSON` value, which `JSON.stringify` prints as Python does ("247.0") and which
// `jsonEqual` tells apart from the int.
import type { Num, RawFloat } from "./data.ts";

export type { RawFloat } from "./data.ts";

/** SQLite has no int/float flag a JS number keeps (node:sqlite binds every number as REAL): a column says. */
export type NumType = "int" | "float";

const raw = JSON as unknown as { rawJSON(text: string): RawFloat; isRawJSON(value: unknown): boolean };

/** Whether a value is an integral float made by `float()`. */
export function isRawFloat(value: unknown): value is RawFloat {
  return raw.isRawJSON(value);
}

/** Python's `repr` of a float. */
export function floatRepr(x: number): string {
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  const abs = Math.abs(x);
  if (abs !== 0 && (abs < 1e-4 || abs >= 1e16)) {
    // JavaScript writes "1e+21" but "1e-7": Python pads the exponent to two digits.
    return x.toExponential().replace(/e([+-])(\d)$/, "e$10$2");
  }
  const text = String(x);
  return Number.isInteger(x) ? (Object.is(x, -0) ? "-0.0" : `${text}.0`) : text;
}

/** `x` as a Python float: the number itself, or a raw JSON value when it is integral. */
export function float(x: number): Num {
  return Number.isInteger(x) ? raw.rawJSON(floatRepr(x)) : x;
}

/** The numeric value of an int or float. */
export function value(x: Num): number {
  return isRawFloat(x) ? Number(x.rawJSON) : x;
}

/** Whether a number is a Python float (non-integral numbers are floats). */
export function typeOf(x: Num): NumType {
  return isRawFloat(x) || !Number.isInteger(x) ? "float" : "int";
}

/** A value read from SQLite with its type column as a Python int or float. */
export function fromSql(x: number, type: NumType | string): Num {
  return type === "float" ? float(x) : x;
}

/** A number with the type Python gives `a ± b`: float when either is. */
export function sumType(a: NumType, b: NumType): NumType {
  return a === "float" || b === "float" ? "float" : "int";
}

/**
 * Python's `round(x, 2)` on a float: the double nearest the exactly rounded decimal, ties to even.
 * `toFixed` rounds exact binary ties (0.125) away from zero; only numbers with at most three binary
 * fraction digits can be exact ties.
 */
export function round2(x: number): number {
  const scaled = x * 100;
  if (Number.isInteger(x * 8) && Math.abs(scaled % 1) === 0.5) {
    const down = Math.floor(scaled);
    return (down % 2 === 0 ? down : down + 1) / 100;
  }
  return Number(x.toFixed(2));
}

/**
 * Parses JSON keeping Python's number types: a number written with a decimal point or an exponent
 * is a float, so an integral one becomes a raw JSON value (`float()`). Throws a `SyntaxError` on bad
 * JSON.
 */
export function parseTyped(text: string): unknown {
  return JSON.parse(
    text,
    function (_key, v, context?: { source?: string }) {
      if (typeof v === "number" && Number.isInteger(v) && /[.eE]/.test(context?.source ?? "")) return float(v);
      return v;
    } as (key: string, value: unknown) => unknown,
  );
}

/** A typed JSON value with every raw float turned back into a plain number (what tools return). */
export function plain<T>(v: T): T {
  if (isRawFloat(v)) return value(v) as T;
  if (Array.isArray(v)) return v.map(plain) as T;
  if (v !== null && typeof v === "object") {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)])) as T;
  }
  return v;
}
