// One draft per retail intent: picks a world situation that makes the intent valid and computes the
// gold calls and outputs with the policy's rule functions (`_rules.ts`).
import type { Expect } from "../task.ts";
import type { Json } from "../json.ts";
import type { ToolCall } from "../tool.ts";
import type { Rng } from "../rng.ts";
import type { Address, Order, RetailData, User } from "./data.ts";
import { value } from "./_number.ts";
import { CITIES, STREETS } from "./_vocab.ts";
import {
  CANCEL_REASONS,
  dollars,
  itemsTotal,
  type ItemView,
  OUT_OF_SCOPE,
  REASON_OUTPUTS,
  swapDifference,
  transferSummary,
  type Variants,
} from "./_rules.ts";

/** A task before its id, openings and volunteered facts are chosen. */
export interface Draft {
  goal: string;
  facts: Record<string, Json>;
  gold: ToolCall[];
  outputs: string[];
  expect: Expect;
  rationale: string;
  /** Facts the user always states in the opening. */
  always?: string[];
}

/** The world a task generator draws from, with lists computed once. */
export class Pool {
  readonly data: RetailData;
  readonly orders: Order[];
  #emails = new Map<string, number>();
  #names = new Map<string, number>();
  #streets = new Set<string>();

  constructor(data: RetailData) {
    this.data = data;
    this.orders = Object.values(data.orders);
    for (const u of Object.values(data.users)) {
      this.#emails.set(u.email.toLowerCase(), (this.#emails.get(u.email.toLowerCase()) ?? 0) + 1);
      const name = nameKey(u);
      this.#names.set(name, (this.#names.get(name) ?? 0) + 1);
      this.#streets.add(u.address.address1.toLowerCase());
    }
  }

