// The orders task drafts (`_drafts.ts`) each of the four categories takes, in turn by round, and the
// faults of the abnormal ones.
import type { AbnormalCall, TaskCategory } from "../task.ts";
import type { Rng } from "../rng.ts";
import { addDays, monthEnd, TODAY } from "./_dates.ts";
import {
  cancelPending,
  cleanSales,
  customerCity,
  customerOrders,
  deleteDraft,
  type Draft,
  emailCustomer,
  largestOrder,
  orderCount,
  orderStatus,
  type Pool,
  randomMonth,
  randomWeek,
  refundAged,
  refundEligible,
  refundNotDelivered,
  refundZero,
  salesTotal,
  statusTotal,
  topCustomer,
} from "./_drafts.ts";

// ---- the categories ---------------------------------------------------------------------------

type Make = (pool: Pool, rng: Rng) => Draft;

// An email comes first: the first act task of the default tasks is then a write on a customer's data.
const NORMAL: Make[] = [
  (p, r) => emailCustomer(p, r, "normal"),
  (p, r) => salesTotal(p, ...lastWeekOr(r), "normal"),
  (p, r) => refundEligible(p, r, "normal"),
  (p, r) => topCustomer(p, r, "normal"),
  (p, r) => cancelPending(p, r, "normal"),
  (p, r) => orderCount(p, ...randomMonth(r), r.pick(["delivered", "cancelled"]), "normal"),
  (p, r) => deleteDraft(p, r, true, "normal"),
  (p, r) => refundNotDelivered(p, r, "normal"),
];

function lastWeekOr(rng: Rng): [string, string] {
  return rng.chance(0.3) ? [addDays(TODAY, -7), addDays(TODAY, -1)] : randomWeek(rng);
}

const EDGE: Make[] = [
  (p, r) => {
    const start = addDays("2023-03-01", r.int(0, 120));
    return salesTotal(p, start, addDays(start, r.int(6, 30)), "edge");
  },
  (p, r) => customerOrders(p, r, true, "edge"),
  (p, r) => refundAged(p, r, "30", "edge"),
  (p, r) => refundAged(p, r, "31+", "edge"),
  (p, r) => largestOrder(p, r, "edge"),
  (p, r) => refundZero(p, r, "edge"),
  (p, r) => {
    const day = addDays("2023-10-01", r.int(0, 480));
    return salesTotal(p, day, day, "edge");
  },
  (p, r) => deleteDraft(p, r, false, "edge"),
  (p, r) => customerCity(p, r, "edge"),
  (p, r) => {
    const start = `2024-${String(r.int(1, 9)).padStart(2, "0")}-01`;
    return orderCount(p, start, monthEnd(start), "pending", "edge");
  },
];

const fault = (tool: string, kind: "timeout" | "dependency_down" | "partial"): AbnormalCall[] =>
  kind === "dependency_down" ? [{ tool, call: 1, kind }, { tool, call: 2, kind }] : [{ tool, call: 1, kind }];

const ABNORMAL: Make[] = [
  (p, r) => ({ ...salesTotal(p, ...randomWeek(r), "abnormal"), abnormal: fault("summarize_sales", "timeout") }),
  (p, r) => ({ ...refundEligible(p, r, "abnormal"), abnormal: fault("get_order", "dependency_down") }),
  (p, r) => ({ ...statusTotal(p, r, "abnormal"), abnormal: fault("read_orders", "partial") }),
  (p, r) => ({ ...topCustomer(p, r, "abnormal"), abnormal: fault("summarize_sales", "dependency_down") }),
  (p, r) => ({
    ...orderCount(p, ...randomMonth(r), "delivered", "abnormal"),
    abnormal: fault("read_orders", "timeout"),
  }),
  (p, r) => ({ ...cancelPending(p, r, "abnormal"), abnormal: fault("get_order", "timeout") }),
];

const NOISE: Make[] = [
  (p, r) => refundEligible(p, r, "noise", true),
  (p, r) => orderStatus(p, r, "planted", "noise"),
  (p, r) => cleanSales(p, r, "noise"),
  (p, r) => orderStatus(p, r, "junk", "noise"),
  (p, r) => ({ ...customerOrders(p, r, false, "noise"), chatter: true }),
];

/** The drafts of each category, taken in turn by round. */
export const CATEGORY_DRAFTS: Record<TaskCategory, readonly Make[]> = {
  normal: NORMAL,
  edge: EDGE,
  abnormal: ABNORMAL,
  noise: NOISE,
};

/** The `round`-th draft of a category (its variants cycle), drawn from `rng`. */
export function draft(pool: Pool, category: TaskCategory, round: number, rng: Rng): Draft {
  const makes = CATEGORY_DRAFTS[category];
  for (let k = 0; k < makes.length; k++) {
    // A world too small to hold a case of this variant (a RangeError: an empty pick, no window
    // that fits) moves on to the next one.
    try {
      return makes[(round + k) % makes.length](pool, rng.child(k));
    } catch (err) {
      if (!(err instanceof RangeError)) throw err;
    }
  }
  throw new RangeError(`Cannot generate an orders task of category "${category}": the world holds no case`);
}
