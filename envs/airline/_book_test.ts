import { assertEquals } from "@std/assert";
import type { Json } from "../json.ts";
import type { Reservation } from "./data.ts";
import { readFlight } from "./_read.ts";
import { call, fails, methodOf, res, tauAirline, user } from "./_test_utils.ts";
import { tauBenchTests } from "../../tests/fixtures/tau_bench.ts";

// Tests registered with `tau.test` run on τ-bench's airline data and are skipped without them.
const tau = tauBenchTests("airline");
const { bookable, data, userWith, world } = tauAirline(tau.present ? tau.root : null);

tau.test("bookReservation() checks in τ-bench's order with its error texts", () => {
  using ctx = world();
  const [userId, u] = userWith("gift_card", "credit_card");
  const { f, date, d } = bookable.find((b) => b.d.available_seats!.economy > 0)!;
  const pax = [{ first_name: "A", last_name: "B", dob: "1990-01-01" }];
  const price = d.prices!.economy;
  const card = methodOf(u, "credit_card").id;
  const args = (over: Record<string, Json>) => ({
    user_id: userId,
    origin: f.origin,
    destination: f.destination,
    flight_type: "one_way",
    cabin: "economy",
    flights: [{ flight_number: f.flight_number, date }],
    passengers: pax,
    payment_methods: [{ payment_id: card, amount: price }],
    total_baggages: 0,
    nonfree_baggages: 0,
    insurance: "no",
    ...over,
  });
  const full = bookable.find((b) => b.d.available_seats!.business === 0)!;
  const landed = Object.entries(data.flights.HAT001.dates).find(([, x]) => x.status === "landed")![0];
  const gift = methodOf(u, "gift_card");
  const cases: [Record<string, Json>, [string, string]][] = [
    [{ user_id: "nobody", flights: [{ flight_number: "NOPE", date }] }, ["not_found", "user not found"]],
    [{ flights: [{ flight_number: "NOPE", date }] }, ["not_found", "flight NOPE not found"]],
    [{ flights: [{ flight_number: "HAT001", date: "2024-07-01" }] }, [
      "not_found",
      "flight HAT001 not found on date 2024-07-01",
    ]],
    [{ flights: [{ flight_number: "HAT001", date: landed }] }, [
      "policy",
      `flight HAT001 not available on date ${landed}`,
    ]],
    [{ cabin: "business", flights: [{ flight_number: full.f.flight_number, date: full.date }] }, [
      "policy",
      `not enough seats on flight ${full.f.flight_number}`,
    ]],
    [{ payment_methods: [{ payment_id: "gift_card_0", amount: price }] }, [
      "not_found",
      "payment method gift_card_0 not found",
    ]],
    [{ payment_methods: [{ payment_id: gift.id, amount: gift.amount + 1 }] }, [
      "policy",
      `not enough balance in payment method ${gift.id}`,
    ]],
    [{ insurance: "yes", nonfree_baggages: 2 }, [
      "policy",
      `payment amount does not add up, total price is ${price + 30 + 100}, but paid ${price}`,
    ]],
  ];
  using tracker = ctx.db.track();
  for (const [over, expected] of cases) {
    assertEquals(fails(ctx, "book_reservation", args(over)), expected, JSON.stringify(over));
  }
  assertEquals(tracker.changes(), []);
});

