import { assertEquals, assertThrows } from "@std/assert";
import { Rng } from "../rng.ts";
import type { RetailData } from "./data.ts";
import { isRawFloat, typeOf } from "./_number.ts";
import { generateRetail } from "./generate.ts";
import { exportTauRetail, openTauRetail } from "./tau.ts";
import { firstDifference } from "./_test_utils.ts";

const counts = (d: RetailData) =>
  [Object.keys(d.users), Object.keys(d.products), Object.keys(d.orders)].map((k) => k.length);

Deno.test("generateRetail() gives the same data for the same seed and other data for another", () => {
  const text = (seed: string) => JSON.stringify(generateRetail(new Rng(seed), 0.2));
  assertEquals(text("a") === text("a"), true);
  assertEquals(text("a") === text("b"), false);
});

Deno.test("generateRetail() scales every table", () => {
  assertEquals(counts(generateRetail(new Rng("s"), 1)), [500, 50, 1000]);
  assertEquals(counts(generateRetail(new Rng("s"), 0.1)), [50, 5, 100]);
  assertEquals(counts(generateRetail(new Rng("s"), 2)), [1000, 100, 2000]);
  assertThrows(() => generateRetail(new Rng("s"), 0), RangeError, "scale 0");
});

Deno.test("generateRetail() makes every reference resolve", () => {
  const data = generateRetail(new Rng("refs"), 1);
  const itemIds = Object.values(data.products).flatMap((p) => Object.keys(p.variants));
  assertEquals(new Set(itemIds).size, itemIds.length);
  for (const [id, o] of Object.entries(data.orders)) {
    const user = data.users[o.user_id];
    assertEquals(user.orders.includes(id), true);
    for (const t of o.payment_history) assertEquals(t.payment_method_id in user.payment_methods, true);
    for (const it of o.items) assertEquals(it.item_id in data.products[it.product_id].variants, true);
    for (const f of o.fulfillments) assertEquals(f.item_ids.every((x) => o.items.some((it) => it.item_id === x)), true);
  }
  for (const [id, u] of Object.entries(data.users)) for (const o of u.orders) assertEquals(data.orders[o].user_id, id);
});

Deno.test("generateRetail() keeps τ-bench's number types, integral floats included", () => {
  const data = generateRetail(new Rng("types"), 1);
  const orders = Object.values(data.orders);
  const prices = [
    ...Object.values(data.products).flatMap((p) => Object.values(p.variants).map((v) => v.price)),
    ...orders.flatMap((o) => o.items.map((it) => it.price)),
    ...orders.flatMap((o) => o.payment_history.map((t) => t.amount)),
  ];
  assertEquals(prices.every((p) => typeOf(p) === "float"), true);
  const balances = Object.values(data.users).flatMap((u) =>
    Object.values(u.payment_methods).flatMap((m) => m.source === "gift_card" ? [m.balance] : [])
  );
  assertEquals(balances.length > 0 && balances.every((b) => typeOf(b) === "int"), true);
  // The world holds them with their types: the export gives the same data back.
  using db = openTauRetail(data);
  assertEquals(firstDifference(exportTauRetail(db), data), null);
  assertEquals(prices.some(isRawFloat), true);
});
