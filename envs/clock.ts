/**
 * A simulated clock: world time starts where the domain says and moves only when
 * the episode loop advances it, so runs never depend on the wall clock.
 *
 * @module
 */

/**
 * A simulated clock in milliseconds since the epoch (UTC arithmetic, no time zone).
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { Clock } from "./clock.ts";
 * const clock = new Clock("2024-05-15T15:00:00");
 * clock.advance(1500);
 * assertEquals(clock.iso(), "2024-05-15T15:00:01");
 * ```
 */
export class Clock {
  #ms: number;

  /** Starts at an ISO 8601 date-time without zone (read as UTC). */
  constructor(start: string) {
    const ms = Date.parse(start.endsWith("Z") ? start : `${start}Z`);
    if (Number.isNaN(ms)) throw new SyntaxError(`Cannot parse clock start "${start}": expected YYYY-MM-DDTHH:MM:SS`);
    this.#ms = ms;
  }

  /** Milliseconds since the epoch. */
  now(): number {
    return this.#ms;
  }

  /** Moves time forward. */
  advance(ms: number): void {
    if (!(ms >= 0)) throw new RangeError(`Cannot move the clock by ${ms} ms: time only moves forward`);
    this.#ms += ms;
  }

  /** The current time as `YYYY-MM-DDTHH:MM:SS`. */
  iso(): string {
    return new Date(this.#ms).toISOString().slice(0, 19);
  }

  /** The current date as `YYYY-MM-DD`. */
  date(): string {
    return this.iso().slice(0, 10);
  }
}
