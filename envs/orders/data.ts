/**
 * The orders world's data: one array of rows per table, each row with exactly its table's columns
 * (snake_case, SQLite types: TEXT → string, INTEGER and REAL → number, NULL → null). The
 * worksheet and the outbox start empty, so they are not part of the data.
 *
 * @module
 */
import type { Store } from "../sqlite.ts";
import type { Rows } from "../sqlite.ts";

/** A customer; `referred_by` is the customer who referred them. */
export interface CustomerRow {
  customer_id: string;
  name: string;
  email: string;
  city: string | null;
  created_at: string;
  referred_by: string | null;
  is_test: number;
  position: number;
}

/** A product in the catalogue. */
export interface ProductRow {
  product_id: string;
  name: string;
  category: string;
  price: number;
}

/** An order (its items, payments and refunds are rows of their own tables). */
export interface OrderRow {
  order_id: number;
  customer_id: string;
  order_date: string;
  status: "pending" | "processing" | "shipped" | "delivered" | "cancelled";
  delivered_at: string | null;
  total: number;
  note: string | null;
  is_test: number;
}

/** A line of an order. */
export interface OrderItemRow {
  order_id: number;
  position: number;
  product_id: string;
  quantity: number;
  unit_price: number;
}

/** A payment of an order. */
export interface PaymentRow {
  payment_id: string;
  order_id: number;
  amount: number;
  method: "card" | "paypal" | "gift_card";
  paid_at: string;
}

/** A refund of an order. */
export interface RefundRow {
  refund_id: string;
  order_id: number;
  amount: number;
  reason: string;
  refunded_at: string;
}

/** The whole orders world (the worksheet and outbox start empty). */
export interface OrdersData {
  /** In position order. */
  customers: CustomerRow[];
  products: ProductRow[];
  orders: OrderRow[];
  order_items: OrderItemRow[];
  payments: PaymentRow[];
  refunds: RefundRow[];
}

/**
 * The data as table rows: the identity on tables.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { ordersRows } from "./data.ts";
 * const empty = { customers: [], products: [], orders: [], order_items: [], payments: [], refunds: [] };
 * assertEquals(Object.keys(ordersRows(empty)).length, 6);
 * ```
 */
export function ordersRows(data: OrdersData): Rows {
  return {
    customers: data.customers,
    products: data.products,
    orders: data.orders,
    order_items: data.order_items,
    payments: data.payments,
    refunds: data.refunds,
  } as unknown as Rows;
}

/** Reads the data back from a world's database, every table in key order (customers by position). */
export function readOrders(db: Store): OrdersData {
  return {
    customers: db.all<CustomerRow>("SELECT * FROM customers ORDER BY position"),
    products: db.all<ProductRow>("SELECT * FROM products ORDER BY product_id"),
    orders: db.all<OrderRow>("SELECT * FROM orders ORDER BY order_id"),
    order_items: db.all<OrderItemRow>("SELECT * FROM order_items ORDER BY order_id, position"),
    payments: db.all<PaymentRow>("SELECT * FROM payments ORDER BY payment_id"),
    refunds: db.all<RefundRow>("SELECT * FROM refunds ORDER BY refund_id"),
  };
}
