// The retail world's data in τ-bench's db.json shape (SEMANTICS.md §4 of τ-bench's fixtures).

/** A float with an integral value: what `JSON.rawJSON("247.0")` makes. */
export interface RawFloat {
  /** The number's text, e.g. "247.0". */
  readonly rawJSON: string;
}

/**
 * A number that keeps Python's type: an int is an integral JS number; a float is a non-integral
 * number, or, when its value is integral, a `JSON.rawJSON` value that prints as `247.0`.
 */
export type Num = number | RawFloat;

/** A postal address, in db.json's key order. */
export interface Address {
  address1: string;
  address2: string;
  city: string;
  country: string;
  state: string;
  zip: string;
}

/** A way a user pays: a credit card, a gift card with a balance (an int until written) or PayPal. */
export type PaymentMethod =
  | { source: "credit_card"; brand: string; last_four: string; id: string }
  | { source: "gift_card"; balance: Num; id: string }
  | { source: "paypal"; id: string };

/** A customer; the user id is the record's key only. */
export interface User {
  name: { first_name: string; last_name: string };
  address: Address;
  email: string;
  payment_methods: Record<string, PaymentMethod>;
  /** The user's order ids, in order. */
  orders: string[];
}

/** One variant of a product, e.g. a colour and size; `price` is a float. */
export interface Variant {
  item_id: string;
  options: Record<string, string>;
  available: boolean;
  price: Num;
}

/** A product with its variants keyed by item id. */
export interface Product {
  name: string;
  product_id: string;
  variants: Record<string, Variant>;
}

/** An item of an order: a variant of a product at the price paid (a float). */
export interface OrderItem {
  name: string;
  product_id: string;
  item_id: string;
  price: Num;
  options: Record<string, string>;
}

/** A shipment of some of an order's items. */
export interface Fulfillment {
  tracking_id: string[];
  item_ids: string[];
}

/** A payment or refund of an order; `amount` is a float (the int 0 in one corner case). */
export interface Transaction {
  transaction_type: "payment" | "refund";
  amount: Num;
  payment_method_id: string;
}

/** An order; the optional fields are absent until a tool writes them. */
export interface Order {
  order_id: string;
  user_id: string;
  address: Address;
  items: OrderItem[];
  fulfillments: Fulfillment[];
  status: string;
  payment_history: Transaction[];
  cancel_reason?: string;
  exchange_items?: string[];
  exchange_new_items?: string[];
  exchange_payment_method_id?: string;
  exchange_price_difference?: Num;
  return_items?: string[];
  return_payment_method_id?: string;
}

/** The whole retail world, keyed like τ-bench's db.json. */
export interface RetailData {
  orders: Record<string, Order>;
  products: Record<string, Product>;
  users: Record<string, User>;
}
