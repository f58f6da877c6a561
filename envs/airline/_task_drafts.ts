// One draft per intent: picks a world situation that makes the intent valid and computes the
// gold calls by replaying the policy rules (`_rules.ts`) on the world's data.
import type { Expect } from "../task.ts";
import type { Json } from "../json.ts";
import type { ToolCall } from "../tool.ts";
import type { Rng } from "../rng.ts";
import type { AirlineData, Reservation, User } from "./data.ts";
import {
  addBags,
  bookedWithin24h,
  bookingTotal,
  type Cabin,
  CABINS,
  canPayBooking,
  canPayChange,
  cheapestDirect,
  fareDifference,
  FLIGHT_DATES,
  type FlightOffer,
  hasStarted,
  nonfreeBags,
  refundAmount,
  TODAY,
} from "./_rules.ts";
import { FIRST_NAMES, LAST_NAMES, randomDob } from "./_vocab.ts";

/** A task before its id, openings and volunteered facts are chosen. */
export interface Draft {
  goal: string;
  facts: Record<string, Json>;
  gold: ToolCall[];
  /** What to tell: the outcome's figures (`act`) or the words naming the policy reason (`refuse`). */
  outputs: string[];
  expect: Expect;
  rationale: string;
  /** Facts the user always states in the opening. */
  always?: string[];
}

/** The world a task generator draws from, with lists computed once. */
export class Pool {
  readonly data: AirlineData;
  readonly reservations: Reservation[];
  readonly userIds: string[];
  #cache = new Map<string, Reservation[]>();

  constructor(data: AirlineData) {
    this.data = data;
    this.reservations = Object.values(data.reservations);
    this.userIds = Object.keys(data.users);
  }

  /** Reservations that pass `test`, computed once per name. */
  where(name: string, test: (r: Reservation) => boolean): Reservation[] {
    let list = this.#cache.get(name);
    if (!list) this.#cache.set(name, list = this.reservations.filter(test));
    return list;
  }

  user(r: Reservation): User {
    return this.data.users[r.user_id];
  }

  /** What `search_direct_flight` returns: available flights of a route on a date, in table order. */
  offers(origin: string, destination: string, date: string): FlightOffer[] {
    const out: FlightOffer[] = [];
    for (const f of Object.values(this.data.flights)) {
      const d = f.dates[date];
      if (f.origin !== origin || f.destination !== destination || d?.status !== "available") continue;
      const { dates: _, ...rest } = f;
      out.push({ ...rest, ...d } as FlightOffer);
    }
    return out;
  }
}

/** Not cancelled. */
export const active = (r: Reservation): boolean => !r.status;
/** Not cancelled and not started: the reservations an agent may change. */
export const open = (r: Reservation): boolean => active(r) && !hasStarted(r);
/** One direct segment each way, the shapes a flight change handles. */
export const simple = (r: Reservation): boolean =>
  (r.flight_type === "one_way" && r.flights.length === 1) || (r.flight_type === "round_trip" && r.flights.length === 2);

export function pickFrom<T>(rng: Rng, items: readonly T[], what: string): T {
  if (items.length === 0) throw new Error(`Cannot make an airline task: the world has no ${what}`);
  return rng.pick(items);
}

export function lookups(r: Reservation): ToolCall[] {
  return [
    { name: "get_user_details", args: { user_id: r.user_id } },
    { name: "get_reservation_details", args: { reservation_id: r.reservation_id } },
  ];
}

function legsArg(flights: { flight_number: string; date: string }[]): Json {
  return flights.map((f) => ({ flight_number: f.flight_number, date: f.date }));
}

export function search(origin: string, destination: string, date: string): ToolCall {
  return { name: "search_direct_flight", args: { origin, destination, date } };
}

