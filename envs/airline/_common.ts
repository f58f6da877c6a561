// Look-ups and writes that several airline tools share, and their argument schemas.
import { z } from "zod";
import type { Store } from "../sqlite.ts";
import { ToolError } from "../tool.ts";
import type { Json } from "../json.ts";
import { type PaymentMethodRow, readReservation, type ReservationRow } from "./_read.ts";

/** Cabin names; they pick the seat and price columns of a flight date. */
export const cabin = z.enum(["basic_economy", "economy", "business"]).describe("Cabin class");

/** Cabin class of a reservation. */
export type Cabin = z.output<typeof cabin>;

/** One leg of an itinerary as the agent names it. */
export const legInput = z.object({
  flight_number: z.string().describe('Flight number, e.g. "HAT001"'),
  date: z.string().describe("Date of the flight, YYYY-MM-DD"),
});

/** A passenger as the agent gives one. */
export const passengerInput = z.object({
  first_name: z.string().describe("Given name"),
  last_name: z.string().describe("Surname"),
  dob: z.string().describe("Date of birth, YYYY-MM-DD"),
});

/** A reservation id argument. */
export const reservationId = z.string().describe('Reservation id, six characters, e.g. "ZFA04Y"');

/** A user id argument. */
export const userId = z.string().describe('User id, e.g. "sara_doe_496"');

/** A leg after pricing: the caller's flight and date, then price per passenger and route. */
export interface PricedLeg {
  flight_number: string;
  date: string;
  price: number;
  origin: string;
  destination: string;
}

interface LegRow {
  origin: string;
  destination: string;
  status: string | null;
  seats_basic_economy: number | null;
  seats_economy: number | null;
  seats_business: number | null;
  price_basic_economy: number | null;
  price_economy: number | null;
  price_business: number | null;
}

const LEG = `SELECT f.origin, f.destination, d.status,
  d.seats_basic_economy, d.seats_economy, d.seats_business,
  d.price_basic_economy, d.price_economy, d.price_business
FROM flights f LEFT JOIN flight_dates d ON d.flight_number = f.flight_number AND d.date = ?
WHERE f.flight_number = ?`;
const RESERVATION = "SELECT * FROM reservations WHERE reservation_id = ?";
const USER_EXISTS = "SELECT 1 AS found FROM users WHERE user_id = ?";
const METHOD = "SELECT * FROM payment_methods WHERE user_id = ? AND payment_id = ?";
const PASSENGER_COUNT = "SELECT count(*) AS n FROM reservation_passengers WHERE reservation_id = ?";
const DEBIT = "UPDATE payment_methods SET amount = amount - ? WHERE user_id = ? AND payment_id = ?";
const APPEND_PAYMENT = `INSERT INTO payments (reservation_id, position, payment_id, amount)
VALUES (?, (SELECT coalesce(max(position), -1) + 1 FROM payments WHERE reservation_id = ?), ?, ?)`;
const UPSERT_FLIGHT = `INSERT INTO reservation_flights
  (reservation_id, position, flight_number, date, price, origin, destination) VALUES (?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (reservation_id, position) DO UPDATE SET flight_number = excluded.flight_number,
  date = excluded.date, price = excluded.price, origin = excluded.origin, destination = excluded.destination`;
const TRIM_FLIGHTS = "DELETE FROM reservation_flights WHERE reservation_id = ? AND position >= ?";
const UPSERT_PASSENGER = `INSERT INTO reservation_passengers (reservation_id, position, first_name, last_name, dob)
VALUES (?, ?, ?, ?, ?) ON CONFLICT (reservation_id, position) DO UPDATE SET first_name = excluded.first_name,
  last_name = excluded.last_name, dob = excluded.dob`;
const TRIM_PASSENGERS = "DELETE FROM reservation_passengers WHERE reservation_id = ? AND position >= ?";

/** Whether a user exists. */
export function userExists(db: Store, id: string): boolean {
  return db.get(USER_EXISTS, id) !== undefined;
}

