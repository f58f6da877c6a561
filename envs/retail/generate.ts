/**
 * The retail world's seeded generator: users, products and orders in τ-bench's `db.json` shape,
 * with its number types (prices and amounts floats, gift card balances ints), at any scale.
 *
 * @module
 */
import type { Rng } from "../rng.ts";
import type { Address, Order, OrderItem, PaymentMethod, Product, RetailData, User } from "./data.ts";
import { float, round2, value } from "./_number.ts";
import { CITIES, FIRST_NAMES, LAST_NAMES, PRODUCT_KINDS, STREETS } from "./_vocab.ts";

const STATUSES = ["pending", "processed", "delivered", "cancelled"] as const;
const STATUS_WEIGHTS = [3, 2, 4, 1];
const REASONS = ["no longer needed", "ordered by mistake"];

/**
 * Generates a retail world. Scale 1 has τ-bench's size (500 users, 50 products, 1,000 orders);
 * scale 10 has ten times as many of each. The same seed gives the same data.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { Rng } from "../rng.ts";
 * import { generateRetail } from "./generate.ts";
 * const data = generateRetail(new Rng("0"), 0.1);
 * assertEquals(Object.keys(data.orders).length, 100);
 * ```
 */
export function generateRetail(rng: Rng, scale: number): RetailData {
  if (!(scale > 0) || !Number.isFinite(scale)) {
    throw new RangeError(`Cannot generate a retail world at scale ${scale}: expected a positive number`);
  }
  const products = makeProducts(rng.child("products"), Math.max(1, Math.round(50 * scale)));
  const users = makeUsers(rng.child("users"), Math.max(1, Math.round(500 * scale)));
  const orders = makeOrders(rng.child("orders"), Math.round(1000 * scale), products, users);
  return { orders, products, users };
}

// Ids drawn until unused: `prefix` then `digits` digits.
function idMaker(rng: Rng, prefix: string, digits: number): () => string {
  const used = new Set<string>();
  return () => {
    for (;;) {
      const id = prefix + String(rng.int(0, 10 ** digits - 1)).padStart(digits, "0");
      if (!used.has(id)) {
        used.add(id);
        return id;
      }
    }
  };
}

function makeProducts(rng: Rng, count: number): Record<string, Product> {
  const productId = idMaker(rng.child("product ids"), "", 10);
  const itemId = idMaker(rng.child("item ids"), "", 10);
  const products: Record<string, Product> = {};
  for (let i = 0; i < count; i++) {
    const kind = PRODUCT_KINDS[i % PRODUCT_KINDS.length];
    const series = Math.floor(i / PRODUCT_KINDS.length);
    const name = series === 0 ? kind.name : `${kind.name} ${series + 1}`;
    const id = productId();
    const variants: Product["variants"] = {};
    for (const options of rng.shuffle(combinations(kind.options)).slice(0, rng.int(2, 8))) {
      const item = itemId();
      const price = float(round2(kind.price[0] + rng.next() * (kind.price[1] - kind.price[0])));
      variants[item] = { item_id: item, options, available: rng.chance(0.65), price };
    }
    products[id] = { name, product_id: id, variants };
  }
  return products;
}

function combinations(axes: Record<string, readonly string[]>): Record<string, string>[] {
  let out: Record<string, string>[] = [{}];
  for (const [axis, values] of Object.entries(axes)) {
    out = out.flatMap((o) => values.map((v) => ({ ...o, [axis]: v })));
  }
  return out;
}

function randomAddress(rng: Rng): Address {
  const place = rng.pick(CITIES);
  return {
    address1: `${rng.int(100, 999)} ${rng.pick(STREETS)}`,
    address2: `Suite ${rng.int(100, 999)}`,
    city: place.city,
    country: "USA",
    state: place.state,
    zip: place.zip + String(rng.int(0, 99)).padStart(2, "0"),
  };
}

function makeUsers(rng: Rng, count: number): Record<string, User> {
  const methodId = idMaker(rng.child("payment ids"), "", 7);
  const users: Record<string, User> = {};
  while (Object.keys(users).length < count) {
    const first = rng.pick(FIRST_NAMES), last = rng.pick(LAST_NAMES);
    const id = `${first}_${last}_${rng.int(1000, 9999)}`.toLowerCase();
    if (id in users) continue;
    const methods: Record<string, PaymentMethod> = {};
    for (const source of rng.shuffle(["credit_card", "gift_card", "paypal"] as const).slice(0, rng.int(1, 3))) {
      const pid = `${source}_${methodId()}`;
      methods[pid] = source === "credit_card"
        ? {
          source,
          brand: rng.pick(["visa", "mastercard"]),
          last_four: String(rng.int(0, 9999)).padStart(4, "0"),
          id: pid,
        }
        : source === "gift_card"
        ? { source, balance: rng.int(0, 200), id: pid }
        : { source, id: pid };
    }
    users[id] = {
      name: { first_name: first, last_name: last },
      address: randomAddress(rng),
      email: `${first}.${last}${rng.int(1000, 9999)}@example.com`.toLowerCase(),
      payment_methods: methods,
      orders: [],
    };
  }
  return users;
}

function makeOrders(
  rng: Rng,
  count: number,
  products: Record<string, Product>,
  users: Record<string, User>,
): Record<string, Order> {
  const orderId = idMaker(rng.child("order ids"), "#W", 7);
  const tracking = idMaker(rng.child("tracking ids"), "", 12);
  const userIds = Object.keys(users);
  const catalogue = Object.values(products);
  const orders: Record<string, Order> = {};
  for (let i = 0; i < count; i++) {
    const r = rng.child(i);
    const id = orderId();
    const userId = r.pick(userIds);
    const user = users[userId];
    const items: OrderItem[] = Array.from({ length: r.int(1, 5) }, () => {
      const product = r.pick(catalogue);
      const v = r.pick(Object.values(product.variants));
      return {
        name: product.name,
        product_id: product.product_id,
        item_id: v.item_id,
        price: v.price,
        options: v.options,
      };
    });
    const status = STATUSES[r.weighted(STATUS_WEIGHTS)];
    const method = r.pick(Object.keys(user.payment_methods));
    const amount = float(round2(items.reduce((sum, it) => sum + value(it.price), 0)));
    const order: Order = {
      order_id: id,
      user_id: userId,
      address: r.chance(0.9) ? { ...user.address } : randomAddress(r),
      items,
      fulfillments: status === "processed" || status === "delivered"
        ? [{ tracking_id: [tracking()], item_ids: items.map((it) => it.item_id) }]
        : [],
      status,
      payment_history: [{ transaction_type: "payment", amount, payment_method_id: method }],
    };
    if (status === "cancelled") {
      order.payment_history.push({ transaction_type: "refund", amount, payment_method_id: method });
      if (r.chance(0.5)) order.cancel_reason = r.pick(REASONS);
    }
    orders[id] = order;
    user.orders.push(id);
  }
  return orders;
}
