/**
 * A small stand-in for `jsr:@std/assert` built on `node:assert`, because JSR is
 * not reachable from the machines this project is built on. It keeps the same
 * names and argument order, so swapping the `@std/assert` line in `deno.json`
 * for `jsr:@std/assert@^1` is the only change needed.
 *
 * @module
 */
import nodeAssert from "node:assert";

/** Error thrown by every assertion in this module. */
export class AssertionError extends Error {
  /** Makes an assertion error with the given message. */
  constructor(message: string) {
    super(message);
    this.name = "AssertionError";
  }
}

function fail(err: unknown, msg?: string): never {
  const detail = err instanceof Error ? err.message : String(err);
  throw new AssertionError(msg ? `${msg}: ${detail}` : detail);
}

// std's equality treats an object without prototype like a plain object; node's does not.
function plain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plain);
  if (value && typeof value === "object" && Object.getPrototypeOf(value) === null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  }
  if (value && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  }
  return value;
}

/** Asserts that `actual` and `expected` are deeply equal. */
export function assertEquals<T>(actual: T, expected: T, msg?: string): void {
  try {
    nodeAssert.deepStrictEqual(plain(actual), plain(expected));
  } catch (err) {
    fail(err, msg);
  }
}

/** Asserts that `actual` and `expected` are not deeply equal. */
export function assertNotEquals<T>(actual: T, expected: T, msg?: string): void {
  try {
    nodeAssert.notDeepStrictEqual(plain(actual), plain(expected));
  } catch (err) {
    fail(err, msg);
  }
}

/** Asserts that `actual` and `expected` are the same value (`Object.is`). */
export function assertStrictEquals<T>(actual: unknown, expected: T, msg?: string): asserts actual is T {
  try {
    nodeAssert.strictEqual(actual, expected);
  } catch (err) {
    fail(err, msg);
  }
}

/** Asserts that `expr` is truthy. */
export function assert(expr: unknown, msg = "Expected value to be truthy"): asserts expr {
  if (!expr) throw new AssertionError(msg);
}

/** Asserts that `actual` is neither `null` nor `undefined`. */
export function assertExists<T>(actual: T, msg?: string): asserts actual is NonNullable<T> {
  if (actual === null || actual === undefined) {
    throw new AssertionError(msg ?? `Expected actual: "${actual}" to not be null or undefined`);
  }
}

/** Asserts that `actual` is within `tolerance` of `expected`. */
export function assertAlmostEquals(actual: number, expected: number, tolerance = 1e-7, msg?: string): void {
  if (Object.is(actual, expected)) return;
  if (!(Math.abs(expected - actual) <= tolerance)) {
    throw new AssertionError(
      msg ??
        `Expected actual: "${actual}" to be close to "${expected}": delta "${
          Math.abs(expected - actual)
        }" is greater than "${tolerance}"`,
    );
  }
}

/** Asserts that `actual` contains `expected` as a substring. */
export function assertStringIncludes(actual: string, expected: string, msg?: string): void {
  if (!actual.includes(expected)) {
    throw new AssertionError(msg ?? `Expected actual: "${actual}" to contain: "${expected}"`);
  }
}

/** Asserts that `actual` matches the regular expression `expected`. */
export function assertMatch(actual: string, expected: RegExp, msg?: string): void {
  if (!expected.test(actual)) {
    throw new AssertionError(msg ?? `Expected actual: "${actual}" to match: "${expected}"`);
  }
}

/** Asserts that `actual > expected`. */
export function assertGreater<T>(actual: T, expected: T, msg?: string): void {
  if (!(actual > expected)) throw new AssertionError(msg ?? `Expect ${actual} > ${expected}`);
}

/** Asserts that `actual >= expected`. */
export function assertGreaterOrEqual<T>(actual: T, expected: T, msg?: string): void {
  if (!(actual >= expected)) throw new AssertionError(msg ?? `Expect ${actual} >= ${expected}`);
}

/** Asserts that `actual < expected`. */
export function assertLess<T>(actual: T, expected: T, msg?: string): void {
  if (!(actual < expected)) throw new AssertionError(msg ?? `Expect ${actual} < ${expected}`);
}

/** Asserts that `actual <= expected`. */
export function assertLessOrEqual<T>(actual: T, expected: T, msg?: string): void {
  if (!(actual <= expected)) throw new AssertionError(msg ?? `Expect ${actual} <= ${expected}`);
}

// deno-lint-ignore no-explicit-any
type ErrorClass<E> = abstract new (...args: any[]) => E;

function checkError<E extends Error>(err: unknown, ErrorClass?: ErrorClass<E>, msgIncludes?: string): E {
  if (ErrorClass && !(err instanceof ErrorClass)) {
    throw new AssertionError(
      `Expected error to be instance of "${ErrorClass.name}", but was "${(err as Error)?.constructor?.name}"`,
    );
  }
  if (msgIncludes !== undefined && !String((err as Error)?.message).includes(msgIncludes)) {
    throw new AssertionError(
      `Expected error message to include "${msgIncludes}", but got "${(err as Error)?.message}"`,
    );
  }
  return err as E;
}

/** Asserts that `fn` throws, optionally an instance of `ErrorClass` whose message includes `msgIncludes`. */
export function assertThrows<E extends Error = Error>(
  fn: () => unknown,
  ErrorClass?: ErrorClass<E>,
  msgIncludes?: string,
): E {
  try {
    fn();
  } catch (err) {
    return checkError(err, ErrorClass, msgIncludes);
  }
  throw new AssertionError("Expected function to throw");
}

/** Asserts that the promise returned by `fn` rejects, optionally with `ErrorClass` and a message including `msgIncludes`. */
export async function assertRejects<E extends Error = Error>(
  fn: () => PromiseLike<unknown>,
  ErrorClass?: ErrorClass<E>,
  msgIncludes?: string,
): Promise<E> {
  try {
    await fn();
  } catch (err) {
    return checkError(err, ErrorClass, msgIncludes);
  }
  throw new AssertionError("Expected function to reject");
}
