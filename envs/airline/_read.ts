// Reads airline records back from the database in τ-bench's db.json shape. The whole-world
// reader and the per-record readers the tools use build records with the same functions.
import type { Store } from "../sqlite.ts";
import type {
  AirlineData,
  Flight,
  FlightDate,
  Passenger,
  Payment,
  PaymentMethod,
  Reservation,
  ReservationFlight,
  User,
} from "./data.ts";

/** A row of `users`. */
export interface UserRow {
  user_id: string;
  first_name: string;
  last_name: string;
  address1: string;
  address2: string;
  city: string;
  country: string;
  state: string;
  zip: string;
  email: string;
  dob: string;
  membership: User["membership"];
}

/** A row of `payment_methods`. */
export interface PaymentMethodRow {
  user_id: string;
  payment_id: string;
  source: PaymentMethod["source"];
  brand: string | null;
  last_four: string | null;
  amount: number | null;
}

/** The columns of `flights` (without position). */
export interface FlightRow {
  flight_number: string;
  origin: string;
  destination: string;
  scheduled_departure_time_est: string;
  scheduled_arrival_time_est: string;
}

/** The columns of `flight_dates` (without position). */
export interface FlightDateRow {
  flight_number: string;
  date: string;
  status: FlightDate["status"];
  seats_basic_economy: number | null;
  seats_economy: number | null;
  seats_business: number | null;
  price_basic_economy: number | null;
  price_economy: number | null;
  price_business: number | null;
  actual_departure_time_est: string | null;
  actual_arrival_time_est: string | null;
  estimated_departure_time_est: string | null;
  estimated_arrival_time_est: string | null;
}

/** A row of `reservations`. */
export interface ReservationRow {
  reservation_id: string;
  user_id: string;
  origin: string;
  destination: string;
  flight_type: Reservation["flight_type"];
  cabin: Reservation["cabin"];
  created_at: string;
  total_baggages: number;
  nonfree_baggages: number;
  insurance: Reservation["insurance"];
  status: "cancelled" | null;
}

interface Keyed {
  key: string;
}

const USER = "SELECT * FROM users WHERE user_id = ?";
const USER_METHODS = "SELECT * FROM payment_methods WHERE user_id = ? ORDER BY position";
const USER_SAVED = "SELECT first_name, last_name, dob FROM saved_passengers WHERE user_id = ? ORDER BY position";
const USER_RESERVATIONS = "SELECT reservation_id FROM user_reservations WHERE user_id = ? ORDER BY position";
const RESERVATION = "SELECT * FROM reservations WHERE reservation_id = ?";
const RES_FLIGHTS =
  "SELECT origin, destination, flight_number, date, price FROM reservation_flights WHERE reservation_id = ? ORDER BY position";
const RES_PASSENGERS =
  "SELECT first_name, last_name, dob FROM reservation_passengers WHERE reservation_id = ? ORDER BY position";
const RES_PAYMENTS = "SELECT payment_id, amount FROM payments WHERE reservation_id = ? ORDER BY position";
const FLIGHT = "SELECT * FROM flights WHERE flight_number = ?";
const FLIGHT_DATES = "SELECT * FROM flight_dates WHERE flight_number = ? ORDER BY position";

/** A user in db.json shape, or `undefined` when there is none with that id. */
export function readUser(db: Store, userId: string): User | undefined {
  const row = db.get<UserRow>(USER, userId);
  if (!row) return undefined;
  return toUser(
    row,
    db.all<PaymentMethodRow>(USER_METHODS, userId),
    db.all<Passenger>(USER_SAVED, userId),
    db.all<{ reservation_id: string }>(USER_RESERVATIONS, userId).map((r) => r.reservation_id),
  );
}

