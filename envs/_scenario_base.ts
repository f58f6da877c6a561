/**
 * What the twins of an abstention scenario keep of their base task (`core()`) and how they restate
 * what its user says (`restated()`, `mentionOf()`): shared by envs/scenarios.ts, which re-exports
 * the two public ones, and the hazard kinds of envs/_scenario_hazards.ts.
 *
 * @module
 */
import type { Json } from "./json.ts";
import type { Task } from "./task.ts";

// The fields of a generated task a scenario keeps: the request, its facts and gold; not the
// category and long-horizon fields, which belong to the main suite's figures.
export function core(task: Task): Task {
  const { category: _c, family: _f, length: _l, dependency: _d, ...rest } = task;
  return rest;
}

/**
 * `value` with every mention of `said` in its strings (as a whole word: not inside a longer id, see
 * `mentionOf()`) replaced by `instead`, e.g. the openings of a user who gives another record's id.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { restated } from "./scenarios.ts";
 * assertEquals(restated(["Cancel 5834, not 15834"], "5834", "5835"), ["Cancel 5835, not 15834"]);
 * ```
 */
export function restated(value: Json, said: string, instead: string): Json {
  if (typeof value === "string") return value.replace(mentionOf(said), () => instead);
  if (Array.isArray(value)) return value.map((v) => restated(v, said, instead));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, restated(v, said, instead)]));
  }
  return value;
}

/**
 * Where a text mentions `value` as a whole word (not inside a longer word, id or number): the
 * test every hazardous specification twin passes for the value its user does not have.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { mentionOf } from "./scenarios.ts";
 * assertEquals(mentionOf("5834").test("Your order 5834 is on its way"), true);
 * assertEquals(mentionOf("5834").test("order 15834"), false);
 * ```
 */
export function mentionOf(value: string): RegExp {
  return new RegExp(`(?<![\\w.])${value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\w]|\\.\\d)`, "g");
}
