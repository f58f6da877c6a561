/**
 * The airline world's seeded generator: flights, users and reservations in τ-bench's
 * `db.json` shape, at any scale.
 *
 * @module
 */
import type { Rng } from "../rng.ts";
import type { AirlineData, Flight, FlightDate, PaymentMethod, SeatsOrPrices, User } from "./data.ts";
import { makeReservations } from "./_generate_reservations.ts";
import { AIRPORTS, CITIES, FIRST_NAMES, LAST_NAMES, randomDob, randomPerson, STREETS } from "./_vocab.ts";
import { FLIGHT_DATES, fromMs, NOW, TODAY, toMs } from "./_rules.ts";

/** A flight's fare on every date (also the dates that are no longer for sale), by date index. */
export type FareTable = Map<string, SeatsOrPrices[]>;

/**
 * Generates an airline world. Scale 1 has about τ-bench's size (300 flights, 500 users,
 * 2,000 reservations); scale 10 has ten times as many of each. The same seed gives the same data.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { Rng } from "../rng.ts";
 * import { generateAirline } from "./generate.ts";
 * const data = generateAirline(new Rng("0"), 0.1);
 * assertEquals(Object.keys(data.flights)[0], "HAT001");
 * ```
 */
export function generateAirline(rng: Rng, scale: number): AirlineData {
  if (!(scale > 0) || !Number.isFinite(scale)) {
    throw new RangeError(`Cannot generate an airline world at scale ${scale}: expected a positive number`);
  }
  const { flights, fares } = makeFlights(rng.child("flights"), Math.max(4, Math.round(300 * scale)), scale);
  const users = makeUsers(rng.child("users"), Math.max(1, Math.round(500 * scale)));
  const reservations = makeReservations(rng.child("reservations"), Math.round(2000 * scale), { flights, fares, users });
  return { flights, reservations, users };
}

function flightMinutes(a: typeof AIRPORTS[number], b: typeof AIRPORTS[number]): number {
  const rad = Math.PI / 180;
  const h = Math.sin((b.lat - a.lat) * rad / 2) ** 2 +
    Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin((b.lon - a.lon) * rad / 2) ** 2;
  const miles = 2 * 3959 * Math.asin(Math.sqrt(h));
  return Math.max(60, Math.round((miles / 480 + 0.5) * 2) * 30);
}

function clock(minutes: number): string {
  const m = minutes % 1440;
  const text = `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}:00`;
  return minutes >= 1440 ? `${text}+1` : text;
}

function makeFlights(rng: Rng, count: number, scale: number): { flights: Record<string, Flight>; fares: FareTable } {
  const pairs: [number, number][] = [];
  for (let i = 0; i < AIRPORTS.length; i++) {
    for (let j = i + 1; j < AIRPORTS.length; j++) pairs.push([i, j]);
  }
  const nPairs = Math.min(pairs.length, Math.max(2, Math.round(55 * Math.sqrt(scale))));
  const routes = rng.shuffle(pairs).slice(0, nPairs).flatMap(([i, j]): [number, number][] => [[i, j], [j, i]]);
  const specs: [number, number][] = routes.slice(0, count);
  while (specs.length < count) specs.push(routes[rng.int(0, routes.length - 1)]);
  const hourWeights = Array.from({ length: 24 }, (_, h) => h >= 6 && h <= 22 ? 3 : 1.5);

  const width = Math.max(3, String(count).length);
  const flights: Record<string, Flight> = {};
  const fares: FareTable = new Map();
  rng.shuffle(specs).forEach(([i, j], k) => {
    const number = `HAT${String(k + 1).padStart(width, "0")}`;
    const dep = rng.weighted(hourWeights) * 60;
    const arr = dep + flightMinutes(AIRPORTS[i], AIRPORTS[j]);
    const perDate = FLIGHT_DATES.map(() => ({
      basic_economy: rng.int(50, 99),
      economy: rng.int(100, 199),
      business: rng.int(200, 500),
    }));
    fares.set(number, perDate);
    const dates: Record<string, FlightDate> = {};
    FLIGHT_DATES.forEach((date, d) => dates[date] = flightDate(rng, date, dep, arr, perDate[d]));
    flights[number] = {
      flight_number: number,
      origin: AIRPORTS[i].code,
      destination: AIRPORTS[j].code,
      scheduled_departure_time_est: clock(dep),
      scheduled_arrival_time_est: clock(arr),
      dates,
    };
  });
  return { flights, fares };
}

