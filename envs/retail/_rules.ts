// The retail policy's rules as functions, shared by the task generator (to compute the gold) and
// the playbook (to decide), so the two cannot drift apart.
import type { Json } from "../json.ts";

/** The two reasons an order may be cancelled for. */
export const CANCEL_REASONS: readonly string[] = ["no longer needed", "ordered by mistake"];

/** Why a request is refused, by rule: the words a refusal names (a task's `outputs`). */
export const REASONS = {
  identify: "I must first identify you by your email or by your name and zip code",
  pending: "only pending orders can be cancelled or changed",
  delivered: "only delivered orders can be returned or exchanged",
  sameProduct: "an item can only become another available variant of the same product",
  reason: 'an order can only be cancelled as "no longer needed" or "ordered by mistake"',
  giftCard: "a gift card must cover the whole amount it pays",
  method: "only the original payment method or a gift card of yours can receive a refund",
  own: "I can only help with your own orders",
} as const;

/** The words of each reason a task's `outputs` hold: what the refusal must say. */
export const REASON_OUTPUTS: Record<keyof typeof REASONS, string[]> = {
  identify: ["email", "zip code"],
  pending: ["only pending orders"],
  delivered: ["only delivered orders"],
  sameProduct: ["same product"],
  reason: ["no longer needed", "ordered by mistake"],
  giftCard: ["gift card must cover"],
  method: ["original payment method"],
  own: ["your own orders"],
};

/** The out-of-scope goals (no tool does them), in words for the hand-over summary. */
export const OUT_OF_SCOPE: Readonly<Record<string, string>> = {
  change_email: "change the email address of their account",
  delete_account: "close their account",
  price_match: "get a price match on a product",
};

/** Money in dollars as the playbook says it and a task's outputs hold it, e.g. "12.50". */
export function dollars(amount: number): string {
  return (Math.round(Math.abs(amount) * 100) / 100).toFixed(2);
}

/** The hand-over summary of an out-of-scope goal. */
export function transferSummary(goal: string, userId: string | null): string {
  const what = OUT_OF_SCOPE[goal] ?? goal.replaceAll("_", " ");
  return `${userId === null ? "The user" : `User ${userId}`} wants to ${what}, which no tool can do`;
}

/** An order item as the tools return it. */
export interface ItemView {
  item_id: string;
  product_id: string;
  price: number;
  /** The product's name, as the order look-up shows it. */
  name?: string;
}

/** The sum of the prices of the listed items of an order (each id once per occurrence). */
export function itemsTotal(items: readonly ItemView[], ids: readonly string[]): number {
  const left = [...items];
  let sum = 0;
  for (const id of ids) {
    const i = left.findIndex((it) => it.item_id === id);
    if (i < 0) continue;
    sum += left[i].price;
    left.splice(i, 1);
  }
  return sum;
}

/** Whether an order holds every listed id as often as it is listed. */
export function holdsItems(items: readonly ItemView[], ids: readonly string[]): boolean {
  const count = (list: readonly string[], id: string) => list.filter((x) => x === id).length;
  const held = items.map((i) => i.item_id);
  return ids.length > 0 && ids.every((id) => count(ids, id) <= count(held, id));
}

/** A product's variants as the tools return them. */
export type Variants = Record<string, { item_id: string; available: boolean; price: number }>;

/**
 * The price difference of swapping items pairwise (new minus old), or `null` when a new item is
 * not an available variant of the old item's product (`variants` by product id).
 */
export function swapDifference(
  items: readonly ItemView[],
  ids: readonly string[],
  news: readonly string[],
  variants: (productId: string) => Variants | undefined,
): number | null {
  if (ids.length !== news.length || !holdsItems(items, ids)) return null;
  let diff = 0;
  for (let i = 0; i < ids.length; i++) {
    const item = items.find((it) => it.item_id === ids[i])!;
    const v = variants(item.product_id)?.[news[i]];
    if (v === undefined || !v.available || news[i] === ids[i]) return null;
    diff += v.price - item.price;
  }
  return diff;
}

/** Strings of a JSON value that is a list of strings, else `null`. */
export function stringList(v: Json | undefined): string[] | null {
  return Array.isArray(v) && v.every((x) => typeof x === "string") ? v as string[] : null;
}
