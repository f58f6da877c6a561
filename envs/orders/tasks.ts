/**
 * The orders task generator: seeded tasks of four categories (`normal`, `edge`, `abnormal`,
 * `noise`), taken round-robin, plus the six long-horizon tasks of `./long.ts` at fixed early
 * positions (5, 11, 17, 23, 29, 35), so the default 50 tasks hold all six and 11 of each category.
 * Task `i` draws only from `rng.child(i)` (the long tasks from `rng.child("long")`), so adding
 * tasks never changes the earlier ones; the long tasks come back with `id: ""` and get their id here.
 *
 * Fact fields, by goal (every fact is volunteered in the opening):
 *
 * - `sales_total`, `sales_total_clean`, `top_customer`, `largest_order`: `start_date`, `end_date`
 * - `order_count`, `status_total`: `start_date`, `end_date`, `status`
 * - `customer_orders`, `customer_city`: `customer_id`; `order_status`, `cancel_order`, `delete_order`: `order_id`
 * - `refund_order`: `order_id`, `amount`, `reason`
 * - `email_customer`: `customer_id`, `order_id`, `subject`, `body`
 *
 * An empty result's answer is the policy's phrase "no orders found" (`NO_ORDERS`, a `told` output);
 * a customer whose city is null is said to have "no city on file" (`NO_CITY`).
 *
 * @module
 */
import type { Task, TaskCategory } from "../task.ts";
import { TASK_CATEGORIES } from "../task.ts";
import type { Rng } from "../rng.ts";
import { outcomeMilestones } from "../grade.ts";
import { taskId } from "../task_id.ts";
import type { OrdersData } from "./data.ts";
import { Pool } from "./_drafts.ts";
import { draft } from "./_draft_categories.ts";
import { openings } from "./_openings.ts";
import { ordersTools } from "./tools.ts";
import { longTasks } from "./long.ts";

/** Where the long-horizon tasks sit among the tasks, in `longTasks()` order. */
export const LONG_POSITIONS: readonly number[] = [5, 11, 17, 23, 29, 35];

/**
 * Generates `count` orders tasks over a world (see the module doc for the layout).
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { Rng } from "../rng.ts";
 * import { generateOrders } from "./generate.ts";
 * import { ordersTasks } from "./tasks.ts";
 * const data = generateOrders(new Rng("0").child("world"), 1);
 * const categories = ordersTasks(new Rng("0").child("tasks"), 4, data).map((t) => t.category);
 * assertEquals(categories, ["normal", "edge", "abnormal", "noise"]);
 * ```
 */
export function ordersTasks(rng: Rng, count: number, data: OrdersData): Task[] {
  if (!(Number.isInteger(count) && count >= 0)) {
    throw new RangeError(`Cannot generate ${count} orders tasks: expected a whole number of at least 0`);
  }
  const pool = new Pool(data);
  const long = count > LONG_POSITIONS[0] ? longTasks(rng.child("long"), data) : [];
  const out: Task[] = [];
  let k = 0;
  for (let i = 0; i < count; i++) {
    const at = LONG_POSITIONS.indexOf(i);
    if (at >= 0 && at < long.length) {
      out.push({ ...long[at], id: taskId("orders", i) });
      continue;
    }
    const category: TaskCategory = TASK_CATEGORIES[k % 4];
    const round = Math.floor(k / 4);
    k++;
    const r = rng.child(i);
    const d = draft(pool, category, round, r.child("draft"));
    const task: Task = {
      id: taskId("orders", i),
      intent: `${category}:${d.goal}`,
      goal: d.goal,
      facts: d.facts,
      volunteered: Object.keys(d.facts),
      openings: openings(d.goal, d.facts, r.child("openings"), d.chatter === true),
      gold: d.gold,
      outputs: d.outputs,
      milestones: outcomeMilestones(d, ordersTools),
      expect: d.expect,
      rationale: d.rationale,
      category: d.category,
    };
    if (d.abnormal) task.abnormal = d.abnormal;
    out.push(task);
  }
  return out;
}
