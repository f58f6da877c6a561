/**
 * The retail shop's scripted playbook: a policy-following agent that acts on observations only
 * (the user's structured messages and tool results), one action per step. It identifies the user
 * by email or by name and zip code first, looks the order up, applies the policy (`_rules.ts`),
 * proposes each write with its details and waits for the yes, refuses naming the rule, hands over
 * what no tool does and informs. Its goal handlers are in `_solver_goals.ts`; the shared
 * `../playbook.ts` runs them under the playbook protocol (docs/domains.md).
 *
 * @module
 */
import type { Solver, SolverOptions } from "../agent.ts";
import { playbookSolver } from "../playbook.ts";
import { retailAssumption } from "./scenarios.ts";
import { retailGoals } from "./_solver_goals.ts";
import { askNames } from "../vocabulary.ts";
import { RETAIL_VOCABULARY } from "./vocabulary.ts";

// How the playbook asks for each fact: its first name in the shop's vocabulary.
const FIELD_TEXT: Record<string, string> = askNames(RETAIL_VOCABULARY);

/**
 * Makes the retail playbook. With `confirm` it proposes every write and waits for a yes; with
 * `verify` it identifies the user, looks the order up and applies the policy before acting.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { retailSolver } from "./solver.ts";
 * const solver = retailSolver({ confirm: true, verify: true });
 * const action = solver.next({ step: 0, message: { role: "user", text: "Hi", intent: { kind: "request", goal: "cancel_order", facts: {} } } });
 * assertEquals(action.type, "message");
 * ```
 */
export function retailSolver(options: SolverOptions): Solver {
  const { goals, otherwise } = retailGoals();
  return playbookSolver(
    { goals, otherwise, fieldNames: FIELD_TEXT, unchanged: "I'll leave the order as it is", assume: retailAssumption },
    options,
  );
}
