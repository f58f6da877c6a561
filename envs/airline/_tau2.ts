// τ²-bench's copy of the airline world: its tool τ-bench lacks (`get_flight_status`), its
// `update_reservation_flights`, which stores the new cabin (τ-bench's keeps the old one), its
// `book_reservation`, which takes the booked seats from each flight's availability (τ-bench's leaves
// it), and why the results τ² recorded can differ from ark's on the same data. Read by the τ² import (`tau2Bench`).
import { z } from "zod";
import { jsonEqual } from "../json.ts";
import type { Json } from "../json.ts";
import { defineTool, type Tool, ToolError } from "../tool.ts";
import { extraFieldDifference, tau2CommonDifferences, type TauBenchDifference } from "../tau_files.ts";
import { updateReservationFlights } from "./_change.ts";
import { bookReservation } from "./_book.ts";
import { reservationResult } from "./_common.ts";

const FLIGHT_STATUS = "SELECT status FROM flight_dates WHERE flight_number = ? AND date = ?";
const FLIGHT_EXISTS = "SELECT 1 AS x FROM flights WHERE flight_number = ?";

/** τ²'s `get_flight_status`: the status of a flight on a date (τ²'s wording for what is not there). */
export const getFlightStatus: Tool = defineTool({
  name: "get_flight_status",
  description: "The status of a flight on a date: available, on time, delayed, flying, landed or cancelled.",
  input: z.strictObject({
    flight_number: z.string().describe('The flight number, e.g. "HAT001"'),
    date: z.string().describe("The date, YYYY-MM-DD"),
  }),
  writes: false,
  run: ({ db }, a) => {
    const row = db.get<{ status: string }>(FLIGHT_STATUS, a.flight_number, a.date);
    if (row !== undefined) return row.status;
    if (db.get(FLIGHT_EXISTS, a.flight_number) === undefined) {
      throw new ToolError("not_found", `Flight ${a.flight_number} not found`);
    }
    throw new ToolError("not_found", `Flight ${a.flight_number} not found on date ${a.date}`);
  },
});

const SET_CABIN = "UPDATE reservations SET cabin = ? WHERE reservation_id = ?";

/** τ²'s `update_reservation_flights`: τ-bench's, and the reservation then holds the new cabin. */
export const updateReservationFlightsTau2: Tool = {
  ...updateReservationFlights,
  run: (ctx, a) => {
    const args = a as { reservation_id: string; cabin: string };
    updateReservationFlights.run(ctx, a);
    ctx.db.run(SET_CABIN, args.cabin, args.reservation_id);
    return reservationResult(ctx.db, args.reservation_id);
  },
};

const TAKE_SEATS: Record<string, string> = Object.fromEntries(
  ["basic_economy", "economy", "business"].map((c) => [
    c,
    `UPDATE flight_dates SET seats_${c} = seats_${c} - ? WHERE flight_number = ? AND date = ?`,
  ]),
);

/** τ²'s `book_reservation`: τ-bench's, and each booked flight then has that many fewer seats in the cabin. */
export const bookReservationTau2: Tool = {
  ...bookReservation,
  run: (ctx, a) => {
    const args = a as { cabin: string; passengers: unknown[]; flights: { flight_number: string; date: string }[] };
    const result = bookReservation.run(ctx, a);
    // Once per listed flight, as τ² does (after every check passed and the reservation was written).
    for (const f of args.flights) ctx.db.run(TAKE_SEATS[args.cabin], args.passengers.length, f.flight_number, f.date);
    return result;
  },
};

const isObject = (v: Json): v is Record<string, Json> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The airline world's known differences from τ²-bench's recorded results. */
export const AIRLINE_TAU2_DIFFERENCES: readonly TauBenchDifference[] = [
  extraFieldDifference({
    name: "user_record_user_id",
    reason: "τ²-bench's user records hold the user's own user_id; τ-bench's data, and ark, do not (the same " +
      "user otherwise)",
    tools: ["get_user_details"],
    field: "user_id",
  }),
  {
    name: "airports_as_list",
    reason: "τ²-bench lists the airports as [{iata, city}]; ark, as τ-bench, as one object from code to city " +
      "(the same airports)",
    equivalent: true,
    explains: ({ tool, recorded, result }) =>
      tool === "list_all_airports" && Array.isArray(recorded) && recorded.every(isObject) &&
      jsonEqual(Object.fromEntries(recorded.map((a) => [String(a.iata), a.city])), result),
  },
  ...tau2CommonDifferences(),
];