/** A reservation in db.json shape, or `undefined` when there is none with that id. */
export function readReservation(db: Store, reservationId: string): Reservation | undefined {
  const row = db.get<ReservationRow>(RESERVATION, reservationId);
  if (!row) return undefined;
  return toReservation(
    row,
    db.all<ReservationFlight>(RES_FLIGHTS, reservationId),
    db.all<Passenger>(RES_PASSENGERS, reservationId),
    db.all<Payment>(RES_PAYMENTS, reservationId),
  );
}

/** A flight with all its dates in db.json shape, or `undefined` when there is none with that number. */
export function readFlight(db: Store, flightNumber: string): Flight | undefined {
  const row = db.get<FlightRow>(FLIGHT, flightNumber);
  if (!row) return undefined;
  const dates: Record<string, FlightDate> = {};
  for (const d of db.all<FlightDateRow>(FLIGHT_DATES, flightNumber)) dates[d.date] = toFlightDate(d);
  return { ...toFlightHead(row), dates };
}

/**
 * The whole airline world in τ-bench's db.json shape, tables and lists in their stored order.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { Store } from "../sqlite.ts";
 * import { AIRLINE_SCHEMA } from "./schema.ts";
 * import { readAirline } from "./_read.ts";
 * using db = Store.open(AIRLINE_SCHEMA);
 * assertEquals(readAirline(db), { flights: {}, reservations: {}, users: {} });
 * ```
 */
export function readAirline(db: Store): AirlineData {
  const dates = groupBy(
    db.all<FlightDateRow & Keyed>("SELECT *, flight_number AS key FROM flight_dates ORDER BY flight_number, position"),
  );
  const flights: Record<string, Flight> = {};
  for (const row of db.all<FlightRow>("SELECT * FROM flights ORDER BY position")) {
    const own: Record<string, FlightDate> = {};
    for (const d of dates.get(row.flight_number) ?? []) own[d.date] = toFlightDate(d);
    flights[row.flight_number] = { ...toFlightHead(row), dates: own };
  }

  const byReservation = <T>(sql: string) => groupBy(db.all<T & Keyed>(sql));
  const resFlights = byReservation<ReservationFlight>(
    "SELECT reservation_id AS key, origin, destination, flight_number, date, price FROM reservation_flights ORDER BY reservation_id, position",
  );
  const resPassengers = byReservation<Passenger>(
    "SELECT reservation_id AS key, first_name, last_name, dob FROM reservation_passengers ORDER BY reservation_id, position",
  );
  const resPayments = byReservation<Payment>(
    "SELECT reservation_id AS key, payment_id, amount FROM payments ORDER BY reservation_id, position",
  );
  const reservations: Record<string, Reservation> = {};
  for (const row of db.all<ReservationRow>("SELECT * FROM reservations ORDER BY position")) {
    const id = row.reservation_id;
    reservations[id] = toReservation(
      row,
      (resFlights.get(id) ?? []).map(({ origin, destination, flight_number, date, price }) => ({
        origin,
        destination,
        flight_number,
        date,
        price,
      })),
      (resPassengers.get(id) ?? []).map(({ first_name, last_name, dob }) => ({ first_name, last_name, dob })),
      (resPayments.get(id) ?? []).map(({ payment_id, amount }) => ({ payment_id, amount })),
    );
  }

  const methods = groupBy(
    db.all<PaymentMethodRow & Keyed>("SELECT *, user_id AS key FROM payment_methods ORDER BY user_id, position"),
  );
  const saved = groupBy(
    db.all<Passenger & Keyed>(
      "SELECT user_id AS key, first_name, last_name, dob FROM saved_passengers ORDER BY user_id, position",
    ),
  );
  const lists = groupBy(
    db.all<{ reservation_id: string } & Keyed>(
      "SELECT user_id AS key, reservation_id FROM user_reservations ORDER BY user_id, position",
    ),
  );
  const users: Record<string, User> = {};
  for (const row of db.all<UserRow>("SELECT * FROM users ORDER BY position")) {
    const id = row.user_id;
    users[id] = toUser(
      row,
      methods.get(id) ?? [],
      (saved.get(id) ?? []).map(({ first_name, last_name, dob }) => ({ first_name, last_name, dob })),
      (lists.get(id) ?? []).map((r) => r.reservation_id),
    );
  }
  return { flights, reservations, users };
}

