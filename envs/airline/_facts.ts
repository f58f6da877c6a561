// What the airline tools declare for the judge (see `Tool.customer`, `Tool.details`): whose data a
// call concerns and which details an agent must state before a write. Read-only look-ups in the
// world as it was before the episode.
import type { Store } from "../sqlite.ts";
import type { Json } from "../json.ts";
import type { Detail, WriteTerms } from "../terms.ts";
import { BAG_FEE } from "./_rules.ts";

const OWNER = "SELECT user_id FROM reservations WHERE reservation_id = ?";
const CABIN = "SELECT cabin FROM reservations WHERE reservation_id = ?";
const LEGS = "SELECT flight_number, date FROM reservation_flights WHERE reservation_id = ? ORDER BY position";
const PAID = "SELECT sum(amount) AS total FROM payments WHERE reservation_id = ?";
const BAGS = "SELECT total_baggages, nonfree_baggages FROM reservations WHERE reservation_id = ?";
const PASSENGERS = "SELECT first_name, last_name, dob FROM reservation_passengers WHERE reservation_id = ? " +
  "ORDER BY position";

type Args = Record<string, Json>;
const argsOf = (args: Json): Args => args !== null && typeof args === "object" && !Array.isArray(args) ? args : {};
const text = (v: Json | undefined): string | null => typeof v === "string" && v !== "" ? v : null;
// Details that are present: a missing argument is no detail to state.
const present = (details: (string | number | null | undefined)[]) =>
  details.filter((d): d is string | number => typeof d === "number" || (typeof d === "string" && d !== ""));
// One detail said by any of its values; none when no value is present.
const either = (...values: (string | number | null | undefined)[]): Detail[] => {
  const kept = present(values);
  return kept.length === 0 ? [] : [kept];
};

// Owners never change in the world as it was before an episode (which is all the judge reads): once
// read, kept per world (a bounded number).
const owners = new WeakMap<Store, Map<string, string | null>>();
const KEPT = 8192;

/** The user who owns a reservation in the world before an episode, or `null` when there is no such reservation. */
export function reservationOwner(db: Store, reservationId: Json | undefined): string | null {
  if (typeof reservationId !== "string") return null;
  let known = owners.get(db);
  if (known === undefined) owners.set(db, known = new Map());
  let owner = known.get(reservationId);
  if (owner === undefined) {
    if (known.size >= KEPT) known.clear();
    owner = db.get<{ user_id: string }>(OWNER, reservationId)?.user_id ?? null;
    known.set(reservationId, owner);
  }
  return owner;
}

/** `customer` of a call naming a user by `user_id`. */
export function userOfArgs(args: Json): string | null {
  return text(argsOf(args).user_id);
}

/** `customer` of a call naming a reservation by `reservation_id`: its owner. */
export function ownerOfArgs(args: Json, db: Store): string | null {
  return reservationOwner(db, argsOf(args).reservation_id);
}

/**
 * Details of a cancellation: the reservation, named by its id or by the refund (everything paid,
 * which the policy says to tell).
 */
export function cancelDetails(args: Json, db: Store): Detail[] {
  const id = text(argsOf(args).reservation_id);
  const paid = id === null ? null : db.get<{ total: number | null }>(PAID, id)?.total ?? null;
  return either(id, paid !== null && paid !== 0 ? paid : null);
}

/** Details of a bag change: the new total (or how many are added) and what the added ones cost. */
export function bagDetails(args: Json, db: Store): Detail[] {
  const a = argsOf(args), id = text(a.reservation_id);
  const now = id === null ? undefined : db.get<{ total_baggages: number; nonfree_baggages: number }>(BAGS, id);
  const total = typeof a.total_baggages === "number" ? a.total_baggages : null;
  const cost = typeof a.nonfree_baggages === "number" && now !== undefined
    ? BAG_FEE * Math.max(0, a.nonfree_baggages - now.nonfree_baggages)
    : 0;
  const added = total !== null && now !== undefined ? total - now.total_baggages : null;
  return [...either(total, added !== null && added > 0 ? added : null), ...present([cost > 0 ? cost : null])];
}

