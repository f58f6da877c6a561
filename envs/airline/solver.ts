/**
 * The airline's scripted playbook: a policy-following agent that acts on observations only
 * (the user's structured messages and tool results), one action per step. Its goal handlers are
 * in `_solver_goals.ts` and `_solver_more.ts`; the shared `../playbook.ts` runs them under the
 * playbook protocol (docs/domains.md).
 *
 * @module
 */
import type { Solver, SolverOptions } from "../agent.ts";
import { playbookSolver } from "../playbook.ts";
import type { PlaybookSpec } from "../decisions.ts";
import { FIELD_TEXT } from "./_solver_text.ts";
import { GOALS, OTHERWISE } from "./_solver_more.ts";
import { airlineAssumption } from "./scenarios.ts";

/** The airline's playbook: a handler per goal, and how it names the facts it asks for. */
const AIRLINE_PLAYBOOK: PlaybookSpec = {
  goals: GOALS,
  otherwise: OTHERWISE,
  fieldNames: FIELD_TEXT,
  unchanged: "I'll leave the reservation as it is",
  assume: airlineAssumption,
};

/**
 * Makes the airline playbook. With `confirm` it proposes every write and waits for a yes; with
 * `verify` it looks up the user and reservation and applies the policy before acting.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { airlineSolver } from "./solver.ts";
 * const solver = airlineSolver({ confirm: true, verify: true });
 * const action = solver.next({ step: 0, message: { role: "user", text: "Hi", intent: { kind: "request", goal: "add_bags", facts: {} } } });
 * assertEquals(action.type, "message");
 * ```
 */
export function airlineSolver(options: SolverOptions): Solver {
  return playbookSolver(AIRLINE_PLAYBOOK, options);
}
