/**
 * A concurrency limit per provider endpoint: at most N requests in flight, the
 * rest wait their turn in arrival order.
 *
 * @module
 */

/**
 * At most `max` calls of `run()` in flight at once; the others wait, first in first out.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { ConcurrencyLimiter } from "./limiter.ts";
 * const limiter = new ConcurrencyLimiter(2);
 * const answers = await Promise.all([1, 2, 3].map((n) => limiter.run(() => Promise.resolve(n * 10))));
 * assertEquals(answers, [10, 20, 30]);
 * ```
 */
export class ConcurrencyLimiter {
  /** How many calls may be in flight at once. */
  readonly max: number;
  #active = 0;
  #waiting: (() => void)[] = [];

  /** Makes a limiter allowing `max` (a positive integer) calls in flight. */
  constructor(max: number) {
    if (!Number.isInteger(max) || max < 1) {
      throw new RangeError(`Cannot limit concurrency to ${max}: expected a positive integer`);
    }
    this.max = max;
  }

  /** Calls in flight now. */
  get active(): number {
    return this.#active;
  }

  /** Calls waiting for a slot. */
  get pending(): number {
    return this.#waiting.length;
  }

  /** Runs `fn` once a slot is free and frees the slot when it settles. */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.#active < this.max) this.#active++;
    // The slot is handed over by `#release()`, so `#active` already counts this call.
    else await new Promise<void>((resolve) => this.#waiting.push(resolve));
    try {
      return await fn();
    } finally {
      this.#release();
    }
  }

  #release(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#active--;
  }
}

const shared = new Map<string, ConcurrencyLimiter>();

/** How many requests one endpoint gets in flight when nobody said otherwise. */
export const DEFAULT_CONCURRENCY = 4;

/**
 * The one limiter shared by every client of an endpoint (e.g. a base URL). The
 * first call creates it; a later call asking for a different `max` is a mistake
 * and throws a `RangeError`. Without `max`, the existing limiter or a new one
 * allowing `DEFAULT_CONCURRENCY`.
 *
 * @example
 * ```ts
 * import { assertStrictEquals } from "@std/assert";
 * import { limiterFor } from "./limiter.ts";
 * assertStrictEquals(limiterFor("http://127.0.0.1:11434/v1", 2), limiterFor("http://127.0.0.1:11434/v1"));
 * ```
 */
export function limiterFor(endpoint: string, max?: number): ConcurrencyLimiter {
  const key = endpoint.replace(/\/+$/, "");
  const existing = shared.get(key);
  if (existing) {
    if (max !== undefined && max !== existing.max) {
      throw new RangeError(
        `Cannot limit endpoint "${key}" to ${max} requests in flight: it is already limited to ${existing.max}`,
      );
    }
    return existing;
  }
  const limiter = new ConcurrencyLimiter(max ?? DEFAULT_CONCURRENCY);
  shared.set(key, limiter);
  return limiter;
}
