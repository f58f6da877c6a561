// The retail tools that change orders and users (τ-bench's SEMANTICS.md §6.2, 6.3, 6.10 to 6.14).
import { z } from "zod";
import { defineTool, ToolError } from "../tool.ts";
import type { Json } from "../json.ts";
import type { Tool } from "../tool.ts";
import { type NumType, plain, round2 } from "./_number.ts";
import { readUser } from "./_read.ts";
import {
  appendTransaction,
  balanceOf,
  checkCounts,
  itemIds,
  method,
  orderId,
  orderItems,
  orderResult,
  orderRow,
  paymentMethodId,
  priceDifference,
  roundedSum,
  setBalance,
  transactions,
  type Typed,
  userId,
  variant,
} from "./_common.ts";
import { itemDetails, ownerOfArgs, userOfArgs } from "./_facts.ts";

const REASONS = ["no longer needed", "ordered by mistake"];

const address = {
  address1: z.string().describe("First line of the address"),
  address2: z.string().describe('Second line, e.g. "Suite 100"; may be empty'),
  city: z.string().describe("City"),
  state: z.string().describe('State, e.g. "NY"'),
  country: z.string().describe('Country, e.g. "USA"'),
  zip: z.string().describe('Postal code, e.g. "10001"'),
};
const sorted = (ids: readonly string[]) => JSON.stringify([...ids].sort());

function pendingOrder(db: Parameters<typeof orderRow>[0], id: string) {
  const order = orderRow(db, id);
  if (order.status !== "pending") throw new ToolError("policy", "non-pending order cannot be modified");
  return order;
}

/** `cancel_pending_order`: refunds every history entry (gift cards at once) and cancels the order. */
export const cancelPendingOrder: Tool = defineTool({
  name: "cancel_pending_order",
  description: 'Cancel a pending order, giving the reason: "no longer needed" or "ordered by mistake". Every ' +
    "payment is refunded to its method; a gift card at once, other methods in 5 to 7 business days.",
  input: z.strictObject({
    order_id: orderId,
    reason: z.string().describe('Why: "no longer needed" or "ordered by mistake"'),
  }),
  writes: true,
  irreversible: true,
  customer: ownerOfArgs,
  run: ({ db }, a) => {
    const order = orderRow(db, a.order_id);
    if (order.status !== "pending") throw new ToolError("policy", "non-pending order cannot be cancelled");
    if (!REASONS.includes(a.reason)) throw new ToolError("invalid_args", "invalid reason");
    const refunds = transactions(db, a.order_id);
    for (const t of refunds) {
      if (!t.payment_method_id.includes("gift_card")) continue;
      const card = method(db, order.user_id, t.payment_method_id);
      // τ-bench raises KeyError on a gift card its owner does not have; earlier credits stay.
      if (!card) throw new ToolError("not_found", `'${t.payment_method_id}'`);
      setBalance(db, order.user_id, card.payment_id, roundedSum(balanceOf(card), amountOf(t), 1));
    }
    db.run("UPDATE orders SET status = 'cancelled', cancel_reason = ? WHERE order_id = ?", a.reason, a.order_id);
    for (const t of refunds) appendTransaction(db, a.order_id, "refund", amountOf(t), t.payment_method_id);
    return orderResult(db, a.order_id);
  },
});

