// The orders world's tables (SQLite). Every table of the world has a primary key (SQLite sessions,
// which diff an episode, ignore tables without one). Indexes serve the tools' look-ups: orders by date
// (every range read), by status and date (read_orders' filter), by customer (a customer's order
// count), customers by email ignoring case, and the child tables by order.
//
// Two tables are no part of the world but sums of its orders, kept by triggers on orders, so that a
// sales summary reads a row per day (or per customer) instead of every order: sales_by_day (orders and
// amount in cents by date and status) and sales_by_month (orders and revenue in cents by month and
// customer, with the group as summarize_sales gives it, as JSON). They have no primary key on purpose:
// the episode's change (sessions, and the capture by triggers, watch tables with one) leaves them out,
// as it leaves out everything derived. Amounts are summed in whole cents: order totals are amounts in
// cents (the generator rounds them; no tool writes a total), so a sum of cents over 100 is the rounded
// sum of the totals exactly.
import { SALES_SCHEMA } from "./_sales.ts";

/**
 * SQL that creates the orders world's tables and indexes.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { Store } from "../sqlite.ts";
 * import { ORDERS_SCHEMA } from "./schema.ts";
 * using db = Store.open(ORDERS_SCHEMA);
 * assertEquals(db.get("SELECT count(*) AS n FROM orders"), { n: 0 });
 * ```
 */
export const ORDERS_SCHEMA: string = `
CREATE TABLE customers (
  customer_id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  email TEXT NOT NULL UNIQUE,
  city TEXT,
  created_at TEXT NOT NULL,
  referred_by TEXT,
  is_test INTEGER NOT NULL,
  position INTEGER NOT NULL
);
CREATE INDEX customers_referred_by ON customers (referred_by);
-- find_customer and the customer an email goes to match the email ignoring case.
CREATE INDEX customers_email_lower ON customers (lower(email), position);

CREATE TABLE products (
  product_id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  category TEXT NOT NULL,
  price REAL NOT NULL
);

CREATE TABLE orders (
  order_id INTEGER PRIMARY KEY,
  customer_id TEXT NOT NULL,
  order_date TEXT NOT NULL,
  status TEXT NOT NULL,
  delivered_at TEXT,
  total REAL NOT NULL,
  note TEXT,
  is_test INTEGER NOT NULL
);
CREATE INDEX orders_date ON orders (order_date, order_id);
CREATE INDEX orders_customer ON orders (customer_id);
CREATE INDEX orders_status ON orders (status, order_date, order_id);

CREATE TABLE order_items (
  order_id INTEGER NOT NULL,
  position INTEGER NOT NULL,
  product_id TEXT NOT NULL,
  quantity INTEGER NOT NULL,
  unit_price REAL NOT NULL,
  PRIMARY KEY (order_id, position)
) WITHOUT ROWID;

CREATE TABLE payments (
  payment_id TEXT PRIMARY KEY,
  order_id INTEGER NOT NULL,
  amount REAL NOT NULL,
  method TEXT NOT NULL,
  paid_at TEXT NOT NULL
);
CREATE INDEX payments_order ON payments (order_id);

CREATE TABLE refunds (
  refund_id TEXT PRIMARY KEY,
  order_id INTEGER NOT NULL,
  amount REAL NOT NULL,
  reason TEXT NOT NULL,
  refunded_at TEXT NOT NULL
);
CREATE INDEX refunds_order ON refunds (order_id);

CREATE TABLE outbox (
  email_id TEXT PRIMARY KEY,
  to_addr TEXT NOT NULL,
  subject TEXT NOT NULL,
  body TEXT NOT NULL,
  sent_at TEXT NOT NULL
);

CREATE TABLE worksheet (
  step INTEGER PRIMARY KEY,
  value TEXT NOT NULL,
  recorded_at TEXT NOT NULL
);
` + SALES_SCHEMA;
