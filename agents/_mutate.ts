// How the noisy agent gets an argument wrong: one field changed, deterministically from the rng.
import type { Json, Rng } from "../envs/mod.ts";

/** A copy of `value` with one leaf changed. */
export function mutate(value: unknown, rng: Rng): unknown {
  if (Array.isArray(value)) {
    if (value.length === 0) return [null];
    const i = rng.int(0, value.length - 1);
    return value.map((v, j) => j === i ? mutate(v, rng) : v);
  }
  if (value && typeof value === "object") {
    const keys = Object.keys(value).sort();
    if (keys.length === 0) return { unexpected: true };
    const k = rng.pick(keys);
    return { ...value, [k]: mutate((value as Record<string, unknown>)[k], rng) };
  }
  if (typeof value === "string") {
    if (value.length === 0) return "x";
    const i = rng.int(0, value.length - 1);
    const c = value[i];
    const swap = /[0-9]/.test(c) ? String((Number(c) + rng.int(1, 9)) % 10) : c === "X" ? "Y" : "X";
    return value.slice(0, i) + swap + value.slice(i + 1);
  }
  if (typeof value === "number") return value + rng.pick([1, -1, 10]);
  if (typeof value === "boolean") return !value;
  return "x" as Json;
}
