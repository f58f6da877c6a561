import { assertEquals } from "@std/assert";
import type { Json } from "../json.ts";
import type { Reservation } from "./data.ts";
import { readFlight } from "./_read.ts";
import { call, fails, methodOf, tauAirline, user } from "./_test_utils.ts";
import { tauBenchTests } from "../../tests/fixtures/tau_bench.ts";

// Tests registered with `tau.test` run on τ-bench's airline data and are skipped without them.
const tau = tauBenchTests("airline");
const { data, future, users, world } = tauAirline(tau.present ? tau.root : null);

tau.test("cancelReservation() appends a negation of every payment and marks the reservation cancelled", () => {
  using ctx = world();
  const id = future.reservation_id;
  const paid = future.payment_history;
  assertEquals(fails(ctx, "cancel_reservation", { reservation_id: "NOSUCH" }), ["not_found", "reservation not found"]);
  const once = call(ctx, "cancel_reservation", { reservation_id: id }) as unknown as Reservation;
  const refunds = paid.map((p) => ({ payment_id: p.payment_id, amount: -p.amount }));
  assertEquals(once, { ...future, payment_history: [...paid, ...refunds], status: "cancelled" });
  assertEquals(Object.keys(once).at(-1), "status");
  // Cancelling again negates the refunds too: the history doubles and still sums to zero.
  const twice = call(ctx, "cancel_reservation", { reservation_id: id }) as unknown as Reservation;
  const history = [...paid, ...refunds];
  assertEquals(twice.payment_history, [...history, ...history.map((p) => ({ ...p, amount: -p.amount }))]);
  assertEquals(user(ctx, future.user_id), data.users[future.user_id]);
});

tau.test("updateReservationBaggages() checks the payment method and charges 50 per added non-free bag", () => {
  using ctx = world();
  const id = future.reservation_id;
  const owner = data.users[future.user_id];
  const gift = methodOf(owner, "gift_card");
  const cert = methodOf(owner, "certificate").id;
  const args = (nonfree: number, payment_id: string) => ({
    reservation_id: id,
    total_baggages: 9,
    nonfree_baggages: future.nonfree_baggages + nonfree,
    payment_id,
  });
  assertEquals(fails(ctx, "update_reservation_baggages", { ...args(1, gift.id), reservation_id: "NOSUCH" }), [
    "not_found",
    "reservation not found",
  ]);
  assertEquals(fails(ctx, "update_reservation_baggages", args(1, "credit_card_0")), [
    "not_found",
    "payment method not found",
  ]);
  assertEquals(fails(ctx, "update_reservation_baggages", args(0, cert)), [
    "policy",
    "certificate cannot be used to update reservation",
  ]);
  const tooMany = Math.floor(gift.amount / 50) + 1;
  assertEquals(fails(ctx, "update_reservation_baggages", args(tooMany, gift.id)), [
    "policy",
    "gift card balance is not enough",
  ]);
  const out = call(ctx, "update_reservation_baggages", args(1, gift.id)) as unknown as Reservation;
  assertEquals([out.total_baggages, out.nonfree_baggages], [9, future.nonfree_baggages + 1]);
  assertEquals(out.payment_history, [...future.payment_history, { payment_id: gift.id, amount: 50 }]);
  assertEquals(user(ctx, future.user_id).payment_methods[gift.id], { ...gift, amount: gift.amount - 50 });
  // Lowering the bags refunds nothing and records no payment.
  const lower = call(ctx, "update_reservation_baggages", {
    ...args(0, gift.id),
    total_baggages: 0,
    nonfree_baggages: 0,
  });
  assertEquals((lower as unknown as Reservation).payment_history.length, future.payment_history.length + 1);
});