/** A flight record without its dates (the part search results repeat). */
export function toFlightHead(row: FlightRow): Omit<Flight, "dates"> {
  return {
    flight_number: row.flight_number,
    origin: row.origin,
    destination: row.destination,
    scheduled_departure_time_est: row.scheduled_departure_time_est,
    scheduled_arrival_time_est: row.scheduled_arrival_time_est,
  };
}

/** One date of a flight; only the fields its status has are present. */
export function toFlightDate(row: FlightDateRow): FlightDate {
  const out: FlightDate = { status: row.status };
  if (row.seats_basic_economy !== null) {
    out.available_seats = {
      basic_economy: row.seats_basic_economy,
      economy: row.seats_economy as number,
      business: row.seats_business as number,
    };
  }
  if (row.price_basic_economy !== null) {
    out.prices = {
      basic_economy: row.price_basic_economy,
      economy: row.price_economy as number,
      business: row.price_business as number,
    };
  }
  if (row.actual_departure_time_est !== null) out.actual_departure_time_est = row.actual_departure_time_est;
  if (row.actual_arrival_time_est !== null) out.actual_arrival_time_est = row.actual_arrival_time_est;
  if (row.estimated_departure_time_est !== null) out.estimated_departure_time_est = row.estimated_departure_time_est;
  if (row.estimated_arrival_time_est !== null) out.estimated_arrival_time_est = row.estimated_arrival_time_est;
  return out;
}

/** A payment method; gift cards and certificates carry their balance as `amount`. */
export function toPaymentMethod(row: PaymentMethodRow): PaymentMethod {
  if (row.source === "credit_card") {
    return {
      source: "credit_card",
      brand: row.brand as string,
      last_four: row.last_four as string,
      id: row.payment_id,
    };
  }
  return { source: row.source, amount: row.amount as number, id: row.payment_id };
}

function toUser(row: UserRow, methods: PaymentMethodRow[], saved: Passenger[], reservations: string[]): User {
  const payment_methods: Record<string, PaymentMethod> = {};
  for (const m of methods) payment_methods[m.payment_id] = toPaymentMethod(m);
  return {
    name: { first_name: row.first_name, last_name: row.last_name },
    address: {
      address1: row.address1,
      address2: row.address2,
      city: row.city,
      country: row.country,
      state: row.state,
      zip: row.zip,
    },
    email: row.email,
    dob: row.dob,
    payment_methods,
    saved_passengers: saved.map(plain),
    membership: row.membership,
    reservations,
  };
}

function toReservation(
  row: ReservationRow,
  flights: ReservationFlight[],
  passengers: Passenger[],
  payments: Payment[],
): Reservation {
  const out: Reservation = {
    reservation_id: row.reservation_id,
    user_id: row.user_id,
    origin: row.origin,
    destination: row.destination,
    flight_type: row.flight_type,
    cabin: row.cabin,
    flights: flights.map(plain),
    passengers: passengers.map(plain),
    payment_history: payments.map(plain),
    created_at: row.created_at,
    total_baggages: row.total_baggages,
    nonfree_baggages: row.nonfree_baggages,
    insurance: row.insurance,
  };
  if (row.status !== null) out.status = row.status;
  return out;
}

// node:sqlite rows have a null prototype; records handed out are plain objects.
function plain<T extends object>(row: T): T {
  return Object.getPrototypeOf(row) === null ? { ...row } : row;
}

function groupBy<T extends Keyed>(rows: T[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const row of rows) {
    const list = out.get(row.key);
    if (list) list.push(row);
    else out.set(row.key, [row]);
  }
  return out;
}
