/**
 * Seeded randomness. Every random choice in ark comes from an `Rng`; child seeds
 * are derived from names so that adding a task or a run does not change the others.
 *
 * @module
 */
import { Arc4 } from "./_arc4.ts";

/**
 * A seeded pseudo-random generator.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { Rng } from "./rng.ts";
 * const a = new Rng("0"), b = new Rng("0");
 * assertEquals([a.next(), a.next()], [b.next(), b.next()]);
 * ```
 */
export class Rng {
  /** The seed it was made from, as a string (a number seed is converted with `String()`). */
  readonly seed: string;
  #prng: Arc4;

  /** Makes a generator from a seed (any string or number). */
  constructor(seed: string | number) {
    this.seed = String(seed);
    this.#prng = new Arc4(this.seed);
  }

  /** A float in [0, 1). */
  next(): number {
    return this.#prng.quick();
  }

  /** An integer in [min, max] (both included). */
  int(min: number, max: number): number {
    if (!(max >= min)) throw new RangeError(`Cannot draw an integer from [${min}, ${max}]: the range is empty`);
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** One element of a non-empty array. */
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError("Cannot pick from an empty list");
    return items[Math.floor(this.next() * items.length)];
  }

  /** A shuffled copy (Fisher–Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const out = items.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  }

  /** An index drawn with the given non-negative weights. */
  weighted(weights: readonly number[]): number {
    const total = weights.reduce((a, b) => a + b, 0);
    let r = this.next() * total;
    for (let i = 0; i < weights.length; i++) {
      r -= weights[i];
      if (r < 0) return i;
    }
    return weights.length - 1;
  }

  /** A generator whose seed is derived from this one's and the given parts. */
  child(...parts: (string | number)[]): Rng {
    return new Rng(deriveSeed(this.seed, ...parts));
  }
}

/**
 * A child seed from a parent seed and named parts, e.g. (experiment, task, run, condition).
 * FNV-1a over the joined parts, as 8 hex digits twice (64 bits).
 *
 * @example
 * ```ts
 * import { assertEquals, assertNotEquals } from "@std/assert";
 * import { deriveSeed } from "./rng.ts";
 * assertEquals(deriveSeed("0", "airline/3", 1), deriveSeed("0", "airline/3", 1));
 * assertNotEquals(deriveSeed("0", "airline/3", 1), deriveSeed("0", "airline/4", 1));
 * ```
 */
export function deriveSeed(...parts: (string | number)[]): string {
  // Over the parts joined by U+001F, without making the joined string.
  let h1 = 0x811c9dc5, h2 = 0x01000193 ^ 0x5bd1e995;
  for (let p = 0; p < parts.length; p++) {
    const text = String(parts[p]);
    for (let i = p === 0 ? 0 : -1; i < text.length; i++) {
      const c = i < 0 ? 0x1f : text.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 0x01000193) >>> 0;
      h2 = Math.imul(h2 ^ c, 0x5bd1e995) >>> 0;
      h2 ^= h2 >>> 15;
    }
  }
  return h1.toString(16).padStart(8, "0") + h2.toString(16).padStart(8, "0");
}
