/**
 * The orders world's long-horizon tasks (docs/metrics.md "Long horizon"): two families, each at 5, 20
 * and 100 milestones, one per dependency kind, and the scripted playbook that plays them.
 *
 * - `referral_chain` (strong): starting from a customer, follow who referred whom; step i records
 *   the i-th referrer's customer id with `record_result(i, id)`. Each look-up needs the previous
 *   answer, so one wrong id sends every later step down another chain.
 * - `order_totals` (weak): record the total of each of N given orders, step i for the i-th. The
 *   look-ups are independent: a wrong one costs only its own step.
 *
 * Milestones are outcomes: one `change` per recorded step (the worksheet row equals the gold's),
 * so a task's milestone total is its `length`.
 *
 * @module
 */
import type { Solver, SolverOptions } from "../agent.ts";
import type { Task } from "../task.ts";
import type { Rng } from "../rng.ts";
import type { OrdersData } from "./data.ts";
import { buildLongTasks, LONG_FAMILIES } from "./_long_tasks.ts";
import { LongSolver } from "./_long_solver.ts";

/**
 * The `intent` (and request goal) of each long-horizon family, in `longTasks()` order.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { LONG_INTENTS } from "./long.ts";
 * assertEquals(LONG_INTENTS, ["referral_chain", "order_totals"]);
 * ```
 */
export const LONG_INTENTS: readonly string[] = Object.freeze(LONG_FAMILIES.map((f) => f.intent));

/** Options of `longTasks()`. */
export interface LongTasksOptions {
  /**
   * Tasks per length × dependency class (the long suite, `deno task eval --suite long`, asks for 20).
   * @default {1}
   */
  perClass?: number;
}

/**
 * The long-horizon tasks over a generated world: each family at 5, 20 and 100 milestones,
 * `perClass` rounds of them (six tasks a round), each round family by family, then by length; the
 * first round is the same for any `perClass`, and a class's tasks start from different customers
 * while the world has enough. Ids are left `""`: the domain's task generator (tasks.ts) assigns
 * `orders/<i>` to the first round, the world `long:orders/<i>` to the long suite's. A length the
 * world cannot hold is left out (a world under scale ≈ 0.75 has referral chains shorter than 100).
 * Each task draws from its own child of `rng`, so the same rng and data give the same tasks.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { Rng } from "../rng.ts";
 * import { generateOrders } from "./generate.ts";
 * import { longTasks } from "./long.ts";
 * const tasks = longTasks(new Rng("0"), generateOrders(new Rng("0"), 1));
 * assertEquals(tasks.map((t) => `${t.family} ${t.dependency} ${t.length}`), [
 *   "referral_chain strong 5",
 *   "referral_chain strong 20",
 *   "referral_chain strong 100",
 *   "order_totals weak 5",
 *   "order_totals weak 20",
 *   "order_totals weak 100",
 * ]);
 * ```
 */
export function longTasks(rng: Rng, data: OrdersData, options: LongTasksOptions = {}): Task[] {
  const perClass = options.perClass ?? 1;
  if (!(Number.isInteger(perClass) && perClass >= 1)) {
    throw new RangeError(`Cannot make ${perClass} long tasks per class: expected a whole number of at least 1`);
  }
  return buildLongTasks(rng, data, perClass);
}

/**
 * The playbook of the long-horizon tasks: from the opening request's facts it makes the look-ups
 * and `record_result` calls step by step, and ends with a short summary (`inform`). Its only write,
 * `record_result`, is the agent's own note (declared `confirm: false`), so it proposes nothing and
 * behaves the same under every option. Under `referral_chain` each look-up follows the referrer the
 * last one returned, so one wrong id sends every later step astray; under `order_totals` each
 * look-up is the user's own, so a wrong one costs only its step.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { longSolver } from "./long.ts";
 * const solver = longSolver({ confirm: true, verify: true });
 * const intent = { kind: "request" as const, goal: "order_totals", facts: { order_ids: [1042, 1043] } };
 * const action = solver.next({ step: 0, message: { role: "user", text: "Record these totals", intent } });
 * assertEquals(action, { type: "tool", name: "get_order", args: { order_id: 1042 } });
 * ```
 */
export function longSolver(options: SolverOptions): Solver {
  return new LongSolver(options);
}
