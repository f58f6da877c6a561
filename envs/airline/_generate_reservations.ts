// Reservations of the generated airline world: trips over the generated flights, priced at
// the flights' fares, paid by one of the owner's methods, and listed by their owner.
import type { Rng } from "../rng.ts";
import type { Flight, Passenger, Reservation, ReservationFlight, SeatsOrPrices, User } from "./data.ts";
import { randomPerson } from "./_vocab.ts";
import {
  addDays,
  BAG_FEE,
  type Cabin,
  CABINS,
  FLIGHT_DATES,
  freeBags,
  fromMs,
  INSURANCE_FEE,
  NOW,
  toMs,
} from "./_rules.ts";

const LAST_DATE = FLIGHT_DATES[FLIGHT_DATES.length - 1];
const ID_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
// Earlier dates are less likely, so most reservations still lie ahead, as in τ-bench.
const DATE_WEIGHTS = FLIGHT_DATES.map((d, i) => d <= "2024-05-15" ? 0.6 + i * 0.08 : i >= 28 ? 0 : 2.2);

interface World {
  flights: Record<string, Flight>;
  fares: Map<string, SeatsOrPrices[]>;
  users: Record<string, User>;
}

type Leg = { flight: Flight; date: string };

/** Generates `count` reservations and appends each id to its owner's `reservations`. */
export function makeReservations(rng: Rng, count: number, world: World): Record<string, Reservation> {
  const all = Object.values(world.flights);
  const byOrigin = new Map<string, Flight[]>();
  for (const f of all) byOrigin.set(f.origin, [...(byOrigin.get(f.origin) ?? []), f]);
  const userIds = Object.keys(world.users);
  const out: Record<string, Reservation> = {};
  for (let k = 0; k < count; k++) {
    const trip = drawTrip(rng, all, byOrigin);
    if (!trip) continue;
    const userId = rng.pick(userIds);
    const id = reservationId(rng, out);
    out[id] = buildReservation(rng, id, userId, world, trip);
    world.users[userId].reservations.push(id);
  }
  return out;
}

function reservationId(rng: Rng, taken: Record<string, unknown>): string {
  for (;;) {
    let id = "";
    for (let i = 0; i < 6; i++) id += ID_CHARS[rng.int(0, ID_CHARS.length - 1)];
    // HATHAT, HATHAU, HATHAV are the ids that booking gives new reservations.
    if (!(id in taken) && !id.startsWith("HATHA")) return id;
  }
}

function overnight(f: Flight): boolean {
  return f.scheduled_arrival_time_est.endsWith("+1");
}

/** One direction of a trip from a first flight: direct, or with one connection when `stop`. */
function direction(
  rng: Rng,
  first: Flight,
  date: string,
  stop: boolean,
  byOrigin: Map<string, Flight[]>,
  end?: string,
) {
  const legs: Leg[] = [{ flight: first, date }];
  if (!stop) return legs;
  const date2 = overnight(first) ? addDays(date, 1) : date;
  const arrival = first.scheduled_arrival_time_est.slice(0, 8);
  const next = (byOrigin.get(first.destination) ?? []).filter((f) =>
    f.destination !== first.origin && f.scheduled_departure_time_est > arrival &&
    (end === undefined || f.destination === end)
  );
  if (next.length === 0 || date2 > LAST_DATE) return undefined;
  legs.push({ flight: rng.pick(next), date: date2 });
  return legs;
}

function drawTrip(rng: Rng, all: Flight[], byOrigin: Map<string, Flight[]>) {
  for (let attempt = 0; attempt < 10; attempt++) {
    const date = FLIGHT_DATES[rng.weighted(DATE_WEIGHTS)];
    const out = direction(rng, rng.pick(all), date, rng.chance(0.6), byOrigin);
    if (!out) continue;
    const origin = out[0].flight.origin, destination = out[out.length - 1].flight.destination;
    if (!rng.chance(0.55)) return { origin, destination, round: false, legs: out };
    const back = addDays(out[out.length - 1].date, rng.int(1, 7));
    if (back > LAST_DATE) return { origin, destination, round: false, legs: out };
    const homeward = byOrigin.get(destination) ?? [];
    const direct = homeward.filter((f) => f.destination === origin);
    const via = homeward.filter((f) => f.destination !== origin);
    let ret = direct.length > 0 && rng.chance(0.5) ? [{ flight: rng.pick(direct), date: back }] : undefined;
    for (let i = 0; i < 4 && !ret && via.length > 0; i++) {
      ret = direction(rng, rng.pick(via), back, true, byOrigin, origin);
    }
    if (!ret && direct.length > 0) ret = [{ flight: rng.pick(direct), date: back }];
    if (ret && ret[0].flight.origin === destination && ret[ret.length - 1].flight.destination === origin) {
      return { origin, destination, round: true, legs: [...out, ...ret] };
    }
    return { origin, destination, round: false, legs: out };
  }
  return undefined;
}

function buildReservation(
  rng: Rng,
  id: string,
  userId: string,
  world: World,
  trip: { origin: string; destination: string; round: boolean; legs: Leg[] },
): Reservation {
  const user = world.users[userId];
  const cabin: Cabin = rng.pick(CABINS);
  const count = 1 + rng.weighted([46, 33, 16, 4, 1]);
  const passengers: Passenger[] = [];
  if (rng.chance(0.75)) passengers.push({ ...user.name, dob: user.dob });
  for (const saved of user.saved_passengers) {
    if (passengers.length < count && rng.chance(0.6)) passengers.push({ ...saved });
  }
  while (passengers.length < count) passengers.push(randomPerson(rng));

  const flights: ReservationFlight[] = trip.legs.map(({ flight, date }) => ({
    origin: flight.origin,
    destination: flight.destination,
    flight_number: flight.flight_number,
    date,
    price: world.fares.get(flight.flight_number)![FLIGHT_DATES.indexOf(date)][cabin],
  }));
  const insurance = rng.chance(0.5) ? "yes" : "no";
  const allowance = freeBags(user.membership, cabin) * count;
  const total = rng.int(0, allowance) + (rng.chance(0.08) ? rng.int(1, 2) : 0);
  const nonfree = Math.max(0, total - allowance);
  const fare = flights.reduce((s, f) => s + f.price, 0);
  const amount = fare * count + (insurance === "yes" ? INSURANCE_FEE * count : 0) + BAG_FEE * nonfree;
  const payers = Object.values(user.payment_methods).filter((m) => m.source !== "certificate");

  return {
    reservation_id: id,
    user_id: userId,
    origin: trip.origin,
    destination: trip.destination,
    flight_type: trip.round ? "round_trip" : "one_way",
    cabin,
    flights,
    passengers,
    payment_history: [{ payment_id: rng.pick(payers).id, amount }],
    created_at: createdAt(rng, trip.legs[0]),
    total_baggages: total,
    nonfree_baggages: nonfree,
    insurance,
  };
}

/** A booking time before the first departure and before now; a few within the last day. */
function createdAt(rng: Rng, first: Leg): string {
  const now = toMs(NOW), hour = 3_600_000;
  const departure = toMs(`${first.date}T${first.flight.scheduled_departure_time_est.slice(0, 8)}`);
  if (departure - 3 * hour > now && rng.chance(0.04)) return fromMs(now - rng.int(1, 24 * 3600 - 1) * 1000);
  const end = Math.min(now - 24 * hour, departure - 3 * hour);
  const start = Math.max(toMs("2024-04-30"), departure - 21 * 24 * hour);
  const ms = start + Math.floor(rng.next() * Math.max(1, end - start) / 1000) * 1000;
  return fromMs(ms);
}