/** A reservation's row; throws `not_found` "reservation not found" when there is none. */
export function reservationRow(db: Store, id: string): ReservationRow {
  const row = db.get<ReservationRow>(RESERVATION, id);
  if (!row) throw new ToolError("not_found", "reservation not found");
  return row;
}

/** How many passengers a reservation has. */
export function passengerCount(db: Store, reservationId: string): number {
  return db.get<{ n: number }>(PASSENGER_COUNT, reservationId)!.n;
}

/** One of a user's payment methods, or `undefined`. */
export function paymentMethod(db: Store, userId: string, paymentId: string): PaymentMethodRow | undefined {
  return db.get<PaymentMethodRow>(METHOD, userId, paymentId);
}

/**
 * Prices a leg at today's fare for `count` passengers in `cabin`, checking in order that the
 * flight exists, flies on that date, is bookable and has enough seats (seats are not taken).
 */
export function priceLeg(db: Store, flightNumber: string, date: string, cabin: Cabin, count: number): PricedLeg {
  const row = db.get<LegRow>(LEG, date, flightNumber);
  if (!row) throw new ToolError("not_found", `flight ${flightNumber} not found`);
  if (row.status === null) throw new ToolError("not_found", `flight ${flightNumber} not found on date ${date}`);
  if (row.status !== "available") {
    throw new ToolError("policy", `flight ${flightNumber} not available on date ${date}`);
  }
  if ((row[`seats_${cabin}`] as number) < count) {
    throw new ToolError("policy", `not enough seats on flight ${flightNumber}`);
  }
  return {
    flight_number: flightNumber,
    date,
    price: row[`price_${cabin}`] as number,
    origin: row.origin,
    destination: row.destination,
  };
}

/**
 * Checks that a payment method can pay `amount` for a change to a reservation: it must be the
 * owner's, not a certificate, and a gift card must hold at least `amount`.
 */
export function changeMethod(db: Store, ownerId: string, paymentId: string, amount: number): PaymentMethodRow {
  const method = paymentMethod(db, ownerId, paymentId);
  if (!method) throw new ToolError("not_found", "payment method not found");
  if (method.source === "certificate") {
    throw new ToolError("policy", "certificate cannot be used to update reservation");
  }
  if (method.source === "gift_card" && (method.amount as number) < amount) {
    throw new ToolError("policy", "gift card balance is not enough");
  }
  return method;
}

/** Lowers a gift card's balance by `amount` (a negative amount raises it). */
export function debit(db: Store, userId: string, paymentId: string, amount: number): void {
  db.run(DEBIT, amount, userId, paymentId);
}

/** Appends an entry to a reservation's payment history. */
export function appendPayment(db: Store, reservationId: string, paymentId: string, amount: number): void {
  db.run(APPEND_PAYMENT, reservationId, reservationId, paymentId, amount);
}

/** Replaces a reservation's legs, rewriting only the positions that change. */
export function writeFlights(db: Store, reservationId: string, legs: readonly PricedLeg[]): void {
  legs.forEach((l, i) =>
    db.run(UPSERT_FLIGHT, reservationId, i, l.flight_number, l.date, l.price, l.origin, l.destination)
  );
  db.run(TRIM_FLIGHTS, reservationId, legs.length);
}

/** Replaces a reservation's passengers, rewriting only the positions that change. */
export function writePassengers(
  db: Store,
  reservationId: string,
  passengers: readonly z.output<typeof passengerInput>[],
): void {
  passengers.forEach((p, i) => db.run(UPSERT_PASSENGER, reservationId, i, p.first_name, p.last_name, p.dob));
  db.run(TRIM_PASSENGERS, reservationId, passengers.length);
}

/** A reservation as a tool returns it (db.json shape). */
export function reservationResult(db: Store, id: string): Json {
  // The record types are interfaces, which TypeScript does not see as JSON objects.
  return readReservation(db, id) as unknown as Json;
}
