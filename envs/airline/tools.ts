/**
 * The airline world's 14 tools, with τ-bench's names, parameters and behaviour
 * (see ../shared/tau-bench/SEMANTICS.md §5). Deliberate differences: arguments are
 * validated; `search_onestop_flight` uses the real next day and that day's details for the
 * second leg of an overnight connection; `send_certificate` fails when no certificate id is free.
 *
 * @module
 */
import { z } from "zod";
import { defineTool, ToolError } from "../tool.ts";
import type { Json } from "../json.ts";
import type { Tool } from "../tool.ts";
import { readReservation, readUser } from "./_read.ts";
import { calculate as evaluate } from "../calculate.ts";
import { reservationId, userId } from "./_common.ts";
import { bookReservation } from "./_book.ts";
import {
  cancelReservation,
  sendCertificate,
  updateReservationBaggages,
  updateReservationFlights,
  updateReservationPassengers,
} from "./_change.ts";
import { listAllAirports, searchDirectFlight, searchOnestopFlight } from "./_search.ts";
import { ownerOfArgs, userOfArgs } from "./_facts.ts";

const calculate = defineTool({
  name: "calculate",
  description: "Work out an arithmetic expression made of numbers, + - * /, parentheses and spaces; the " +
    "result is rounded to 2 decimal places.",
  input: z.strictObject({ expression: z.string().describe('The expression, e.g. "(120 + 80) * 2"') }),
  writes: false,
  run: (_ctx, a) => evaluate(a.expression),
});

const getReservationDetails = defineTool({
  name: "get_reservation_details",
  description: "Look up a reservation: its owner, trip, cabin, legs with prices, passengers, payments, bags " +
    "and insurance.",
  input: z.strictObject({ reservation_id: reservationId }),
  writes: false,
  customer: ownerOfArgs,
  run: ({ db }, a) => {
    const res = readReservation(db, a.reservation_id);
    // τ-bench's wording for an unknown reservation.
    if (!res) throw new ToolError("not_found", "user not found");
    return res as unknown as Json;
  },
});

const getUserDetails = defineTool({
  name: "get_user_details",
  description: "Look up a user's profile: name, address, email, date of birth, membership, payment methods " +
    "(with gift card and certificate balances), saved passengers and reservation ids.",
  input: z.strictObject({ user_id: userId }),
  writes: false,
  identifies: "user_id",
  customer: userOfArgs,
  run: ({ db }, a) => {
    const user = readUser(db, a.user_id);
    if (!user) throw new ToolError("not_found", "user not found");
    return user as unknown as Json;
  },
});

const think = defineTool({
  name: "think",
  description: "Write down a thought, e.g. to plan the next steps. Nothing is looked up or changed.",
  input: z.strictObject({ thought: z.string().describe("The thought") }),
  writes: false,
  run: () => "",
});

const transferToHumanAgents = defineTool({
  name: "transfer_to_human_agents",
  description: "Hand the conversation over to a human agent, with a summary of the user's problem. Use it " +
    "only when the request cannot be handled with the other tools. It ends the conversation.",
  input: z.strictObject({ summary: z.string().describe("What the user needs, in brief") }),
  writes: false,
  terminates: true,
  handsOver: true,
  run: () => "Transfer successful",
});

/**
 * The airline tools in τ-bench's order.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { airlineTools } from "./tools.ts";
 * assertEquals(airlineTools.length, 14);
 * ```
 */
export const airlineTools: readonly Tool[] = [
  bookReservation,
  calculate as Tool,
  cancelReservation,
  getReservationDetails as Tool,
  getUserDetails as Tool,
  listAllAirports,
  searchDirectFlight,
  searchOnestopFlight,
  sendCertificate,
  think as Tool,
  transferToHumanAgents as Tool,
  updateReservationBaggages,
  updateReservationFlights,
  updateReservationPassengers,
];
