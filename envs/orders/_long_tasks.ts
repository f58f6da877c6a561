// The long-horizon task families of the orders world: what each asks, its gold calls and its
// milestones (`outcomeMilestones()`: one change per recorded worksheet step). Private to envs/orders/; long.ts exports them.
//
// Every step's look-up is chosen so that any one wrong argument the noisy agent can make
// (agents/_mutate.ts: one character of an id changed, an order id off by 1 or 10) gives a wrong
// value for that step, never the gold one by coincidence: the step's outcome then depends only on
// whether its two calls (the look-up and the record) were made right.
import type { Json } from "../json.ts";
import type { Task } from "../task.ts";
import type { ToolCall } from "../tool.ts";
import type { Rng } from "../rng.ts";
import { outcomeMilestones } from "../grade.ts";
import type { OrdersData } from "./data.ts";
import { ordersTools } from "./tools.ts";

/** A long-horizon family: its intent (the request goal), dependency kind and task builder. */
export interface LongFamily {
  intent: string;
  dependency: "strong" | "weak";
  /**
   * The task at a length, or `undefined` when the world cannot hold one that long; `used` holds
   * the starts of the class's earlier tasks, which it avoids while others remain (and adds its own).
   */
  build(rng: Rng, data: OrdersData, length: number, used?: Set<string>): Task | undefined;
}

/** The lengths (milestone totals) every family is generated at. */
export const LONG_LENGTHS: readonly number[] = [5, 20, 100];

/** The agent steps a long task allows: two calls per milestone, with room for retried faults. */
export function longMaxSteps(length: number): number {
  return 3 * length + 10;
}

/** The one-character changes of an id the noisy agent can make (agents/_mutate.ts on a string). */
export function idMutations(id: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < id.length; i++) {
    const c = id[i];
    const swaps = /[0-9]/.test(c) ? [..."0123456789"].filter((d) => d !== c) : [c === "X" ? "Y" : "X"];
    for (const s of swaps) out.push(id.slice(0, i) + s + id.slice(i + 1));
  }
  return out;
}

/** The changes of an integer argument the noisy agent can make (agents/_mutate.ts on a number). */
export function numberMutations(n: number): number[] {
  return [n + 1, n - 1, n + 10];
}

const record = (step: number, value: Json): ToolCall => ({ name: "record_result", args: { step, value } });

// ---- referral_chain (strong) ----------------------------------------------------------------

const CHAIN_OPENINGS = [
  "Starting from customer {c}, follow the referral chain for {n} steps: at each step look up who referred the current customer and record that referrer's customer id with record_result (step 1 for the first referrer, step 2 for theirs, and so on).",
  "Please trace who referred whom, beginning with customer {c}. Go {n} referrals up the chain and record each referrer's customer id on the worksheet, step i for the i-th referrer.",
  "I need the referral chain above customer {c}, {n} levels deep. For each level, record the referring customer's id with record_result, numbering the steps from 1 to {n}.",
  "Customer {c} was referred by someone, who was referred by someone else, and so on. Follow that chain {n} steps and record each referrer's customer id as worksheet steps 1 to {n}.",
  "Can you walk the referral chain from customer {c}? Record the id of the customer who referred them as step 1, that customer's referrer as step 2, and so on up to step {n}.",
];

// The referrer chain above a customer (its ancestors, nearest first), at most `limit` long; a
// cycle or an unknown referrer stops it.
function ancestors(referrer: ReadonlyMap<string, string | null>, id: string, limit: number): string[] {
  const out: string[] = [];
  const seen = new Set([id]);
  let cur = referrer.get(id) ?? null;
  while (out.length < limit && cur !== null && !seen.has(cur) && referrer.has(cur)) {
    out.push(cur);
    seen.add(cur);
    cur = referrer.get(cur) ?? null;
  }
  return out;
}

// Each customer's depth: how many referrers are above it (a cycle is cut where it closes).
function depths(referrer: ReadonlyMap<string, string | null>): Map<string, number> {
  const depth = new Map<string, number>();
  for (const id of referrer.keys()) {
    // Walk up to a customer of known depth, or to the top of the chain.
    const path: string[] = [];
    const onPath = new Set<string>();
    let cur = id;
    while (!depth.has(cur)) {
      path.push(cur);
      onPath.add(cur);
      const up = referrer.get(cur) ?? null;
      if (up === null || !referrer.has(up) || onPath.has(up)) {
        depth.set(path.pop()!, 0);
        break;
      }
      cur = up;
    }
    for (let i = path.length - 1; i >= 0; i--) depth.set(path[i], depth.get(referrer.get(path[i])!)! + 1);
  }
  return depth;
}

// Customers a one-character change of whose id finds another customer with the same referrer (a
// sibling): looking them up with a wrong id could give the right answer by chance.
function ambiguous(referrer: ReadonlyMap<string, string | null>): Set<string> {
  const out = new Set<string>();
  for (const [id, up] of referrer) {
    if (up !== null && idMutations(id).some((m) => referrer.has(m) && referrer.get(m) === up)) out.add(id);
  }
  return out;
}

