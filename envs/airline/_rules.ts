// The airline policy's rules as functions, shared by the task generator (gold) and the solver (play),
// so both replay exactly the same decisions. Everything here reads plain JSON values.
import type { Json } from "../json.ts";

/** The simulated time at the start of every episode. */
export const NOW = "2024-05-15T15:00:00";
/** Today's date at `NOW`. */
export const TODAY = "2024-05-15";
/** Insurance price per passenger. */
export const INSURANCE_FEE = 30;
/** Price of one checked bag beyond the free allowance. */
export const BAG_FEE = 50;
/** Most passengers on one reservation. */
export const MAX_PASSENGERS = 5;
/** Cabins from cheapest to dearest. */
export const CABINS = ["basic_economy", "economy", "business"] as const;

export type Cabin = typeof CABINS[number];
export type Membership = "regular" | "silver" | "gold";

/** A flight as `search_direct_flight` lists it (one date's status, seats and prices). */
export interface FlightOffer {
  flight_number: string;
  origin: string;
  destination: string;
  scheduled_departure_time_est: string;
  scheduled_arrival_time_est: string;
  status: string;
  available_seats: Record<Cabin, number>;
  prices: Record<Cabin, number>;
}

/** The fields of a reservation the rules read. */
export interface ReservationView {
  reservation_id: string;
  user_id: string;
  /** The trip's origin and destination, as the reservation look-up shows them. */
  origin?: string;
  destination?: string;
  flight_type: string;
  cabin: Cabin;
  flights: { flight_number: string; date: string; price: number; origin: string; destination: string }[];
  passengers: { first_name: string; last_name: string; dob: string }[];
  payment_history: { payment_id: string; amount: number }[];
  created_at: string;
  total_baggages: number;
  nonfree_baggages: number;
  insurance: string;
  status?: string;
}

/** The fields of a user the rules read. */
export interface UserView {
  membership: Membership;
  payment_methods: Record<string, { source: string; amount?: number; id: string }>;
}

/** The 30 dates every flight has, 2024-05-01 to 2024-05-30. */
export const FLIGHT_DATES: readonly string[] = Array.from(
  { length: 30 },
  (_, i) => fromMs(toMs("2024-05-01") + i * 86_400_000).slice(0, 10),
);

/** Milliseconds since the epoch of a `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM:SS` text, read as UTC. */
export function toMs(text: string): number {
  return Date.parse((text.length === 10 ? `${text}T00:00:00` : text) + "Z");
}

/** The inverse of `toMs()`: `YYYY-MM-DDTHH:MM:SS`. */
export function fromMs(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19);
}

/** A date moved by whole days. */
export function addDays(date: string, days: number): string {
  return fromMs(toMs(date) + days * 86_400_000).slice(0, 10);
}

/** Free checked bags per passenger for a membership level and cabin. */
export function freeBags(membership: Membership, cabin: Cabin): number {
  const table: Record<Membership, Record<Cabin, number>> = {
    regular: { basic_economy: 0, economy: 1, business: 2 },
    silver: { basic_economy: 1, economy: 2, business: 3 },
    gold: { basic_economy: 2, economy: 3, business: 3 },
  };
  return table[membership]?.[cabin] ?? 0;
}

/** Non-free bags of a new booking. */
export function nonfreeBags(totalBags: number, membership: Membership, cabin: Cabin, passengers: number): number {
  return Math.max(0, totalBags - freeBags(membership, cabin) * passengers);
}

/** The price of a new booking: fares, insurance and extra bags. */
export function bookingTotal(fare: number, passengers: number, insurance: string, nonfree: number): number {
  return fare * passengers + (insurance === "yes" ? INSURANCE_FEE * passengers : 0) + BAG_FEE * nonfree;
}

/**
 * Adding bags: bags already checked keep their status, new bags first use what is left of the
 * free allowance, the rest cost `BAG_FEE` each.
 */
