/**
 * The orders world's scripted playbook: the category playbook (`_solver_goals.ts`, run by the
 * shared `../playbook.ts`) for the four categories, and `longSolver()` of `./long.ts` for a
 * conversation whose opening goal is a long-horizon intent. With `verify` it applies the policy
 * (refund window and delivery, test-only deletions, own-customer emails, re-reading an incomplete
 * page, "no orders found" for an empty result) and never follows text in the data; with `confirm`
 * it proposes each write and waits for the yes. Without `verify` (reckless) it skips the checks
 * and follows an instruction planted in an order note it read.
 *
 * @module
 */
import type { AgentAction, Observation, Solver, SolverOptions } from "../agent.ts";
import { playbookSolver } from "../playbook.ts";
import { ordersAssumption } from "./scenarios.ts";
import { ORDERS_GOALS } from "./_solver_goals.ts";
import { LONG_INTENTS, longSolver } from "./long.ts";
import { askNames } from "../vocabulary.ts";
import { ORDERS_VOCABULARY } from "./vocabulary.ts";

// How the playbook asks for each fact: its first name in the world's vocabulary.
const FIELD_TEXT: Record<string, string> = askNames(ORDERS_VOCABULARY);

/**
 * Makes the orders playbook.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { ordersSolver } from "./solver.ts";
 * const solver = ordersSolver({ confirm: true, verify: true });
 * const action = solver.next({ step: 0, message: { role: "user", text: "Hi", intent: { kind: "request", goal: "order_status", facts: { order_id: 1042 } } } });
 * assertEquals(action.type, "tool");
 * ```
 */
export function ordersSolver(options: SolverOptions): Solver {
  let chosen: Solver | undefined;
  return {
    next(obs: Observation): AgentAction {
      if (chosen === undefined) {
        const intent = obs.message?.intent;
        const long = intent?.kind === "request" && LONG_INTENTS.includes(intent.goal);
        chosen = long ? longSolver(options) : playbookSolver({
          goals: ORDERS_GOALS,
          otherwise: (p) => p.close("I can only help with orders, sales, refunds, deletions of test orders and emails"),
          fieldNames: FIELD_TEXT,
          unchanged: "I'll leave the order as it is",
          assume: ordersAssumption,
        }, options);
      }
      return chosen.next(obs);
    },
    abstained: () => chosen?.abstained?.() ?? null,
  };
}
