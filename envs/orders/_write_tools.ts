// The orders world's writing tools (`tools.ts`): status changes, refunds, deletions, emails and the
// worksheet of intermediate results.
import { z } from "zod";
import { defineTool, ToolError } from "../tool.ts";
import { round2 } from "./_dates.ts";
import { nextStatuses } from "./_rules.ts";
import { arg, emailOnFile, orderId, orderRow, refundable, STATUSES } from "./_tool_common.ts";

export const updateOrderStatus = defineTool({
  name: "update_order_status",
  description: "Move an order on: pending → processing → shipped → delivered, or cancel a pending or processing " +
    "order.",
  input: z.strictObject({ order_id: orderId, status: z.enum(STATUSES).describe("The new status") }),
  writes: true,
  run: ({ db, clock }, a) => {
    const o = orderRow(db, a.order_id);
    const allowed = nextStatuses(String(o.status));
    if (!allowed.includes(a.status)) {
      throw new ToolError(
        "policy",
        `Cannot change order ${a.order_id} from ${o.status} to ${a.status}: ` +
          (allowed.length > 0 ? `it can only become ${allowed.join(" or ")}` : `a ${o.status} order is final`),
      );
    }
    db.run(
      "UPDATE orders SET status = ?, delivered_at = ? WHERE order_id = ?",
      a.status,
      a.status === "delivered" ? clock.iso() : o.delivered_at,
      a.order_id,
    );
    return { order_id: a.order_id, status: a.status };
  },
});

export const refundOrder = defineTool({
  name: "refund_order",
  description: "Refund an amount of an order to the customer, with a reason. The amount must be positive and at " +
    "most what is still refundable.",
  input: z.strictObject({
    order_id: orderId,
    amount: z.number().describe("The amount to refund, e.g. 25.5"),
    reason: z.string().trim().min(1).describe('Why, e.g. "damaged in transit"'),
  }),
  writes: true,
  irreversible: true,
  run: ({ db, clock }, a) => {
    orderRow(db, a.order_id);
    const left = refundable(db, a.order_id);
    if (!(a.amount > 0)) throw new ToolError("invalid_args", `Cannot refund ${a.amount}: the amount must be positive`);
    if (round2(a.amount) > left) {
      throw new ToolError(
        "policy",
        `Cannot refund ${a.amount} on order ${a.order_id}: only ${left.toFixed(2)} is refundable`,
      );
    }
    const n = db.get<{ n: number }>("SELECT count(*) AS n FROM refunds WHERE order_id = ?", a.order_id)!.n;
    const refund_id = `R${a.order_id}-${n + 1}`;
    db.run(
      "INSERT INTO refunds (refund_id, order_id, amount, reason, refunded_at) VALUES (?, ?, ?, ?, ?)",
      refund_id,
      a.order_id,
      round2(a.amount),
      a.reason,
      clock.iso(),
    );
    return { refund_id, order_id: a.order_id, amount: round2(a.amount), refundable: round2(left - a.amount) };
  },
});

export const deleteOrder = defineTool({
  name: "delete_order",
  description: "Delete an order for good, with its items, payments and refunds. It cannot be undone.",
  input: z.strictObject({ order_id: orderId }),
  writes: true,
  irreversible: true,
  run: ({ db }, a) => {
    orderRow(db, a.order_id);
    for (const table of ["order_items", "payments", "refunds", "orders"]) {
      db.run(`DELETE FROM ${table} WHERE order_id = ?`, a.order_id);
    }
    return { order_id: a.order_id, deleted: true };
  },
});

export const sendEmail = defineTool({
  name: "send_email",
  description: "Send an email (it is written to the outbox).",
  input: z.strictObject({
    to: z.string().email().describe("The recipient's address"),
    subject: z.string().min(1).describe("The subject line"),
    body: z.string().describe("The message"),
  }),
  writes: true,
  customer: (args, db) => emailOnFile(db, arg(args, "to")),
  details: (args) => [arg(args, "to"), arg(args, "subject")].filter((v): v is string => typeof v === "string"),
  run: ({ db, clock }, a) => {
    const n = db.get<{ n: number }>("SELECT count(*) AS n FROM outbox")!.n;
    const email_id = `E${String(n + 1).padStart(4, "0")}`;
    db.run(
      "INSERT INTO outbox (email_id, to_addr, subject, body, sent_at) VALUES (?, ?, ?, ?, ?)",
      email_id,
      a.to,
      a.subject,
      a.body,
      clock.iso(),
    );
    return { email_id, to: a.to, sent: true };
  },
});

/** A recorded value as the worksheet stores it: numbers with two decimals when they have cents. */
export function worksheetValue(value: string | number): string {
  if (typeof value === "string") return value;
  return Number.isInteger(value) ? String(value) : value.toFixed(2);
}

export const recordResult = defineTool({
  name: "record_result",
  description: "Record an intermediate result on the worksheet under a step number (a positive integer); " +
    "recording a step again replaces its value.",
  input: z.strictObject({
    step: z.number().int().positive().describe("The step number, from 1"),
    value: z.union([z.string(), z.number()]).describe("The value, a string or a number"),
  }),
  writes: true,
  confirm: false,
  run: ({ db, clock }, a) => {
    const value = worksheetValue(a.value);
    db.run(
      "INSERT INTO worksheet (step, value, recorded_at) VALUES (?, ?, ?) " +
        "ON CONFLICT (step) DO UPDATE SET value = excluded.value, recorded_at = excluded.recorded_at",
      a.step,
      value,
      clock.iso(),
    );
    return { step: a.step, value };
  },
});
