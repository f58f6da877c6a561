// Words of the airline playbook: how it names the facts it asks for, amounts and flights.
import { askNames } from "../vocabulary.ts";
import { AIRLINE_VOCABULARY } from "./vocabulary.ts";

/** How the solver names each fact when asking for it: its first name in the airline's vocabulary. */
export const FIELD_TEXT: Record<string, string> = askNames(AIRLINE_VOCABULARY);

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
