// Helpers of the retail tests (test-only: a `_test_utils.ts` file is imported by tests alone, and like
// library code imports only its own room and lower ones): a type-aware deep comparison that names the
// first difference.
import { isRawFloat } from "./_number.ts";

/**
 * The path and both values of the first difference between two typed JSON values (key order
 * ignored, arrays in order, int 247 and float 247.0 different), or `null` when they are equal.
 */
export function firstDifference(a: unknown, b: unknown, path = "$"): string | null {
  if (isRawFloat(a) || isRawFloat(b)) {
    const same = isRawFloat(a) && isRawFloat(b) && a.rawJSON === b.rawJSON;
    return same ? null : `${path}: ${JSON.stringify(a)} vs ${JSON.stringify(b)} (int/float or value)`;
  }
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") {
    return Object.is(a, b) ? null : `${path}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`;
  }
  if (Array.isArray(a) !== Array.isArray(b)) return `${path}: array vs object`;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    if (a.length !== bb.length) return `${path}: ${a.length} vs ${bb.length} elements`;
    for (let i = 0; i < a.length; i++) {
      const d = firstDifference(a[i], bb[i], `${path}[${i}]`);
      if (d) return d;
    }
    return null;
  }
  const ra = a as Record<string, unknown>, rb = b as Record<string, unknown>;
  for (const k of new Set([...Object.keys(ra), ...Object.keys(rb)])) {
    if (!Object.hasOwn(ra, k) || !Object.hasOwn(rb, k)) return `${path}.${k}: present in one side only`;
    const d = firstDifference(ra[k], rb[k], `${path}.${k}`);
    if (d) return d;
  }
  return null;
}
