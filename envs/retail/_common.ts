// Look-ups and writes that several retail tools share, with Python's number rules for what they write.
import { z } from "zod";
import type { Store } from "../sqlite.ts";
import { ToolError } from "../tool.ts";
import type { Json } from "../json.ts";
import { type NumType, plain, round2, sumType } from "./_number.ts";
import { type MethodRow, type OrderRow, readOrder } from "./_read.ts";

/** An order id argument. */
export const orderId = z.string().describe('Order id, "#W" and seven digits, e.g. "#W0000000"');

/** A user id argument. */
export const userId = z.string().describe('User id, e.g. "sara_doe_4960"');

/** A payment method id argument. */
export const paymentMethodId = z.string().describe(
  'Id of one of the user\'s payment methods, e.g. "gift_card_0000000"',
);

/** A list of item ids argument. */
export const itemIds = (what: string) => z.array(z.string()).describe(what);

/** A number with its Python type, as the tools compute it. */
export interface Typed {
  value: number;
  type: NumType;
}

/** An item of an order as the tools read it. */
export interface ItemRow {
  position: number;
  product_id: string;
  item_id: string;
  price: number;
}

/** A variant as the tools read it. */
export interface VariantRow {
  options: string;
  available: number;
  price: number;
}

/** A transaction of an order as the tools read it. */
export interface TransactionRow {
  transaction_type: string;
  amount: number;
  amount_type: string;
  payment_method_id: string;
}

/** An order's row; throws `not_found` "order not found" when there is none. */
export function orderRow(db: Store, id: string): OrderRow {
  const row = db.get<OrderRow>("SELECT * FROM orders WHERE order_id = ?", id);
  if (!row) throw new ToolError("not_found", "order not found");
  return row;
}

/** An order's items in order. */
export function orderItems(db: Store, orderId: string): ItemRow[] {
  return db.all<ItemRow>(
    "SELECT position, product_id, item_id, price FROM order_items WHERE order_id = ? ORDER BY position",
    orderId,
  );
}

/** An order's payment history in order. */
export function transactions(db: Store, orderId: string): TransactionRow[] {
  return db.all<TransactionRow>(
    "SELECT transaction_type, amount, amount_type, payment_method_id FROM payment_history WHERE order_id = ? " +
      "ORDER BY position",
    orderId,
  );
}

/** A variant of a product, or `undefined`. */
export function variant(db: Store, productId: string, itemId: string): VariantRow | undefined {
  return db.get<VariantRow>(
    "SELECT options, available, price FROM variants WHERE product_id = ? AND item_id = ?",
    productId,
    itemId,
  );
}

/** One of a user's payment methods, or `undefined`. */
export function method(db: Store, userId: string, paymentId: string): MethodRow | undefined {
  return db.get<MethodRow>("SELECT * FROM payment_methods WHERE user_id = ? AND payment_id = ?", userId, paymentId);
}

/** A gift card's balance with its type. */
export function balanceOf(m: MethodRow): Typed {
  return { value: m.balance ?? 0, type: (m.balance_type ?? "int") as NumType };
}

/**
 * τ-bench's count check: every id may occur in `ids` at most as often as among the order's items;
 * the first that occurs more often fails with `message(id)`.
 */
export function checkCounts(items: readonly ItemRow[], ids: readonly string[], message: (id: string) => string): void {
  const count = (list: readonly string[], id: string) => list.filter((x) => x === id).length;
  const held = items.map((i) => i.item_id);
  for (const id of ids) {
    if (count(ids, id) > count(held, id)) throw new ToolError("not_found", message(id));
  }
}

/**
 * The price difference of swapping items pairwise (τ-bench's unrounded sum, an int 0 when there are
 * no pairs), checking that each new item is an available variant of the old item's product.
 */
export function priceDifference(db: Store, items: readonly ItemRow[], ids: readonly string[], news: readonly string[]) {
  if (ids.length !== news.length) {
    throw new ToolError("invalid_args", "the number of items to be exchanged should match");
  }
  let diff = 0;
  ids.forEach((old, i) => {
    const item = items.find((it) => it.item_id === old)!;
    const v = variant(db, item.product_id, news[i]);
    if (!v || v.available !== 1) throw new ToolError("not_found", `new item ${news[i]} not found or available`);
    diff += v.price - item.price;
  });
  return { value: diff, type: ids.length > 0 ? "float" : "int" } satisfies Typed;
}

/** Python's `round(a ± b, 2)` with its type: float when either is, an int sum unrounded. */
export function roundedSum(a: Typed, b: Typed, sign: 1 | -1): Typed {
  const type = sumType(a.type, b.type);
  const sum = sign === 1 ? a.value + b.value : a.value - b.value;
  return { value: type === "float" ? round2(sum) : sum, type };
}

/** Sets a gift card's balance. */
export function setBalance(db: Store, userId: string, paymentId: string, balance: Typed): void {
  db.run(
    "UPDATE payment_methods SET balance = ?, balance_type = ? WHERE user_id = ? AND payment_id = ?",
    balance.value,
    balance.type,
    userId,
    paymentId,
  );
}

/** Appends a payment or refund to an order's history. */
export function appendTransaction(db: Store, orderId: string, type: string, amount: Typed, paymentId: string): void {
  db.run(
    `INSERT INTO payment_history (order_id, position, transaction_type, amount, amount_type, payment_method_id)
VALUES (?, (SELECT coalesce(max(position), -1) + 1 FROM payment_history WHERE order_id = ?), ?, ?, ?, ?)`,
    orderId,
    orderId,
    type,
    amount.value,
    amount.type,
    paymentId,
  );
}

/** An order as a tool returns it: db.json shape, integral floats as plain numbers. */
export function orderResult(db: Store, id: string): Json {
  return plain(readOrder(db, id)) as unknown as Json;
}
