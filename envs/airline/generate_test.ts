import { assert, assertEquals, assertNotEquals, assertThrows } from "@std/assert";
import { Rng } from "../rng.ts";
import type { AirlineData } from "./data.ts";
import { generateAirline } from "./generate.ts";
import { BAG_FEE, FLIGHT_DATES, INSURANCE_FEE, NOW, TODAY } from "./_rules.ts";
import { tauBenchTests } from "../../tests/fixtures/tau_bench.ts";

const data = generateAirline(new Rng("0").child("world"), 1);

Deno.test("generateAirline() gives identical data for the same seed and different data for another", () => {
  const again = generateAirline(new Rng("0").child("world"), 1);
  assertEquals(JSON.stringify(again), JSON.stringify(data));
  const other = generateAirline(new Rng("1").child("world"), 1);
  assertNotEquals(JSON.stringify(other.reservations), JSON.stringify(data.reservations));
  assertNotEquals(JSON.stringify(other.users), JSON.stringify(data.users));
});

Deno.test("generateAirline() has τ-bench's size at scale 1 and ten times it at scale 10", () => {
  assertEquals(Object.keys(data.flights).length, 300);
  assertEquals(Object.keys(data.users).length, 500);
  const n = Object.keys(data.reservations).length;
  assert(n >= 1950 && n <= 2000, `${n} reservations`);
  assertEquals(Object.keys(data.flights)[0], "HAT001");
  assertEquals(Object.keys(data.flights).at(-1), "HAT300");
  const big = generateAirline(new Rng("0").child("world"), 10);
  assertEquals(Object.keys(big.flights).length, 3000);
  assertEquals(Object.keys(big.users).length, 5000);
  assert(Object.keys(big.reservations).length >= 19_500);
});

Deno.test("generateAirline() rejects a scale that is not positive", () => {
  assertThrows(() => generateAirline(new Rng("0"), 0), RangeError, "scale 0");
  assertThrows(() => generateAirline(new Rng("0"), Number.NaN), RangeError);
});

Deno.test("generateAirline() gives every flight 30 dates with statuses as of 2024-05-15 15:00", () => {
  const seen = new Set<string>();
  for (const f of Object.values(data.flights)) {
    assertEquals(Object.keys(f.dates), [...FLIGHT_DATES]);
    assert(/^\d\d:\d\d:00(\+1)?$/.test(f.scheduled_arrival_time_est), f.scheduled_arrival_time_est);
    assertNotEquals(f.origin, f.destination);
    for (const [date, d] of Object.entries(f.dates)) {
      seen.add(d.status);
      if (date < TODAY) assert(d.status === "landed" || d.status === "cancelled", `${f.flight_number} ${date}`);
      if (date === TODAY) assert(["landed", "flying", "delayed", "on time"].includes(d.status), d.status);
      if (date > TODAY) {
        assertEquals(d.status, "available");
        const p = d.prices!;
        assert(p.business > p.economy && p.economy > p.basic_economy, JSON.stringify(p));
        assert(d.available_seats!.economy >= 0 && d.available_seats!.economy <= 20);
      } else assertEquals(d.prices, undefined);
    }
  }
  assertEquals(seen.size, 6);
  const overnight = Object.values(data.flights).filter((f) => f.scheduled_arrival_time_est.endsWith("+1")).length;
  assert(overnight > 0 && overnight < 100, `${overnight} overnight flights`);
});

Deno.test("generateAirline() keeps users and reservations consistent", () => {
  const ids = new Set<string>();
  for (const [userId, u] of Object.entries(data.users)) {
    assert(Object.keys(u.payment_methods).length >= 1 && Object.keys(u.payment_methods).length <= 4);
    for (const [pid, m] of Object.entries(u.payment_methods)) {
      assertEquals(m.id, pid);
      assert(pid.startsWith(`${m.source}_`) && !ids.has(pid), pid);
      ids.add(pid);
    }
    for (const id of u.reservations) assertEquals(data.reservations[id].user_id, userId);
  }
  for (const [id, r] of Object.entries(data.reservations)) {
    assertEquals(r.reservation_id, id);
    const owner = data.users[r.user_id];
    assert(owner, `owner of ${id}`);
    assertEquals(owner.reservations.filter((x) => x === id).length, 1);
    assert(r.passengers.length >= 1 && r.passengers.length <= 5);
    assert(r.created_at < NOW, r.created_at);
    assert(
      r.created_at < `${r.flights[0].date}T${data.flights[r.flights[0].flight_number].scheduled_departure_time_est}`,
    );
    assertEquals(r.origin, r.flights[0].origin);
    assertEquals(r.flight_type === "round_trip" ? r.origin : r.destination, r.flights.at(-1)!.destination);
    for (const leg of r.flights) {
      const f = data.flights[leg.flight_number];
      assertEquals([leg.origin, leg.destination], [f.origin, f.destination]);
      const day = f.dates[leg.date];
      if (day.status === "available") assertEquals(leg.price, day.prices![r.cabin], `${id} ${leg.flight_number}`);
    }
    assertEquals(r.payment_history.length, 1);
    const [paid] = r.payment_history;
    assert(owner.payment_methods[paid.payment_id]?.source !== "certificate", paid.payment_id);
    const fare = r.flights.reduce((s, f) => s + f.price, 0) * r.passengers.length;
    const insurance = r.insurance === "yes" ? INSURANCE_FEE * r.passengers.length : 0;
    assertEquals(paid.amount, fare + insurance + BAG_FEE * r.nonfree_baggages, id);
    assert(r.nonfree_baggages <= r.total_baggages);
  }
});

Deno.test("generateAirline() has some reservations booked within the last 24 hours, some started, some round trips", () => {
  const all = Object.values(data.reservations);
  const share = (test: (r: typeof all[number]) => boolean) => all.filter(test).length / all.length;
  const recent = share((r) => r.created_at >= "2024-05-14T15:00:00");
  assert(recent > 0.005 && recent < 0.1, `recent ${recent}`);
  const started = share((r) => r.flights[0].date <= TODAY);
  assert(started > 0.2 && started < 0.6, `started ${started}`);
  const round = share((r) => r.flight_type === "round_trip");
  assert(round > 0.3 && round < 0.6, `round trips ${round}`);
});

// Read at test time from τ-bench's folder; skipped without it.
const tauBench = tauBenchTests("airline");

tauBench.test({
  name: "generateAirline() has distributions close to τ-bench's db.json",
  fn: () => {
    const tau = JSON.parse(Deno.readTextFileSync(`${tauBench.folder}/db.json`)) as AirlineData;
    const stats = (d: AirlineData) => {
      const rs = Object.values(d.reservations), us = Object.values(d.users);
      const mean = <T>(xs: T[], f: (x: T) => number) => xs.reduce((s, x) => s + f(x), 0) / xs.length;
      return [
        mean(rs, (r) => r.passengers.length),
        mean(rs, (r) => r.cabin === "business" ? 1 : 0),
        mean(rs, (r) => r.insurance === "yes" ? 1 : 0),
        mean(rs, (r) => r.flights.length),
        mean(us, (u) => u.membership === "regular" ? 1 : 0),
        mean(us, (u) => u.reservations.length),
      ];
    };
    const [ours, theirs] = [stats(data), stats(tau)];
    ours.forEach((x, i) =>
      assert(Math.abs(x - theirs[i]) <= 0.25 * Math.max(theirs[i], 0.1), `stat ${i}: ${x} vs ${theirs[i]}`)
    );
  },
});