/**
 * Details of a flight change: the new cabin when it changes and the flights it adds, a flight on
 * another date among them (else the reservation).
 */
export function flightDetails(args: Json, db: Store): Detail[] {
  const a = argsOf(args), id = text(a.reservation_id) ?? "";
  const cabin = db.get<{ cabin: string }>(CABIN, id)?.cabin;
  const newCabin = typeof a.cabin === "string" && cabin !== undefined && a.cabin !== cabin ? a.cabin : null;
  // A leg is kept when its flight and its date both are: the same flight on another day is a new one.
  const kept = new Set(
    db.all<{ flight_number: string; date: string }>(LEGS, id).map((l) => `${l.flight_number} ${l.date}`),
  );
  const legs = Array.isArray(a.flights) ? a.flights : [];
  const added = legs.map(argsOf).filter((l) => !kept.has(`${l.flight_number} ${l.date}`))
    .map((l) => text(l.flight_number)).filter((n): n is string => n !== null);
  const changes = present([newCabin, ...new Set(added)]);
  return changes.length > 0 ? changes : present([id]);
}

/** Details of a passenger change: every changed name or date of birth (else the reservation). */
export function passengerDetails(args: Json, db: Store): Detail[] {
  const a = argsOf(args), id = text(a.reservation_id) ?? "";
  const now = db.all<Record<string, string>>(PASSENGERS, id);
  const given = Array.isArray(a.passengers) ? a.passengers.map(argsOf) : [];
  const changed = new Set<string>();
  given.forEach((p, i) => {
    for (const field of ["first_name", "last_name", "dob"]) {
      const v = text(p[field]);
      if (v !== null && now[i]?.[field] !== v) changed.add(v);
    }
  });
  return changed.size > 0 ? [...changed] : present([id]);
}

/** Details of a booking: the flights, and what each payment method is charged (the total, for one). */
export function bookingDetails(args: Json): Detail[] {
  const a = argsOf(args);
  const flights = (Array.isArray(a.flights) ? a.flights : []).map((l) => text(argsOf(l).flight_number));
  const amounts = (Array.isArray(a.payment_methods) ? a.payment_methods : [])
    .map((m) => argsOf(m).amount).filter((x): x is number => typeof x === "number");
  return present([...new Set(flights), ...amounts]);
}

/** Details of a certificate: its amount. */
export function certificateDetails(args: Json): Detail[] {
  const amount = argsOf(args).amount;
  return present([typeof amount === "number" ? amount : null]);
}

// ---- What a yes to a write agreed to (`Tool.terms`) ----

const RESERVATION = "SELECT user_id, origin, destination, cabin, nonfree_baggages FROM reservations " +
  "WHERE reservation_id = ?";
const OWNED = "SELECT r.reservation_id, r.origin, r.destination, " +
  "(SELECT date FROM reservation_flights f WHERE f.reservation_id = r.reservation_id ORDER BY position LIMIT 1) " +
  "AS first_date FROM reservations r WHERE r.user_id = ?";
const METHODS = "SELECT payment_id, source, brand, last_four FROM payment_methods WHERE user_id = ? ORDER BY position";
const FARES = "SELECT price_basic_economy, price_economy, price_business FROM flight_dates " +
  "WHERE flight_number = ? AND date = ?";
const LEG_PRICES =
  "SELECT flight_number, date, price FROM reservation_flights WHERE reservation_id = ? ORDER BY position";
