import { assertEquals, assertThrows } from "@std/assert";
import { Store } from "../sqlite.ts";
import { Clock } from "../clock.ts";
import { Rng } from "../rng.ts";
import { toolParameters } from "../tool.ts";
import type { Json } from "../json.ts";
import type { AirlineData } from "./data.ts";
import { airlineRows } from "./_rows.ts";
import { AIRLINE_SCHEMA } from "./schema.ts";
import { airlineTools } from "./tools.ts";
import { call, fails, res, tauAirline } from "./_test_utils.ts";
import { tauBenchTests } from "../../tests/fixtures/tau_bench.ts";

// Tests registered with `tau.test` run on τ-bench's airline data and are skipped without them.
const tau = tauBenchTests("airline");
const { bookable, data, future, users, userWith, world } = tauAirline(tau.present ? tau.root : null);

tau.test("airlineTools has τ-bench's names, parameters, write and end flags", () => {
  const spec = JSON.parse(Deno.readTextFileSync(`${tau.folder}/tools.json`)) as {
    name: string;
    writes_db: boolean;
    terminates_episode: boolean;
    schema: { function: { parameters: { properties: Record<string, unknown>; required?: string[] } } };
  }[];
  const shape = (name: string, writes: boolean, ends: boolean, p: { properties: object; required?: string[] }) => ({
    name,
    writes,
    ends,
    properties: Object.keys(p.properties).sort(),
    required: [...(p.required ?? [])].sort(),
  });
  assertEquals(
    airlineTools.map((t) => {
      const p = toolParameters(t) as { properties: object; required?: string[] };
      return shape(t.name, t.writes, t.terminates, p);
    }),
    spec.map((s) => shape(s.name, s.writes_db, s.terminates_episode, s.schema.function.parameters)),
  );
});

tau.test("read tools run with writes refused and change nothing", () => {
  using ctx = world();
  using tracker = ctx.db.track();
  const [userId, u] = users[0];
  call(ctx, "get_user_details", { user_id: userId });
  call(ctx, "get_reservation_details", { reservation_id: u.reservations[0] });
  call(ctx, "search_direct_flight", { origin: "JFK", destination: "SEA", date: "2024-05-20" });
  call(ctx, "search_onestop_flight", { origin: "JFK", destination: "SEA", date: "2024-05-20" });
  call(ctx, "list_all_airports");
  call(ctx, "calculate", { expression: "1 + 1" });
  call(ctx, "think", { thought: "x" });
  assertEquals(tracker.changes(), []);
  // The same refusal a read tool would meet: a write tool run under the read-only mode fails.
  const cancel = airlineTools.find((t) => t.name === "cancel_reservation")!;
  assertThrows(() => ctx.db.readOnly(() => cancel.run(ctx, { reservation_id: u.reservations[0] })), Error, "authoriz");
  assertEquals(res(ctx, u.reservations[0]).status, undefined);
});

tau.test("tools reject invalid arguments with invalid_args naming the field", () => {
  using ctx = world();
  const [code, message] = fails(ctx, "update_reservation_baggages", {
    reservation_id: future.reservation_id,
    total_baggages: 1.5,
    nonfree_baggages: 0,
    payment_id: "x",
  });
  assertEquals(code, "invalid_args");
  assertEquals(message.includes('"total_baggages"'), true, message);
  assertEquals(
    fails(ctx, "update_reservation_flights", { reservation_id: "X", cabin: "first", flights: [], payment_id: "x" })[1]
      .includes('"cabin"'),
    true,
  );
  assertEquals(fails(ctx, "cancel_reservation", {})[1].includes('"reservation_id"'), true);
  assertEquals(fails(ctx, "cancel_reservation", { reservation_id: "X", reason: "y" })[1].includes('"reason"'), true);
  assertEquals(
    fails(ctx, "update_reservation_passengers", { reservation_id: "X", passengers: [{ first_name: "A" }] })[1].includes(
      '"passengers[0].last_name"',
    ),
    true,
  );
});

tau.test("getReservationDetails() returns the db.json record and says 'user not found' for an unknown id", () => {
  using ctx = world();
  assertEquals(
    call(ctx, "get_reservation_details", { reservation_id: future.reservation_id }),
    future as unknown as Json,
  );
  assertEquals(fails(ctx, "get_reservation_details", { reservation_id: "NOSUCH" }), ["not_found", "user not found"]);
});

tau.test("getUserDetails() returns the db.json record", () => {
  using ctx = world();
  const [userId, u] = userWith("gift_card", "certificate", "credit_card");
  assertEquals(call(ctx, "get_user_details", { user_id: userId }), u as unknown as Json);
  assertEquals(fails(ctx, "get_user_details", { user_id: "nobody" }), ["not_found", "user not found"]);
});

tau.test("listAllAirports() lists 20 airports with their cities", () => {
  using ctx = world();
  const airports = call(ctx, "list_all_airports") as Record<string, string>;
  assertEquals(Object.keys(airports).length, 20);
  assertEquals([Object.keys(airports)[0], airports.SFO, airports.LGA], ["SFO", "San Francisco", "LaGuardia"]);
});