tau.test("updateReservationFlights() keeps paid prices, charges the difference and never stores the cabin", () => {
  using ctx = world();
  const id = future.reservation_id;
  const owner = data.users[future.user_id];
  const gift = methodOf(owner, "gift_card");
  const count = future.passengers.length;
  const legs = future.flights.map(({ flight_number, date }) => ({ flight_number, date }));
  const args = (cabin: string, payment_id: string, flights = legs) => ({
    reservation_id: id,
    cabin,
    flights,
    payment_id,
  });
  assertEquals(fails(ctx, "update_reservation_flights", { ...args("economy", gift.id), reservation_id: "NOSUCH" }), [
    "not_found",
    "reservation not found",
  ]);
  assertEquals(
    fails(ctx, "update_reservation_flights", args("economy", gift.id, [{ flight_number: "NOPE", date: "2024-05-20" }])),
    ["not_found", "flight NOPE not found"],
  );
  assertEquals(fails(ctx, "update_reservation_flights", args("economy", "gift_card_0")), [
    "not_found",
    "payment method not found",
  ]);
  assertEquals(fails(ctx, "update_reservation_flights", args("economy", methodOf(owner, "certificate").id)), [
    "policy",
    "certificate cannot be used to update reservation",
  ]);

  // Same legs, same cabin: kept at the price paid, nothing to pay.
  const same = call(ctx, "update_reservation_flights", args("economy", gift.id)) as unknown as Reservation;
  assertEquals(same, future);

  // Cabin change: every leg re-priced at today's business fare; the stored cabin stays.
  const today = (cabin: "business" | "economy") =>
    future.flights.map((f) => data.flights[f.flight_number].dates[f.date].prices![cabin]);
  const difference = today("business").reduce((a, b) => a + b, 0) * count -
    future.flights.reduce((a, f) => a + f.price, 0) * count;
  const seatsBefore = readFlight(ctx.db, legs[0].flight_number);
  const card = methodOf(owner, "credit_card").id;
  const up = call(ctx, "update_reservation_flights", args("business", card)) as unknown as Reservation;
  assertEquals(up.cabin, "economy");
  assertEquals(up.flights.map((f) => f.price), today("business"));
  assertEquals(up.payment_history.at(-1), { payment_id: card, amount: difference });
  assertEquals(readFlight(ctx.db, legs[0].flight_number), seatsBefore);

  // Back to the stored cabin: legs are now "kept" at the business price just paid.
  const back = call(
    ctx,
    "update_reservation_flights",
    args("economy", gift.id, legs.slice(0, 1)),
  ) as unknown as Reservation;
  assertEquals(back.flights, up.flights.slice(0, 1));
  const refund = -up.flights[1].price * count;
  assertEquals(back.payment_history.at(-1), { payment_id: gift.id, amount: refund });
  assertEquals(user(ctx, future.user_id).payment_methods[gift.id], { ...gift, amount: gift.amount - refund });
});

tau.test("updateReservationPassengers() replaces passengers but not their number", () => {
  using ctx = world();
  const id = future.reservation_id;
  const pax = future.passengers.map((p, i) => ({ first_name: `N${i}`, last_name: p.last_name, dob: "2001-01-01" }));
  assertEquals(fails(ctx, "update_reservation_passengers", { reservation_id: "NOSUCH", passengers: pax }), [
    "not_found",
    "reservation not found",
  ]);
  assertEquals(fails(ctx, "update_reservation_passengers", { reservation_id: id, passengers: [...pax, pax[0]] }), [
    "policy",
    "number of passengers does not match",
  ]);
  assertEquals(
    call(ctx, "update_reservation_passengers", { reservation_id: id, passengers: pax }),
    { ...future, passengers: pax } as unknown as Json,
  );
});

tau.test("sendCertificate() adds the three fixed certificate ids in turn, then refuses", () => {
  using ctx = world();
  const [userId, u] = users[0];
  assertEquals(fails(ctx, "send_certificate", { user_id: "nobody", amount: 50 }), ["not_found", "user not found"]);
  const ids = ["certificate_3221322", "certificate_3221323", "certificate_3221324"];
  for (const id of ids) {
    assertEquals(
      call(ctx, "send_certificate", { user_id: userId, amount: 150 }),
      `Certificate ${id} added to user ${userId} with amount 150.`,
    );
  }
  const methods = user(ctx, userId).payment_methods;
  assertEquals(Object.keys(methods), [...Object.keys(u.payment_methods), ...ids]);
  assertEquals(methods[ids[0]], { source: "certificate", amount: 150, id: ids[0] });
  assertEquals(fails(ctx, "send_certificate", { user_id: userId, amount: 50 })[0], "policy");
});
