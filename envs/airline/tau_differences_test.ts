import { assertEquals } from "@std/assert";
import { airline } from "./mod.ts";

const differences = airline.tauBench!.differences!;
const explain = (tool: string, recorded: unknown, result: unknown) =>
  differences.filter((d) => d.explains({ tool, args: {}, recorded: recorded as never, result: result as never }))
    .map((d) => d.name);

const address = (region: "state" | "province", zip = "78750") => ({
  name: { first_name: "Mia" },
  address: { city: "Austin", [region]: "TX", zip },
});
const leg = (flight: string, arrival: string, economy: number) => ({
  flight_number: flight,
  scheduled_arrival_time_est: arrival,
  available_seats: { economy: 10 },
  prices: { economy },
});

Deno.test("the airline's known τ-bench differences explain only what they name", () => {
  // τ-bench's older "province" is ark's "state", and nothing else may differ.
  assertEquals(explain("get_user_details", address("province"), address("state")), ["address_province"]);
  assertEquals(explain("get_user_details", address("province", "78751"), address("state")), []);
  assertEquals(explain("get_user_details", address("state"), address("state")), []);
  // An overnight first leg: the second leg's seats and prices may be of another day.
  const overnight = [leg("HAT112", "01:00:00+1", 135), leg("HAT047", "15:30:00", 165)];
  const arks = [leg("HAT112", "01:00:00+1", 135), leg("HAT047", "15:30:00", 126)];
  assertEquals(explain("search_onestop_flight", [overnight], [arks]), ["onestop_second_leg_day"]);
  // Not for a same-day connection, another flight, the first leg or another tool.
  const sameDay = [leg("HAT112", "11:00:00", 135), leg("HAT047", "15:30:00", 165)];
  assertEquals(explain("search_onestop_flight", [sameDay], [[sameDay[0], arks[1]]]), []);
  assertEquals(explain("search_onestop_flight", [overnight], [[arks[0], leg("HAT048", "15:30:00", 126)]]), []);
  assertEquals(explain("search_onestop_flight", [overnight], [[leg("HAT112", "01:00:00+1", 99), arks[1]]]), []);
  assertEquals(explain("search_direct_flight", [overnight], [arks]), []);
});
