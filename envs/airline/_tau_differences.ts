// Why results τ-bench recorded in its airline runs can differ from ark's airline world on τ-bench's
// data: a field its data renamed since the runs were recorded, and the one-stop search's second leg,
// which ark takes from the right day (see tools.ts). Read by the import's fidelity report.
import { jsonEqual } from "../json.ts";
import type { Json } from "../json.ts";
import type { TauBenchDifference } from "../tau_files.ts";

// The recorded value with every object key "province" named "state".
function renamed(value: Json): Json {
  if (Array.isArray(value)) return value.map(renamed);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k === "province" ? "state" : k, renamed(v)]));
}

const isObject = (v: Json): v is Record<string, Json> => typeof v === "object" && v !== null && !Array.isArray(v);

// The second leg of a one-stop pair without the details τ-bench reads on the first leg's day.
function withoutDayDetails(leg: Json): Json {
  if (!isObject(leg)) return leg;
  const { status: _s, available_seats: _a, prices: _p, ...rest } = leg;
  return rest;
}

/** The airline's known differences from τ-bench's recorded results. */
export const AIRLINE_TAU_DIFFERENCES: readonly TauBenchDifference[] = [
  {
    name: "address_province",
    reason: 'τ-bench\'s published runs were recorded when its user addresses named the region "province"; ' +
      'τ-bench\'s data, and ark, now name it "state" (the same address otherwise)',
    equivalent: true,
    explains: ({ recorded, result }) => !jsonEqual(recorded, result) && jsonEqual(renamed(recorded), result),
  },
  {
    name: "onestop_second_leg_day",
    reason: "for an overnight connection, τ-bench lists the second leg with its seats and prices of the first " +
      "leg's day; ark lists those of the day the second leg flies (a deliberate ark difference)",
    equivalent: false,
    explains: ({ tool, recorded, result }) => {
      if (tool !== "search_onestop_flight" || !Array.isArray(recorded) || !Array.isArray(result)) return false;
      if (recorded.length !== result.length) return false;
      return recorded.every((pair, i) => {
        const mine = result[i];
        if (!Array.isArray(pair) || !Array.isArray(mine) || pair.length !== 2 || mine.length !== 2) return false;
        if (!jsonEqual(pair[0], mine[0])) return false;
        if (jsonEqual(pair[1], mine[1])) return true;
        const overnight = isObject(pair[0]) && String(pair[0].scheduled_arrival_time_est).endsWith("+1");
        return overnight && jsonEqual(withoutDayDetails(pair[1]), withoutDayDetails(mine[1]));
      });
    },
  },
];
