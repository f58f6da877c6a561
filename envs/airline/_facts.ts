// What the airline tools declare for the judge (see `Tool.customer`, `Tool.details`): whose data a
// call concerns and which details an agent must state before a write. Read-only look-ups in the
// world as it was before the episode.
import type { Store } from "../sqlite.ts";
import type { Json } from "../types.ts";
import type { Detail } from "../constraints.ts";
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
