// The orders world's reading tools (`tools.ts`): orders by date range, one order, one customer (by id
// or email), a sales summary and read-only SQL.
import { z } from "zod";
import { defineTool, ToolError } from "../tool.ts";
import type { Json } from "../json.ts";
import { QueryRefused, type QueryResult, type SqlValue } from "../query.ts";
import type { Store } from "../sqlite.ts";
import { round2 } from "./_dates.ts";
import { monthByCustomer, salesByDayOrStatus, salesOverall } from "./_sales.ts";
import { arg, BY_EMAIL, date, emailOnFile, orderId, orderRow, refundable, STATUSES } from "./_tool_common.ts";

const PAGE = 50;
const SQL_ROWS = 200;

const filters = z.strictObject({
  status: z.enum(STATUSES).optional(),
  customer_id: z.string().optional(),
  min_total: z.number().optional(),
  max_total: z.number().optional(),
}).describe("Any of status, customer_id, min_total, max_total");

export const readOrders = defineTool({
  name: "read_orders",
  description: "List the orders placed between two dates (both included), 50 a page, by date then id, " +
    "optionally filtered by status, customer id or total. Gives each order's id, customer, date, status and total, " +
    "with the page number, the number of pages and the number of matching orders.",
  input: z.strictObject({
    start_date: date("First day"),
    end_date: date("Last day"),
    filters: filters.optional(),
    page: z.number().int().positive().optional().describe("Page number from 1 (default 1)"),
  }),
  writes: false,
  partial: (result) => {
    const r = result as { orders: Json[]; page: number; pages: number; total_count: number };
    const kept = r.orders.slice(0, Math.floor(r.orders.length / 2));
    return {
      ...r,
      orders: kept,
      complete: false,
      note:
        `The page was cut off: only ${kept.length} of its ${r.orders.length} orders were returned. Request it again.`,
    };
  },
  run: ({ db }, a) => {
    if (a.start_date > a.end_date) {
      throw new ToolError("invalid_args", `start_date "${a.start_date}" is after end_date "${a.end_date}"`);
    }
    const where = ["order_date BETWEEN ? AND ?"];
    const params: SqlValue[] = [a.start_date, a.end_date];
    const f = a.filters ?? {};
    if (f.status !== undefined) where.push("status = ?"), params.push(f.status);
    if (f.customer_id !== undefined) where.push("customer_id = ?"), params.push(f.customer_id);
    if (f.min_total !== undefined) where.push("total >= ?"), params.push(f.min_total);
    if (f.max_total !== undefined) where.push("total <= ?"), params.push(f.max_total);
    const sql = where.join(" AND ");
    const total_count = db.get<{ n: number }>(`SELECT count(*) AS n FROM orders WHERE ${sql}`, ...params)!.n;
    if (total_count === 0) return { orders: [], page: 1, pages: 0, total_count: 0 };
    const page = a.page ?? 1;
    const orders = db.all(
      `SELECT order_id, customer_id, order_date, status, total FROM orders WHERE ${sql}
ORDER BY order_date, order_id LIMIT ${PAGE} OFFSET ?`,
      ...params,
      (page - 1) * PAGE,
    );
    return { orders, page, pages: Math.ceil(total_count / PAGE), total_count } as unknown as Json;
  },
});

export const getOrder = defineTool({
  name: "get_order",
  description: "Look up one order: customer, dates, status, total, note, whether it is a test order, its items, " +
    "payments and refunds, and the amount still refundable (paid minus refunded).",
  input: z.strictObject({ order_id: orderId }),
  writes: false,
  run: ({ db }, a) => {
    const o = orderRow(db, a.order_id);
    const items = db.all(
      "SELECT position, product_id, quantity, unit_price FROM order_items WHERE order_id = ? " +
        "ORDER BY position",
      a.order_id,
    );
    const payments = db.all(
      "SELECT payment_id, amount, method, paid_at FROM payments WHERE order_id = ? " +
        "ORDER BY payment_id",
      a.order_id,
    );
    const refunds = db.all(
      "SELECT refund_id, amount, reason, refunded_at FROM refunds WHERE order_id = ? " +
        "ORDER BY refund_id",
      a.order_id,
    );
    return { ...o, items, payments, refunds, refundable: refundable(db, a.order_id) } as unknown as Json;
  },
});

// A customer's profile (get_customer, find_customer): the customer matching `where`, with their order count.
function customerProfile(db: Store, where: string, value: string): Json | undefined {
  const c = db.get(
    `SELECT customer_id, name, email, city, created_at, referred_by, is_test FROM customers WHERE ${where}`,
    value,
  );
  if (c === undefined) return undefined;
  const n = db.get<{ n: number }>("SELECT count(*) AS n FROM orders WHERE customer_id = ?", c.customer_id)!.n;
  return { ...c, orders: n } as unknown as Json;
}

