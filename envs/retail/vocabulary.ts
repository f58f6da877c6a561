/**
 * How the retail shop's customers and agents name things (`Domain.vocabulary`): who the customer is
 * (email, or name and zip code), orders, items and products, payment methods and addresses, and the
 * changes an agent may propose to an order. The playbook asks for a fact by its first name here.
 *
 * @module
 */
import { EMAIL_ADDRESS, type Vocabulary } from "../vocabulary.ts";

/** The retail shop's vocabulary. */
export const RETAIL_VOCABULARY: Vocabulary = {
  fields: {
    email: { names: ["email", "e-mail", "email address"], values: [EMAIL_ADDRESS] },
    name: { names: ["name", "full name", "first name", "last name", "surname"] },
    zip: { names: ["zip code", "zip", "postal code", "postcode"], values: [/\b\d{5}\b/] },
    user_id: { names: ["user id", "customer id", "account id"], values: [/\b[a-z]+_[a-z]+_\d{3,5}\b/] },
    order_id: {
      names: ["order id", "order number", "order"],
      values: [/#W\d{7}\b/],
    },
    item_id: { names: ["item id", "item ids", "item", "items", "item number"], values: [/\b\d{10}\b/] },
    product_id: { names: ["product id", "product"], values: [/\b\d{10}\b/] },
    payment_method: {
      names: ["payment method", "payment", "card", "credit card", "gift card", "paypal", "payment method id"],
      values: [/\b(?:credit_card|gift_card|paypal)_\d+\b/i, /\bending (?:in |with )?\d{4}\b/i],
      words: ["gift card", "credit card", "paypal", "original payment", "same payment method", "card on file"],
      term: true,
    },
    address: { names: ["address", "shipping address", "street", "new address"] },
    reason: {
      names: ["reason", "reason for cancelling", "reason for cancellation", "why"],
      words: ["no longer needed", "ordered by mistake", "by mistake", "don't need it", "no longer need"],
      term: true,
      explains: true,
    },
    other: { names: ["details", "information"], vague: ["details", "information"] },
  },
  facts: {
    email: { field: "email", names: ["email"], proposed: false },
    first_name: { field: "name", names: ["first name"], proposed: false },
    last_name: { field: "name", names: ["last name"], proposed: false },
    zip: { field: "zip", names: ["zip", "zip code"], proposed: false },
    user_id: { field: "user_id", names: ["user id"], proposed: false },
    // The products of the order a user means, as it describes the order (a wrong-record scenario).
    products: { field: "other", names: ["products"], proposed: false },
    order_id: { field: "order_id", names: ["order id (#W and seven digits)", "order id", "order number"] },
    reason: {
      field: "reason",
      names: ['reason for cancelling ("no longer needed" or "ordered by mistake")', "reason for cancelling", "reason"],
    },
    item_ids: { field: "item_id", names: ["ids of the items", "item ids", "items"] },
    new_item_ids: {
      field: "item_id",
      names: ["ids of the new items, one per item", "new item ids", "new items", "replacement items"],
    },
    payment_method_id: { field: "payment_method", names: ["payment method id", "payment method"] },
    new_address: { field: "address", names: ["new address in full", "new address", "address"] },
    product_id: { field: "product_id", names: ["product id"] },
    item_id: { field: "item_id", names: ["item id"] },
  },
  actions: {
    cancel: { words: ["cancel", "cancellation", "cancelling", "canceling"], tools: ["cancel_pending_order"] },
    modify_items: {
      words: [
        "modify items",
        "change items",
        "swap",
        "replace",
        "modify item",
        "change item",
        "item change",
        "switch item",
      ],
      tools: ["modify_pending_order_items"],
    },
    modify_address: {
      words: [
        "address",
        "ship to",
        "shipping",
        "change address",
        "update address",
        "modify address",
        "shipping address",
        "new address",
      ],
      tools: ["modify_pending_order_address", "modify_user_address"],
    },
    modify_payment: {
      words: [
        "payment method",
        "pay with",
        "charge",
        "payment",
        "change payment",
        "switch payment",
        "update payment",
        "pay order",
      ],
      tools: ["modify_pending_order_payment"],
    },
    return: { words: ["return", "refund"], tools: ["return_delivered_order_items"] },
    exchange: { words: ["exchange"], tools: ["exchange_delivered_order_items"] },
  },
  goals: {
    cancel_order: "cancel",
    modify_items: "modify_items",
    modify_order_address: "modify_address",
    modify_order_payment: "modify_payment",
    return_items: "return",
    exchange_items: "exchange",
    change_email: null,
    delete_account: null,
    item_price: null,
    order_status: null,
    price_match: null,
  },
};
