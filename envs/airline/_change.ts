// The tools that change an existing reservation or a user's payment methods.
import { z } from "zod";
import { defineTool, ToolError } from "../tool.ts";
import type { Tool } from "../tool.ts";
import type { ReservationFlight } from "./data.ts";
import {
  appendPayment,
  cabin,
  changeMethod,
  debit,
  legInput,
  passengerCount,
  passengerInput,
  type PricedLeg,
  priceLeg,
  reservationId,
  reservationResult,
  reservationRow,
  userExists,
  userId,
  writeFlights,
  writePassengers,
} from "./_common.ts";
import {
  bagDetails,
  bagTerms,
  cancelDetails,
  cancelTerms,
  certificateDetails,
  certificateTerms,
  flightDetails,
  flightTerms,
  ownerOfArgs,
  passengerDetails,
  passengerTerms,
  userOfArgs,
} from "./_facts.ts";

const BAG_FEE = 50;
// τ-bench's fixed certificate ids, tried in order.
const CERTIFICATE_IDS = ["certificate_3221322", "certificate_3221323", "certificate_3221324"];

const PAYMENT_COUNT = "SELECT count(*) AS n FROM payments WHERE reservation_id = ?";
const APPEND_REFUNDS = `INSERT INTO payments (reservation_id, position, payment_id, amount)
SELECT reservation_id, position + ?, payment_id, -amount FROM payments WHERE reservation_id = ? ORDER BY position`;
const SET_CANCELLED = "UPDATE reservations SET status = 'cancelled' WHERE reservation_id = ?";
const SET_BAGS = "UPDATE reservations SET total_baggages = ?, nonfree_baggages = ? WHERE reservation_id = ?";
const LEGS = "SELECT flight_number, date, price, origin, destination FROM reservation_flights " +
  "WHERE reservation_id = ? ORDER BY position";
const METHOD_EXISTS = "SELECT 1 AS found FROM payment_methods WHERE user_id = ? AND payment_id = ?";
const ADD_CERTIFICATE = `INSERT INTO payment_methods (user_id, payment_id, position, source, brand, last_four, amount)
VALUES (?, ?, (SELECT coalesce(max(position), -1) + 1 FROM payment_methods WHERE user_id = ?), 'certificate',
  NULL, NULL, ?)`;

/** `cancel_reservation`: cancels a reservation and records a refund of every payment. */
export const cancelReservation: Tool = defineTool({
  name: "cancel_reservation",
  description: "Cancel a whole reservation. Every payment made so far is refunded to the method it came from " +
    "(recorded as negative entries in the payment history).",
  input: z.strictObject({ reservation_id: reservationId }),
  writes: true,
  // A cancelled reservation cannot be changed or cancelled again.
  irreversible: true,
  customer: ownerOfArgs,
  details: cancelDetails,
  terms: cancelTerms,
  run: ({ db }, a) => {
    reservationRow(db, a.reservation_id);
    // Negates every entry present now, refunds included, as τ-bench does on a second cancel.
    const count = db.get<{ n: number }>(PAYMENT_COUNT, a.reservation_id)!.n;
    db.run(APPEND_REFUNDS, count, a.reservation_id);
    db.run(SET_CANCELLED, a.reservation_id);
    return reservationResult(db, a.reservation_id);
  },
});

/** `update_reservation_baggages`: sets a reservation's checked bags and charges for added non-free bags. */
export const updateReservationBaggages: Tool = defineTool({
  name: "update_reservation_baggages",
  description: "Change the number of checked bags on a reservation. Each added non-free bag costs 50, paid " +
    "with a gift card or credit card from the owner's profile.",
  input: z.strictObject({
    reservation_id: reservationId,
    total_baggages: z.int().describe("New total of checked bags"),
    nonfree_baggages: z.int().describe("New number of checked bags that are charged for"),
    payment_id: z.string().describe('Payment method id from the owner\'s profile, e.g. "gift_card_7815826"'),
  }),
  writes: true,
  customer: ownerOfArgs,
  details: bagDetails,
  terms: bagTerms,
  run: ({ db }, a) => {
    const res = reservationRow(db, a.reservation_id);
    const price = BAG_FEE * Math.max(0, a.nonfree_baggages - res.nonfree_baggages);
    const method = changeMethod(db, res.user_id, a.payment_id, price);
    db.run(SET_BAGS, a.total_baggages, a.nonfree_baggages, a.reservation_id);
    if (method.source === "gift_card") debit(db, res.user_id, a.payment_id, price);
    if (price !== 0) appendPayment(db, a.reservation_id, a.payment_id, price);
    return reservationResult(db, a.reservation_id);
  },
});