  /** Orders of a status whose user can be identified. */
  where(test: (o: Order) => boolean): Order[] {
    return this.orders.filter((o) => test(o) && this.#emails.get(this.user(o).email.toLowerCase()) === 1);
  }

  user(o: Order): User {
    return this.data.users[o.user_id];
  }

  /**
   * How the user identifies themself: their email, or (two times in five, when the name and zip
   * find only them) their name and zip code.
   */
  identity(o: Order, rng: Rng): { facts: Record<string, Json>; call: ToolCall } {
    const u = this.user(o);
    if (rng.chance(0.4) && this.#names.get(nameKey(u)) === 1) {
      const facts = { first_name: u.name.first_name, last_name: u.name.last_name, zip: u.address.zip };
      return { facts, call: { name: "find_user_id_by_name_zip", args: facts } };
    }
    return { facts: { email: u.email }, call: { name: "find_user_id_by_email", args: { email: u.email } } };
  }

  /** A new address no user has as their street address (so saying it exposes nobody's). */
  newAddress(rng: Rng): Address {
    for (;;) {
      const place = rng.pick(CITIES);
      const address1 = `${rng.int(1000, 9999)} ${rng.pick(STREETS)}`;
      if (this.#streets.has(address1.toLowerCase())) continue;
      return {
        address1,
        address2: `Apt ${rng.int(10, 99)}`,
        city: place.city,
        country: "USA",
        state: place.state,
        zip: place.zip + String(rng.int(0, 99)).padStart(2, "0"),
      };
    }
  }

  variants(productId: string): Variants | undefined {
    const p = this.data.products[productId];
    if (p === undefined) return undefined;
    return Object.fromEntries(
      Object.entries(p.variants).map(([id, v]) => [id, { item_id: id, available: v.available, price: value(v.price) }]),
    );
  }
}

const nameKey = (u: User) => `${u.name.first_name}/${u.name.last_name}/${u.address.zip}`.toLowerCase();

/** An order's items with plain prices. */
export function itemsOf(o: Order): ItemView[] {
  return o.items.map((it) => ({ item_id: it.item_id, product_id: it.product_id, price: value(it.price) }));
}

const paid = (o: Order) => value(o.payment_history[0].amount);

// Tries picks until one makes a draft; `undefined` when none does.
function attempt(rng: Rng, list: readonly Order[], make: (o: Order, r: Rng) => Draft | undefined) {
  for (let i = 0; i < 200 && list.length > 0; i++) {
    const r = rng.child(i);
    const d = make(r.pick(list), r);
    if (d !== undefined) return d;
  }
  return undefined;
}

function act(pool: Pool, o: Order, r: Rng, goal: string, facts: Record<string, Json>, write: ToolCall, rest: {
  outputs: string[];
  rationale: string;
}): Draft {
  const id = pool.identity(o, r.child("identity"));
  return {
    goal,
    facts: { ...id.facts, order_id: o.order_id, ...facts },
    gold: [id.call, { name: "get_order_details", args: { order_id: o.order_id } }, write],
    expect: "act",
    always: ["order_id"],
    ...rest,
  };
}

/** Cancel a pending order for an allowed reason: the whole order is refunded. */
export function cancelPending(rng: Rng, pool: Pool): Draft | undefined {
  return attempt(rng, pool.where((o) => o.status === "pending"), (o, r) => {
    const reason = r.pick(CANCEL_REASONS);
    return act(pool, o, r, "cancel_order", { reason }, {
      name: "cancel_pending_order",
      args: { order_id: o.order_id, reason },
    }, { outputs: [dollars(paid(o))], rationale: `pending order, reason "${reason}": refund of ${dollars(paid(o))}` });
  });
}

// Some items of an order and, for each, another available variant of its product.
function swaps(pool: Pool, o: Order, r: Rng): { ids: string[]; news: string[]; diff: number } | undefined {
  const items = itemsOf(o);
  const ids: string[] = [], news: string[] = [];
  for (const it of r.shuffle(items).slice(0, r.int(1, 2))) {
    const others = Object.values(pool.variants(it.product_id) ?? {}).filter((v) =>
      v.available && v.item_id !== it.item_id
    );
    if (others.length === 0) continue;
    ids.push(it.item_id);
    news.push(r.pick(others).item_id);
  }
  if (ids.length === 0) return undefined;
  const diff = swapDifference(items, ids, news, (p) => pool.variants(p));
  return diff === null ? undefined : { ids, news, diff };
}

// A payment method of the user's that can settle a difference (a gift card must cover a charge).
function settling(pool: Pool, o: Order, r: Rng, amount: number): string | undefined {
  const ok = Object.values(pool.user(o).payment_methods).filter((m) =>
    m.source !== "gift_card" || value(m.balance) >= amount
  );
  return ok.length === 0 ? undefined : r.pick(ok).id;
}

/** Swap items of a pending order for other variants, settling the difference. */
export function modifyItems(rng: Rng, pool: Pool): Draft | undefined {
  return attempt(rng, pool.where((o) => o.status === "pending"), (o, r) => {
    const s = swaps(pool, o, r);
    const method = s && settling(pool, o, r, s.diff);
    if (s === undefined || method === undefined) return undefined;
    const facts = { item_ids: s.ids, new_item_ids: s.news, payment_method_id: method };
    return act(pool, o, r, "modify_items", facts, {
      name: "modify_pending_order_items",
      args: { order_id: o.order_id, ...facts },
    }, { outputs: [dollars(s.diff)], rationale: `pending order, same-product swaps, difference ${dollars(s.diff)}` });
  });
}

/** Change the shipping address of a pending order. */
export function modifyAddress(rng: Rng, pool: Pool): Draft | undefined {
  return attempt(rng, pool.where((o) => o.status === "pending"), (o, r) => {
    const address = pool.newAddress(r.child("address"));
    return act(pool, o, r, "modify_order_address", { new_address: { ...address } }, {
      name: "modify_pending_order_address",
      args: { order_id: o.order_id, ...address },
    }, { outputs: [address.address1], rationale: "pending order: the address can change" });
  });
}

/** Pay a pending order with another of the user's methods (a gift card must cover it). */
export function modifyPayment(rng: Rng, pool: Pool): Draft | undefined {
  return attempt(rng, pool.where((o) => o.status === "pending" && o.payment_history.length === 1), (o, r) => {
    const current = o.payment_history[0].payment_method_id;
    const ok = Object.values(pool.user(o).payment_methods).filter((m) =>
      m.id !== current && (m.source !== "gift_card" || value(m.balance) >= paid(o))
    );
    if (ok.length === 0) return undefined;
    const method = r.pick(ok).id;
    return act(pool, o, r, "modify_order_payment", { payment_method_id: method }, {
      name: "modify_pending_order_payment",
      args: { order_id: o.order_id, payment_method_id: method },
    }, { outputs: [dollars(paid(o))], rationale: `pending order paid again with ${method}` });
  });
}

/** Return some items of a delivered order, refunded to the original method or a gift card. */
export function returnItems(rng: Rng, pool: Pool): Draft | undefined {
  return attempt(rng, pool.where((o) => o.status === "delivered"), (o, r) => {
    const items = itemsOf(o);
    const ids = r.shuffle(items).slice(0, r.int(1, items.length)).map((it) => it.item_id);
    const cards = Object.values(pool.user(o).payment_methods).filter((m) => m.source === "gift_card").map((m) => m.id);
    const method = r.pick([o.payment_history[0].payment_method_id, ...cards]);
    const facts = { item_ids: ids, payment_method_id: method };
    const refund = itemsTotal(items, ids);
    return act(pool, o, r, "return_items", facts, {
      name: "return_delivered_order_items",
      args: { order_id: o.order_id, ...facts },
    }, { outputs: [dollars(refund)], rationale: `delivered order: return worth ${dollars(refund)}` });
  });
}

/** Exchange items of a delivered order for other variants of the same products. */
export function exchangeItems(rng: Rng, pool: Pool): Draft | undefined {
  return attempt(rng, pool.where((o) => o.status === "delivered"), (o, r) => {
    const s = swaps(pool, o, r);
    const method = s && settling(pool, o, r, s.diff);
    if (s === undefined || method === undefined) return undefined;
    const facts = { item_ids: s.ids, new_item_ids: s.news, payment_method_id: method };
    return act(pool, o, r, "exchange_items", facts, {
      name: "exchange_delivered_order_items",
      args: { order_id: o.order_id, ...facts },
    }, {
      outputs: [dollars(s.diff)],
      rationale: `delivered order, same-product exchange, difference ${dollars(s.diff)}`,
    });
  });
}

function refusal(
  pool: Pool,
  o: Order,
  r: Rng,
  goal: string,
  facts: Record<string, Json>,
  reason: keyof typeof REASON_OUTPUTS,
  rationale: string,
): Draft {
  const id = pool.identity(o, r.child("identity"));
  return {
    goal,
    facts: { ...id.facts, order_id: o.order_id, ...facts },
    gold: [id.call, { name: "get_order_details", args: { order_id: o.order_id } }],
    outputs: REASON_OUTPUTS[reason],
    expect: "refuse",
    always: ["order_id"],
    rationale,
  };
}

/** A change the policy forbids: cancelling a non-pending order, returning a non-delivered one, exchanging to another product. */
export function forbidden(rng: Rng, pool: Pool, round: number): Draft | undefined {
  const kind = round % 3;
  if (kind === 0) {
    return attempt(
      rng,
      pool.where((o) => o.status === "processed" || o.status === "delivered"),
      (o, r) =>
        refusal(pool, o, r, "cancel_order", { reason: r.pick(CANCEL_REASONS) }, "pending", `order is ${o.status}`),
    );
  }
  if (kind === 1) {
    return attempt(rng, pool.where((o) => o.status === "pending" || o.status === "processed"), (o, r) => {
      const ids = [o.items[0].item_id];
      const facts = { item_ids: ids, payment_method_id: o.payment_history[0].payment_method_id };
      return refusal(pool, o, r, "return_items", facts, "delivered", `order is ${o.status}, not delivered`);
    });
  }
  return attempt(rng, pool.where((o) => o.status === "delivered"), (o, r) => {
    const item = r.pick(o.items);
    const others = Object.values(pool.data.products).filter((p) => p.product_id !== item.product_id);
    const product = r.pick(others);
    const v = Object.values(product.variants).find((x) => x.available);
    if (v === undefined) return undefined;
    const facts = {
      item_ids: [item.item_id],
      new_item_ids: [v.item_id],
      payment_method_id: o.payment_history[0].payment_method_id,
    };
    return refusal(pool, o, r, "exchange_items", facts, "sameProduct", `${v.item_id} is a ${product.name}`);
  });
}

/** A user who cannot be identified: they know only their user id. */
export function authFailure(rng: Rng, pool: Pool): Draft | undefined {
  return attempt(rng, pool.where((o) => o.status === "pending"), (o, r) => ({
    goal: "cancel_order",
    facts: { user_id: o.user_id, order_id: o.order_id, reason: r.pick(CANCEL_REASONS) },
    gold: [],
    outputs: REASON_OUTPUTS.identify,
    expect: "refuse",
    always: ["user_id", "order_id"],
    rationale: "the user knows neither their email nor their zip code: they cannot be identified",
  }));
}

/** A request no tool handles: a hand-over with a summary. */
export function transfer(rng: Rng, pool: Pool, round: number): Draft | undefined {
  const goals = Object.keys(OUT_OF_SCOPE);
  const goal = goals[round % goals.length];
  return attempt(rng, pool.where(() => true), (o, r) => {
    const id = pool.identity(o, r.child("identity"));
    return {
      goal,
      facts: id.facts,
      gold: [id.call, { name: "transfer_to_human_agents", args: { summary: transferSummary(goal, o.user_id) } }],
      outputs: [],
      expect: "transfer",
      rationale: `no tool can ${OUT_OF_SCOPE[goal]}`,
    };
  });
}

/** The status of one of the user's orders, or the price of an item. */
export function information(rng: Rng, pool: Pool, round: number): Draft | undefined {
  return attempt(rng, pool.where(() => true), (o, r) => {
    const id = pool.identity(o, r.child("identity"));
    if (round % 2 === 0) {
      return {
        goal: "order_status",
        facts: { ...id.facts, order_id: o.order_id },
        gold: [id.call, { name: "get_order_details", args: { order_id: o.order_id } }],
        outputs: [o.status],
        expect: "inform",
        always: ["order_id"],
        rationale: `the order is ${o.status}`,
      };
    }
    const product = pool.data.products[r.pick(o.items).product_id];
    const v = r.pick(Object.values(product.variants));
    return {
      goal: "item_price",
      facts: { ...id.facts, product_id: product.product_id, item_id: v.item_id },
      gold: [id.call, { name: "get_product_details", args: { product_id: product.product_id } }],
      outputs: [dollars(value(v.price))],
      expect: "inform",
      always: ["item_id"],
      rationale: `item ${v.item_id} costs ${dollars(value(v.price))}`,
    };
  });
}
