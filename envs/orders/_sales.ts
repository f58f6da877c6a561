// The sales sums of the orders world (schema.ts says why they are kept and why they have no primary
// key): their tables and the triggers that keep them, and summarize_sales' reads of them
// (`_read_tools.ts`). A day's or a month's sums are read from a row each, so a summary's time follows
// the days (or the customers) it answers with, not the orders behind them.
import type { Store } from "../sqlite.ts";
import { monthEnd } from "./_dates.ts";

// An order's total in cents, and its revenue in cents (none when it is cancelled).
const cents = (row: string) => `CAST(round(${row}.total * 100) AS INTEGER)`;
const revenueCents = (row: string) => `CASE WHEN ${row}.status <> 'cancelled' THEN ${cents(row)} ELSE 0 END`;
const month = (row: string) => `substr(${row}.order_date, 1, 7)`;

// The statements that count an order (`row`: NEW or OLD) in, or out of, the sums. A sum that comes
// to no orders stays, as a row of zeros the reads leave out: fewer statements for a write to compile
// and run.
const countIn = (row: string) => `
  INSERT INTO sales_by_day (order_date, status, n, cents) VALUES (${row}.order_date, ${row}.status, 1, ${cents(row)})
    ON CONFLICT (order_date, status) DO UPDATE SET n = n + 1, cents = cents + excluded.cents;
  INSERT INTO sales_by_month (month, customer_id, n, cents) VALUES (${month(row)}, ${row}.customer_id, 1, ${
  revenueCents(row)
})
    ON CONFLICT (month, customer_id) DO UPDATE SET n = n + 1, cents = cents + excluded.cents;`;
const countOut = (row: string) => `
  UPDATE sales_by_day SET n = n - 1, cents = cents - ${cents(row)}
    WHERE order_date = ${row}.order_date AND status = ${row}.status;
  UPDATE sales_by_month SET n = n - 1, cents = cents - ${revenueCents(row)}
    WHERE month = ${month(row)} AND customer_id = ${row}.customer_id;`;

/** The sums' tables and triggers (part of `ORDERS_SCHEMA`, after the orders table). */
export const SALES_SCHEMA: string = `
CREATE TABLE sales_by_day (
  order_date TEXT NOT NULL,
  status TEXT NOT NULL,
  n INTEGER NOT NULL,
  cents INTEGER NOT NULL
);
CREATE UNIQUE INDEX sales_by_day_key ON sales_by_day (order_date, status);

-- group_json: the customer's group in summarize_sales' answer, {"key", "orders", "revenue"}.
CREATE TABLE sales_by_month (
  month TEXT NOT NULL,
  customer_id TEXT NOT NULL,
  n INTEGER NOT NULL,
  cents INTEGER NOT NULL,
  group_json TEXT GENERATED ALWAYS AS ('{"key":' || json_quote(customer_id) || ',"orders":' || n ||
    ',"revenue":' || (cents / 100) || '.' || printf('%02d', cents % 100) || '}') STORED
);
CREATE UNIQUE INDEX sales_by_month_key ON sales_by_month (month, customer_id);
-- A month's groups read from the index alone, in customer order.
CREATE INDEX sales_by_month_groups ON sales_by_month (month, customer_id, n, group_json);

CREATE TRIGGER orders_sales_insert AFTER INSERT ON orders BEGIN${countIn("NEW")}
END;
CREATE TRIGGER orders_sales_delete AFTER DELETE ON orders BEGIN${countOut("OLD")}
END;
-- A change of status alone (what update_order_status makes) moves the order between two days' sums,
-- and changes its month's revenue only when it is cancelled; any other change counts it out and in.
-- A statement setting none of an order's summed columns compiles neither trigger.
CREATE TRIGGER orders_sales_status AFTER UPDATE OF status ON orders
  WHEN OLD.status IS NOT NEW.status AND OLD.order_date IS NEW.order_date AND OLD.customer_id IS NEW.customer_id
    AND OLD.total IS NEW.total
BEGIN
  UPDATE sales_by_day SET n = n - 1, cents = cents - ${cents("OLD")}
    WHERE order_date = OLD.order_date AND status = OLD.status;
  INSERT INTO sales_by_day (order_date, status, n, cents) VALUES (NEW.order_date, NEW.status, 1, ${cents("NEW")})
    ON CONFLICT (order_date, status) DO UPDATE SET n = n + 1, cents = cents + excluded.cents;
  UPDATE sales_by_month SET cents = cents - ${revenueCents("OLD")} + ${revenueCents("NEW")}
    WHERE month = ${month("OLD")} AND customer_id = OLD.customer_id
      AND (OLD.status = 'cancelled') <> (NEW.status = 'cancelled');
END;
CREATE TRIGGER orders_sales_update AFTER UPDATE OF order_date, customer_id, total ON orders
  WHEN OLD.order_date IS NOT NEW.order_date OR OLD.customer_id IS NOT NEW.customer_id OR OLD.total IS NOT NEW.total
BEGIN${countOut("OLD")}${countIn("NEW")}
END;
`;

