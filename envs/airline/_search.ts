// Flight searches and the airport list.
import { z } from "zod";
import { defineTool } from "../tool.ts";
import type { Json } from "../json.ts";
import type { Tool } from "../tool.ts";
import { type FlightDateRow, type FlightRow, toFlightDate, toFlightHead } from "./_read.ts";

const FLIGHT_COLUMNS = [
  "flight_number",
  "origin",
  "destination",
  "scheduled_departure_time_est",
  "scheduled_arrival_time_est",
];
const DATE_COLUMNS = [
  "date",
  "status",
  "seats_basic_economy",
  "seats_economy",
  "seats_business",
  "price_basic_economy",
  "price_economy",
  "price_business",
  "actual_departure_time_est",
  "actual_arrival_time_est",
  "estimated_departure_time_est",
  "estimated_arrival_time_est",
];
const select = (flight: string, date: string, prefix: string) =>
  [
    ...FLIGHT_COLUMNS.map((c) => `${flight}.${c} AS ${prefix}${c}`),
    ...DATE_COLUMNS.map((c) => `${date}.${c} AS ${prefix}${c}`),
  ]
    .join(", ");

const DIRECT = `SELECT ${select("f", "d", "")}
FROM flights f JOIN flight_dates d ON d.flight_number = f.flight_number AND d.date = ?3
WHERE f.origin = ?1 AND f.destination = ?2 AND d.status = 'available'
ORDER BY f.position`;

// The second leg leaves on the first leg's arrival day: the next calendar day after an
// overnight flight ("+1" in its arrival time). τ-bench builds that date by hand and reads the
// second leg's details on the wrong date; this is the corrected behaviour.
const ONE_STOP = `SELECT ${select("f1", "d1", "a_")}, ${select("f2", "d2", "b_")}
FROM flights f1
JOIN flights f2 ON f2.origin = f1.destination AND f2.destination = ?2
JOIN flight_dates d1 ON d1.flight_number = f1.flight_number AND d1.date = ?3
JOIN flight_dates d2 ON d2.flight_number = f2.flight_number
  AND d2.date = CASE WHEN instr(f1.scheduled_arrival_time_est, '+1') > 0 THEN date(?3, '+1 day') ELSE ?3 END
WHERE f1.origin = ?1 AND f1.scheduled_arrival_time_est <= f2.scheduled_departure_time_est
  AND d1.status = 'available' AND d2.status = 'available'
ORDER BY f1.position, f2.position`;

// Airports served, with the city each serves (a fixed list, as in τ-bench).
const AIRPORTS: Record<string, string> = {
  SFO: "San Francisco",
  JFK: "New York",
  LAX: "Los Angeles",
  ORD: "Chicago",
  DFW: "Dallas",
  DEN: "Denver",
  SEA: "Seattle",
  ATL: "Atlanta",
  MIA: "Miami",
  BOS: "Boston",
  PHX: "Phoenix",
  IAH: "Houston",
  LAS: "Las Vegas",
  MCO: "Orlando",
  EWR: "Newark",
  CLT: "Charlotte",
  MSP: "Minneapolis",
  DTW: "Detroit",
  PHL: "Philadelphia",
  LGA: "LaGuardia",
};

type Row = Record<string, string | number | null>;

const searchInput = z.strictObject({
  origin: z.string().describe('Departure airport code, e.g. "JFK"'),
  destination: z.string().describe('Arrival airport code, e.g. "LAX"'),
  date: z.string().describe('Departure date, YYYY-MM-DD, e.g. "2024-05-20"'),
});

// The column names of a leg in a one-stop row: the flight's and the date's, each with the leg's prefix.
interface Prefixed {
  flight: readonly string[];
  date: readonly string[];
}
const prefixed = (prefix: string): Prefixed => ({
  flight: FLIGHT_COLUMNS.map((c) => prefix + c),
  date: DATE_COLUMNS.map((c) => prefix + c),
});
const FIRST_LEG = prefixed("a_"), SECOND_LEG = prefixed("b_");

// The columns `from` of a row under the names `to` (a plain loop: this runs for every result).
function renamed(row: Row, from: readonly string[], to: readonly string[]): Row {
  const out: Row = {};
  for (let i = 0; i < to.length; i++) out[to[i]] = row[from[i]];
  return out;
}

// One search result: the flight without its dates, then that date's status, seats and prices. A direct
// search's row has the columns under their own names; a one-stop row has each leg's under its prefix.
function leg(row: Row, names: Prefixed | null, withDate: boolean): Json {
  const flight = (names ? renamed(row, names.flight, FLIGHT_COLUMNS) : row) as unknown as FlightRow;
  const date = (names ? renamed(row, names.date, DATE_COLUMNS) : row) as unknown as FlightDateRow;
  const out = { ...toFlightHead(flight), ...toFlightDate(date) } as unknown as Record<string, Json>;
  if (withDate) out.date = date.date;
  return out;
}

/** `search_direct_flight`: bookable non-stop flights between two airports on a date. */
export const searchDirectFlight: Tool = defineTool({
  name: "search_direct_flight",
  description: "Find non-stop flights from one airport to another on a date that can still be booked, with " +
    "their schedule, free seats and price per cabin.",
  input: searchInput,
  writes: false,
  run: ({ db }, a) => db.all<Row>(DIRECT, a.origin, a.destination, a.date).map((r) => leg(r, null, false)),
});

/** `search_onestop_flight`: bookable connections with one stop between two airports, leaving on a date. */
export const searchOnestopFlight: Tool = defineTool({
  name: "search_onestop_flight",
  description: "Find connections with exactly one stop from one airport to another, leaving on a date, that " +
    "can still be booked. Each result is a pair of legs, each with its own date, schedule, free seats and " +
    "price per cabin; the second leg leaves the day after when the first arrives after midnight.",
  input: searchInput,
  writes: false,
  run: ({ db }, a) =>
    db.all<Row>(ONE_STOP, a.origin, a.destination, a.date).map((
      r,
    ) => [leg(r, FIRST_LEG, true), leg(r, SECOND_LEG, true)]),
});

/** `list_all_airports`: the airports served and their cities. */
export const listAllAirports: Tool = defineTool({
  name: "list_all_airports",
  description: "List the codes of all airports the airline serves, with the city of each.",
  input: z.strictObject({}),
  writes: false,
  run: () => ({ ...AIRPORTS }),
});
