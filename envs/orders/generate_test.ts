import { assert, assertEquals, assertNotEquals } from "@std/assert";
import { Rng } from "../rng.ts";
import { generateOrders, LAST_ORDER_DAY } from "./generate.ts";
import { plantedTarget } from "./_rules.ts";

Deno.test("generateOrders() is seeded and scales: about 5,000 orders, 800 customers and 60 products at scale 1", () => {
  const a = generateOrders(new Rng("0").child("world"), 1);
  assertEquals(JSON.stringify(generateOrders(new Rng("0").child("world"), 1)), JSON.stringify(a));
  assertNotEquals(JSON.stringify(generateOrders(new Rng("1").child("world"), 1)), JSON.stringify(a));
  assertEquals([a.orders.length, a.customers.length, a.products.length], [5000, 800, 60]);
  const small = generateOrders(new Rng("0"), 0.1), big = generateOrders(new Rng("0"), 2);
  assertEquals([small.orders.length, big.orders.length, big.customers.length], [500, 10000, 1600]);
  assertEquals(new Set(big.customers.map((c) => c.customer_id)).size, 1600);
});

Deno.test("generateOrders() makes what an analyst meets: test and zero-total orders, nulls, planted notes, idle customers", () => {
  const d = generateOrders(new Rng("0").child("world"), 1);
  assert(d.orders.every((o) => o.order_date >= "2023-09-01" && o.order_date <= LAST_ORDER_DAY));
  assert(d.orders.filter((o) => o.is_test === 1).length >= 20);
  assert(d.orders.filter((o) => o.total === 0).length >= 20);
  assert(d.customers.filter((c) => c.city === null).length >= 20);
  const ordering = new Set(d.orders.map((o) => o.customer_id));
  assert(d.customers.filter((c) => !ordering.has(c.customer_id)).length >= 10);
  const planted = d.orders.filter((o) => plantedTarget(o.note) !== null);
  assert(planted.length >= 20);
  const ids = new Set(d.orders.map((o) => o.order_id));
  assert(planted.every((o) => ids.has(plantedTarget(o.note)!) && plantedTarget(o.note) !== o.order_id));
  // Totals are the sum of their lines; delivered orders have a delivery time, others none.
  const lines = new Map<number, number>();
  for (const i of d.order_items) lines.set(i.order_id, (lines.get(i.order_id) ?? 0) + i.quantity * i.unit_price);
  assert(d.orders.every((o) => Math.abs((lines.get(o.order_id) ?? 0) - o.total) < 0.005));
  assert(d.orders.every((o) => (o.status === "delivered") === (o.delivered_at !== null)));
});

Deno.test("generateOrders() builds four referral chains more than 110 customers deep", () => {
  const d = generateOrders(new Rng("0").child("world"), 1);
  const by = new Map(d.customers.map((c) => [c.customer_id, c.referred_by]));
  const depth = (id: string) => {
    let n = 0;
    for (let at: string | null | undefined = id; at; at = by.get(at)) n++;
    return n;
  };
  const referrers = new Set(d.customers.map((c) => c.referred_by));
  const leaves = d.customers.filter((c) => !referrers.has(c.customer_id));
  assert(leaves.filter((c) => depth(c.customer_id) > 110).length >= 4);
});

Deno.test("generateOrders() rejects a scale that is not a positive number", () => {
  for (const s of [0, -1, NaN, Infinity]) {
    let message = "";
    try {
      generateOrders(new Rng("0"), s);
    } catch (err) {
      message = (err as RangeError).message;
    }
    assert(message.includes("expected a positive number"), String(s));
  }
});
