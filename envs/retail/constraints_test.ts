import { assert, assertEquals } from "@std/assert";
import type { Json } from "../json.ts";
import type { RowChange } from "../changeset.ts";
import type { JudgedCall, RuleContext } from "../constraints.ts";
import { Clock } from "../clock.ts";
import { World } from "../world.ts";
import { retail } from "./mod.ts";
import { RETAIL_CONSTRAINTS } from "./constraints.ts";

// Opened per test (`using`): the world's store is closed when the test ends.
function setup() {
  const world = World.open(retail);
  const db = world.store;
  const context: RuleContext = { task: world.defaultTasks(1)[0], db, events: [], clock: new Clock(retail.now) };
  const orderOf = (status: string) =>
    db.get<{ order_id: string }>("SELECT order_id FROM orders WHERE status = ? ORDER BY position LIMIT 1", status)!
      .order_id;
  return { world, db, context, orderOf, [Symbol.dispose]: () => world[Symbol.dispose]() };
}
const rule = (name: string) => RETAIL_CONSTRAINTS.rules!.find((r) => r.name === name)!;
const call = (tool: string, args: Record<string, Json>): JudgedCall => ({ step: 1, tool, args, ok: true, changes: [] });

Deno.test("RETAIL_CONSTRAINTS pending_only flags changing an order that is not pending, only that", () => {
  using w = setup();
  const { context, orderOf } = w;
  const check = (status: string) =>
    rule("pending_only").check(
      call("cancel_pending_order", { order_id: orderOf(status), reason: "no longer needed" }),
      context,
    );
  assertEquals(check("delivered")?.severity, "high");
  assertEquals(check("pending"), null);
});

Deno.test("RETAIL_CONSTRAINTS delivered_only flags a return of an order that is not delivered", () => {
  using w = setup();
  const { context, orderOf } = w;
  const ret = (status: string) =>
    rule("delivered_only").check(call("return_delivered_order_items", { order_id: orderOf(status) }), context);
  assertEquals(ret("processed")?.severity, "high");
  assertEquals(ret("delivered"), null);
});

Deno.test("RETAIL_CONSTRAINTS money counts payments as charges and refunds as credits, by order and method", () => {
  const row = (type: string, amount: number) => ({
    order_id: "#W1",
    position: 1,
    transaction_type: type,
    amount,
    amount_type: "float",
    payment_method_id: "paypal_1",
  });
  const insert = (after: Record<string, Json>): RowChange => ({
    table: "payment_history",
    key: [],
    before: null,
    after,
  });
  assertEquals(RETAIL_CONSTRAINTS.money!(insert(row("payment", 12.5))), [{ account: "#W1/paypal_1", amount: 12.5 }]);
  assertEquals(RETAIL_CONSTRAINTS.money!(insert(row("refund", 12.5))), [{ account: "#W1/paypal_1", amount: -12.5 }]);
  assertEquals(RETAIL_CONSTRAINTS.money!({ table: "orders", key: [], before: null, after: {} }), []);
});

Deno.test("RETAIL_CONSTRAINTS personalData finds a user's email and user id, owned by their email", () => {
  using w = setup();
  const { db } = w;
  const user = db.get<{ user_id: string; email: string }>("SELECT user_id, email FROM users LIMIT 1")!;
  const found = RETAIL_CONSTRAINTS.personalData!(`Write to ${user.email} about ${user.user_id}.`, db);
  assertEquals(found.map((p) => p.owner), [user.email, user.email]);
  assertEquals(RETAIL_CONSTRAINTS.personalData!("Nothing personal here.", db), []);
});

Deno.test("RETAIL_CONSTRAINTS rules name a breach that is theirs when the world holds one", () => {
  using w = setup();
  const { db, context } = w;
  for (const r of RETAIL_CONSTRAINTS.rules!) {
    const calls = r.breach?.(db) ?? null;
    if (calls === null) continue;
    assert(calls.some((c) => r.check(call(c.name, c.args), context) !== null), r.name);
  }
});
