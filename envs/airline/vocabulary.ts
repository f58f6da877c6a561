/**
 * How the airline's customers and agents name things (`Domain.vocabulary`): the fields of a
 * conversation about flights, in the vocabulary τ-bench's airline transcripts were labelled in
 * (user id, reservation id, name, date of birth, email, payment method, origin, destination, date,
 * cabin, trip type, passengers, baggage, insurance, flight choice, reason, membership, other),
 * which of them each task fact is, and the changes an agent may propose. The playbook asks for a
 * fact by its first name here. The fields are those of the customer (`_vocabulary_customer.ts`) and of the
 * trip (`_vocabulary_trip.ts`).
 *
 * @module
 */
import type { Vocabulary } from "../vocabulary.ts";
import { CUSTOMER_FIELDS } from "./_vocabulary_customer.ts";
import { TRIP_FIELDS } from "./_vocabulary_trip.ts";

/** The airline's vocabulary. */
export const AIRLINE_VOCABULARY: Vocabulary = {
  fields: { ...CUSTOMER_FIELDS, ...TRIP_FIELDS },
  facts: {
    user_id: { field: "user_id", names: ["user id"], proposed: false },
    reservation_id: { field: "reservation_id", names: ["reservation id"] },
    // A proposal or a report of a cancellation does not state the reason it is for ("cancelled" is the change).
    reason: {
      field: "reason",
      names: ["reason for cancelling (change of plan, airline cancelled a flight, health, weather or other)"],
      proposed: false,
    },
    direction: {
      field: "flight_choice",
      names: ["flight to move (outbound or return)", "outbound or return", "which flight to move", "segment"],
    },
    new_date: { field: "date", names: ["new travel date", "new date", "new flight date", "new departure date"] },
    payment_id: { field: "payment_method", names: ["payment method id", "payment method"] },
    new_cabin: { field: "cabin", names: ["new cabin (basic economy, economy or business)", "new cabin", "cabin"] },
    extra_bags: {
      field: "baggage",
      names: ["number of checked bags to add", "bags to add", "extra bags"],
      proposed: false,
    },
    passenger_name: { field: "name", names: ["passenger's name as booked", "passenger's name", "passenger name"] },
    new_first_name: { field: "name", names: ["corrected first name", "new first name", "first name"] },
    new_last_name: { field: "name", names: ["corrected last name", "new last name", "last name"] },
    new_dob: { field: "date_of_birth", names: ["corrected date of birth", "new date of birth", "date of birth"] },
    flight_type: { field: "trip_type", names: ["trip type (one way or round trip)", "trip type"] },
    origin: { field: "origin", names: ["departure airport", "origin"] },
    destination: { field: "destination", names: ["arrival airport", "destination"] },
    date: { field: "date", names: ["travel date", "date"] },
    cabin: { field: "cabin", names: ["cabin (basic economy, economy or business)", "cabin"] },
    passengers: {
      field: "passengers",
      names: ["passengers (first name, last name and date of birth of each)", "passengers"],
    },
    insurance: { field: "insurance", names: ["choice about travel insurance ($30 per passenger)", "insurance"] },
    total_baggages: { field: "baggage", names: ["number of checked bags", "checked bags"] },
    flight_number: { field: "other", names: ["flight number"] },
    issue: { field: "reason", names: ["what happened to the flight", "what happened"], proposed: false },
    new_passenger: { field: "passengers", names: ["new passenger's details", "new passenger"] },
    remove_bags: { field: "baggage", names: ["number of bags to remove", "bags to remove"], proposed: false },
    preference: { field: "other", names: ["preference"] },
  },
  actions: {
    book: { words: ["book", "booking", "reserve", "purchase", "buy", "new booking"], tools: ["book_reservation"] },
    cancel: { words: ["cancel", "cancellation", "cancelling", "canceling", "call off"], tools: ["cancel_reservation"] },
    change_flights: {
      words: [
        "change flights",
        "change the flight",
        "new flights",
        "rebook",
        "reschedule",
        "move flight",
        "move return",
        "move outbound",
        "new itinerary",
        "updated itinerary",
        "switch flights",
        "flight change",
        "change date",
        "this flight",
        "these flights",
        "that flight",
        "this option",
        "flight number",
        "outgoing flight",
        "outbound flight",
        "return flight",
        "nonstop flight",
        "earlier flight",
        "later flight",
      ],
      tools: ["update_reservation_flights"],
      includes: ["change_cabin", "change_baggage"],
    },
    change_cabin: {
      words: [
        "upgrade",
        "downgrade",
        "cabin",
        "class",
        "business",
        "economy",
        "basic economy",
        "change cabin",
        "cabin change",
      ],
      tools: ["update_reservation_flights"],
    },
    change_baggage: {
      words: [
        "bags",
        "bag",
        "baggage",
        "luggage",
        "add bags",
        "remove bags",
        "set bags",
        "reduce bags",
        "checked bags",
      ],
      tools: ["update_reservation_baggages"],
    },
    change_passengers: {
      words: [
        "passenger",
        "passengers",
        "name",
        "date of birth",
        "update passenger",
        "change passenger",
        "add passenger",
        "change name",
        "correct name",
        "passenger change",
        "name change",
      ],
      tools: ["update_reservation_passengers"],
    },
    send_certificate: {
      words: [
        "certificate",
        "voucher",
        "compensation",
        "credit",
        "issue certificate",
        "send certificate",
        "travel certificate",
        "offer certificate",
      ],
      tools: ["send_certificate"],
    },
  },
  goals: {
    cancel_reservation: "cancel",
    change_flights: "change_flights",
    change_cabin: "change_cabin",
    add_bags: "change_baggage",
    remove_bags: "change_baggage",
    update_passenger: "change_passengers",
    add_passenger: "change_passengers",
    book_flight: "book",
    compensation: "send_certificate",
    add_insurance: null,
    report_lost_bag: null,
  },
};