function flightDate(rng: Rng, date: string, dep: number, arr: number, fare: SeatsOrPrices): FlightDate {
  if (date > TODAY) {
    const seats = { basic_economy: rng.int(0, 20), economy: rng.int(0, 20), business: rng.int(0, 20) };
    return { status: "available", available_seats: seats, prices: { ...fare } };
  }
  const day = toMs(date);
  const at = (minutes: number) => fromMs(day + minutes * 60_000);
  if (date < TODAY) {
    if (rng.chance(0.09)) return { status: "cancelled" };
    const depActual = dep + rng.int(-30, 30);
    const arrActual = Math.max(depActual + 30, arr + rng.int(-30, 30));
    return { status: "landed", actual_departure_time_est: at(depActual), actual_arrival_time_est: at(arrActual) };
  }
  const now = (toMs(NOW) - day) / 60_000;
  const delay = rng.chance(0.3) ? rng.int(20, 240) : 0;
  if (dep + delay < now) {
    if (arr + delay <= now) {
      return { status: "landed", actual_departure_time_est: at(dep + delay), actual_arrival_time_est: at(arr + delay) };
    }
    return {
      status: "flying",
      actual_departure_time_est: at(dep + delay),
      estimated_arrival_time_est: at(arr + delay),
    };
  }
  return {
    status: delay > 0 ? "delayed" : "on time",
    estimated_departure_time_est: at(dep + delay),
    estimated_arrival_time_est: at(arr + delay),
  };
}

function makeUsers(rng: Rng, count: number): Record<string, User> {
  const users: Record<string, User> = {};
  const paymentIds = new Set<string>();
  const paymentId = (source: string) => {
    let id: string;
    do {
      id = `${source}_${rng.int(1_000_000, 9_999_999)}`;
    } while (paymentIds.has(id));
    paymentIds.add(id);
    return id;
  };
  for (let k = 0; k < count; k++) {
    const first = rng.pick(FIRST_NAMES), last = rng.pick(LAST_NAMES);
    let id: string;
    do {
      id = `${first}_${last}_${rng.int(1000, 9999)}`.toLowerCase();
    } while (id in users);
    const place = rng.pick(CITIES);
    const methods: Record<string, PaymentMethod> = {};
    const n = 1 + rng.weighted([2, 4, 3, 2]);
    for (let m = 0; m < n; m++) {
      // The first method can pay for anything, so every user can have paid for a reservation.
      const source = m === 0 ? (rng.chance(0.6) ? "credit_card" : "gift_card") : rng.pick(SOURCES);
      const pid = paymentId(source);
      methods[pid] = source === "credit_card"
        ? {
          source,
          brand: rng.pick(["visa", "mastercard"]),
          last_four: String(rng.int(0, 9999)).padStart(4, "0"),
          id: pid,
        }
        : source === "gift_card"
        ? { source, amount: rng.int(0, 300), id: pid }
        : { source: "certificate", amount: rng.pick([100, 150, 200, 250, 500]), id: pid };
    }
    users[id] = {
      name: { first_name: first, last_name: last },
      address: {
        address1: `${rng.int(100, 999)} ${rng.pick(STREETS)}`,
        address2: rng.chance(0.5) ? `Suite ${rng.int(100, 999)}` : `Apt ${rng.int(1, 99)}`,
        city: place.city,
        country: "USA",
        state: place.state,
        zip: place.zip + String(rng.int(1, 99)).padStart(2, "0"),
      },
      email: `${first}.${last}${rng.int(1000, 9999)}@example.com`.toLowerCase(),
      dob: randomDob(rng),
      payment_methods: methods,
      saved_passengers: Array.from({ length: rng.weighted([1, 5, 3]) }, () => randomPerson(rng)),
      membership: (["regular", "silver", "gold"] as const)[rng.weighted([29, 36, 35])],
      reservations: [],
    };
  }
  return users;
}

const SOURCES = ["credit_card", "gift_card", "certificate"] as const;
