/**
 * How the orders world's users and agents name things (`Domain.vocabulary`): date ranges, orders,
 * customers, amounts and emails, and the changes an agent may propose (a status change, a refund, a
 * deletion, an email, a worksheet entry). The playbook asks for a fact by its first name here.
 *
 * @module
 */
import { EMAIL_ADDRESS, type Vocabulary } from "../vocabulary.ts";

/** The orders world's vocabulary. */
export const ORDERS_VOCABULARY: Vocabulary = {
  fields: {
    date: { names: ["date", "day", "dates", "date range", "period", "first day", "last day"], kind: "date" },
    status: {
      names: ["status", "order status"],
      words: ["pending", "processing", "shipped", "delivered", "cancelled", "refunded"],
    },
    order_id: { names: ["order id", "order number", "order"], values: [/(?<=\border(?: id| number)?:? #?)\d{1,6}\b/i] },
    customer_id: { names: ["customer id", "customer"], values: [/\bC\d{4}\b/] },
    email: { names: ["email", "e-mail", "email address", "address"], values: [EMAIL_ADDRESS] },
    subject: { names: ["subject", "subject line", "title"] },
    body: { names: ["body", "message", "text", "content"] },
    amount: { names: ["amount", "sum", "refund amount", "total"], kind: "amount" },
    reason: {
      names: ["reason", "why"],
      words: ["wrong size", "late delivery", "damaged", "not as described", "defective", "broken", "because of"],
      term: true,
      explains: true,
    },
    steps: { names: ["steps", "number of steps", "levels", "referrals"], kind: "count" },
    other: { names: ["details", "information"], vague: ["details", "information"] },
  },
  facts: {
    start_date: { field: "date", names: ["first day (YYYY-MM-DD)", "start date", "first day", "from date"] },
    end_date: { field: "date", names: ["last day (YYYY-MM-DD)", "end date", "last day", "to date"] },
    status: { field: "status", names: ["status"] },
    order_id: { field: "order_id", names: ["order id"] },
    customer_id: { field: "customer_id", names: ["customer id"] },
    email: { field: "email", names: ["email", "email address"] },
    subject: { field: "subject", names: ["subject"] },
    body: { field: "body", names: ["body"] },
    amount: { field: "amount", names: ["amount", "amount to refund"] },
    reason: { field: "reason", names: ["reason"] },
    order_ids: { field: "order_id", names: ["order ids", "orders"] },
    steps: { field: "steps", names: ["steps", "number of steps"] },
  },
  actions: {
    cancel: { words: ["cancel", "cancellation", "mark", "status"], tools: ["update_order_status"] },
    refund: { words: ["refund", "reimburse"], tools: ["refund_order"] },
    delete: { words: ["delete", "remove", "deletion"], tools: ["delete_order"] },
    email: { words: ["email", "send", "e-mail", "message"], tools: ["send_email"] },
    record: { words: ["record", "worksheet", "write down"], tools: ["record_result"] },
  },
  goals: {
    cancel_order: "cancel",
    delete_order: "delete",
    email_customer: "email",
    refund_order: "refund",
    order_totals: "record",
    referral_chain: "record",
    customer_city: null,
    customer_orders: null,
    largest_order: null,
    order_count: null,
    order_status: null,
    sales_total: null,
    sales_total_clean: null,
    status_total: null,
    top_customer: null,
  },
};