tau.test("bookReservation() debits gift cards, spends certificates whole and never takes seats", () => {
  using ctx = world();
  const [userId, u] = userWith("gift_card", "certificate", "credit_card");
  const gift = methodOf(u, "gift_card");
  const cert = methodOf(u, "certificate");
  const card = methodOf(u, "credit_card").id;
  const { f, date, d } = bookable.find((b) => b.d.available_seats!.economy >= 2)!;
  const pax = [{ first_name: "A", last_name: "B", dob: "1990-01-01" }, {
    first_name: "C",
    last_name: "D",
    dob: "1991-02-02",
  }];
  const total = d.prices!.economy * 2 + 60 + 50;
  const payments = [{ payment_id: gift.id, amount: 1 }, { payment_id: cert.id, amount: 1 }, {
    payment_id: card,
    amount: total - 2,
  }];
  const before = readFlight(ctx.db, f.flight_number);
  const booked = call(ctx, "book_reservation", {
    user_id: userId,
    origin: f.origin,
    destination: f.destination,
    flight_type: "one_way",
    cabin: "economy",
    flights: [{ flight_number: f.flight_number, date }],
    passengers: pax,
    payment_methods: payments,
    total_baggages: 3,
    nonfree_baggages: 1,
    insurance: "yes",
  });
  const expected: Reservation = {
    reservation_id: "HATHAT",
    user_id: userId,
    origin: f.origin,
    destination: f.destination,
    flight_type: "one_way",
    cabin: "economy",
    flights: [{
      origin: f.origin,
      destination: f.destination,
      flight_number: f.flight_number,
      date,
      price: d.prices!.economy,
    }],
    passengers: pax,
    payment_history: payments,
    created_at: "2024-05-15T15:00:00",
    total_baggages: 3,
    nonfree_baggages: 1,
    insurance: "yes",
  };
  assertEquals(booked, expected as unknown as Json);
  assertEquals(res(ctx, "HATHAT"), expected);
  const after = user(ctx, userId);
  assertEquals(after.reservations, [...u.reservations, "HATHAT"]);
  assertEquals(after.payment_methods[gift.id], { ...gift, amount: gift.amount - 1 });
  assertEquals(cert.id in after.payment_methods, false);
  assertEquals(readFlight(ctx.db, f.flight_number), before);
});

tau.test("bookReservation() uses HATHAT, HATHAU, then overwrites HATHAV", () => {
  using ctx = world();
  const [userId, u] = userWith("credit_card");
  const card = methodOf(u, "credit_card").id;
  const { f, date, d } = bookable.find((b) => b.d.available_seats!.basic_economy >= 1)!;
  const book = (last: string) =>
    (call(ctx, "book_reservation", {
      user_id: userId,
      origin: f.origin,
      destination: f.destination,
      flight_type: "one_way",
      cabin: "basic_economy",
      flights: [{ flight_number: f.flight_number, date }],
      passengers: [{ first_name: "A", last_name: last, dob: "2000-01-01" }],
      payment_methods: [{ payment_id: card, amount: d.prices!.basic_economy }],
      total_baggages: 0,
      nonfree_baggages: 0,
      insurance: "no",
    }) as unknown as Reservation).reservation_id;
  assertEquals([book("a"), book("b"), book("c"), book("d")], ["HATHAT", "HATHAU", "HATHAV", "HATHAV"]);
  assertEquals(res(ctx, "HATHAV").passengers[0].last_name, "d");
  assertEquals(user(ctx, userId).reservations.slice(-4), ["HATHAT", "HATHAU", "HATHAV", "HATHAV"]);
});

tau.test("bookReservation() with one certificate listed twice fails after spending it, as τ-bench does", () => {
  using ctx = world();
  const [userId, u] = userWith("certificate", "gift_card");
  const cert = methodOf(u, "certificate");
  const gift = methodOf(u, "gift_card");
  const { f, date, d } = bookable.find((b) =>
    b.d.prices!.basic_economy <= 2 * cert.amount + 1 && b.d.available_seats!.basic_economy > 0
  )!;
  const price = d.prices!.basic_economy;
  const half = Math.floor((price - 1) / 2);
  assertEquals(
    fails(ctx, "book_reservation", {
      user_id: userId,
      origin: f.origin,
      destination: f.destination,
      flight_type: "one_way",
      cabin: "basic_economy",
      flights: [{ flight_number: f.flight_number, date }],
      passengers: [{ first_name: "A", last_name: "B", dob: "2000-01-01" }],
      payment_methods: [{ payment_id: gift.id, amount: 1 }, { payment_id: cert.id, amount: half }, {
        payment_id: cert.id,
        amount: price - 1 - half,
      }],
      total_baggages: 0,
      nonfree_baggages: 0,
      insurance: "no",
    }),
    ["not_found", `'${cert.id}'`],
  );
  const after = user(ctx, userId);
  assertEquals([after.payment_methods[gift.id], cert.id in after.payment_methods], [{
    ...gift,
    amount: gift.amount - 1,
  }, false]);
  assertEquals(res(ctx, "HATHAT"), undefined as unknown as Reservation);
});
