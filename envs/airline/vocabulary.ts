/**
 * How the airline's customers and agents name things (`Domain.vocabulary`): the fields of a
 * conversation about flights, in the vocabulary τ-bench's airline transcripts were labelled in
 * (user id, reservation id, name, date of birth, email, payment method, origin, destination, date,
 * cabin, trip type, passengers, baggage, insurance, flight choice, reason, membership, other),
 * which of them each task fact is, and the changes an agent may propose. The playbook asks for a
 * fact by its first name here.
 *
 * @module
 */
import type { Vocabulary } from "../vocabulary.ts";

/** The airline's vocabulary. */
export const AIRLINE_VOCABULARY: Vocabulary = {
  fields: {
    user_id: {
      names: ["user id", "user ID", "customer id", "account id", "profile id", "member id", "username", "user name"],
      values: [/\b[a-z]+_[a-z]+_\d{3,5}\b/],
    },
    reservation_id: {
      names: [
        "reservation id",
        "reservation number",
        "reservation code",
        "reservation",
        "booking id",
        "booking number",
        "booking reference",
        "booking code",
        "confirmation code",
        "confirmation number",
        "record locator",
      ],
      // Six letters and digits with at least one digit, not a flight number ("HAT136").
      values: [/\b(?!HAT\d{3}\b)(?=[A-Z0-9]{0,5}\d)[A-Z0-9]{6}\b/],
      describe: "your trip from {origin} to {destination}",
    },
    name: { names: ["name", "first name", "last name", "full name", "surname", "family name", "given name"] },
    date_of_birth: { names: ["date of birth", "birth date", "birthdate", "birthday", "dob", "born"], kind: "date" },
    email: { names: ["email", "e-mail", "email address", "mail"], values: [/[\w.+-]+@[\w-]+(?:\.[\w-]+)+/] },
    payment_method: {
      names: [
        "payment method",
        "payment",
        "pay",
        "card",
        "credit card",
        "debit card",
        "gift card",
        "certificate",
        "paypal",
        "payment id",
      ],
      values: [/\b(?:credit_card|gift_card|certificate|paypal)_\d+\b/i, /\bending (?:in |with )?\d{4}\b/i],
    },
    origin: { names: ["origin", "departure airport", "departure city", "origin airport", "where you are flying from"] },
    destination: { names: ["destination", "arrival airport", "arrival city", "destination airport", "where to"] },
    date: { names: ["date", "travel date", "departure date", "flight date", "day", "dates"], kind: "date" },
    cabin: {
      names: ["cabin", "cabin class", "class", "fare class", "seat class", "class of service", "fare"],
      words: ["basic economy", "economy", "business", "first class"],
    },
    trip_type: {
      names: ["trip type", "type of trip", "one way or round trip", "one-way or round-trip"],
      words: ["one way", "one-way", "round trip", "round-trip", "return trip"],
    },
    passengers: {
      names: ["passengers", "passenger", "travelers", "travellers", "traveler", "traveller", "people", "who is flying"],
    },
    baggage: {
      names: ["bags", "bag", "baggage", "baggages", "checked bags", "luggage", "suitcases", "suitcase"],
      kind: "count",
    },
    insurance: { names: ["insurance", "travel insurance", "trip insurance"] },
    flight_choice: { names: ["flight option", "option", "which flight", "which flights", "flights"] },
    reason: { names: ["reason", "reason for cancellation", "reason for cancelling", "why"] },
    membership: { names: ["membership", "membership level", "membership status", "member status", "tier"] },
    other: { names: ["details", "information"] },
  },
  facts: {
    user_id: { field: "user_id", names: ["user id"], proposed: false },
    reservation_id: { field: "reservation_id", names: ["reservation id"] },
    reason: {
      field: "reason",
      names: ["reason for cancelling (change of plan, airline cancelled a flight, health, weather or other)"],
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
    issue: { field: "reason", names: ["what happened to the flight", "what happened"] },
    new_passenger: { field: "passengers", names: ["new passenger's details", "new passenger"] },
    remove_bags: { field: "baggage", names: ["number of bags to remove", "bags to remove"], proposed: false },
    preference: { field: "other", names: ["preference"] },
  },
  actions: {
    book: { words: ["book", "booking", "reserve", "purchase", "buy"], tools: ["book_reservation"] },
    cancel: { words: ["cancel", "cancellation", "cancelling", "canceling", "call off"], tools: ["cancel_reservation"] },
    change_flights: {
      words: ["change flights", "change the flight", "new flights", "rebook", "reschedule", "move", "switch flights"],
      tools: ["update_reservation_flights"],
    },
    change_cabin: {
      words: ["upgrade", "downgrade", "cabin", "class", "business", "economy"],
      tools: ["update_reservation_flights"],
    },
    change_baggage: { words: ["bags", "bag", "baggage", "luggage"], tools: ["update_reservation_baggages"] },
    change_passengers: {
      words: ["passenger", "passengers", "name", "date of birth"],
      tools: ["update_reservation_passengers"],
    },
    send_certificate: { words: ["certificate", "voucher", "compensation", "credit"], tools: ["send_certificate"] },
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
