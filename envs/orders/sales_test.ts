// The sales sums (`_sales.ts`) answer summarize_sales as the orders do: every grouping over whole
// months, single days and odd ranges, before and after writes, compared with the same sums taken
// from the orders table; and the sums are no part of an episode's change.
import { assertEquals } from "@std/assert";
import { getDomain, type Json, Rng, World } from "../mod.ts";
import { addDays, round2 } from "./_dates.ts";
import type { Store } from "../sqlite.ts";

// summarize_sales' answer summed from the orders alone (the tool's SQL before the sums).
function fromOrders(db: Store, start: string, end: string, by: string): Json {
  const column = { day: "order_date", customer: "customer_id", status: "status" }[by]!;
  const groups = db.all<{ key: string; orders: number; revenue: number }>(
    `SELECT ${column} AS key, count(*) AS orders,
  coalesce(sum(CASE WHEN status <> 'cancelled' THEN total END), 0) AS revenue
FROM orders WHERE order_date BETWEEN ? AND ? GROUP BY ${column} ORDER BY key`,
    start,
    end,
  ).map((g) => ({ key: g.key, orders: g.orders, revenue: round2(g.revenue) }));
  const all = db.get<{ n: number; r: number }>(
    "SELECT count(*) AS n, coalesce(sum(CASE WHEN status <> 'cancelled' THEN total END), 0) AS r FROM orders " +
      "WHERE order_date BETWEEN ? AND ?",
    start,
    end,
  )!;
  return { groups, orders: all.n, revenue: round2(all.r) } as unknown as Json;
}

const RANGES: [string, string][] = [
  ["2024-02-01", "2024-02-29"],
  ["2024-10-01", "2024-10-31"],
  ["2023-09-01", "2023-09-30"],
  ["2025-02-01", "2025-02-28"],
  ["2024-10-02", "2024-10-31"],
  ["2024-09-01", "2024-10-31"],
  ["2024-05-17", "2024-05-17"],
  ["2023-01-01", "2023-01-31"],
  ["2023-08-25", "2024-01-09"],
];

function check(world: World, label: string): void {
  const ctx = world.context(new Rng("sales"));
  for (const [start, end] of RANGES) {
    for (const by of ["day", "customer", "status"]) {
      const got = world.call(ctx, "summarize_sales", { start_date: start, end_date: end, group_by: by });
      assertEquals(
        got.ok && got.result,
        fromOrders(world.store, start, end, by),
        `${label}: ${start}..${end} by ${by}`,
      );
    }
  }
}

Deno.test("the sales sums answer as the orders do, before and after writes", () => {
  using world = World.open(getDomain("orders"), { seed: "0", scale: 0.5 });
  check(world, "generated");
  const ctx = world.context(new Rng("writes"));
  const db = world.store;
  db.begin();
  const open = db.all<{ order_id: number; status: string }>(
    "SELECT order_id, status FROM orders WHERE order_date BETWEEN '2024-10-01' AND '2024-10-31' " +
      "AND status IN ('pending', 'processing') ORDER BY order_id LIMIT 3",
  );
  for (const o of open) world.call(ctx, "update_order_status", { order_id: o.order_id, status: "cancelled" });
  const some = db.all<{ order_id: number }>(
    "SELECT order_id FROM orders WHERE order_date BETWEEN '2024-02-01' AND '2024-02-29' ORDER BY order_id LIMIT 4",
  );
  for (const o of some) assertEquals(world.call(ctx, "delete_order", { order_id: o.order_id }).ok, true);
  // Writes no tool makes, but SQL may: an order moved to another day and customer, its total changed.
  db.run(
    "UPDATE orders SET order_date = ?, customer_id = (SELECT min(customer_id) FROM customers), total = total + 1.25 " +
      "WHERE order_id = (SELECT max(order_id) FROM orders WHERE order_date < '2024-09-15')",
    addDays("2024-10-31", 0),
  );
  // A status and a total changed by one statement; a status set to what it was.
  db.run(
    "UPDATE orders SET status = 'cancelled', total = total + 2 WHERE order_id = " +
      "(SELECT min(order_id) FROM orders WHERE order_date >= '2024-10-01' AND status = 'delivered')",
  );
  db.run("UPDATE orders SET status = status WHERE order_date = '2024-10-05'");
  check(world, "after writes");
  db.rollback();
  check(world, "rolled back");
});

Deno.test("the sales sums are no part of an episode's change", () => {
  using world = World.open(getDomain("orders"), { seed: "0", scale: 0.2 });
  using episode = world.beginEpisode();
  const ctx = world.context(new Rng("episode"));
  const id = world.store.get<{ order_id: number }>("SELECT min(order_id) AS order_id FROM orders")!.order_id;
  assertEquals(world.call(ctx, "delete_order", { order_id: id }).ok, true);
  const tables = [...new Set(episode.changes().map((c) => c.table))].sort();
  assertEquals(tables.includes("orders"), true);
  assertEquals(tables.filter((t) => t.startsWith("sales_")), []);
});
