/**
 * The retail task generator: seeded tasks of ten intents over a generated world, each with the
 * facts the user knows, opening paraphrases, gold calls computed from the world's data with the
 * policy's rule functions (`_rules.ts`, which the playbook uses too), outputs and milestones.
 *
 * Fact fields, by goal (the user reveals any of them when asked):
 *
 * - identity: `email`, or `first_name`, `last_name` and `zip` (an `auth_failure` user knows
 *   only `user_id`)
 * - `cancel_order`: `order_id`, `reason`
 * - `modify_items`, `exchange_items`: `order_id`, `item_ids`, `new_item_ids`, `payment_method_id`
 * - `modify_order_address`: `order_id`, `new_address` (address1, address2, city, state, country, zip)
 * - `modify_order_payment`: `order_id`, `payment_method_id`
 * - `return_items`: `order_id`, `item_ids`, `payment_method_id`
 * - `order_status`: `order_id`; `item_price`: `product_id`, `item_id`
 * - out of scope (`change_email`, `delete_account`, `price_match`): identity only
 *
 * @module
 */
import type { Task } from "../task.ts";
import type { Rng } from "../rng.ts";
import { outcomeMilestones } from "../grade.ts";
import { taskId } from "../task_id.ts";
import type { RetailData } from "./data.ts";
import {
  authFailure,
  cancelPending,
  type Draft,
  exchangeItems,
  forbidden,
  information,
  modifyAddress,
  modifyItems,
  modifyPayment,
  Pool,
  returnItems,
  transfer,
} from "./_task_drafts.ts";
import { openings } from "./_openings.ts";
import { retailTools } from "./tools.ts";

/** The intents, in the order tasks cycle through them. */
export const RETAIL_INTENTS: readonly string[] = [
  "cancel_pending",
  "modify_items",
  "modify_address",
  "modify_payment",
  "return_items",
  "exchange_items",
  "forbidden",
  "auth_failure",
  "transfer",
  "inform",
];

// `round` = how many times the intent came before (task index div 10): variants of an intent take turns.
const DRAFTS: Record<string, (rng: Rng, pool: Pool, round: number) => Draft | undefined> = {
  cancel_pending: cancelPending,
  modify_items: modifyItems,
  modify_address: modifyAddress,
  modify_payment: modifyPayment,
  return_items: returnItems,
  exchange_items: exchangeItems,
  forbidden,
  auth_failure: authFailure,
  transfer,
  inform: information,
};

/**
 * Generates `count` retail tasks over a world. Task `i` has intent `i mod 10`, its variant of
 * that intent cycles with `i div 10`, and it draws only from `rng.child(i)`, so adding tasks
 * never changes earlier ones. An intent the world holds no case for becomes a hand-over.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { Rng } from "../rng.ts";
 * import { generateRetail } from "./generate.ts";
 * import { retailTasks } from "./tasks.ts";
 * const data = generateRetail(new Rng("0").child("world"), 1);
 * const [first] = retailTasks(new Rng("0").child("tasks"), 1, data);
 * assertEquals(first.intent, "cancel_pending");
 * ```
 */
export function retailTasks(rng: Rng, count: number, data: RetailData): Task[] {
  if (!(Number.isInteger(count) && count >= 0)) {
    throw new RangeError(`Cannot generate ${count} retail tasks: expected a whole number of at least 0`);
  }
  const pool = new Pool(data);
  return Array.from({ length: count }, (_, i) => {
    let intent = RETAIL_INTENTS[i % RETAIL_INTENTS.length];
    const r = rng.child(i);
    const round = Math.floor(i / RETAIL_INTENTS.length);
    let draft = DRAFTS[intent](r.child("draft"), pool, round);
    if (draft === undefined) {
      intent = "transfer";
      draft = transfer(r.child("draft"), pool, round);
    }
    if (draft === undefined) throw new RangeError(`Cannot generate retail task ${i}: the world holds no orders`);
    const d = draft;
    const say = r.child("volunteered");
    const volunteered = Object.keys(d.facts).filter((k) => d.always?.includes(k) || say.chance(0.5));
    return {
      id: taskId("retail", i),
      intent,
      goal: d.goal,
      facts: d.facts,
      volunteered,
      openings: openings(d.goal, d.facts, volunteered),
      gold: d.gold,
      outputs: d.outputs,
      milestones: outcomeMilestones(d, retailTools),
      expect: d.expect,
      rationale: d.rationale,
    };
  });
}
