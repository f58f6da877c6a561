// The retail playbook's goal handlers: identify the user, look the order up, apply the policy's
// rules (`_rules.ts`) when verifying, and propose each write with its details.
import type { Json } from "../json.ts";
import { act, type Decision, handOver, inform, isDecision, type Play, refuse, writeCall } from "../decisions.ts";
import {
  CANCEL_REASONS,
  dollars,
  holdsItems,
  itemsTotal,
  type ItemView,
  REASONS,
  stringList,
  swapDifference,
  transferSummary,
  type Variants,
} from "./_rules.ts";

interface OrderView {
  order_id: string;
  user_id: string;
  status: string;
  items: ItemView[];
  payment_history: { transaction_type: string; amount: number; payment_method_id: string }[];
  exchange_price_difference?: number;
}
interface UserView {
  payment_methods: Record<string, { source: string; balance?: number; id: string }>;
}
interface Known {
  order?: OrderView;
  userId: string | null;
}

const ADDRESS = ["address1", "address2", "city", "state", "country", "zip"] as const;
const str = (v: Json | undefined) => typeof v === "string" ? v : "";
const paidTotal = (o: OrderView) =>
  o.payment_history.reduce((s, t) => s + (t.transaction_type === "payment" ? t.amount : -t.amount), 0);
const history = (r: Json) => ((r as unknown as OrderView)?.payment_history ?? []);

// An order without the products the user described: which order they mean is asked, not assumed.
function otherOrder(p: Play, order: OrderView): Decision | undefined {
  const described = Array.isArray(p.facts.products) ? p.facts.products.map(String) : [];
  const names = new Set(order.items.map((it) => it.name ?? it.product_id));
  const absent = described.filter((n) => !names.has(n));
  if (absent.length === 0) return undefined;
  return p.doubt(
    "order_id",
    `Order ${order.order_id} holds ${[...names].join(", ")}, not the ${
      absent.join(", ")
    } you described: which order do you mean? Please give me the order id of the order with the ${
      described.join(", ")
    }.`,
  );
}

