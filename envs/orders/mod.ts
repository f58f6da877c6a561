/**
 * The orders world: an operations-analytics world over an order database (customers, products,
 * orders and their items, payments, refunds, an outbox and a worksheet), with ark's own policy, a
 * seeded generator at any scale, tasks of four categories (normal, edge, abnormal, noise) and the
 * long-horizon families, a policy-following playbook and the judge's constraints.
 *
 * @module
 */
import { defineDomain } from "../domain.ts";
import { ORDERS_VOCABULARY } from "./vocabulary.ts";
import { ORDERS_SCENARIOS } from "./scenarios.ts";
import type { Domain } from "../domain.ts";
import { type OrdersData, ordersRows, readOrders } from "./data.ts";
import { generateOrders } from "./generate.ts";
import { ORDERS_POLICY } from "./policy.ts";
import { ORDERS_CONSTRAINTS } from "./constraints.ts";
import { ORDERS_SCHEMA } from "./schema.ts";
import { ordersSolver } from "./solver.ts";
import { ordersTasks } from "./tasks.ts";
import { ordersTools } from "./tools.ts";
import { NOW } from "./_dates.ts";
import { longTasks } from "./long.ts";

export type * from "./data.ts";
export { ordersRows, readOrders } from "./data.ts";
export { ORDERS_POLICY } from "./policy.ts";
export { ORDERS_CONSTRAINTS } from "./constraints.ts";
export { ORDERS_SCHEMA } from "./schema.ts";
export { LONG_POSITIONS, ordersTasks } from "./tasks.ts";
export { ordersSolver } from "./solver.ts";
export { ordersTools } from "./tools.ts";
export { generateOrders } from "./generate.ts";

/** The orders domain. */
export const orders: Domain<OrdersData> = defineDomain<OrdersData>({
  name: "orders",
  policy: ORDERS_POLICY,
  schema: ORDERS_SCHEMA,
  now: NOW,
  generate: generateOrders,
  rows: ordersRows,
  read: readOrders,
  tools: ordersTools,
  tasks: ordersTasks,
  longTasks: (rng, perClass, data) => longTasks(rng, data, { perClass }),
  solver: ordersSolver,
  constraints: ORDERS_CONSTRAINTS,
  scenarios: ORDERS_SCENARIOS,
  vocabulary: ORDERS_VOCABULARY,
});
