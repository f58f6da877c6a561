// The conformance suite's own assertions. A domain's repository need not map `@std/assert`, so the suite
// throws plain errors whose message says what is wrong, and where two values differ, the first place.

/** The error of a failed conformance check: its message says what the domain gets wrong. */
export class ConformanceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConformanceError";
  }
}

/** Fails with the message unless the condition holds. */
export function check(condition: unknown, message: string | (() => string)): asserts condition {
  if (!condition) throw new ConformanceError(typeof message === "string" ? message : message());
}

/** Fails with the message, followed by every problem on its own line, when there are any. */
export function none(problems: readonly string[], message: string): void {
  if (problems.length > 0) throw new ConformanceError(`${message}:\n  ${problems.join("\n  ")}`);
}

/** Fails with the message and the first place the two values differ, unless they are equal. */
export function same(actual: unknown, expected: unknown, message: string): void {
  const at = firstDifference(actual, expected);
  if (at !== null) throw new ConformanceError(`${message}: ${at}`);
}

const show = (v: unknown) => v === undefined ? "nothing" : JSON.stringify(v) ?? String(v);
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * Where two JSON-like values first differ, as `<path>: <a> vs <b>` (the path from `root`, `$` by default, object keys
 * in sorted order, list items in order), or `null` when they are equal.
 */
export function firstDifference(a: unknown, b: unknown, root = "$"): string | null {
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const d = firstDifference(a[i], b[i], `${root}[${i}]`);
      if (d !== null) return d;
    }
    return a.length === b.length ? null : `${root}: ${a.length} items vs ${b.length}`;
  }
  if (isObject(a) && isObject(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    for (const k of keys) {
      const path = /^[A-Za-z_$][\w$]*$/.test(k) ? `${root}.${k}` : `${root}[${JSON.stringify(k)}]`;
      const d = firstDifference(a[k], b[k], path);
      if (d !== null) return d;
    }
    return null;
  }
  return Object.is(a, b) ? null : `${root}: ${show(a)} vs ${show(b)}`;
}
