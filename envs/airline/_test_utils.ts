// Helpers of the airline tests (test-only: a `_test_utils.ts` file is imported by tests alone, and like
// library code imports only its own room and lower ones, never tests/). The airline world on τ-bench's
// data comes from `tauAirline(folder)`: the test file says where τ-bench is (tests/fixtures/tau_bench.ts
// knows), so this file needs nothing above envs/. Without τ-bench's files the world is empty and the
// finders find nothing: the tests that use them register with `tauBenchTests()` and are skipped.
import { assertThrows } from "@std/assert";
import { Store } from "../sqlite.ts";
import { Clock } from "../clock.ts";
import { Rng } from "../rng.ts";
import { callTool } from "../call.ts";
import { ToolError } from "../tool.ts";
import type { Json } from "../json.ts";
import type { ToolContext } from "../tool.ts";
import type { AirlineData, Flight, FlightDate, PaymentMethod, Reservation, User } from "./data.ts";
import { readReservation, readUser } from "./_read.ts";
import { loadTauAirline, openTauAirline } from "./tau.ts";
import { airlineTools } from "./tools.ts";

/** A fresh world as a tool context; `using` closes it. */
export type TestWorld = ToolContext & { db: Store; [Symbol.dispose](): void };

/** The airline on τ-bench's data, and finders over it so tests name no records of their own. */
export interface TauAirline {
  /** τ-bench's airline db.json, parsed (empty tables when τ-bench's files are absent). */
  data: AirlineData;
  /** A fresh world on τ-bench's data. */
  world(): TestWorld;
  /** Every user, as `[id, user]`. */
  users: [string, User][];
  /** The first user holding payment methods of all the given sources. */
  userWith(...sources: string[]): [string, User];
  /** Every flight date that can be booked. */
  bookable: { f: Flight; date: string; d: FlightDate }[];
  /** An economy round trip not yet flown whose owner has a gift card, a certificate and a credit card. */
  future: Reservation;
}

/** The airline on τ-bench's data in `root` (the τ-bench folder, holding `airline/`), or an empty one for `null`. */
export function tauAirline(root: string | null): TauAirline {
  const data: AirlineData = root === null
    ? { flights: {}, reservations: {}, users: {} }
    : loadTauAirline(`${root}/airline`).data;
  const image = (() => {
    using db = openTauAirline(data);
    return db.snapshot();
  })();
  const users = Object.entries(data.users);
  return {
    data,
    world: () => {
      const db = Store.fromSnapshot(image);
      return { db, clock: new Clock("2024-05-15T15:00:00"), rng: new Rng(0), [Symbol.dispose]: () => db.close() };
    },
    users,
    userWith: (...sources) =>
      users.find(([, u]) => sources.every((s) => Object.values(u.payment_methods).some((m) => m.source === s)))!,
    bookable: Object.values(data.flights).flatMap((f) =>
      Object.entries(f.dates).filter(([, d]) => d.status === "available").map(([date, d]) => ({ f, date, d }))
    ),
    future: Object.values(data.reservations).find((r) =>
      r.cabin === "economy" && r.flights.length === 2 && r.flights.every((f) => f.date >= "2024-05-16") &&
      ["gift_card", "certificate", "credit_card"].every((s) =>
        Object.values(data.users[r.user_id].payment_methods).some((m) => m.source === s)
      )
    )!,
  };
}

/** Calls an airline tool by name through `callTool` (validation, read-only mode). */
export function call(ctx: ToolContext, name: string, args: Record<string, Json> = {}): Json {
  const tool = airlineTools.find((t) => t.name === name);
  if (!tool) throw new Error(`No tool "${name}"`);
  return callTool(ctx, tool, args);
}

/** Calls a tool that must fail and returns the `ToolError`'s code and message. */
export function fails(ctx: ToolContext, name: string, args: Record<string, Json>): [string, string] {
  const err = assertThrows(() => call(ctx, name, args), ToolError);
  return [err.code, err.message];
}

/** A reservation as stored now. */
export const res = (ctx: ToolContext, id: string): Reservation => readReservation(ctx.db, id) as Reservation;
/** A user as stored now. */
export const user = (ctx: ToolContext, id: string): User => readUser(ctx.db, id) as User;
/** A user's first payment method of a source. */
export const methodOf = <S extends PaymentMethod["source"]>(
  u: User,
  source: S,
): Extract<PaymentMethod, { source: S }> =>
  Object.values(u.payment_methods).find((m) => m.source === source) as Extract<PaymentMethod, { source: S }>;