/** `exchange_delivered_order_items`: records an exchange request with its price difference. */
export const exchangeDeliveredOrderItems: Tool = defineTool({
  name: "exchange_delivered_order_items",
  description: "Request an exchange of items of a delivered order for other variants of the same products, " +
    "paying or receiving the price difference with a payment method of the user. An order can be exchanged " +
    "or returned only once, so list every item to exchange.",
  input: z.strictObject({
    order_id: orderId,
    item_ids: itemIds("Item ids of the order to exchange; an id may repeat when the order holds it twice"),
    new_item_ids: itemIds("The new item ids, one per item to exchange, in the same order"),
    payment_method_id: paymentMethodId,
  }),
  writes: true,
  irreversible: true,
  customer: ownerOfArgs,
  details: itemDetails,
  run: ({ db }, a) => {
    const order = orderRow(db, a.order_id);
    if (order.status !== "delivered") throw new ToolError("policy", "non-delivered order cannot be exchanged");
    const items = orderItems(db, a.order_id);
    checkCounts(items, a.item_ids, (id) => `${id} not found`);
    const raw = priceDifference(db, items, a.item_ids, a.new_item_ids);
    const diff: Typed = { value: raw.type === "float" ? round2(raw.value) : raw.value, type: raw.type };
    const card = method(db, order.user_id, a.payment_method_id);
    if (!card) throw new ToolError("not_found", "payment method not found");
    if (card.source === "gift_card" && balanceOf(card).value < diff.value) {
      throw new ToolError("policy", "insufficient gift card balance to pay for the price difference");
    }
    db.run(
      `UPDATE orders SET status = 'exchange requested', exchange_items = ?, exchange_new_items = ?,
  exchange_payment_method_id = ?, exchange_price_difference = ?, exchange_price_difference_type = ?
WHERE order_id = ?`,
      sorted(a.item_ids),
      sorted(a.new_item_ids),
      a.payment_method_id,
      diff.value,
      diff.type,
      a.order_id,
    );
    return orderResult(db, a.order_id);
  },
});

/** `modify_pending_order_address`: replaces the shipping address of a pending order. */
export const modifyPendingOrderAddress: Tool = defineTool({
  name: "modify_pending_order_address",
  description: "Change the shipping address of a pending order.",
  input: z.strictObject({ order_id: orderId, ...address }),
  writes: true,
  customer: ownerOfArgs,
  run: ({ db }, a) => {
    pendingOrder(db, a.order_id);
    db.run(
      "UPDATE orders SET address1 = ?, address2 = ?, city = ?, state = ?, country = ?, zip = ? WHERE order_id = ?",
      a.address1,
      a.address2,
      a.city,
      a.state,
      a.country,
      a.zip,
      a.order_id,
    );
    return orderResult(db, a.order_id);
  },
});

/** `modify_pending_order_items`: swaps items of a pending order for other variants, settling the difference. */
export const modifyPendingOrderItems: Tool = defineTool({
  name: "modify_pending_order_items",
  description: "Swap items of a pending order for other variants of the same products, paying or receiving the " +
    "price difference with a payment method of the user. An order's items can be modified only once, so list " +
    "every item to change.",
  input: z.strictObject({
    order_id: orderId,
    item_ids: itemIds("Item ids of the order to change; an id may repeat when the order holds it twice"),
    new_item_ids: itemIds("The new item ids, one per item to change, in the same order"),
    payment_method_id: paymentMethodId,
  }),
  writes: true,
  irreversible: true,
  customer: ownerOfArgs,
  details: itemDetails,
  run: ({ db }, a) => {
    const order = pendingOrder(db, a.order_id);
    const items = orderItems(db, a.order_id);
    checkCounts(items, a.item_ids, (id) => `${id} not found`);
    // τ-bench leaves this difference unrounded, in the payment entry too.
    const diff = priceDifference(db, items, a.item_ids, a.new_item_ids);
    const card = method(db, order.user_id, a.payment_method_id);
    if (!card) throw new ToolError("not_found", "payment method not found");
    if (card.source === "gift_card" && balanceOf(card).value < diff.value) {
      throw new ToolError("policy", "insufficient gift card balance to pay for the new item");
    }
    const kind = diff.value > 0 ? "payment" : "refund";
    appendTransaction(db, a.order_id, kind, { value: Math.abs(diff.value), type: diff.type }, a.payment_method_id);
    if (card.source === "gift_card") {
      setBalance(db, order.user_id, card.payment_id, roundedSum(balanceOf(card), diff, -1));
    }
    // Each swap finds the first item holding the old id in the list as edited so far (τ-bench's loop).
    a.item_ids.forEach((old, i) => {
      const item = items.find((it) => it.item_id === old)!;
      const v = variant(db, item.product_id, a.new_item_ids[i])!;
      item.item_id = a.new_item_ids[i];
      db.run(
        "UPDATE order_items SET item_id = ?, price = ?, options = ? WHERE order_id = ? AND position = ?",
        item.item_id,
        v.price,
        v.options,
        a.order_id,
        item.position,
      );
    });
    db.run("UPDATE orders SET status = 'pending (item modified)' WHERE order_id = ?", a.order_id);
    return orderResult(db, a.order_id);
  },
});

