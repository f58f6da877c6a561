// Words of the airline playbook: how it names the facts it asks for, amounts and flights.

/** How the solver names each fact when asking for it. */
export const FIELD_TEXT: Record<string, string> = {
  user_id: "user id",
  reservation_id: "reservation id",
  reason: "reason for cancelling (change of plan, airline cancelled a flight, health, weather or other)",
  direction: "flight to move (outbound or return)",
  new_date: "new travel date",
  payment_id: "payment method id",
  new_cabin: "new cabin (basic economy, economy or business)",
  extra_bags: "number of checked bags to add",
  passenger_name: "passenger's name as booked",
  new_first_name: "corrected first name",
  new_last_name: "corrected last name",
  new_dob: "corrected date of birth",
  flight_type: "trip type (one way or round trip)",
  origin: "departure airport",
  destination: "arrival airport",
  date: "travel date",
  cabin: "cabin (basic economy, economy or business)",
  passengers: "passengers (first name, last name and date of birth of each)",
  insurance: "choice about travel insurance ($30 per passenger)",
  total_baggages: "number of checked bags",
  flight_number: "flight number",
  issue: "what happened to the flight",
  new_passenger: "new passenger's details",
  remove_bags: "number of bags to remove",
};

/** Words for a fare difference: a charge, a refund, or nothing. */
export function difference(amount: number, paymentId: string): string {
  if (amount > 0) return `$${amount} will be charged to ${paymentId}`;
  if (amount < 0) return `$${-amount} will be refunded to ${paymentId}`;
  return "there is no price difference";
}

/** A list of flights as words. */
export function legs(flights: readonly { flight_number: string; date: string }[]): string {
  return flights.map((f) => `${f.flight_number} on ${f.date}`).join(", ");
}

/** A cabin's name in words. */
export function cabinName(cabin: string): string {
  return cabin.replaceAll("_", " ");
}
