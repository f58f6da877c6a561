// Reads the retail world back from SQLite in τ-bench's db.json shape, one record or all of them.
import type { SqlValue } from "../query.ts";
import type { Store } from "../sqlite.ts";
import type { Address, Order, PaymentMethod, Product, RetailData, Transaction, User } from "./data.ts";
import { float, fromSql } from "./_number.ts";

type Row = Record<string, SqlValue>;

/** A row of `payment_methods`. */
export interface MethodRow {
  user_id: string;
  payment_id: string;
  position: number;
  source: string;
  brand: string | null;
  last_four: string | null;
  balance: number | null;
  balance_type: string | null;
}

/** A row of `orders`. */
export interface OrderRow {
  order_id: string;
  user_id: string;
  status: string;
  [column: string]: SqlValue;
}

/**
 * The whole retail world in db.json shape, every table in its order.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { Store } from "../sqlite.ts";
 * import { RETAIL_SCHEMA } from "./schema.ts";
 * import { readRetail } from "./_read.ts";
 * using db = Store.open(RETAIL_SCHEMA);
 * assertEquals(readRetail(db), { orders: {}, products: {}, users: {} });
 * ```
 */
export function readRetail(db: Store): RetailData {
  const methods = groupBy(db.all("SELECT * FROM payment_methods ORDER BY user_id, position"), "user_id");
  const userOrders = groupBy(db.all("SELECT * FROM user_orders ORDER BY user_id, position"), "user_id");
  const users: Record<string, User> = {};
  for (const u of db.all("SELECT * FROM users ORDER BY position")) {
    const id = u.user_id as string;
    users[id] = toUser(u, methods.get(id) ?? [], userOrders.get(id) ?? []);
  }
  const variants = groupBy(db.all("SELECT * FROM variants ORDER BY product_id, position"), "product_id");
  const products: Record<string, Product> = {};
  for (const p of db.all("SELECT * FROM products ORDER BY position")) {
    const id = p.product_id as string;
    products[id] = toProduct(p, variants.get(id) ?? []);
  }
  const parts = orderParts(db, "");
  const orders: Record<string, Order> = {};
  for (const o of db.all("SELECT * FROM orders ORDER BY position")) {
    orders[o.order_id as string] = toOrder(o as OrderRow, parts);
  }
  return { orders, products, users };
}

/** One order in db.json shape, or `undefined`. */
export function readOrder(db: Store, id: string): Order | undefined {
  const row = db.get<OrderRow>("SELECT * FROM orders WHERE order_id = ?", id);
  return row && toOrder(row, orderParts(db, id));
}

/** One user in db.json shape (without the id), or `undefined`. */
export function readUser(db: Store, id: string): User | undefined {
  const row = db.get("SELECT * FROM users WHERE user_id = ?", id);
  if (!row) return undefined;
  const methods = db.all("SELECT * FROM payment_methods WHERE user_id = ? ORDER BY position", id);
  return toUser(row, methods, db.all("SELECT * FROM user_orders WHERE user_id = ? ORDER BY position", id));
}

/** One product with its variants in db.json shape, or `undefined`. */
export function readProduct(db: Store, id: string): Product | undefined {
  const row = db.get("SELECT * FROM products WHERE product_id = ?", id);
  return row && toProduct(row, db.all("SELECT * FROM variants WHERE product_id = ? ORDER BY position", id));
}

/** A payment method as db.json holds it. */
export function toMethod(m: MethodRow | Row): PaymentMethod {
  const id = m.payment_id as string;
  if (m.source === "credit_card") {
    return { source: "credit_card", brand: m.brand as string, last_four: m.last_four as string, id };
  }
  if (m.source === "gift_card") {
    return { source: "gift_card", balance: fromSql(m.balance as number, m.balance_type as string), id };
  }
  return { source: m.source as "paypal", id };
}

function toUser(u: Row, methods: Row[], orders: Row[]): User {
  return {
    name: { first_name: u.first_name as string, last_name: u.last_name as string },
    address: toAddress(u),
    email: u.email as string,
    payment_methods: Object.fromEntries(methods.map((m) => [m.payment_id as string, toMethod(m)])),
    orders: orders.map((o) => o.order_id as string),
  };
}

function toProduct(p: Row, variants: Row[]): Product {
  return {
    name: p.name as string,
    product_id: p.product_id as string,
    variants: Object.fromEntries(variants.map((v) => [v.item_id as string, {
      item_id: v.item_id as string,
      options: JSON.parse(v.options as string),
      available: v.available === 1,
      price: float(v.price as number),
    }])),
  };
}

function toAddress(r: Row): Address {
  return {
    address1: r.address1 as string,
    address2: r.address2 as string,
    city: r.city as string,
    country: r.country as string,
    state: r.state as string,
    zip: r.zip as string,
  };
}

interface OrderParts {
  items: Map<string, Row[]>;
  fulfillments: Map<string, Row[]>;
  payments: Map<string, Row[]>;
}

// The list rows of one order, or of every order when `id` is "".
function orderParts(db: Store, id: string): OrderParts {
  const where = id === "" ? "" : "WHERE order_id = ?";
  const args = id === "" ? [] : [id];
  const rows = (table: string) =>
    groupBy(db.all(`SELECT * FROM ${table} ${where} ORDER BY order_id, position`, ...args), "order_id");
  return { items: rows("order_items"), fulfillments: rows("fulfillments"), payments: rows("payment_history") };
}

function toOrder(o: OrderRow, parts: OrderParts): Order {
  const id = o.order_id;
  const order: Order = {
    order_id: id,
    user_id: o.user_id,
    address: toAddress(o),
    items: (parts.items.get(id) ?? []).map((i) => ({
      name: i.name as string,
      product_id: i.product_id as string,
      item_id: i.item_id as string,
      price: float(i.price as number),
      options: JSON.parse(i.options as string),
    })),
    fulfillments: (parts.fulfillments.get(id) ?? []).map((f) => ({
      tracking_id: JSON.parse(f.tracking_id as string),
      item_ids: JSON.parse(f.item_ids as string),
    })),
    status: o.status,
    payment_history: (parts.payments.get(id) ?? []).map((t): Transaction => ({
      transaction_type: t.transaction_type as Transaction["transaction_type"],
      amount: fromSql(t.amount as number, t.amount_type as string),
      payment_method_id: t.payment_method_id as string,
    })),
  };
  // Columns a tool has not written are absent from the record, not null.
  if (o.cancel_reason !== null) order.cancel_reason = o.cancel_reason as string;
  if (o.exchange_items !== null) {
    order.exchange_items = JSON.parse(o.exchange_items as string);
    order.exchange_new_items = JSON.parse(o.exchange_new_items as string);
    order.exchange_payment_method_id = o.exchange_payment_method_id as string;
    order.exchange_price_difference = fromSql(
      o.exchange_price_difference as number,
      o.exchange_price_difference_type as string,
    );
  }
  if (o.return_items !== null) {
    order.return_items = JSON.parse(o.return_items as string);
    order.return_payment_method_id = o.return_payment_method_id as string;
  }
  return order;
}

function groupBy(rows: Row[], key: string): Map<string, Row[]> {
  const out = new Map<string, Row[]>();
  for (const r of rows) {
    const k = r[key] as string;
    const list = out.get(k);
    if (list) list.push(r);
    else out.set(k, [r]);
  }
  return out;
}