tau.test("searchDirectFlight() lists bookable non-stop flights in table order", () => {
  using ctx = world();
  for (const [origin, destination, date] of [["JFK", "SEA", "2024-05-20"], ["SFO", "JFK", "2024-05-16"]]) {
    const expected = bookable.filter((b) => b.f.origin === origin && b.f.destination === destination && b.date === date)
      .map(({ f, d }) => {
        const { dates: _, ...head } = f;
        return { ...head, ...d };
      });
    assertEquals(call(ctx, "search_direct_flight", { origin, destination, date }), expected as unknown as Json);
  }
  assertEquals(call(ctx, "search_direct_flight", { origin: "JFK", destination: "SEA", date: "2024-05-10" }), []);
});

tau.test("searchOnestopFlight() gives the second leg of an overnight connection the next day's details", () => {
  using ctx = world();
  const results = call(ctx, "search_onestop_flight", { origin: "LGA", destination: "MCO", date: "2024-05-20" }) as {
    flight_number: string;
    date: string;
    prices: unknown;
    scheduled_arrival_time_est: string;
  }[][];
  const overnight = results.filter(([a]) => a.scheduled_arrival_time_est.includes("+1"));
  assertEquals(overnight.length > 0, true);
  for (const [a, b] of overnight) {
    assertEquals([a.date, b.date], ["2024-05-20", "2024-05-21"]);
    assertEquals(b.prices, data.flights[b.flight_number].dates["2024-05-21"].prices);
  }
  for (const [a, b] of results.filter(([a]) => !a.scheduled_arrival_time_est.includes("+1"))) {
    assertEquals([a.date, b.date], ["2024-05-20", "2024-05-20"]);
  }
});

tau.test("searchOnestopFlight() matches a direct scan of the data in table order", () => {
  using ctx = world();
  const flights = Object.values(data.flights);
  const nextDay = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  const legOf = (f: (typeof flights)[number], date: string) => {
    const { dates, ...head } = f;
    return { ...head, ...dates[date], date };
  };
  const queries = [["JFK", "SEA", "2024-05-20"], ["LGA", "MCO", "2024-05-29"], ["SFO", "SFO", "2024-05-17"]];
  for (const [origin, destination, date] of queries) {
    const expected = flights.filter((f1) => f1.origin === origin).flatMap((f1) =>
      flights.filter((f2) =>
        f2.destination === destination && f2.origin === f1.destination &&
        f1.scheduled_arrival_time_est <= f2.scheduled_departure_time_est
      ).flatMap((f2) => {
        const d2 = f1.scheduled_arrival_time_est.includes("+1") ? nextDay(date) : date;
        const ok = f1.dates[date]?.status === "available" && f2.dates[d2]?.status === "available";
        return ok ? [[legOf(f1, date), legOf(f2, d2)]] : [];
      })
    );
    assertEquals(expected.length > 0, true, `${origin} ${destination}`);
    assertEquals(call(ctx, "search_onestop_flight", { origin, destination, date }), expected as unknown as Json);
  }
});

Deno.test("searchOnestopFlight() takes the real next calendar day across a month end", () => {
  const flight = (n: string, o: string, d: string, dep: string, arr: string, dates: string[]) => ({
    flight_number: n,
    origin: o,
    destination: d,
    scheduled_departure_time_est: dep,
    scheduled_arrival_time_est: arr,
    dates: Object.fromEntries(dates.map((x, i) => [x, {
      status: "available" as const,
      available_seats: { basic_economy: 1, economy: 2, business: 3 },
      prices: { basic_economy: 10 + i, economy: 20 + i, business: 30 + i },
    }])),
  });
  const tiny: AirlineData = {
    flights: {
      A1: flight("A1", "AAA", "BBB", "22:00:00", "01:00:00+1", ["2024-05-31"]),
      B1: flight("B1", "BBB", "CCC", "02:00:00", "03:00:00", ["2024-05-31", "2024-06-01"]),
    },
    reservations: {},
    users: {},
  };
  using db = Store.open(AIRLINE_SCHEMA);
  db.insert(airlineRows(tiny));
  const ctx = { db, clock: new Clock("2024-05-15T15:00:00"), rng: new Rng(0) };
  const [[a, b]] = call(ctx, "search_onestop_flight", { origin: "AAA", destination: "CCC", date: "2024-05-31" }) as {
    date: string;
    prices: { economy: number };
  }[][];
  assertEquals([a.date, b.date, b.prices.economy], ["2024-05-31", "2024-06-01", 21]);
});

tau.test("think() and transferToHumanAgents() return their fixed texts; only the transfer ends the episode", () => {
  using ctx = world();
  assertEquals(call(ctx, "think", { thought: "plan" }), "");
  assertEquals(call(ctx, "transfer_to_human_agents", { summary: "help" }), "Transfer successful");
  assertEquals(airlineTools.filter((t) => t.terminates).map((t) => t.name), ["transfer_to_human_agents"]);
});