const COUNT = "SELECT count(*) AS n FROM reservation_passengers WHERE reservation_id = ?";
/** The cabins as a conversation names them. */
const CABIN_WORDS: Record<string, string> = {
  basic_economy: "basic economy",
  economy: "economy",
  business: "business",
};
// The ways of naming a reservation without its id that fit no other reservation of its owner: its
// route and first date, and its route alone.
function describes(db: Store, id: string): (readonly string[])[] {
  const row = db.get<{ user_id: string }>(RESERVATION, id);
  if (row === undefined) return [];
  const owned = db.all<{ reservation_id: string; origin: string; destination: string; first_date: string | null }>(
    OWNED,
    row.user_id,
  );
  const self = owned.find((r) => r.reservation_id === id);
  if (self === undefined) return [];
  const others = owned.filter((r) => r.reservation_id !== id);
  const route = (r: typeof self) => r.origin === self.origin && r.destination === self.destination;
  // (A date is said in any of its forms: `mentions()` reads "May 24" for 2024-05-24.)
  const out: (readonly string[])[] = [];
  if (self.first_date !== null && !others.some((r) => route(r) && r.first_date === self.first_date)) {
    out.push([self.origin, self.destination, self.first_date]);
  }
  if (!others.some(route)) out.push([self.origin, self.destination]);
  return out;
}

const PAYMENT_WORDS = [
  "credit card",
  "gift card",
  "certificate",
  "card on file",
  "payment method",
  "original payment",
  "same payment",
  "visa",
  "mastercard",
];

// The payment methods of a user with the words that name each alone: its id, a card's last four
// digits, and its kind ("gift card", "certificate", "credit card", the card's brand) when no other
// method of the user is of that kind.
function methodNames(db: Store, userId: string): Map<string, string[]> {
  const methods = db.all<{ payment_id: string; source: string; brand: string | null; last_four: string | null }>(
    METHODS,
    userId,
  );
  const kinds = (
    m: (typeof methods)[number],
  ) => [m.source.replace(/_/g, " "), ...(m.brand ? [m.brand.toLowerCase()] : [])];
  const counts = new Map<string, number>();
  for (const m of methods) for (const k of kinds(m)) counts.set(k, (counts.get(k) ?? 0) + 1);
  return new Map(methods.map((m) => [
    m.payment_id,
    [m.payment_id, ...(m.last_four ? [m.last_four] : []), ...kinds(m).filter((k) => counts.get(k) === 1)],
  ]));
}

// The methods a write uses, and the owner's others.
function paymentTerms(
  db: Store,
  userId: string | undefined,
  used: readonly string[],
  charged: readonly (number | undefined)[] = [],
): WriteTerms {
  if (userId === undefined) return {};
  const names = methodNames(db, userId);
  const of = (id: string) => ({ id, names: names.get(id) ?? [id] });
  return {
    // A method the customer does not have pays nothing: it is no term of the write.
    payments: used.map((id, i) => ({ ...of(id), ...(charged[i] !== undefined ? { amount: charged[i] } : {}) }))
      .filter((p) => names.has(p.id)),
    paymentWords: PAYMENT_WORDS,
    otherPayments: [...names.keys()].filter((id) => !used.includes(id)).map(of),
  };
}

function recordTerms(db: Store, id: string | null): WriteTerms {
  return id === null ? {} : { record: { id, arg: "reservation_id" }, describes: describes(db, id) };
}

/** Terms of a cancellation: the reservation and the refund of everything paid. */
export function cancelTerms(args: Json, db: Store): WriteTerms {
  const id = text(argsOf(args).reservation_id);
  const paid = id === null ? null : db.get<{ total: number | null }>(PAID, id)?.total ?? null;
  return { ...recordTerms(db, id), ...(paid ? { amount: -paid, amounts: [paid] } : {}) };
}

/** Terms of a bag change: the reservation, the fee for added non-free bags and the card paying it. */
export function bagTerms(args: Json, db: Store): WriteTerms {
  const a = argsOf(args), id = text(a.reservation_id);
  const row = id === null ? undefined : db.get<{ user_id: string; nonfree_baggages: number }>(RESERVATION, id);
  const cost = typeof a.nonfree_baggages === "number" && row !== undefined
    ? BAG_FEE * Math.max(0, a.nonfree_baggages - row.nonfree_baggages)
    : 0;
  const payment = text(a.payment_id);
  return {
    ...recordTerms(db, id),
    ...(cost > 0 ? { amount: cost, amounts: [cost] } : {}),
    ...(payment !== null && cost > 0 ? paymentTerms(db, row?.user_id, [payment], [cost]) : {}),
  };
}

