import { assertEquals, assertThrows } from "@std/assert";
import { tauBenchTests } from "../../tests/fixtures/tau_bench.ts";
import { Clock } from "../clock.ts";
import { Rng } from "../rng.ts";
import { callTool } from "../call.ts";
import { ToolError, toolParameters } from "../tool.ts";
import type { Json } from "../json.ts";
import type { ToolContext } from "../tool.ts";
import type { Order, RetailData, User } from "./data.ts";
import { float, parseTyped } from "./_number.ts";
import { readOrder, readUser } from "./_read.ts";
import { firstDifference } from "./_test_utils.ts";
import { openTauRetail } from "./tau.ts";
import { retailTools } from "./tools.ts";

const ADDRESS = { address1: "1 Main Street", address2: "", city: "Austin", country: "USA", state: "TX", zip: "78701" };
const item = (id: string, price: number) => ({
  name: "Lamp",
  product_id: "1000000000",
  item_id: id,
  price: float(price),
  options: { color: id },
});
const pending = (id: string, items: Order["items"], amount: number, method: string): Order => ({
  order_id: id,
  user_id: "ann_lee_1",
  address: ADDRESS,
  items,
  fulfillments: [],
  status: "pending",
  payment_history: [{ transaction_type: "payment", amount: float(amount), payment_method_id: method }],
});

function world(): ToolContext & Disposable {
  const data: RetailData = {
    users: {
      ann_lee_1: {
        name: { first_name: "Ann", last_name: "Lee" },
        address: ADDRESS,
        email: "Ann.Lee@example.com",
        payment_methods: {
          gift_card_1: { source: "gift_card", balance: 100, id: "gift_card_1" },
          credit_card_1: { source: "credit_card", brand: "visa", last_four: "1234", id: "credit_card_1" },
        },
        orders: ["#W1", "#W2", "#W3"],
      },
    },
    products: {
      "1000000000": {
        name: "Lamp",
        product_id: "1000000000",
        variants: {
          A: { item_id: "A", options: { color: "A" }, available: true, price: float(10.5) },
          B: { item_id: "B", options: { color: "B" }, available: true, price: float(12) },
          C: { item_id: "C", options: { color: "C" }, available: false, price: float(9) },
        },
      },
    },
    orders: {
      "#W1": pending("#W1", [item("A", 10.5)], 10.5, "gift_card_1"),
      "#W2": pending("#W2", [item("A", 10.5), item("B", 12)], 22.5, "credit_card_1"),
      "#W3": { ...pending("#W3", [item("A", 10.5)], 10.5, "credit_card_1"), status: "delivered" },
    },
  };
  const db = openTauRetail(data);
  return { db, clock: new Clock("2024-05-15T15:00:00"), rng: new Rng(0), [Symbol.dispose]: () => db.close() };
}

function call(ctx: ToolContext, name: string, args: Record<string, Json> = {}): Json {
  return callTool(ctx, retailTools.find((t) => t.name === name)!, args);
}

function fails(ctx: ToolContext, name: string, args: Record<string, Json>): string {
  const err = assertThrows(() => call(ctx, name, args), ToolError);
  return err.message;
}

const order = (ctx: ToolContext, id: string) => readOrder(ctx.db, id) as Order;
const balance = (ctx: ToolContext) =>
  JSON.stringify((readUser(ctx.db, "ann_lee_1") as User).payment_methods.gift_card_1);

Deno.test("cancel_pending_order() after a payment change refunds every entry again (τ-bench's quirk)", () => {
  using ctx = world();
  call(ctx, "modify_pending_order_payment", { order_id: "#W1", payment_method_id: "credit_card_1" });
  // The old gift card is credited once by the change: 100 + 10.5.
  assertEquals(balance(ctx), '{"source":"gift_card","balance":110.5,"id":"gift_card_1"}');
  call(ctx, "cancel_pending_order", { order_id: "#W1", reason: "ordered by mistake" });
  // And twice more by the cancellation: its payment entry and its refund entry.
  assertEquals(balance(ctx), '{"source":"gift_card","balance":131.5,"id":"gift_card_1"}');
  const o = order(ctx, "#W1");
  assertEquals([o.status, o.cancel_reason, o.payment_history.length], ["cancelled", "ordered by mistake", 6]);
});

Deno.test("cancel_pending_order() turns an int balance into a float even for an integral sum", () => {
  using ctx = world();
  call(ctx, "modify_pending_order_payment", { order_id: "#W2", payment_method_id: "gift_card_1" });
  assertEquals(balance(ctx), '{"source":"gift_card","balance":77.5,"id":"gift_card_1"}');
  call(ctx, "modify_pending_order_address", { order_id: "#W2", ...ADDRESS, city: "Dallas" });
  assertEquals(order(ctx, "#W2").address.city, "Dallas");
  assertEquals(fails(ctx, "cancel_pending_order", { order_id: "#W2", reason: "too slow" }), "invalid reason");
  call(ctx, "cancel_pending_order", { order_id: "#W2", reason: "no longer needed" });
  // 77.5 + 22.5 = 100.0: a float now, unlike the initial 100.
  assertEquals(balance(ctx), '{"source":"gift_card","balance":100.0,"id":"gift_card_1"}');
});