/** A payment method of the user that `ok` accepts, or `undefined`. */
export function payer(rng: Rng, user: User, ok: (m: User["payment_methods"][string]) => boolean): string | undefined {
  const ids = Object.values(user.payment_methods).filter(ok).map((m) => m.id);
  return ids.length > 0 ? rng.pick(ids) : undefined;
}

/** A `cancelAllowed` draft. */
export function cancelAllowed(rng: Rng, pool: Pool): Draft {
  const r = pickFrom(
    rng,
    pool.where(
      "cancel_allowed",
      (r) => open(r) && (bookedWithin24h(r) || r.cabin === "business" || r.insurance === "yes"),
    ),
    "cancellable reservation",
  );
  const byInsurance = !bookedWithin24h(r) && r.cabin !== "business";
  const reason = rng.pick(byInsurance ? ["health", "weather"] : ["change_of_plan", "health", "weather", "other"]);
  const refund = refundAmount(r);
  return {
    goal: "cancel_reservation",
    facts: { user_id: r.user_id, reservation_id: r.reservation_id, reason },
    gold: [...lookups(r), { name: "cancel_reservation", args: { reservation_id: r.reservation_id } }],
    outputs: [String(refund)],
    expect: "act",
    rationale: `Cancellable: ${
      bookedWithin24h(r)
        ? "booked within 24 hours"
        : r.cabin === "business"
        ? "business cabin"
        : `insured, reason ${reason}`
    }; refund ${refund}`,
  };
}

/** A `cancelForbidden` draft. */
export function cancelForbidden(rng: Rng, pool: Pool): Draft {
  const r = pickFrom(
    rng,
    pool.where("cancel_forbidden", (r) => open(r) && !bookedWithin24h(r) && r.cabin !== "business"),
    "non-cancellable reservation",
  );
  const reason = rng.pick(r.insurance === "yes" ? ["change_of_plan", "other"] : ["change_of_plan", "health", "other"]);
  return {
    goal: "cancel_reservation",
    facts: { user_id: r.user_id, reservation_id: r.reservation_id, reason },
    gold: lookups(r),
    // Whatever the reason given, a correct refusal says the reservation has no insurance covering it.
    outputs: ["insurance"],
    expect: "refuse",
    rationale: `Not cancellable: ${r.cabin}, booked ${r.created_at}, insurance ${r.insurance}, reason ${reason}`,
  };
}

/** A `changeFlights` draft. */
export function changeFlights(rng: Rng, pool: Pool): Draft {
  const list = pool.where("change_flights", (r) => open(r) && simple(r) && r.cabin !== "basic_economy");
  for (let attempt = 0; attempt < 40; attempt++) {
    const r = pickFrom(rng, list, "reservation whose flights can change");
    const index = r.flights.length === 1 ? 0 : rng.int(0, 1);
    const leg = r.flights[index];
    const dates = FLIGHT_DATES.filter((d) =>
      d > TODAY && d !== leg.date &&
      (r.flights.length === 1 || (index === 0 ? d < r.flights[1].date : d > r.flights[0].date))
    );
    if (dates.length === 0) continue;
    const date = rng.pick(dates);
    const offer = cheapestDirect(pool.offers(leg.origin, leg.destination, date), r.cabin, r.passengers.length);
    if (!offer) continue;
    const flights = r.flights.map((f, i) => i === index ? { flight_number: offer.flight_number, date } : f);
    const diff = fareDifference(r, r.flights.map((f, i) => i === index ? offer.prices[r.cabin] : f.price));
    const paymentId = payer(rng, pool.user(r), (m) => canPayChange(m, diff));
    if (!paymentId) continue;
    return {
      goal: "change_flights",
      facts: {
        user_id: r.user_id,
        reservation_id: r.reservation_id,
        direction: index === 0 ? "outbound" : "return",
        new_date: date,
        preference: "cheapest_direct",
        payment_id: paymentId,
      },
      always: ["preference"],
      gold: [...lookups(r), search(leg.origin, leg.destination, date), {
        name: "update_reservation_flights",
        args: { reservation_id: r.reservation_id, cabin: r.cabin, flights: legsArg(flights), payment_id: paymentId },
      }],
      outputs: diff === 0 ? [] : [String(Math.abs(diff))],
      expect: "act",
      rationale: `Move the ${index === 0 ? "outbound" : "return"} segment to ${offer.flight_number} on ${date}; ` +
        `fare difference ${diff}`,
    };
  }
  throw new Error("Cannot make an airline task: no reservation with a possible flight change found in 40 draws");
}

