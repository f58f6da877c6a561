// Test fixture: the airline world on τ-bench's data, read at test time from their own folder
// (never copied into the repo), and helpers to call tools and find records. Used by tests only.
// Without τ-bench's files the world is empty and the finders find nothing: the tests that use them
// register with `tauBenchTests()` and are skipped.
import { assertThrows } from "@std/assert";
import { tauBenchDir } from "../../tests/fixtures/tau_bench.ts";
import { Store } from "../sqlite.ts";
import { Clock } from "../clock.ts";
import { Rng } from "../rng.ts";
import { callTool } from "../call.ts";
import { ToolError } from "../tool.ts";
import type { Json } from "../json.ts";
import type { ToolContext } from "../tool.ts";
import type { AirlineData, PaymentMethod, Reservation, User } from "./data.ts";
import { readReservation, readUser } from "./_read.ts";
import { loadTauAirline, openTauAirline } from "./tau.ts";
import { airlineTools } from "./tools.ts";

const DIR = tauBenchDir("airline");
/** τ-bench's airline db.json, parsed (empty tables when τ-bench's files are absent). */
export const data: AirlineData = DIR === null
  ? { flights: {}, reservations: {}, users: {} }
  : loadTauAirline(`${DIR}/airline`).data;
const IMAGE = (() => {
  using db = openTauAirline(data);
  return db.snapshot();
})();

/** A fresh world on τ-bench's data, as a tool context; `using` closes it. */
export function world(): ToolContext & { db: Store; [Symbol.dispose](): void } {
  const db = Store.fromSnapshot(IMAGE);
  return { db, clock: new Clock("2024-05-15T15:00:00"), rng: new Rng(0), [Symbol.dispose]: () => db.close() };
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
export const res = (ctx: ToolContext, id: string) => readReservation(ctx.db, id) as Reservation;
/** A user as stored now. */
export const user = (ctx: ToolContext, id: string) => readUser(ctx.db, id) as User;

// Small finders over the loaded data, so tests name no records of their own.
/** Every user, as `[id, user]`. */
export const users = Object.entries(data.users);
/** The first user holding payment methods of all the given sources. */
export const userWith = (...sources: string[]) =>
  users.find(([, u]) => sources.every((s) => Object.values(u.payment_methods).some((m) => m.source === s)))!;
/** A user's first payment method of a source. */
export const methodOf = <S extends PaymentMethod["source"]>(u: User, source: S) =>
  Object.values(u.payment_methods).find((m) => m.source === source) as Extract<PaymentMethod, { source: S }>;
/** Every flight date that can be booked. */
export const bookable = Object.values(data.flights).flatMap((f) =>
  Object.entries(f.dates).filter(([, d]) => d.status === "available").map(([date, d]) => ({ f, date, d }))
);
/** An economy round trip not yet flown whose owner has a gift card, a certificate and a credit card. */
export const future = Object.values(data.reservations).find((r) =>
  r.cabin === "economy" && r.flights.length === 2 && r.flights.every((f) => f.date >= "2024-05-16") &&
  ["gift_card", "certificate", "credit_card"].every((s) =>
    Object.values(data.users[r.user_id].payment_methods).some((m) => m.source === s)
  )
)!;
