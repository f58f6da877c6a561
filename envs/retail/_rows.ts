// Turns retail data in τ-bench's db.json shape into the rows of `RETAIL_SCHEMA`.
import type { Json } from "../json.ts";
import type { Rows } from "../sqlite.ts";
import type { Address, Order, PaymentMethod, RetailData } from "./data.ts";
import { typeOf, value } from "./_number.ts";

type Row = Record<string, Json>;

/**
 * The rows of every retail table, in the data's order (positions count from 0).
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { retailRows } from "./_rows.ts";
 * assertEquals(retailRows({ orders: {}, products: {}, users: {} }).orders, []);
 * ```
 */
export function retailRows(data: RetailData): Rows {
  const rows: Rows = {
    users: [],
    payment_methods: [],
    user_orders: [],
    products: [],
    variants: [],
    orders: [],
    order_items: [],
    fulfillments: [],
    payment_history: [],
  };
  Object.entries(data.users).forEach(([userId, u], position) => {
    rows.users.push({
      user_id: userId,
      position,
      first_name: u.name.first_name,
      last_name: u.name.last_name,
      ...addressColumns(u.address),
      email: u.email,
    });
    Object.entries(u.payment_methods).forEach(([id, m], i) => rows.payment_methods.push(methodRow(userId, id, i, m)));
    u.orders.forEach((id, i) => rows.user_orders.push({ user_id: userId, position: i, order_id: id }));
  });
  Object.entries(data.products).forEach(([productId, p], position) => {
    rows.products.push({ product_id: productId, position, name: p.name });
    Object.entries(p.variants).forEach(([itemId, v], i) => {
      rows.variants.push({
        item_id: itemId,
        product_id: productId,
        position: i,
        options: JSON.stringify(v.options),
        available: v.available ? 1 : 0,
        price: value(v.price),
      });
    });
  });
  Object.entries(data.orders).forEach(([orderId, o], position) => pushOrder(rows, orderId, position, o));
  return rows;
}

function addressColumns(a: Address): Row {
  return { address1: a.address1, address2: a.address2, city: a.city, country: a.country, state: a.state, zip: a.zip };
}

function methodRow(userId: string, paymentId: string, position: number, m: PaymentMethod): Row {
  return {
    user_id: userId,
    payment_id: paymentId,
    position,
    source: m.source,
    brand: m.source === "credit_card" ? m.brand : null,
    last_four: m.source === "credit_card" ? m.last_four : null,
    balance: m.source === "gift_card" ? value(m.balance) : null,
    balance_type: m.source === "gift_card" ? typeOf(m.balance) : null,
  };
}

function pushOrder(rows: Rows, orderId: string, position: number, o: Order): void {
  const list = (v: string[] | undefined): Json => v === undefined ? null : JSON.stringify(v);
  rows.orders.push({
    order_id: orderId,
    position,
    user_id: o.user_id,
    ...addressColumns(o.address),
    status: o.status,
    cancel_reason: o.cancel_reason ?? null,
    exchange_items: list(o.exchange_items),
    exchange_new_items: list(o.exchange_new_items),
    exchange_payment_method_id: o.exchange_payment_method_id ?? null,
    exchange_price_difference: o.exchange_price_difference === undefined ? null : value(o.exchange_price_difference),
    exchange_price_difference_type: o.exchange_price_difference === undefined
      ? null
      : typeOf(o.exchange_price_difference),
    return_items: list(o.return_items),
    return_payment_method_id: o.return_payment_method_id ?? null,
  });
  o.items.forEach((item, i) => {
    rows.order_items.push({
      order_id: orderId,
      position: i,
      name: item.name,
      product_id: item.product_id,
      item_id: item.item_id,
      price: value(item.price),
      options: JSON.stringify(item.options),
    });
  });
  o.fulfillments.forEach((f, i) => {
    rows.fulfillments.push({
      order_id: orderId,
      position: i,
      tracking_id: JSON.stringify(f.tracking_id),
      item_ids: JSON.stringify(f.item_ids),
    });
  });
  o.payment_history.forEach((t, i) => {
    rows.payment_history.push({
      order_id: orderId,
      position: i,
      transaction_type: t.transaction_type,
      amount: value(t.amount),
      amount_type: typeOf(t.amount),
      payment_method_id: t.payment_method_id,
    });
  });
}