/** A `changeCabin` draft. */
export function changeCabin(rng: Rng, pool: Pool): Draft {
  const list = pool.where("change_cabin", open);
  for (let attempt = 0; attempt < 40; attempt++) {
    const r = pickFrom(rng, list, "reservation whose cabin can change");
    const cabin: Cabin = rng.pick(CABINS.filter((c) => c !== r.cabin));
    const searches: ToolCall[] = [];
    const prices: number[] = [];
    for (const leg of r.flights) {
      const call = search(leg.origin, leg.destination, leg.date);
      if (!searches.some((s) => JSON.stringify(s) === JSON.stringify(call))) searches.push(call);
      const offer = pool.offers(leg.origin, leg.destination, leg.date).find((o) =>
        o.flight_number === leg.flight_number
      );
      if (offer && offer.available_seats[cabin] >= r.passengers.length) prices.push(offer.prices[cabin]);
    }
    if (prices.length !== r.flights.length) continue;
    const diff = fareDifference(r, prices);
    const paymentId = payer(rng, pool.user(r), (m) => canPayChange(m, diff));
    if (!paymentId) continue;
    return {
      goal: "change_cabin",
      facts: { user_id: r.user_id, reservation_id: r.reservation_id, new_cabin: cabin, payment_id: paymentId },
      gold: [...lookups(r), ...searches, {
        name: "update_reservation_flights",
        args: { reservation_id: r.reservation_id, cabin, flights: legsArg(r.flights), payment_id: paymentId },
      }],
      outputs: diff === 0 ? [] : [String(Math.abs(diff))],
      expect: "act",
      rationale: `Cabin ${r.cabin} → ${cabin} at today's prices; difference ${diff}`,
    };
  }
  throw new Error("Cannot make an airline task: no reservation with a possible cabin change found in 40 draws");
}

/** A `addBagsDraft` draft. */
export function addBagsDraft(rng: Rng, pool: Pool): Draft {
  const list = pool.where("add_bags", open);
  for (let attempt = 0; attempt < 40; attempt++) {
    const r = pickFrom(rng, list, "reservation that can take bags");
    const user = pool.user(r);
    const extra = rng.int(1, 3);
    const bags = addBags(r, user.membership, extra);
    const paymentId = payer(rng, user, (m) => canPayChange(m, bags.cost));
    if (!paymentId) continue;
    return {
      goal: "add_bags",
      facts: { user_id: r.user_id, reservation_id: r.reservation_id, extra_bags: extra, payment_id: paymentId },
      gold: [...lookups(r), {
        name: "update_reservation_baggages",
        args: {
          reservation_id: r.reservation_id,
          total_baggages: bags.total_baggages,
          nonfree_baggages: bags.nonfree_baggages,
          payment_id: paymentId,
        },
      }],
      outputs: bags.cost === 0 ? [] : [String(bags.cost)],
      expect: "act",
      rationale:
        `${extra} more bag(s), ${user.membership} in ${r.cabin}: ${bags.nonfree_baggages} non-free, cost ${bags.cost}`,
    };
  }
  throw new Error("Cannot make an airline task: no reservation whose owner can pay for bags found in 40 draws");
}

