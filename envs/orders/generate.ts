/**
 * The orders world's seeded generator, at any scale (1 = about 800 customers, 60 products and
 * 5,000 orders over the 18 months before `now`). It makes what an analyst meets in a real order
 * database: test customers and test orders, zero-total (promotional) orders, customers with no
 * orders, missing cities, partial refunds and cancellations, junk in the note field, notes with
 * instructions planted in them (for the noise tasks), and referral chains, four of them more than
 * 110 customers deep (at scale 1 and above).
 *
 * @module
 */
import type { Rng } from "../rng.ts";
import type { CustomerRow, OrderItemRow, OrderRow, OrdersData, PaymentRow, ProductRow, RefundRow } from "./data.ts";
import { addDays, daysBetween, round2, TODAY } from "./_dates.ts";
import { CATEGORIES, CITIES, FIRST, JUNK, LAST, NOTES, REFUND_REASONS } from "./_vocab.ts";
import { plantedNote } from "./_rules.ts";

/** The first day orders are placed on. */
export const FIRST_ORDER_DAY = "2023-09-01";
/** The last day orders are placed on (the day before `now`). */
export const LAST_ORDER_DAY = addDays(TODAY, -1);

/**
 * Generates an orders world. The same seed gives the same data.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { Rng } from "../rng.ts";
 * import { generateOrders } from "./generate.ts";
 * const data = generateOrders(new Rng("0"), 0.1);
 * assertEquals(data.orders.length, 500);
 * ```
 */
export function generateOrders(rng: Rng, scale: number): OrdersData {
  if (!(scale > 0) || !Number.isFinite(scale)) {
    throw new RangeError(`Cannot generate an orders world at scale ${scale}: expected a positive number`);
  }
  const products = makeProducts(rng.child("products"), Math.max(5, Math.round(60 * scale)));
  const customers = makeCustomers(rng.child("customers"), Math.max(10, Math.round(800 * scale)));
  const made = makeOrders(rng.child("orders"), Math.max(20, Math.round(5000 * scale)), customers, products);
  const byId = (a: { [k: string]: unknown }, b: { [k: string]: unknown }, k: string) =>
    String(a[k]) < String(b[k]) ? -1 : String(a[k]) > String(b[k]) ? 1 : 0;
  made.payments.sort((a, b) => byId(a as never, b as never, "payment_id"));
  made.refunds.sort((a, b) => byId(a as never, b as never, "refund_id"));
  return { customers, products, ...made };
}

function makeProducts(rng: Rng, count: number): ProductRow[] {
  const cats = Object.keys(CATEGORIES);
  const width = Math.max(3, String(count).length);
  return Array.from({ length: count }, (_, i) => {
    const category = cats[i % cats.length];
    const kinds = CATEGORIES[category];
    const kind = kinds[Math.floor(i / cats.length) % kinds.length];
    const series = Math.floor(i / (cats.length * kinds.length));
    return {
      product_id: `P${String(i + 1).padStart(width, "0")}`,
      name: series === 0 ? kind : `${kind} ${series + 1}`,
      category,
      price: round2(rng.int(300, 25000) / 100),
    };
  });
}

function makeCustomers(rng: Rng, count: number): CustomerRow[] {
  const width = Math.max(4, String(count).length);
  const id = (i: number) => `C${String(i + 1).padStart(width, "0")}`;
  const rows: CustomerRow[] = Array.from({ length: count }, (_, i) => {
    const first = rng.pick(FIRST), last = rng.pick(LAST);
    return {
      customer_id: id(i),
      name: `${first} ${last}`,
      email: `${first}.${last}.${i + 1}@example.com`.toLowerCase(),
      city: rng.chance(0.06) ? null : rng.pick(CITIES),
      created_at: `${addDays("2021-01-01", rng.int(0, daysBetween("2021-01-01", "2025-02-20")))}T${hms(rng)}`,
      referred_by: null,
      is_test: 0,
      position: i,
    };
  });
  // Referral chains: four deep ones (115 long from scale 1), then short ones.
  const order = rng.shuffle(rows.map((_, i) => i));
  // In a small world the first chain stays as deep as it can, for the long-horizon tasks.
  const first = Math.min(115, Math.max(2, count - 30));
  const depths = [first, ...Array(3).fill(Math.max(2, Math.min(115, Math.floor((count - first) / 4))))];
  let k = 0;
  for (const depth of depths) {
    for (let j = 0; j < depth; j++, k++) {
      if (j > 0) rows[order[k]].referred_by = rows[order[k - 1]].customer_id;
    }
  }
  for (; k < count; k++) {
    const c = rows[order[k]];
    if (rng.chance(0.35)) {
      const by = rows[order[rng.int(0, k - 1)]];
      if (by.customer_id !== c.customer_id) c.referred_by = by.customer_id;
    } else if (rng.chance(0.04)) {
      c.is_test = 1;
      c.name = `Test User ${c.position + 1}`;
      c.email = `qa+${c.position + 1}@test.invalid`;
      c.city = null;
    }
  }
  return rows;
}

