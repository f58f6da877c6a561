// book_reservation: checks everything first, then takes the payments and writes the reservation.
import { z } from "zod";
import { defineTool, ToolError } from "../tool.ts";
import { bookingDetails, bookingTerms, userOfArgs } from "./_facts.ts";
import type { Tool } from "../tool.ts";
import {
  appendPayment,
  cabin,
  debit,
  legInput,
  passengerInput,
  paymentMethod,
  type PricedLeg,
  priceLeg,
  reservationResult,
  userExists,
  userId,
  writeFlights,
  writePassengers,
} from "./_common.ts";

// τ-bench's fixed booking constants: new ids tried in order, and the booking time.
const NEW_IDS = ["HATHAT", "HATHAU", "HATHAV"] as const;
const CREATED_AT = "2024-05-15T15:00:00";
const INSURANCE_PER_PASSENGER = 30;
const BAG_FEE = 50;

const RESERVATION_EXISTS = "SELECT 1 AS found FROM reservations WHERE reservation_id = ?";
const UPSERT_RESERVATION = `INSERT INTO reservations (reservation_id, position, user_id, origin, destination,
  flight_type, cabin, created_at, total_baggages, nonfree_baggages, insurance, status)
VALUES (?, (SELECT coalesce(max(position), -1) + 1 FROM reservations), ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)
ON CONFLICT (reservation_id) DO UPDATE SET user_id = excluded.user_id, origin = excluded.origin,
  destination = excluded.destination, flight_type = excluded.flight_type, cabin = excluded.cabin,
  created_at = excluded.created_at, total_baggages = excluded.total_baggages,
  nonfree_baggages = excluded.nonfree_baggages, insurance = excluded.insurance, status = NULL`;
const CLEAR_PAYMENTS = "DELETE FROM payments WHERE reservation_id = ?";
const DELETE_METHOD = "DELETE FROM payment_methods WHERE user_id = ? AND payment_id = ?";
const APPEND_TO_USER = `INSERT INTO user_reservations (user_id, position, reservation_id)
VALUES (?, (SELECT coalesce(max(position), -1) + 1 FROM user_reservations WHERE user_id = ?), ?)`;

/** `book_reservation`: books a new reservation paid with methods from the user's profile. */
export const bookReservation: Tool = defineTool({
  name: "book_reservation",
  description: "Book a new reservation for a user: the legs to fly, the cabin, the passengers, checked bags, " +
    "travel insurance, and how the total is split over payment methods already in the user's profile. " +
    "The amounts must add up to the total price (fares of all legs for every passenger, plus insurance " +
    "and the fee for non-free bags).",
  input: z.strictObject({
    user_id: userId,
    origin: z.string().describe('Airport code where the trip starts, e.g. "SFO"'),
    destination: z.string().describe('Airport code where the trip ends, e.g. "JFK"'),
    flight_type: z.enum(["one_way", "round_trip"]).describe("Trip type"),
    cabin,
    flights: z.array(legInput).describe("Every leg of the trip, in order"),
    passengers: z.array(passengerInput).describe("Everyone travelling"),
    payment_methods: z.array(z.object({
      payment_id: z.string().describe('Payment method id from the user\'s profile, e.g. "credit_card_7815826"'),
      amount: z.number().describe("Amount charged to this method"),
    })).describe("How the total price is paid"),
    total_baggages: z.int().describe("Checked bags in total"),
    nonfree_baggages: z.int().describe("Checked bags that are charged for"),
    insurance: z.enum(["yes", "no"]).describe("Whether travel insurance is bought"),
  }),
  writes: true,
  customer: userOfArgs,
  details: bookingDetails,
  terms: bookingTerms,
  run: ({ db }, a) => {
    if (!userExists(db, a.user_id)) throw new ToolError("not_found", "user not found");
    // τ-bench never checks whether the third id is free: a fourth booking overwrites it.
    const id = NEW_IDS.find((x) => db.get(RESERVATION_EXISTS, x) === undefined) ?? NEW_IDS[2];
    const count = a.passengers.length;

    let total = 0;
    const legs: PricedLeg[] = a.flights.map((f) => {
      const leg = priceLeg(db, f.flight_number, f.date, a.cabin, count);
      total += leg.price * count;
      return leg;
    });
    if (a.insurance === "yes") total += INSURANCE_PER_PASSENGER * count;
    total += BAG_FEE * a.nonfree_baggages;

    const methods = a.payment_methods.map((p) => {
      const method = paymentMethod(db, a.user_id, p.payment_id);
      if (!method) throw new ToolError("not_found", `payment method ${p.payment_id} not found`);
      // Each entry is held against the balance alone; two entries on one card are not summed.
      if (method.source !== "credit_card" && (method.amount as number) < p.amount) {
        throw new ToolError("policy", `not enough balance in payment method ${p.payment_id}`);
      }
      return method;
    });
    const paid = a.payment_methods.reduce((sum, p) => sum + p.amount, 0);
    if (paid !== total) {
      throw new ToolError("policy", `payment amount does not add up, total price is ${total}, but paid ${paid}`);
    }

    // A certificate is spent whole. Listing one twice passes the checks and fails here, after
    // the earlier entries were taken, exactly as in τ-bench.
    const spent = new Set<string>();
    a.payment_methods.forEach((p, i) => {
      if (spent.has(p.payment_id)) throw new ToolError("not_found", `'${p.payment_id}'`);
      if (methods[i].source === "gift_card") debit(db, a.user_id, p.payment_id, p.amount);
      else if (methods[i].source === "certificate") {
        db.run(DELETE_METHOD, a.user_id, p.payment_id);
        spent.add(p.payment_id);
      }
    });

    db.run(
      UPSERT_RESERVATION,
      id,
      a.user_id,
      a.origin,
      a.destination,
      a.flight_type,
      a.cabin,
      CREATED_AT,
      a.total_baggages,
      a.nonfree_baggages,
      a.insurance,
    );
    writeFlights(db, id, legs);
    writePassengers(db, id, a.passengers);
    db.run(CLEAR_PAYMENTS, id);
    for (const p of a.payment_methods) appendPayment(db, id, p.payment_id, p.amount);
    db.run(APPEND_TO_USER, a.user_id, a.user_id, id);
    return reservationResult(db, id);
  },
});
