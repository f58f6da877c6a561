/**
 * The retail world's 16 tools, with τ-bench's names, parameters, checks, error messages and
 * writes (../shared/tau-bench/SEMANTICS.md §6), Python's number types included: prices and amounts
 * are floats, gift card balances ints until a float is added to them, `round(x, 2)` rounds ties to
 * even. Deliberate differences, of the kinds the airline makes: arguments are validated (a missing,
 * unknown or wrongly typed argument is an `invalid_args` error, where τ-bench raises Python's
 * error or uses the value as it is); results are JSON values with integral floats as plain numbers
 * (`247` where τ-bench prints `247.0`; the state keeps them floats).
 *
 * @module
 */
import { z } from "zod";
import { defineTool, ToolError } from "../tool.ts";
import type { Json } from "../json.ts";
import type { Tool } from "../tool.ts";
import { calculate as evaluate } from "../calculate.ts";
import { plain } from "./_number.ts";
import { readOrder, readProduct, readUser } from "./_read.ts";
import { orderId, userId } from "./_common.ts";
import { ownerOfArgs, userOfArgs, userOfEmail, userOfNameZip } from "./_facts.ts";
import {
  cancelPendingOrder,
  exchangeDeliveredOrderItems,
  modifyPendingOrderAddress,
  modifyPendingOrderItems,
  modifyPendingOrderPayment,
  modifyUserAddress,
  returnDeliveredOrderItems,
} from "./_writes.ts";

const calculate = defineTool({
  name: "calculate",
  description: "Work out an arithmetic expression made of numbers, + - * /, parentheses and spaces; the " +
    "result is rounded to 2 decimal places.",
  input: z.strictObject({ expression: z.string().describe('The expression, e.g. "(120 + 80) * 2"') }),
  writes: false,
  run: (_ctx, a) => evaluate(a.expression),
});

const findUserIdByEmail = defineTool({
  name: "find_user_id_by_email",
  description: "Find a user's id from their email address (case does not matter).",
  input: z.strictObject({ email: z.string().describe('Email address, e.g. "sara.doe@example.com"') }),
  writes: false,
  identifies: "email",
  customer: userOfEmail,
  run: ({ db }, a) => {
    const row = db.get<{ user_id: string }>(
      "SELECT user_id FROM users WHERE lower(email) = lower(?) ORDER BY position LIMIT 1",
      a.email,
    );
    if (!row) throw new ToolError("not_found", "user not found");
    return row.user_id;
  },
});

const findUserIdByNameZip = defineTool({
  name: "find_user_id_by_name_zip",
  description: "Find a user's id from their first and last names (case does not matter) and postal code.",
  input: z.strictObject({
    first_name: z.string().describe('Given name, e.g. "Sara"'),
    last_name: z.string().describe('Surname, e.g. "Doe"'),
    zip: z.string().describe('Postal code, e.g. "10001"'),
  }),
  writes: false,
  identifies: ["first_name", "last_name", "zip"],
  customer: userOfNameZip,
  run: ({ db }, a) => {
    const row = db.get<{ user_id: string }>(
      `SELECT user_id FROM users WHERE lower(first_name) = lower(?) AND lower(last_name) = lower(?) AND zip = ?
ORDER BY position LIMIT 1`,
      a.first_name,
      a.last_name,
      a.zip,
    );
    if (!row) throw new ToolError("not_found", "user not found");
    return row.user_id;
  },
});

const getOrderDetails = defineTool({
  name: "get_order_details",
  description: "Look up an order: its owner, address, items with prices and options, shipments, status and " +
    "payments.",
  input: z.strictObject({ order_id: orderId }),
  writes: false,
  customer: ownerOfArgs,
  run: ({ db }, a) => {
    const order = readOrder(db, a.order_id);
    if (!order) throw new ToolError("not_found", "order not found");
    return plain(order) as unknown as Json;
  },
});

const getProductDetails = defineTool({
  name: "get_product_details",
  description: "Look up a product by its product id (not an item id): its name and every variant with its " +
    "options, price and availability.",
  input: z.strictObject({ product_id: z.string().describe('Product id, ten digits, e.g. "0000000000"') }),
  writes: false,
  run: ({ db }, a) => {
    const product = readProduct(db, a.product_id);
    if (!product) throw new ToolError("not_found", "product not found");
    return plain(product) as unknown as Json;
  },
});

const getUserDetails = defineTool({
  name: "get_user_details",
  description: "Look up a user's profile: name, address, email, payment methods (with gift card balances) and " +
    "order ids.",
  input: z.strictObject({ user_id: userId }),
  writes: false,
  customer: userOfArgs,
  run: ({ db }, a) => {
    const user = readUser(db, a.user_id);
    if (!user) throw new ToolError("not_found", "user not found");
    return plain(user) as unknown as Json;
  },
});

const listAllProductTypes = defineTool({
  name: "list_all_product_types",
  description: "List every product type the shop sells: product name to product id, sorted by name.",
  input: z.strictObject({}),
  writes: false,
  run: ({ db }) => {
    const rows = db.all<{ name: string; product_id: string }>(
      "SELECT name, product_id FROM products ORDER BY position",
    );
    const byName = new Map(rows.map((r) => [r.name, r.product_id]));
    // Sorted by code point, as Python sorts strings.
    return Object.fromEntries([...byName].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0));
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
 * The retail tools in τ-bench's order.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { retailTools } from "./tools.ts";
 * assertEquals(retailTools.length, 16);
 * ```
 */
export const retailTools: readonly Tool[] = [
  calculate as Tool,
  cancelPendingOrder,
  exchangeDeliveredOrderItems,
  findUserIdByEmail as Tool,
  findUserIdByNameZip as Tool,
  getOrderDetails as Tool,
  getProductDetails as Tool,
  getUserDetails as Tool,
  listAllProductTypes as Tool,
  modifyPendingOrderAddress,
  modifyPendingOrderItems,
  modifyPendingOrderPayment,
  modifyUserAddress,
  returnDeliveredOrderItems,
  think as Tool,
  transferToHumanAgents as Tool,
];