/** `update_reservation_flights`: replaces a reservation's itinerary and settles the fare difference. */
export const updateReservationFlights: Tool = defineTool({
  name: "update_reservation_flights",
  description: "Replace the flights of a reservation. List the complete new itinerary, unchanged legs " +
    "included: a leg kept in the same cabin keeps the price paid for it, other legs are priced at today's " +
    "fare. The difference with what was paid is charged to (or refunded to) one gift card or credit card " +
    "from the owner's profile.",
  input: z.strictObject({
    reservation_id: reservationId,
    cabin,
    flights: z.array(legInput).describe("Every leg of the new itinerary, in order"),
    payment_id: z.string().describe('Payment method id from the owner\'s profile, e.g. "credit_card_7815826"'),
  }),
  writes: true,
  customer: ownerOfArgs,
  details: flightDetails,
  terms: flightTerms,
  run: ({ db }, a) => {
    const res = reservationRow(db, a.reservation_id);
    const count = passengerCount(db, a.reservation_id);
    const current = db.all<ReservationFlight>(LEGS, a.reservation_id);
    let total = 0;
    const legs: PricedLeg[] = a.flights.map((f) => {
      const kept = a.cabin === res.cabin
        ? current.find((c) => c.flight_number === f.flight_number && c.date === f.date)
        : undefined;
      const leg = kept
        ? {
          flight_number: f.flight_number,
          date: f.date,
          price: kept.price,
          origin: kept.origin,
          destination: kept.destination,
        }
        : priceLeg(db, f.flight_number, f.date, a.cabin, count);
      total += leg.price * count;
      return leg;
    });
    const difference = total - current.reduce((sum, c) => sum + c.price, 0) * count;
    const method = changeMethod(db, res.user_id, a.payment_id, difference);
    if (method.source === "gift_card") debit(db, res.user_id, a.payment_id, difference);
    // τ-bench stores the new legs but never the new cabin.
    writeFlights(db, a.reservation_id, legs);
    if (difference !== 0) appendPayment(db, a.reservation_id, a.payment_id, difference);
    return reservationResult(db, a.reservation_id);
  },
});

/** `update_reservation_passengers`: replaces the passenger details; their number cannot change. */
export const updateReservationPassengers: Tool = defineTool({
  name: "update_reservation_passengers",
  description: "Replace the details of the passengers on a reservation. Give every passenger, in order; the " +
    "number of passengers must stay the same.",
  input: z.strictObject({
    reservation_id: reservationId,
    passengers: z.array(passengerInput).describe("Every passenger, in order"),
  }),
  writes: true,
  customer: ownerOfArgs,
  details: passengerDetails,
  terms: passengerTerms,
  run: ({ db }, a) => {
    reservationRow(db, a.reservation_id);
    if (a.passengers.length !== passengerCount(db, a.reservation_id)) {
      throw new ToolError("policy", "number of passengers does not match");
    }
    writePassengers(db, a.reservation_id, a.passengers);
    return reservationResult(db, a.reservation_id);
  },
});

/** `send_certificate`: adds a travel certificate to a user's payment methods, as compensation. */
export const sendCertificate: Tool = defineTool({
  name: "send_certificate",
  description: "Give a user a travel certificate worth the given amount, e.g. as compensation. It is added " +
    "to the user's payment methods.",
  input: z.strictObject({
    user_id: userId,
    amount: z.number().describe("Value of the certificate"),
  }),
  writes: true,
  customer: userOfArgs,
  details: certificateDetails,
  terms: certificateTerms,
  run: ({ db }, a) => {
    if (!userExists(db, a.user_id)) throw new ToolError("not_found", "user not found");
    const id = CERTIFICATE_IDS.find((c) => db.get(METHOD_EXISTS, a.user_id, c) === undefined);
    if (id === undefined) {
      throw new ToolError("policy", `user "${a.user_id}" already holds all ${CERTIFICATE_IDS.length} certificate ids`);
    }
    db.run(ADD_CERTIFICATE, a.user_id, id, a.user_id, a.amount);
    return `Certificate ${id} added to user ${a.user_id} with amount ${a.amount}.`;
  },
});