/** `modify_pending_order_payment`: pays a pending order with another method, refunding the first. */
export const modifyPendingOrderPayment: Tool = defineTool({
  name: "modify_pending_order_payment",
  description: "Pay a pending order with another payment method of the user; the original method is refunded " +
    "(a gift card at once, other methods in 5 to 7 business days).",
  input: z.strictObject({ order_id: orderId, payment_method_id: paymentMethodId }),
  writes: true,
  customer: ownerOfArgs,
  run: ({ db }, a) => {
    const order = pendingOrder(db, a.order_id);
    const card = method(db, order.user_id, a.payment_method_id);
    if (!card) throw new ToolError("not_found", "payment method not found");
    const history = transactions(db, a.order_id);
    if (history.length !== 1 || history[0].transaction_type !== "payment") {
      throw new ToolError("policy", "there should be exactly one payment for a pending order");
    }
    const old = history[0].payment_method_id;
    if (old === a.payment_method_id) {
      throw new ToolError("policy", "the new payment method should be different from the current one");
    }
    const amount = amountOf(history[0]);
    if (card.source === "gift_card" && balanceOf(card).value < amount.value) {
      throw new ToolError("policy", "insufficient gift card balance to pay for the order");
    }
    appendTransaction(db, a.order_id, "payment", amount, a.payment_method_id);
    appendTransaction(db, a.order_id, "refund", amount, old);
    if (card.source === "gift_card") {
      setBalance(db, order.user_id, card.payment_id, roundedSum(balanceOf(card), amount, -1));
    }
    if (old.includes("gift_card")) {
      const before = method(db, order.user_id, old);
      if (!before) throw new ToolError("not_found", `'${old}'`);
      setBalance(db, order.user_id, old, roundedSum(balanceOf(before), amount, 1));
    }
    return orderResult(db, a.order_id);
  },
});

/** `modify_user_address`: replaces a user's default address (orders keep theirs). */
export const modifyUserAddress: Tool = defineTool({
  name: "modify_user_address",
  description: "Change a user's default address. The addresses of existing orders do not change.",
  input: z.strictObject({ user_id: userId, ...address }),
  writes: true,
  customer: userOfArgs,
  run: ({ db }, a) => {
    const changed = db.run(
      "UPDATE users SET address1 = ?, address2 = ?, city = ?, state = ?, country = ?, zip = ? WHERE user_id = ?",
      a.address1,
      a.address2,
      a.city,
      a.state,
      a.country,
      a.zip,
      a.user_id,
    );
    if (changed === 0) throw new ToolError("not_found", "user not found");
    return plain(readUser(db, a.user_id)) as unknown as Json;
  },
});

/** `return_delivered_order_items`: records a return request. */
export const returnDeliveredOrderItems: Tool = defineTool({
  name: "return_delivered_order_items",
  description: "Request a return of items of a delivered order. The refund goes to the original payment method " +
    "or to a gift card of the user. An order can be returned or exchanged only once, so list every item.",
  input: z.strictObject({
    order_id: orderId,
    item_ids: itemIds("Item ids of the order to return; an id may repeat when the order holds it twice"),
    payment_method_id: paymentMethodId,
  }),
  writes: true,
  irreversible: true,
  customer: ownerOfArgs,
  details: itemDetails,
  run: ({ db }, a) => {
    const order = orderRow(db, a.order_id);
    if (order.status !== "delivered") throw new ToolError("policy", "non-delivered order cannot be returned");
    if (!method(db, order.user_id, a.payment_method_id)) throw new ToolError("not_found", "payment method not found");
    const history = transactions(db, a.order_id);
    if (!a.payment_method_id.includes("gift_card") && a.payment_method_id !== history[0]?.payment_method_id) {
      throw new ToolError("policy", "payment method should be either the original payment method or a gift card");
    }
    checkCounts(orderItems(db, a.order_id), a.item_ids, () => "some item not found");
    db.run(
      "UPDATE orders SET status = 'return requested', return_items = ?, return_payment_method_id = ? WHERE order_id = ?",
      sorted(a.item_ids),
      a.payment_method_id,
      a.order_id,
    );
    return orderResult(db, a.order_id);
  },
});

function amountOf(t: { amount: number; amount_type: string }): Typed {
  return { value: t.amount, type: t.amount_type as NumType };
}