export const getCustomer = defineTool({
  name: "get_customer",
  description: "Look up one customer: name, email, city, sign-up time, who referred them, whether it is a test " +
    "account, and how many orders they placed.",
  input: z.strictObject({ customer_id: z.string().describe('Customer id, e.g. "C0042"') }),
  writes: false,
  run: ({ db }, a) => {
    const c = customerProfile(db, "customer_id = ?", a.customer_id);
    if (c === undefined) throw new ToolError("not_found", `customer ${a.customer_id} not found`);
    return c;
  },
});

export const findCustomer = defineTool({
  name: "find_customer",
  description: "Find a customer by email address (case does not matter): the same profile as get_customer.",
  input: z.strictObject({ email: z.string().describe('Email address, e.g. "ana.silva.12@example.com"') }),
  writes: false,
  identifies: "email",
  customer: (args, db) => emailOnFile(db, arg(args, "email")),
  run: ({ db }, a) => {
    const c = customerProfile(db, BY_EMAIL, a.email.trim());
    if (c === undefined) throw new ToolError("not_found", `no customer with email ${a.email}`);
    return c;
  },
});

// Sales grouped by customer or product, summed from the orders (by day and by status, and by
// customer over one whole month, they are read from the sums in `_sales.ts`).
const GROUP_SQL: Record<string, string> = {
  customer: `SELECT customer_id AS key, count(*) AS orders,
  coalesce(sum(CASE WHEN status <> 'cancelled' THEN total END), 0) AS revenue
FROM orders WHERE order_date BETWEEN ? AND ? GROUP BY customer_id ORDER BY key`,
  product: `SELECT i.product_id AS key, count(DISTINCT o.order_id) AS orders,
  coalesce(sum(CASE WHEN o.status <> 'cancelled' THEN i.quantity * i.unit_price END), 0) AS revenue
FROM orders o JOIN order_items i ON i.order_id = o.order_id
WHERE o.order_date BETWEEN ? AND ? GROUP BY i.product_id ORDER BY key`,
};

function salesGroups(db: Store, by: "day" | "product" | "customer" | "status", start: string, end: string) {
  if (by === "day" || by === "status") return salesByDayOrStatus(db, by, start, end);
  if (by === "customer") {
    const month = monthByCustomer(db, start, end);
    if (month !== undefined) return month;
  }
  return db.all<{ key: string; orders: number; revenue: number }>(GROUP_SQL[by], start, end)
    .map((g) => ({ key: g.key, orders: g.orders, revenue: round2(g.revenue) }));
}

export const summarizeSales = defineTool({
  name: "summarize_sales",
  description: "Sales between two dates (both included), grouped by day, product, customer or status: each " +
    "group's number of orders and revenue, and the overall orders and revenue. Revenue is the sum of the totals " +
    "of orders that are not cancelled (for products, of their lines).",
  input: z.strictObject({
    start_date: date("First day"),
    end_date: date("Last day"),
    group_by: z.enum(["day", "product", "customer", "status"]).describe("How to group"),
  }),
  writes: false,
  run: ({ db }, a) => {
    if (a.start_date > a.end_date) {
      throw new ToolError("invalid_args", `start_date "${a.start_date}" is after end_date "${a.end_date}"`);
    }
    const groups = salesGroups(db, a.group_by, a.start_date, a.end_date);
    const all = salesOverall(db, a.start_date, a.end_date);
    return { groups, orders: all.orders, revenue: all.revenue } as unknown as Json;
  },
});

export const runSql = defineTool({
  name: "run_sql",
  description: "Run one read-only SQL query (SELECT or WITH) on the order database (tables customers, products, " +
    "orders, order_items, payments, refunds, outbox, worksheet). At most 200 rows come back.",
  input: z.strictObject({ query: z.string().min(1).describe("One SELECT or WITH statement") }),
  writes: false,
  run: ({ db }, a) => {
    const query = a.query.trim().replace(/;\s*$/, "");
    if (!/^(select|with)\b/i.test(query) || query.includes(";")) {
      throw new ToolError("invalid_args", "Only one read-only query is accepted: a SELECT or WITH statement");
    }
    let result: QueryResult;
    try {
      result = db.query(query, { maxRows: SQL_ROWS });
    } catch (err) {
      if (err instanceof QueryRefused) throw new ToolError("invalid_args", `The query was not run: ${err.message}`);
      const message = err instanceof Error ? err.message : String(err);
      throw new ToolError("invalid_args", `SQL error: ${message}`);
    }
    const cell = (v: SqlValue): Json =>
      typeof v === "bigint" ? Number(v) : v instanceof Uint8Array ? `<blob ${v.length} bytes>` : v;
    return { columns: result.columns, rows: result.rows.map((r) => r.map(cell)), truncated: result.truncated };
  },
});