function referralChain(rng: Rng, data: OrdersData, length: number, used = new Set<string>()): Task | undefined {
  const referrer = new Map(data.customers.map((c) => [c.customer_id, c.referred_by]));
  const depth = depths(referrer);
  const all = data.customers.map((c) => c.customer_id).filter((id) => depth.get(id)! >= length);
  if (all.length === 0) return undefined;
  // Another start than the class's earlier tasks', while one remains.
  const fresh = all.filter((id) => !used.has(id));
  const deep = fresh.length > 0 ? fresh : all;
  // A start with the fewest ambiguous look-ups on its way (see `ambiguous()`), none where possible.
  const bad = ambiguous(referrer);
  const paths = deep.map((id) => [id, ...ancestors(referrer, id, length)]);
  const flaws = paths.map((p) => p.slice(0, length).filter((id) => bad.has(id)).length);
  const fewest = Math.min(...flaws);
  const path = rng.pick(paths.filter((_, i) => flaws[i] === fewest));
  const start = path[0];
  used.add(start);
  const gold: ToolCall[] = [];
  for (let i = 1; i <= length; i++) {
    gold.push({ name: "get_customer", args: { customer_id: path[i - 1] } }, record(i, path[i]));
  }
  return {
    id: "",
    intent: "referral_chain",
    goal: "referral_chain",
    facts: { customer_id: start, steps: length },
    volunteered: ["customer_id", "steps"],
    openings: CHAIN_OPENINGS.map((t) => t.replaceAll("{c}", start).replaceAll("{n}", String(length))),
    gold,
    outputs: [],
    milestones: outcomeMilestones({ gold, outputs: [], expect: "act" }, ordersTools),
    expect: "act",
    rationale: `Customer ${start}'s referrers ${length} levels up, nearest first, each recorded as its step: ` +
      `each look-up needs the previous answer (strong dependency).`,
    family: "referral_chain",
    length,
    dependency: "strong",
    maxSteps: longMaxSteps(length),
  };
}

// ---- order_totals (weak) --------------------------------------------------------------------

const TOTAL_OPENINGS = [
  "Please record the total of each of these {n} orders on the worksheet, step i for the i-th order in this list: {ids}.",
  "For my reconciliation, look up these {n} orders and record each one's total with record_result, numbering the steps in the order given: {ids}.",
  "I have {n} orders to check: {ids}. Record the order total of each as a worksheet step (step 1 for the first order listed, and so on).",
  "Could you note down the totals of the following {n} orders? Use record_result with step 1 for the first, step 2 for the second, and so on: {ids}.",
  "Go through this list of {n} orders and record each order's total on the worksheet as its position in the list: {ids}.",
];

// Orders whose total no off-by-one-or-ten order id shares: a mistyped look-up can never record
// the right total by chance. Test orders and orders with notes (noise) are left out.
function distinctOrders(data: OrdersData): number[] {
  const total = new Map(data.orders.map((o) => [o.order_id, o.total]));
  return data.orders
    .filter((o) => o.is_test === 0 && o.note === null && o.total > 0)
    .filter((o) => numberMutations(o.order_id).every((m) => !total.has(m) || total.get(m) !== o.total))
    .map((o) => o.order_id);
}

function orderTotals(rng: Rng, data: OrdersData, length: number): Task | undefined {
  const pool = distinctOrders(data);
  const total = new Map(data.orders.map((o) => [o.order_id, o.total]));
  // Totals distinct within the task too, so a step recorded under another's number is never right.
  const ids: number[] = [];
  const taken = new Set<number>();
  for (const id of rng.shuffle(pool)) {
    if (ids.length === length) break;
    if (!taken.has(total.get(id)!)) ids.push(id), taken.add(total.get(id)!);
  }
  if (ids.length < length) return undefined;
  const gold: ToolCall[] = [];
  ids.forEach((id, i) => gold.push({ name: "get_order", args: { order_id: id } }, record(i + 1, total.get(id)!)));
  const list = ids.join(", ");
  return {
    id: "",
    intent: "order_totals",
    goal: "order_totals",
    facts: { order_ids: ids, steps: length },
    volunteered: ["order_ids"],
    openings: TOTAL_OPENINGS.map((t) => t.replaceAll("{n}", String(length)).replaceAll("{ids}", list)),
    gold,
    outputs: [],
    milestones: outcomeMilestones({ gold, outputs: [], expect: "act" }, ordersTools),
    expect: "act",
    rationale: `The totals of ${length} given orders, each recorded as its position in the list: ` +
      `independent look-ups (weak dependency).`,
    family: "order_totals",
    length,
    dependency: "weak",
    maxSteps: longMaxSteps(length),
  };
}

/** The families, in the order `buildLongTasks()` makes their tasks. */
export const LONG_FAMILIES: readonly LongFamily[] = [
  { intent: "referral_chain", dependency: "strong", build: referralChain },
  { intent: "order_totals", dependency: "weak", build: orderTotals },
];

/**
 * `perClass` rounds of every family at every length, round by round, then family by family; task
 * k of a class from `rng.child(intent, length)` for k = 0 and `rng.child(intent, length, k)` after,
 * so the first round is the same for any `perClass` and more rounds only add tasks. A class's tasks
 * start from different customers while the world has enough. A length the world cannot hold (a
 * small world's referral chains are shorter than 100) is left out.
 */
export function buildLongTasks(rng: Rng, data: OrdersData, perClass = 1): Task[] {
  const used = new Map<string, Set<string>>();
  const out: Task[] = [];
  for (let k = 0; k < perClass; k++) {
    for (const f of LONG_FAMILIES) {
      for (const n of LONG_LENGTHS) {
        const key = `${f.intent}/${n}`;
        if (!used.has(key)) used.set(key, new Set());
        const child = k === 0 ? rng.child(f.intent, n) : rng.child(f.intent, n, k);
        const task = f.build(child, data, n, used.get(key));
        if (task !== undefined) out.push(task);
      }
    }
  }
  return out;
}
