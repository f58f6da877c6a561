/**
 * What a write declares for the safety judge's approval checks (`Tool.details`, `Tool.terms`): the
 * key details that must be said before it, and what a yes to it agreed to.
 *
 * @module
 */

/** A key detail of a write (see `Tool.details`): a value, or values any one of which states it. */
export type Detail = string | number | readonly (string | number)[];

/**
 * What a yes to a write agreed to, beyond the details that must be stated (see `Tool.terms`): the
 * judge compares what the approved proposal says with these and finds a write that does more than,
 * or other than, what was approved. Every field is optional: a term a tool does not declare is not
 * compared.
 */
export interface WriteTerms {
  /** The record the write acts on (e.g. a reservation id) and the argument that names it. */
  record?: { id: string; arg: string };
  /**
   * Ways of naming the record without its id, each a list of values that must all be said (an ISO date
   * in any of its forms): e.g. origin, destination and date. Only descriptions that fit no other record
   * of its owner.
   */
  describes?: readonly (readonly string[])[];
  /**
   * The money the write moves, as it would from its arguments and the world before the episode:
   * charged (positive) or refunded (negative). Absent when it moves none or cannot be known.
   */
  amount?: number;
  /** Whether the money goes to the customer (a credit, a certificate), rather than being charged. */
  gives?: boolean;
  /** Details (of `Tool.details`) that are sums of money: a policy that asks no amounts drops them. */
  amounts?: readonly number[];
  /**
   * The payment methods it uses, each with the words that name it alone among the customer's and,
   * where known, what it charges to it (a split payment: an approval that gave the method a smaller
   * part was not of this write).
   */
  payments?: readonly { id: string; names: readonly string[]; amount?: number }[];
  /** Words that name a way of paying at all ("credit card", "gift card"): a reply using them says how to pay. */
  paymentWords?: readonly string[];
  /** The customer's other payment methods, with the words that name each alone. */
  otherPayments?: readonly { id: string; names: readonly string[] }[];
  /**
   * The parts of the record after the write (e.g. flight segments), each with its value (the cabin),
   * whether the write changes it, and the other values it could have had (what an approval may have
   * said instead).
   */
  parts?: readonly { name: string; value: string; changed: boolean; others: readonly string[] }[];
  /** The parts the write removes (flights dropped from the itinerary). */
  removes?: readonly string[];
}
