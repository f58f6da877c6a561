// Whether a query plan is bounded by the rows it reads from tables (private to envs/). `Store.query()`
// reads every table through a view that counts its rows and stops the query when they run out, so a
// loop over a table always counts; a loop over something the query made itself (a WITH result, a
// sub-select, a VALUES list, a table function such as json_each) does not. Such a loop is safe where
// it runs once, around the others: its rows are bounded by what made them, and each of them pays for
// the counted reads inside it. Nested inside another loop, or inside a sub-select run once per row,
// it multiplies uncounted work (a join of two WITH results), so the plan is refused, whether it scans
// the made result or looks rows up in it by an automatic index (a join on a column of few values is
// nearly a cross join).

/** One row of `EXPLAIN QUERY PLAN`. */
export interface PlanRow {
  id: number;
  parent: number;
  detail: string;
}

const LOOP = /^(SCAN|SEARCH) /;
// A loop over a table of the world (read through its counting view, so SQLite names the table in main).
const TABLE_LOOP = /^(SCAN|SEARCH) main\./;
// Made results that are always small: one row.
const ONE_ROW = /^SCAN CONSTANT ROW/;

/**
 * Why a plan is not bounded by the rows it reads, in words for the agent; `null` when it is.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { unboundedPlan } from "./_query_plan.ts";
 * assertEquals(unboundedPlan([{ id: 1, parent: 0, detail: "SCAN main.orders" }]), null);
 * ```
 */
export function unboundedPlan(rows: readonly PlanRow[]): string | null {
  const children = new Map<number, PlanRow[]>();
  for (const r of rows) children.set(r.parent, [...(children.get(r.parent) ?? []), r]);
  // Depth first and iteratively. A loop after the first among its siblings runs inside it; a correlated
  // sub-select runs once per row of the loop around it: both are `repeated`, and so is all they hold.
  const stack: { id: number; repeated: boolean }[] = [{ id: 0, repeated: false }];
  const seen = new Set<number>();
  while (stack.length > 0) {
    const { id, repeated } = stack.pop()!;
    let loops = 0;
    for (const k of children.get(id) ?? []) {
      if (seen.has(k.id)) continue;
      seen.add(k.id);
      const d = k.detail;
      const isLoop = LOOP.test(d);
      const inner = repeated || (isLoop && loops > 0);
      if (isLoop) loops++;
      // A table function's loop names the table function's alias, and is never a table of main.
      const made = isLoop && (/VIRTUAL TABLE/.test(d) || !TABLE_LOOP.test(d)) && !ONE_ROW.test(d);
      if (made && inner) {
        return `it ${/^SCAN /.test(d) ? "scans" : "looks up"} ${
          madeName(d)
        } once for every row of another loop (join tables directly, or put the made result first with CROSS JOIN)`;
      }
      stack.push({ id: k.id, repeated: inner || /^CORRELATED /.test(d) });
    }
  }
  return null;
}

function madeName(detail: string): string {
  if (/VIRTUAL TABLE/.test(detail)) return "a table function (json_each, a pragma)";
  const m = detail.match(/^(?:SCAN|SEARCH) (\d+-ROW VALUES CLAUSE|\(subquery-\d+\)|[^\s]+)/);
  const what = m?.[1] ?? "a made result";
  if (what.endsWith("VALUES CLAUSE")) return "a VALUES list";
  if (what.startsWith("(subquery")) return "a sub-select";
  return `"${what}" (a WITH result or a sub-select)`;
}
