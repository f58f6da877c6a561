/**
 * Which cells a shard holds: a shard `I/N` as a flag gives it and a folder's name shows it, and
 * the shard of a cell, a stable hash of its `cellKey()`, so every shard knows its cells without
 * asking the others. Running and merging shards is `shard.ts`.
 *
 * @module
 */
import { type CellKey, cellKey } from "./cell.ts";

/** Shard `index` (1-based) of `count`. */
export interface Shard {
  /** Which shard, from 1 to `count`. */
  index: number;
  /** How many shards the experiment is cut into. */
  count: number;
}

/**
 * Reads `I/N` (whole numbers, 1 ≤ I ≤ N): a `SyntaxError` when it is not of that form, a
 * `RangeError` when I is out of range; both name the flag and say what is accepted.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { parseShard } from "./shard_cells.ts";
 * assertEquals(parseShard("2/3"), { index: 2, count: 3 });
 * ```
 */
export function parseShard(text: string, flag = "--shard"): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  const accepted = "expected I/N with whole numbers 1 ≤ I ≤ N, e.g. 1/3";
  if (match === null) throw new SyntaxError(`Invalid value "${text}" for ${flag}: ${accepted}`);
  const [index, count] = [Number(match[1]), Number(match[2])];
  if (!Number.isSafeInteger(count) || count < 1 || index < 1 || index > count) {
    throw new RangeError(`Invalid value "${text}" for ${flag}: ${accepted}`);
  }
  return { index, count };
}

/**
 * A shard as `--shard` takes it.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { shardText } from "./shard_cells.ts";
 * assertEquals(shardText({ index: 1, count: 3 }), "1/3");
 * ```
 */
export function shardText(shard: Shard): string {
  return `${shard.index}/${shard.count}`;
}

/**
 * The default output folder of a shard: the experiment's, suffixed `-shard<I>of<N>`.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { shardOut } from "./shard_cells.ts";
 * assertEquals(shardOut("results/x", { index: 1, count: 3 }), "results/x-shard1of3");
 * ```
 */
export function shardOut(out: string, shard: Shard): string {
  return `${out.replace(/\/+$/, "")}-shard${shard.index}of${shard.count}`;
}

// FNV-1a, 32 bits, over the key's UTF-8 bytes, then MurmurHash3's finalizer (keys differing in one
// character spread over every shard): stable across runs, machines and versions.
function stableHash(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  hash = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b) >>> 0;
  hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2ae35) >>> 0;
  return (hash ^ (hash >>> 16)) >>> 0;
}

/**
 * The shard (1-based) of `count` a cell belongs to: a stable 32-bit hash of its `cellKey()` (FNV-1a,
 * then MurmurHash3's finalizer), mod `count`, plus 1.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { shardOf } from "./shard_cells.ts";
 * const cell = { agent: "oracle", task: "d/0", run: 0, condition: "nominal" as const, variant: null };
 * assertEquals(shardOf(cell, 1), 1);
 * ```
 */
export function shardOf(cell: CellKey, count: number): number {
  return (stableHash(cellKey(cell)) % count) + 1;
}