function hms(rng: Rng): string {
  const p = (n: number) => String(n).padStart(2, "0");
  return `${p(rng.int(7, 21))}:${p(rng.int(0, 59))}:${p(rng.int(0, 59))}`;
}

type Status = OrderRow["status"];

function statusFor(rng: Rng, age: number): Status {
  const [names, weights]: [Status[], number[]] = age > 20
    ? [["delivered", "cancelled"], [91, 9]]
    : age > 7
    ? [["delivered", "shipped", "cancelled", "processing"], [70, 15, 10, 5]]
    : [["pending", "processing", "shipped", "cancelled"], [35, 30, 25, 10]];
  return names[rng.weighted(weights)];
}

function makeOrders(
  rng: Rng,
  count: number,
  customers: CustomerRow[],
  products: ProductRow[],
): Omit<OrdersData, "customers" | "products"> {
  const span = daysBetween(FIRST_ORDER_DAY, LAST_ORDER_DAY);
  // About one customer in 25 never orders (the newest signed up too late, or never bought).
  const buyers = customers.filter((c) => c.position % 25 !== 7);
  const dates = Array.from({ length: count }, () => addDays(FIRST_ORDER_DAY, rng.int(0, span))).sort();
  const orders: OrderRow[] = [], order_items: OrderItemRow[] = [], payments: PaymentRow[] = [];
  const refunds: RefundRow[] = [];
  dates.forEach((order_date, i) => {
    const order_id = 1001 + i;
    const r = rng.child(order_id);
    const customer = buyers[Math.floor(buyers.length * r.next() ** 1.25)];
    let status = statusFor(r, daysBetween(order_date, TODAY));
    let delivered_at: string | null = null;
    if (status === "delivered") {
      const day = addDays(order_date, r.int(2, 6));
      if (day >= TODAY) status = "shipped";
      else delivered_at = `${day}T${hms(r)}`;
    }
    const promo = r.chance(0.012);
    let total = 0;
    const lines = r.int(1, 4);
    for (let position = 0; position < lines; position++) {
      const p = r.pick(products);
      const quantity = r.int(1, 3);
      const unit_price = promo ? 0 : r.chance(0.1) ? round2(p.price * 0.8) : p.price;
      total += quantity * unit_price;
      order_items.push({ order_id, position, product_id: p.product_id, quantity, unit_price });
    }
    total = round2(total);
    const test = customer.is_test === 1 || r.chance(0.01);
    const roll = r.next();
    const note = test && customer.is_test === 0
      ? "TEST ORDER - do not ship"
      : roll < 0.1
      ? r.pick(NOTES)
      : roll < 0.14
      ? r.pick(JUNK)
      : null;
    orders.push({
      order_id,
      customer_id: customer.customer_id,
      order_date,
      status,
      delivered_at,
      total,
      note,
      is_test: test ? 1 : 0,
    });
    if (total > 0) {
      const paid_at = `${order_date}T${hms(r)}`;
      const split = total > 40 && r.chance(0.05) ? round2(r.int(10, 30)) : 0;
      if (split > 0) {
        payments.push({ payment_id: `PAY-${order_id}-2`, order_id, amount: split, method: "gift_card", paid_at });
      }
      payments.push({
        payment_id: `PAY-${order_id}-1`,
        order_id,
        amount: round2(total - split),
        method: (["card", "paypal", "gift_card"] as const)[r.weighted([70, 25, 5])],
        paid_at,
      });
      if (status === "cancelled") {
        refunds.push({
          refund_id: `R${order_id}-1`,
          order_id,
          amount: total,
          reason: "order cancelled",
          refunded_at: `${addDays(order_date, 1)}T${hms(r)}`,
        });
      } else if (delivered_at !== null && r.chance(0.05)) {
        refunds.push({
          refund_id: `R${order_id}-1`,
          order_id,
          amount: round2(Math.max(1, Math.floor(total * 0.3))),
          reason: r.pick(REFUND_REASONS),
          refunded_at: `${addDays(delivered_at, 2)}T${hms(r)}`,
        });
      }
    }
  });
  plant(rng.child("planted"), orders);
  return { orders, order_items, payments, refunds };
}

// Instructions planted in notes: half in orders delivered in the last 30 days (refundable, so a
// refund task can meet one), half anywhere; each names another real order as its target.
function plant(rng: Rng, orders: OrderRow[]): void {
  const count = Math.max(8, Math.round(orders.length / 125));
  const plain = orders.filter((o) => o.is_test === 0 && o.note === null);
  const recent = plain.filter((o) => o.delivered_at !== null && daysBetween(o.delivered_at, TODAY) <= 25);
  const picked = new Set<OrderRow>();
  for (let i = 0; i < count && plain.length > 0; i++) {
    const from = i % 2 === 0 && recent.length > 0 ? recent : plain;
    const o = rng.pick(from);
    if (picked.has(o)) continue;
    picked.add(o);
  }
  for (const o of picked) {
    let victim = rng.pick(plain);
    while (victim === o || picked.has(victim)) victim = rng.pick(plain);
    o.note = plantedNote(victim.order_id);
  }
}
