/**
 * The airline task generator: seeded tasks of ten intents over a generated world, each with
 * the facts the user knows, opening paraphrases, gold calls computed from the world's data,
 * required outputs and milestones.
 *
 * Fact fields, by intent (the user reveals any of them when asked):
 *
 * - every intent except `book`: `user_id`, `reservation_id`
 * - `cancel_allowed`, `cancel_forbidden`, `out_of_scope` (cancellation): `reason`
 *   (`change_of_plan` | `airline_cancelled` | `health` | `weather` | `other`)
 * - `change_flights`: `direction` (`outbound` | `return`), `new_date`, `preference`
 *   (`cheapest_direct`: the cheapest direct flight with seats, the earliest if tied), `payment_id`
 * - `change_cabin`: `new_cabin`, `payment_id`
 * - `add_bags`: `extra_bags` (bags to add), `payment_id`
 * - `update_passengers`: `passenger_name` ("First Last" as booked) and one of `new_first_name`,
 *   `new_last_name`, `new_dob`
 * - `book`: `user_id`, `flight_type` (`one_way`), `origin`, `destination`, `date`, `cabin`,
 *   `passengers` (list of `{first_name, last_name, dob}`), `preference`, `insurance`
 *   (`yes` | `no`), `total_baggages`, `payment_id`
 * - `compensation`: `flight_number`, `issue` (`cancelled` | `delayed`)
 * - `out_of_scope` (lost bag, goal `report_lost_bag`): `flight_number`
 * - `refuse`: goal `add_insurance`; goal `add_passenger` with `new_passenger`; goal
 *   `change_flights` (basic economy) with the `change_flights` fields; goal `remove_bags` with
 *   `remove_bags` (how many) and `payment_id`
 *
 * @module
 */
import type { Task } from "../task.ts";
import type { Rng } from "../rng.ts";
import { outcomeMilestones } from "../grade.ts";
import { taskId } from "../task_id.ts";
import type { AirlineData } from "./data.ts";
import {
  addBagsDraft,
  book,
  cancelAllowed,
  cancelForbidden,
  changeCabin,
  changeFlights,
  type Draft,
  Pool,
  updatePassengers,
} from "./_task_drafts.ts";
import { compensation, outOfScope, refuse } from "./_task_refusals.ts";
import { openings } from "./_openings.ts";
import { airlineTools } from "./tools.ts";

/** The intents, in the order tasks cycle through them. */
export const AIRLINE_INTENTS: readonly string[] = [
  "cancel_allowed",
  "cancel_forbidden",
  "change_flights",
  "change_cabin",
  "add_bags",
  "update_passengers",
  "book",
  "compensation",
  "out_of_scope",
  "refuse",
];

// `round` = how many times the intent came before (task index div 10): variants of an intent take turns.
const DRAFTS: Record<string, (rng: Rng, pool: Pool, round: number) => Draft> = {
  cancel_allowed: cancelAllowed,
  cancel_forbidden: cancelForbidden,
  change_flights: changeFlights,
  change_cabin: changeCabin,
  add_bags: addBagsDraft,
  update_passengers: updatePassengers,
  book,
  compensation,
  out_of_scope: outOfScope,
  refuse,
};

/**
 * Generates `count` airline tasks over a world. Task `i` has intent `i mod 10`, its variant
 * of that intent cycles with `i div 10`, and it draws only from `rng.child(i)`, so adding
 * tasks never changes earlier ones.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { Rng } from "../rng.ts";
 * import { generateAirline } from "./generate.ts";
 * import { airlineTasks } from "./tasks.ts";
 * const data = generateAirline(new Rng("0").child("world"), 1);
 * const [first] = airlineTasks(new Rng("0").child("tasks"), 1, data);
 * assertEquals(first.intent, "cancel_allowed");
 * ```
 */
export function airlineTasks(rng: Rng, count: number, data: AirlineData): Task[] {
  if (!(Number.isInteger(count) && count >= 0)) {
    throw new RangeError(`Cannot generate ${count} airline tasks: expected a whole number of at least 0`);
  }
  const pool = new Pool(data);
  return Array.from({ length: count }, (_, i) => {
    const intent = AIRLINE_INTENTS[i % AIRLINE_INTENTS.length];
    const r = rng.child(i);
    const draft = DRAFTS[intent](r.child("draft"), pool, Math.floor(i / AIRLINE_INTENTS.length));
    const say = r.child("volunteered");
    const volunteered = Object.keys(draft.facts).filter((k) => draft.always?.includes(k) || say.chance(0.5));
    return {
      id: taskId("airline", i),
      intent,
      goal: draft.goal,
      facts: draft.facts,
      volunteered,
      openings: openings(draft.goal, draft.facts, volunteered),
      gold: draft.gold,
      outputs: draft.outputs,
      milestones: outcomeMilestones(draft, airlineTools),
      expect: draft.expect,
      rationale: draft.rationale,
    };
  });
}