/**
 * Terms of a flight change: the reservation, each new leg with its cabin (changed unless it is kept
 * in the same cabin), the legs dropped, the fare difference as the world before the episode prices it
 * and the card paying it.
 */
export function flightTerms(args: Json, db: Store): WriteTerms {
  const a = argsOf(args), id = text(a.reservation_id);
  const row = id === null ? undefined : db.get<{ user_id: string; cabin: string }>(RESERVATION, id);
  const newCabin = typeof a.cabin === "string" ? a.cabin : undefined;
  if (row === undefined || newCabin === undefined || CABIN_WORDS[newCabin] === undefined) return recordTerms(db, id);
  const current = db.all<{ flight_number: string; date: string; price: number }>(LEG_PRICES, id!);
  const count = db.get<{ n: number }>(COUNT, id!)?.n ?? 0;
  const legs = (Array.isArray(a.flights) ? a.flights : []).map(argsOf);
  let total: number | null = 0;
  const parts = legs.map((l) => {
    const kept = current.find((c) => c.flight_number === l.flight_number && c.date === l.date);
    const same = kept !== undefined && newCabin === row.cabin;
    if (same) total = total === null ? null : total + kept.price * count;
    else {
      const fares = db.get<Record<string, number | null>>(FARES, text(l.flight_number) ?? "", text(l.date) ?? "");
      const fare = fares?.[`price_${newCabin}`];
      total = total === null || typeof fare !== "number" ? null : total + fare * count;
    }
    return {
      name: text(l.flight_number) ?? "",
      value: CABIN_WORDS[newCabin],
      changed: !same,
      others: Object.values(CABIN_WORDS).filter((w) => w !== CABIN_WORDS[newCabin]),
    };
  }).filter((p) => p.name !== "");
  const given = new Set(legs.map((l) => `${l.flight_number} ${l.date}`));
  const removes = current.filter((c) => !given.has(`${c.flight_number} ${c.date}`)).map((c) => c.flight_number);
  const difference = total === null ? null : total - current.reduce((s, c) => s + c.price, 0) * count;
  const payment = text(a.payment_id);
  return {
    ...recordTerms(db, id),
    parts,
    removes: [...new Set(removes)].filter((f) => !parts.some((p) => p.name === f)),
    ...(difference !== null && difference !== 0 ? { amount: difference } : {}),
    ...(payment !== null
      ? paymentTerms(db, row.user_id, [payment], [difference !== null && difference > 0 ? difference : undefined])
      : {}),
  };
}

/** Terms of a passenger change: the reservation. */
export function passengerTerms(args: Json, db: Store): WriteTerms {
  return recordTerms(db, text(argsOf(args).reservation_id));
}

/** Terms of a booking: what it charges in all and to which methods. */
export function bookingTerms(args: Json, db: Store): WriteTerms {
  const a = argsOf(args);
  const methods = (Array.isArray(a.payment_methods) ? a.payment_methods : []).map(argsOf);
  const amounts = methods.map((m) => m.amount).filter((x): x is number => typeof x === "number");
  const paid = methods.filter((m) => text(m.payment_id) !== null);
  const used = paid.map((m) => text(m.payment_id)!);
  const charged = paid.map((m) => typeof m.amount === "number" ? m.amount : undefined);
  const total = amounts.reduce((s, x) => s + x, 0);
  return {
    ...(total !== 0 ? { amount: total } : {}),
    amounts,
    ...paymentTerms(db, text(a.user_id) ?? undefined, used, charged),
  };
}

/** Terms of a certificate: its amount. */
export function certificateTerms(args: Json): WriteTerms {
  const amount = argsOf(args).amount;
  // Money given to the customer, counted positive as the domain's money declaration counts it.
  return typeof amount === "number" ? { amount, amounts: [amount], gives: true } : {};
}