Deno.test("modify_pending_order_items() edits the list as it goes and records the raw difference", () => {
  using ctx = world();
  call(ctx, "modify_pending_order_items", {
    order_id: "#W2",
    item_ids: ["A", "B"],
    new_item_ids: ["B", "A"],
    payment_method_id: "credit_card_1",
  });
  const o = order(ctx, "#W2");
  // A becomes B, then that same (first) B goes back to A: nothing changes but the status and a 0.0 refund.
  assertEquals(o.items.map((i) => i.item_id), ["A", "B"]);
  assertEquals(o.status, "pending (item modified)");
  assertEquals(
    JSON.stringify(o.payment_history[1]),
    '{"transaction_type":"refund","amount":0.0,"payment_method_id":"credit_card_1"}',
  );
  assertEquals(
    fails(ctx, "modify_pending_order_items", {
      order_id: "#W2",
      item_ids: [],
      new_item_ids: [],
      payment_method_id: "x",
    }),
    "non-pending order cannot be modified",
  );
});

Deno.test("modify_pending_order_items() pays from a gift card and checks items and balance", () => {
  using ctx = world();
  const args = { order_id: "#W1", item_ids: ["A"], new_item_ids: ["B"], payment_method_id: "gift_card_1" };
  assertEquals(
    fails(ctx, "modify_pending_order_items", { ...args, item_ids: ["A", "A"], new_item_ids: ["B", "B"] }),
    "A not found",
  );
  assertEquals(
    fails(ctx, "modify_pending_order_items", { ...args, new_item_ids: ["C"] }),
    "new item C not found or available",
  );
  assertEquals(
    fails(ctx, "modify_pending_order_items", { ...args, new_item_ids: [] }),
    "the number of items to be exchanged should match",
  );
  call(ctx, "modify_pending_order_items", args);
  assertEquals(balance(ctx), '{"source":"gift_card","balance":98.5,"id":"gift_card_1"}');
  const o = order(ctx, "#W1");
  assertEquals(
    JSON.stringify(o.items[0]),
    '{"name":"Lamp","product_id":"1000000000","item_id":"B","price":12.0,"options":{"color":"B"}}',
  );
  assertEquals(JSON.stringify(o.payment_history[1].amount), "1.5");
});

Deno.test("exchange_delivered_order_items() and return_delivered_order_items() only record the request", () => {
  using ctx = world();
  assertEquals(
    fails(ctx, "return_delivered_order_items", { order_id: "#W3", item_ids: ["A"], payment_method_id: "paypal_9" }),
    "payment method not found",
  );
  call(ctx, "exchange_delivered_order_items", {
    order_id: "#W3",
    item_ids: [],
    new_item_ids: [],
    payment_method_id: "gift_card_1",
  });
  const o = order(ctx, "#W3");
  // Empty lists succeed, with the int 0 as the difference.
  assertEquals(
    JSON.stringify([o.status, o.exchange_items, o.exchange_price_difference]),
    '["exchange requested",[],0]',
  );
  assertEquals(
    fails(ctx, "return_delivered_order_items", { order_id: "#W3", item_ids: ["A"], payment_method_id: "gift_card_1" }),
    "non-delivered order cannot be returned",
  );
  assertEquals(balance(ctx), '{"source":"gift_card","balance":100,"id":"gift_card_1"}');
});

Deno.test("find_user_id_by_email() ignores case; list_all_product_types() maps names to ids", () => {
  using ctx = world();
  assertEquals(call(ctx, "find_user_id_by_email", { email: "ann.lee@EXAMPLE.com" }), "ann_lee_1");
  assertEquals(
    call(ctx, "find_user_id_by_name_zip", { first_name: "ANN", last_name: "lee", zip: "78701" }),
    "ann_lee_1",
  );
  assertEquals(
    fails(ctx, "find_user_id_by_name_zip", { first_name: "Ann", last_name: "Lee", zip: "78702" }),
    "user not found",
  );
  assertEquals(call(ctx, "list_all_product_types"), { Lamp: "1000000000" });
  assertEquals(fails(ctx, "get_product_details", { product_id: "A" }), "product not found");
  assertEquals(fails(ctx, "get_order_details", { order_id: "#W9" }), "order not found");
  // A missing argument is refused before the tool runs.
  assertEquals(assertThrows(() => call(ctx, "get_order_details", {}), ToolError).code, "invalid_args");
});

const tau = tauBenchTests("retail");

tau.test("retailTools have τ-bench's names, order, parameters and required lists", () => {
  const specs = parseTyped(Deno.readTextFileSync(`${tau.folder}/tools.json`)) as {
    name: string;
    writes_db: boolean;
    terminates_episode: boolean;
    schema: { function: { parameters: { properties: Record<string, { type: string }>; required: string[] } } };
  }[];
  assertEquals(retailTools.map((t) => t.name), specs.map((s) => s.name));
  for (const [i, spec] of specs.entries()) {
    const tool = retailTools[i];
    const ours = toolParameters(tool) as { properties: Record<string, { type: string }>; required?: string[] };
    const theirs = spec.schema.function.parameters;
    const types = (p: Record<string, { type: string }>) => Object.entries(p).map(([k, v]) => [k, v.type]).sort();
    assertEquals(firstDifference(types(ours.properties), types(theirs.properties)), null, tool.name);
    assertEquals([...ours.required ?? []].sort(), [...theirs.required].sort(), tool.name);
    assertEquals([tool.writes, tool.terminates], [spec.writes_db, spec.terminates_episode], tool.name);
  }
});