/** The goal handlers of one conversation (it remembers whether it asked who the user is). */
export function retailGoals(): { goals: Record<string, (p: Play) => Decision>; otherwise: (p: Play) => Decision } {
  let askedIdentity = false;

  const identify = (p: Play): Decision | { userId: string } => {
    const f = p.facts;
    const found = (name: string, args: Record<string, Json>) => {
      const got = p.lookUp(name, args);
      return "action" in got ? got.action : { userId: String(got.value) };
    };
    if (typeof f.email === "string") return found("find_user_id_by_email", { email: f.email });
    if (typeof f.first_name === "string" && typeof f.last_name === "string" && typeof f.zip === "string") {
      return found("find_user_id_by_name_zip", { first_name: f.first_name, last_name: f.last_name, zip: f.zip });
    }
    if (askedIdentity) return refuse(REASONS.identify);
    askedIdentity = true;
    return act({
      type: "message",
      text: "First I need to identify you: could you give me your email, or your first name, last name and zip code?",
      intent: { kind: "ask", fields: ["email", "first_name", "last_name", "zip"] },
    });
  };

  // Identifies the user, asks the facts and looks the order up, refusing an order not theirs or of the wrong status.
  const known = (p: Play, fields: readonly string[], status?: "pending" | "delivered"): Decision | Known => {
    if (!p.options.verify) return p.need(fields) ?? { userId: null };
    const who = identify(p);
    if (isDecision(who)) return who;
    const ask = p.need(fields);
    if (ask) return ask;
    if (!fields.includes("order_id")) return { userId: who.userId };
    const got = p.lookUp("get_order_details", { order_id: str(p.facts.order_id) });
    if ("action" in got) return got.action;
    const order = got.value as unknown as OrderView;
    if (order.user_id !== who.userId) return refuse(REASONS.own);
    const doubt = otherOrder(p, order);
    if (doubt) return doubt;
    if (status !== undefined && order.status !== status) {
      return refuse(status === "pending" ? REASONS.pending : REASONS.delivered);
    }
    return { order, userId: who.userId };
  };

  const userOf = (p: Play, userId: string): Decision | UserView => {
    const got = p.lookUp("get_user_details", { user_id: userId });
    return "action" in got ? got.action : got.value as unknown as UserView;
  };

  // The variants of each product whose items are swapped, looked up once each.
  const variantsOf = (p: Play, order: OrderView, ids: readonly string[]): Decision | Map<string, Variants> => {
    const out = new Map<string, Variants>();
    for (const id of ids) {
      const item = order.items.find((it) => it.item_id === id);
      if (item === undefined) return p.close(`Order ${order.order_id} holds no item ${id}`);
      if (out.has(item.product_id)) continue;
      const got = p.lookUp("get_product_details", { product_id: item.product_id });
      if ("action" in got) return got.action;
      out.set(item.product_id, (got.value as { variants: Variants }).variants);
    }
    return out;
  };

  // Checks a swap (modify or exchange) and the method that settles it; the difference, or a decision.
  const swap = (p: Play, k: Known, ids: string[], news: string[], method: string): Decision | number | null => {
    if (!p.options.verify || k.order === undefined || k.userId === null) return null;
    const variants = variantsOf(p, k.order, ids);
    if (isDecision(variants)) return variants;
    const diff = swapDifference(k.order.items, ids, news, (id) => variants.get(id));
    if (diff === null) return refuse(REASONS.sameProduct);
    const user = userOf(p, k.userId);
    if (isDecision(user)) return user;
    const m = user.payment_methods[method];
    if (m === undefined) return p.close(`Payment method ${method} is not in your profile`);
    if (m.source === "gift_card" && diff > 0 && (m.balance ?? 0) < diff) return refuse(REASONS.giftCard);
    return diff;
  };

  const settle = (diff: number | null, method: string) =>
    diff === null
      ? `the price difference is settled with ${method}`
      : `the price difference of $${dollars(diff)} will be ${diff > 0 ? "charged to" : "refunded to"} ${method}`;

  const SWAP = ["order_id", "item_ids", "new_item_ids", "payment_method_id"];
  const swapGoal = (tool: string, status: "pending" | "delivered", what: string, after: string) => (p: Play) => {
    const k = known(p, SWAP, status);
    if (isDecision(k)) return k;
    const id = str(p.facts.order_id), method = str(p.facts.payment_method_id);
    const ids = stringList(p.facts.item_ids), news = stringList(p.facts.new_item_ids);
    if (ids === null || news === null) return p.close("I need the item ids as a list");
    const checkedDiff = swap(p, k, ids, news, method);
    if (checkedDiff !== null && typeof checkedDiff === "object") return checkedDiff;
    const diff = checkedDiff;
    const pairs = ids.map((old, i) => `${old} to ${news[i]}`).join(", ");
    return writeCall({
      name: tool,
      args: { order_id: id, item_ids: ids, new_item_ids: news, payment_method_id: method },
    }, {
      propose: `I will ${what} of order ${id}: ${pairs}; ${settle(diff, method)}. ${after}`,
      done: (r) => {
        const d = tool === "exchange_delivered_order_items"
          ? Number((r as unknown as OrderView)?.exchange_price_difference ?? 0)
          : signed(history(r).at(-1));
        return `Done: ${what === "change the items" ? "the items of" : "the exchange for"} order ${id} ` +
          `${what === "change the items" ? "are changed" : "is requested"}; ${settle(d, method)}.`;
      },
    });
  };

  const goals: Record<string, (p: Play) => Decision> = {
    cancel_order(p) {
      const k = known(p, ["order_id", "reason"], "pending");
      if (isDecision(k)) return k;
      const id = str(p.facts.order_id), reason = str(p.facts.reason);
      if (p.options.verify && !CANCEL_REASONS.includes(reason)) return refuse(REASONS.reason);
      const amount = k.order ? ` ($${dollars(paidTotal(k.order))} paid)` : "";
      return writeCall({ name: "cancel_pending_order", args: { order_id: id, reason } }, {
        propose: `I will cancel order ${id}${amount} for the reason "${reason}": the whole order is refunded to ` +
          "its payment methods, a gift card at once and other methods within 5 to 7 business days.",
        done: (r) => {
          const refund = history(r).filter((t) => t.transaction_type === "refund").reduce((s, t) => s + t.amount, 0);
          return `Order ${id} is cancelled; $${dollars(refund)} will be refunded to its payment methods.`;
        },
      });
    },
    modify_items: swapGoal(
      "modify_pending_order_items",
      "pending",
      "change the items",
      "Items can be changed only once per order: afterwards the order cannot be changed or cancelled.",
    ),
    exchange_items: swapGoal(
      "exchange_delivered_order_items",
      "delivered",
      "request an exchange",
      "An order can be exchanged only once, and you will get an email with instructions.",
    ),
    modify_order_address(p) {
      const k = known(p, ["order_id", "new_address"], "pending");
      if (isDecision(k)) return k;
      const given = p.facts.new_address;
      if (given === null || typeof given !== "object" || Array.isArray(given)) {
        return p.close("I need the new address in full");
      }
      const address = Object.fromEntries(ADDRESS.map((f) => [f, str(given[f])]));
      const id = str(p.facts.order_id);
      const text = `${address.address1}, ${address.address2}, ${address.city}, ${address.state} ${address.zip}, ` +
        address.country;
      return writeCall({ name: "modify_pending_order_address", args: { order_id: id, ...address } }, {
        propose: `I will change the shipping address of order ${id} to ${text}.`,
        done: () => `Done: order ${id} will ship to ${text}.`,
      });
    },
    modify_order_payment(p) {
      const k = known(p, ["order_id", "payment_method_id"], "pending");
      if (isDecision(k)) return k;
      const id = str(p.facts.order_id), method = str(p.facts.payment_method_id);
      let amount = "";
      if (k.order && k.userId !== null) {
        const user = userOf(p, k.userId);
        if (isDecision(user)) return user;
        const m = user.payment_methods[method], total = paidTotal(k.order);
        const old = k.order.payment_history[0]?.payment_method_id;
        if (m === undefined) return p.close(`Payment method ${method} is not in your profile`);
        if (old === method) return p.close(`Order ${id} is already paid with ${method}`);
        if (m.source === "gift_card" && (m.balance ?? 0) < total) return refuse(REASONS.giftCard);
        amount = ` The $${dollars(total)} paid with ${old} is refunded to it (a gift card at once, other methods ` +
          "within 5 to 7 business days).";
      }
      return writeCall({ name: "modify_pending_order_payment", args: { order_id: id, payment_method_id: method } }, {
        propose: `I will pay order ${id} with ${method} instead.${amount}`,
        done: (r) => {
          const refund = history(r).at(-1);
          return `Done: order ${id} is now paid with ${method}; $${dollars(refund?.amount ?? 0)} is refunded to ` +
            `${refund?.payment_method_id ?? "the old method"}.`;
        },
      });
    },
    return_items(p) {
      const k = known(p, ["order_id", "item_ids", "payment_method_id"], "delivered");
      if (isDecision(k)) return k;
      const id = str(p.facts.order_id), method = str(p.facts.payment_method_id);
      const ids = stringList(p.facts.item_ids);
      if (ids === null) return p.close("I need the item ids as a list");
      let worth = "";
      if (k.order && k.userId !== null) {
        if (!holdsItems(k.order.items, ids)) return p.close(`Order ${id} does not hold those items`);
        const user = userOf(p, k.userId);
        if (isDecision(user)) return user;
        const original = k.order.payment_history[0]?.payment_method_id;
        if (method !== original && user.payment_methods[method]?.source !== "gift_card") return refuse(REASONS.method);
        worth = ` worth $${dollars(itemsTotal(k.order.items, ids))}`;
      }
      return writeCall({
        name: "return_delivered_order_items",
        args: { order_id: id, item_ids: ids, payment_method_id: method },
      }, {
        propose: `I will request a return of items ${ids.join(", ")} of order ${id}${worth}, refunded to ${method}. ` +
          "An order can be returned only once, and you will get an email with instructions.",
        done: (r) => {
          const items = (r as unknown as OrderView)?.items ?? [];
          return `Done: the return of order ${id} is requested; $${dollars(itemsTotal(items, ids))} will be ` +
            `refunded to ${method}. You will get an email with return instructions.`;
        },
      });
    },
    order_status(p) {
      const k = known(p, ["order_id"]);
      if (isDecision(k)) return k;
      let order = k.order;
      if (order === undefined) {
        const got = p.lookUp("get_order_details", { order_id: str(p.facts.order_id) });
        if ("action" in got) return got.action;
        order = got.value as unknown as OrderView;
      }
      return inform(`The status of order ${order.order_id}: "${order.status}".`, { status: order.status });
    },
    item_price(p) {
      const k = known(p, ["product_id", "item_id"]);
      if (isDecision(k)) return k;
      const got = p.lookUp("get_product_details", { product_id: str(p.facts.product_id) });
      if ("action" in got) return got.action;
      const product = got.value as { name: string; variants: Variants };
      const v = product.variants?.[str(p.facts.item_id)];
      if (v === undefined) return p.close(`Product ${str(p.facts.product_id)} has no item ${str(p.facts.item_id)}`);
      const note = v.available ? "" : "; it is not available at the moment";
      return inform(`Item ${v.item_id} (${product.name}) costs $${dollars(v.price)}${note}.`, {
        price: dollars(v.price),
      });
    },
  };

  const otherwise = (p: Play): Decision => {
    const goal = p.goal ?? "other";
    if (!p.options.verify) return handOver(transferCall(goal, null));
    const who = identify(p);
    if (isDecision(who)) return who;
    return handOver(transferCall(goal, who.userId));
  };
  return { goals, otherwise };
}

const transferCall = (goal: string, userId: string | null) => ({
  name: "transfer_to_human_agents",
  args: { summary: transferSummary(goal, userId) },
});

// A payment entry as a signed difference: a payment charged (+), a refund (−).
function signed(t: { transaction_type: string; amount: number } | undefined): number {
  if (t === undefined) return 0;
  return t.transaction_type === "payment" ? t.amount : -t.amount;
}
