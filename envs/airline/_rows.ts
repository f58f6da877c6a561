// Turns airline data in τ-bench's db.json shape into the rows of `AIRLINE_SCHEMA`.
import type { Json } from "../json.ts";
import type { Rows } from "../sqlite.ts";
import type { AirlineData, FlightDate, PaymentMethod } from "./data.ts";

type Row = Record<string, Json>;

/**
 * The rows of every airline table, in the data's order (positions count from 0).
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { airlineRows } from "./_rows.ts";
 * assertEquals(airlineRows({ flights: {}, reservations: {}, users: {} }).flights, []);
 * ```
 */
export function airlineRows(data: AirlineData): Rows {
  const rows: Rows = {
    users: [],
    payment_methods: [],
    saved_passengers: [],
    user_reservations: [],
    flights: [],
    flight_dates: [],
    reservations: [],
    reservation_flights: [],
    reservation_passengers: [],
    payments: [],
  };
  Object.entries(data.users).forEach(([userId, u], position) => {
    rows.users.push({
      user_id: userId,
      position,
      first_name: u.name.first_name,
      last_name: u.name.last_name,
      address1: u.address.address1,
      address2: u.address.address2,
      city: u.address.city,
      country: u.address.country,
      state: u.address.state,
      zip: u.address.zip,
      email: u.email,
      dob: u.dob,
      membership: u.membership,
    });
    Object.entries(u.payment_methods).forEach(([paymentId, m], i) => {
      rows.payment_methods.push(paymentMethodRow(userId, paymentId, i, m));
    });
    u.saved_passengers.forEach((p, i) => {
      rows.saved_passengers.push({
        user_id: userId,
        position: i,
        first_name: p.first_name,
        last_name: p.last_name,
        dob: p.dob,
      });
    });
    u.reservations.forEach((id, i) => {
      rows.user_reservations.push({ user_id: userId, position: i, reservation_id: id });
    });
  });
  Object.entries(data.flights).forEach(([flightNumber, f], position) => {
    rows.flights.push({
      flight_number: flightNumber,
      position,
      origin: f.origin,
      destination: f.destination,
      scheduled_departure_time_est: f.scheduled_departure_time_est,
      scheduled_arrival_time_est: f.scheduled_arrival_time_est,
    });
    Object.entries(f.dates).forEach(([date, d], i) => rows.flight_dates.push(flightDateRow(flightNumber, date, i, d)));
  });
  Object.entries(data.reservations).forEach(([id, r], position) => {
    rows.reservations.push({
      reservation_id: id,
      position,
      user_id: r.user_id,
      origin: r.origin,
      destination: r.destination,
      flight_type: r.flight_type,
      cabin: r.cabin,
      created_at: r.created_at,
      total_baggages: r.total_baggages,
      nonfree_baggages: r.nonfree_baggages,
      insurance: r.insurance,
      status: r.status ?? null,
    });
    r.flights.forEach((f, i) => {
      rows.reservation_flights.push({
        reservation_id: id,
        position: i,
        flight_number: f.flight_number,
        date: f.date,
        price: f.price,
        origin: f.origin,
        destination: f.destination,
      });
    });
    r.passengers.forEach((p, i) => {
      rows.reservation_passengers.push({
        reservation_id: id,
        position: i,
        first_name: p.first_name,
        last_name: p.last_name,
        dob: p.dob,
      });
    });
    r.payment_history.forEach((p, i) => {
      rows.payments.push({ reservation_id: id, position: i, payment_id: p.payment_id, amount: p.amount });
    });
  });
  return rows;
}

function paymentMethodRow(userId: string, paymentId: string, position: number, m: PaymentMethod): Row {
  return {
    user_id: userId,
    payment_id: paymentId,
    position,
    source: m.source,
    brand: m.source === "credit_card" ? m.brand : null,
    last_four: m.source === "credit_card" ? m.last_four : null,
    amount: m.source === "credit_card" ? null : m.amount,
  };
}

function flightDateRow(flightNumber: string, date: string, position: number, d: FlightDate): Row {
  return {
    flight_number: flightNumber,
    date,
    position,
    status: d.status,
    seats_basic_economy: d.available_seats?.basic_economy ?? null,
    seats_economy: d.available_seats?.economy ?? null,
    seats_business: d.available_seats?.business ?? null,
    price_basic_economy: d.prices?.basic_economy ?? null,
    price_economy: d.prices?.economy ?? null,
    price_business: d.prices?.business ?? null,
    actual_departure_time_est: d.actual_departure_time_est ?? null,
    actual_arrival_time_est: d.actual_arrival_time_est ?? null,
    estimated_departure_time_est: d.estimated_departure_time_est ?? null,
    estimated_arrival_time_est: d.estimated_arrival_time_est ?? null,
  };
}
