/**
 * The orders world's tools: five reads (orders by date range, one order, one customer, a sales
 * summary and read-only SQL) and six writes (status changes, refunds, deletions, emails and the
 * worksheet of intermediate results). Names, parameters and results are fixed by the world's
 * spec. `run_sql` is read-only twice over: it accepts one `SELECT` or `WITH` statement only, and,
 * as every reading tool, it runs inside `Store.readOnly()`, where SQLite's authorizer refuses any
 * write. It runs through `Store.query()`, which bounds the rows a query reads and refuses a
 * recursive one or one that loops over its own results inside another loop; bad or refused SQL is
 * an `invalid_args` error saying why, never a crash or a hang.
 *
 * Declarations for the judge, where customers are named by their email on file (the analyst is
 * staff, so reading a customer's record needs no identification): `find_customer` identifies a
 * customer by `email`; it and `send_email` name the customer whose data they touch (the recipient
 * of an email, when the address is a customer's); `refund_order` and `delete_order` are irreversible;
 * `record_result` is the agent's own note (`confirm: false`: no yes needed); `read_orders` has a
 * partial form (half a page, marked incomplete) for the abnormal tasks.
 *
 * The reads are `_read_tools.ts`, the writes `_write_tools.ts`, what they share `_tool_common.ts`.
 *
 * @module
 */
import type { Tool } from "../tool.ts";
import { findCustomer, getCustomer, getOrder, readOrders, runSql, summarizeSales } from "./_read_tools.ts";
import { deleteOrder, recordResult, refundOrder, sendEmail, updateOrderStatus } from "./_write_tools.ts";

export { emailOnFile, refundable } from "./_tool_common.ts";
export { worksheetValue } from "./_write_tools.ts";

/**
 * The orders tools: the reads, then the writes.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { ordersTools } from "./tools.ts";
 * assertEquals(ordersTools.map((t) => t.name).includes("run_sql"), true);
 * ```
 */
export const ordersTools: readonly Tool[] = [
  readOrders as Tool,
  getOrder as Tool,
  getCustomer as Tool,
  findCustomer as Tool,
  summarizeSales as Tool,
  runSql as Tool,
  updateOrderStatus as Tool,
  refundOrder as Tool,
  deleteOrder as Tool,
  sendEmail as Tool,
  recordResult as Tool,
];