/** One group of a summary: its key, its orders and their revenue. */
export interface SalesGroup {
  key: string;
  orders: number;
  revenue: number;
}

// Revenue in cents, as the tools give amounts. A sum of totals in cents rounded to cents is the sum
// of their cents over 100, and so is this.
const fromCents = (c: number) => c / 100;

const BY_DAY = `SELECT order_date AS key, sum(n) AS orders,
  coalesce(sum(CASE WHEN status <> 'cancelled' THEN cents END), 0) AS cents
FROM sales_by_day WHERE order_date BETWEEN ? AND ? GROUP BY order_date HAVING sum(n) > 0 ORDER BY key`;
const BY_STATUS = `SELECT status AS key, sum(n) AS orders,
  coalesce(sum(CASE WHEN status <> 'cancelled' THEN cents END), 0) AS cents
FROM sales_by_day WHERE order_date BETWEEN ? AND ? GROUP BY status HAVING sum(n) > 0 ORDER BY key`;
const OVERALL = `SELECT coalesce(sum(n), 0) AS orders,
  coalesce(sum(CASE WHEN status <> 'cancelled' THEN cents END), 0) AS cents
FROM sales_by_day WHERE order_date BETWEEN ? AND ?`;
// A month's groups by customer, in customer order (the index's), as one JSON array.
const MONTH_BY_CUSTOMER = `SELECT '[' || coalesce(group_concat(group_json, ','), '') || ']' AS groups
FROM (SELECT group_json FROM sales_by_month INDEXED BY sales_by_month_groups WHERE month = ? AND n > 0
  ORDER BY customer_id)`;

/** The groups by day or by status of the orders placed between two dates (both included). */
export function salesByDayOrStatus(db: Store, by: "day" | "status", start: string, end: string): SalesGroup[] {
  return db.all<{ key: string; orders: number; cents: number }>(by === "day" ? BY_DAY : BY_STATUS, start, end)
    .map((g) => ({ key: g.key, orders: g.orders, revenue: fromCents(g.cents) }));
}

/**
 * The groups by customer when the dates span one calendar month exactly, from the month's sums;
 * `undefined` for any other range (summed from the orders by the caller).
 */
export function monthByCustomer(db: Store, start: string, end: string): SalesGroup[] | undefined {
  if (!start.endsWith("-01") || end !== monthEnd(start)) return undefined;
  return JSON.parse(db.get<{ groups: string }>(MONTH_BY_CUSTOMER, start.slice(0, 7))!.groups);
}

/** The orders placed between two dates (both included) and their revenue. */
export function salesOverall(db: Store, start: string, end: string): { orders: number; revenue: number } {
  const all = db.get<{ orders: number; cents: number }>(OVERALL, start, end)!;
  return { orders: all.orders, revenue: fromCents(all.cents) };
}