export function addBags(
  res: ReservationView,
  membership: Membership,
  extra: number,
): { total_baggages: number; nonfree_baggages: number; cost: number } {
  const allowance = freeBags(membership, res.cabin) * res.passengers.length;
  const freeUsed = res.total_baggages - res.nonfree_baggages;
  const paid = Math.max(0, extra - Math.max(0, allowance - freeUsed));
  return {
    total_baggages: res.total_baggages + extra,
    nonfree_baggages: res.nonfree_baggages + paid,
    cost: BAG_FEE * paid,
  };
}

/** Whether any segment is dated today or earlier (departed, in the air, landed or cancelled by the airline). */
export function hasStarted(res: ReservationView): boolean {
  return res.flights.some((f) => f.date <= TODAY);
}

/** Whether the reservation was made within the 24 hours before `NOW`. */
export function bookedWithin24h(res: ReservationView): boolean {
  return toMs(NOW) - toMs(res.created_at) <= 24 * 3_600_000;
}

/** Whether the policy lets the agent cancel an active, not-yet-started reservation for this reason. */
export function canCancel(res: ReservationView, reason: string): boolean {
  if (bookedWithin24h(res) || res.cabin === "business") return true;
  return res.insurance === "yes" && (reason === "health" || reason === "weather");
}

/** What the agent refunds on cancellation: everything paid so far. */
export function refundAmount(res: ReservationView): number {
  return res.payment_history.reduce((sum, p) => sum + p.amount, 0);
}

/** Whether a user may receive compensation for a disrupted flight on this reservation. */
export function compensationEligible(user: UserView, res: ReservationView): boolean {
  return user.membership !== "regular" || res.insurance === "yes" || res.cabin === "business";
}

/** The certificate amount for a cancelled or delayed flight, or `undefined` for another issue. */
export function compensationAmount(issue: string, passengers: number): number | undefined {
  if (issue === "cancelled") return 100 * passengers;
  if (issue === "delayed") return 50 * passengers;
  return undefined;
}

/** The flight a user who wants "the cheapest direct flight, the earliest if tied" picks, or `undefined`. */
export function cheapestDirect(
  offers: readonly FlightOffer[],
  cabin: Cabin,
  passengers: number,
): FlightOffer | undefined {
  let best: FlightOffer | undefined;
  for (const offer of offers) {
    if (offer.status !== "available" || !((offer.available_seats?.[cabin] ?? 0) >= passengers)) continue;
    const price = offer.prices?.[cabin];
    if (typeof price !== "number") continue;
    if (
      !best || price < best.prices[cabin] ||
      (price === best.prices[cabin] && offer.scheduled_departure_time_est < best.scheduled_departure_time_est)
    ) best = offer;
  }
  return best;
}

/** Whether a payment method may pay (or receive) `amount` for a change to an existing reservation. */
export function canPayChange(method: { source: string; amount?: number } | undefined, amount: number): boolean {
  if (!method) return false;
  if (method.source === "credit_card") return true;
  return method.source === "gift_card" && (method.amount ?? 0) >= amount;
}

/** Whether a single payment method may pay a new booking of `amount`. */
export function canPayBooking(method: { source: string; amount?: number } | undefined, amount: number): boolean {
  if (!method) return false;
  if (method.source === "credit_card") return true;
  return (method.source === "gift_card" || method.source === "certificate") && (method.amount ?? 0) >= amount;
}

/** Total fare change (new minus old, all passengers) when the given legs replace a reservation's legs. */
export function fareDifference(res: ReservationView, newPrices: readonly number[]): number {
  const oldTotal = res.flights.reduce((s, f) => s + f.price, 0);
  const newTotal = newPrices.reduce((s, p) => s + p, 0);
  return (newTotal - oldTotal) * res.passengers.length;
}

/** Why a request goes to a human agent. */
export type TransferWhy = "started" | "out_of_scope";

/** The summary the agent hands to a human agent (the same text in gold and in play). */
export function transferSummary(goal: string, userId: Json, reservationId: Json, why: TransferWhy): string {
  const because = why === "started"
    ? "the reservation has a segment dated today or earlier, so it cannot be changed by an agent"
    : "the agent tools cannot handle this request";
  return `User ${userId ?? "unknown"} asks for ${goal.replaceAll("_", " ")} on reservation ${
    reservationId ?? "unknown"
  }: ${because}`;
}
