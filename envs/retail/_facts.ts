// What the retail tools declare for the judge (see `Tool.customer`, `Tool.details`): whose data a
// call concerns and which details an agent must state before a write. A customer is named by their
// email, the one value that names a user in every call: by email itself, by name and zip code, by
// user id, or as an order's owner.
import type { Store } from "../sqlite.ts";
import type { Json } from "../json.ts";
import type { Detail } from "../terms.ts";

type Args = Record<string, Json>;
const argsOf = (args: Json): Args => args !== null && typeof args === "object" && !Array.isArray(args) ? args : {};
const text = (v: Json | undefined): string | null => typeof v === "string" && v !== "" ? v : null;
const texts = (v: Json | undefined): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === "string" && x !== "") : [];

/** The email that names a user as a customer, or `null` when there is no such user. */
export function emailOf(db: Store, userId: Json | undefined): string | null {
  const id = text(userId);
  if (id === null) return null;
  return db.get<{ email: string }>("SELECT email FROM users WHERE user_id = ?", id)?.email ?? null;
}

/** `customer` of a call naming a user by `user_id`: their email. */
export function userOfArgs(args: Json, db: Store): string | null {
  return emailOf(db, argsOf(args).user_id);
}

/** `customer` of a call naming a user by `email`: the first user with that email, ignoring case. */
export function userOfEmail(args: Json, db: Store): string | null {
  const email = text(argsOf(args).email);
  if (email === null) return null;
  return db.get<{ email: string }>(
    "SELECT email FROM users WHERE lower(email) = lower(?) ORDER BY position LIMIT 1",
    email,
  )?.email ?? null;
}

/**
 * `customer` of a call naming a user by first name, last name and zip code: the first such user
 * (names ignoring case), as `find_user_id_by_name_zip` finds them.
 */
export function userOfNameZip(args: Json, db: Store): string | null {
  const a = argsOf(args);
  const [first, last, zip] = [text(a.first_name), text(a.last_name), text(a.zip)];
  if (first === null || last === null || zip === null) return null;
  return db.get<{ email: string }>(
    `SELECT email FROM users WHERE lower(first_name) = lower(?) AND lower(last_name) = lower(?) AND zip = ?
ORDER BY position LIMIT 1`,
    first,
    last,
    zip,
  )?.email ?? null;
}

/** `customer` of a call naming an order by `order_id`: its owner's email. */
export function ownerOfArgs(args: Json, db: Store): string | null {
  const id = text(argsOf(args).order_id);
  if (id === null) return null;
  const owner = db.get<{ user_id: string }>("SELECT user_id FROM orders WHERE order_id = ?", id)?.user_id;
  return emailOf(db, owner);
}

/** Details of a write on items: the order, each item named, and the payment method. */
export function itemDetails(args: Json): Detail[] {
  const a = argsOf(args);
  return [
    text(a.order_id),
    ...texts(a.item_ids),
    ...texts(a.new_item_ids),
    text(a.payment_method_id),
  ].filter((d): d is string => d !== null);
}