/** A `updatePassengers` draft. */
export function updatePassengers(rng: Rng, pool: Pool): Draft {
  const fullName = (p: { first_name: string; last_name: string }) => `${p.first_name} ${p.last_name}`;
  const r = pickFrom(
    rng,
    pool.where("update_passengers", (r) => open(r) && new Set(r.passengers.map(fullName)).size === r.passengers.length),
    "reservation with passengers to correct",
  );
  const index = rng.int(0, r.passengers.length - 1);
  const old = r.passengers[index];
  const field = rng.pick(["first_name", "last_name", "dob"] as const);
  let value = old[field];
  while (value === old[field]) {
    value = field === "dob" ? randomDob(rng) : rng.pick(field === "first_name" ? FIRST_NAMES : LAST_NAMES);
  }
  const passengers = r.passengers.map((p) => ({ first_name: p.first_name, last_name: p.last_name, dob: p.dob }));
  passengers[index][field] = value;
  return {
    goal: "update_passenger",
    facts: {
      user_id: r.user_id,
      reservation_id: r.reservation_id,
      passenger_name: fullName(old),
      [`new_${field}`]: value,
    },
    gold: [...lookups(r), {
      name: "update_reservation_passengers",
      args: { reservation_id: r.reservation_id, passengers },
    }],
    outputs: [],
    expect: "act",
    rationale: `Correct ${field} of ${fullName(old)}: ${old[field]} → ${value}`,
  };
}

/** A `book` draft. */
export function book(rng: Rng, pool: Pool): Draft {
  const flights = Object.values(pool.data.flights);
  const later = FLIGHT_DATES.filter((d) => d > TODAY);
  for (let attempt = 0; attempt < 60; attempt++) {
    const userId = pickFrom(rng, pool.userIds, "user");
    const user = pool.data.users[userId];
    const f = pickFrom(rng, flights, "flight");
    const date = rng.pick(later), cabin: Cabin = rng.pick(CABINS);
    const count = Math.min(1 + user.saved_passengers.length, 1 + rng.weighted([5, 3, 2]));
    const passengers = [
      { first_name: user.name.first_name, last_name: user.name.last_name, dob: user.dob },
      ...user.saved_passengers.slice(0, count - 1).map((p) => ({
        first_name: p.first_name,
        last_name: p.last_name,
        dob: p.dob,
      })),
    ];
    const offer = cheapestDirect(pool.offers(f.origin, f.destination, date), cabin, count);
    if (!offer) continue;
    const insurance = rng.chance(0.4) ? "yes" : "no";
    const totalBags = rng.int(0, 3);
    const nonfree = nonfreeBags(totalBags, user.membership, cabin, count);
    const total = bookingTotal(offer.prices[cabin], count, insurance, nonfree);
    const paymentId = payer(rng, user, (m) => canPayBooking(m, total));
    if (!paymentId) continue;
    return {
      goal: "book_flight",
      facts: {
        user_id: userId,
        flight_type: "one_way",
        origin: f.origin,
        destination: f.destination,
        date,
        cabin,
        passengers,
        preference: "cheapest_direct",
        insurance,
        total_baggages: totalBags,
        payment_id: paymentId,
      },
      always: ["preference"],
      gold: [{ name: "get_user_details", args: { user_id: userId } }, search(f.origin, f.destination, date), {
        name: "book_reservation",
        args: {
          user_id: userId,
          origin: f.origin,
          destination: f.destination,
          flight_type: "one_way",
          cabin,
          flights: [{ flight_number: offer.flight_number, date }],
          passengers,
          payment_methods: [{ payment_id: paymentId, amount: total }],
          total_baggages: totalBags,
          nonfree_baggages: nonfree,
          insurance,
        },
      }],
      outputs: [String(total)],
      expect: "act",
      rationale: `${offer.flight_number} at ${offer.prices[cabin]} × ${count}, insurance ${insurance}, ` +
        `${nonfree} non-free bag(s): total ${total}`,
    };
  }
  throw new Error("Cannot make an airline task: no bookable trip found in 60 draws");
}
