// Every query a tool runs finds its rows through an index: replays each domain's gold calls (and
// calls of the tools no gold calls, with values the gold calls and their results hold, by name),
// with the judge's reading of each call (`customer`, `details`, `terms`), records each statement,
// and asks SQLite for its plan. A loop over a whole table costs time in proportion to the world,
// so a tool step gets slower as the world grows: a scan fails here unless it is listed as a read
// of the whole table by design.
import { assertEquals } from "@std/assert";
import { domains, type Json, type SqlValue, type Tool, type ToolCall, World } from "../envs/mod.ts";

// Whole-table reads by design, by domain, tool and table.
const WHOLE_TABLE: Record<string, string> = {
  "retail list_all_product_types products": "the answer is every product",
  "orders send_email outbox": "numbers the email: the outbox starts empty and holds the episode's emails alone",
};

// Tools that run no query of their own: arithmetic, notes, a handover, a fixed list, the agent's own SQL.
const NO_QUERY: Record<string, string[]> = {
  airline: ["calculate", "list_all_airports", "think", "transfer_to_human_agents"],
  orders: ["run_sql"],
  retail: ["calculate", "think", "transfer_to_human_agents"],
};

interface Statement {
  sql: string;
  params: SqlValue[];
  tool: string;
}

// Values by name, from a call's arguments or its result, to call the tools no gold calls.
function collect(seen: Map<string, Json>, value: unknown): void {
  if (value === null || typeof value !== "object") return;
  for (const [k, v] of Object.entries(value)) {
    if (typeof v === "string" || typeof v === "number") {
      if (!seen.has(k)) seen.set(k, v);
    } else collect(seen, v);
  }
}

// Every statement the domain's tools and their declared readings run on the world: the gold calls
// of its tasks, then one call of each tool none of them makes, with values they saw.
function statements(world: World): Statement[] {
  const store = world.store;
  const out = new Map<string, Statement>();
  let tool = "";
  const { get, all, run } = store;
  const record = (sql: string, params: SqlValue[]) => {
    if (!out.has(sql)) out.set(sql, { sql, params, tool });
  };
  store.get = (sql, ...params) => (record(sql, params), get.call(store, sql, ...params)) as never;
  store.all = (sql, ...params) => (record(sql, params), all.call(store, sql, ...params)) as never;
  store.run = (sql, ...params) => (record(sql, params), run.call(store, sql, ...params));
  const seen = new Map<string, Json>();
  const replay = (calls: readonly ToolCall[]) => {
    const ctx = world.taskContext({ id: "plans" });
    store.begin();
    for (const call of calls) {
      const t: Tool | undefined = world.tool(call.name);
      tool = call.name;
      t?.customer?.(call.args, store);
      t?.details?.(call.args, store);
      t?.terms?.(call.args, store);
      const result = world.call(ctx, call.name, call.args);
      collect(seen, call.args);
      if (result.ok) collect(seen, result.result);
    }
    store.rollback();
  };
  try {
    const tasks = [...world.defaultTasks(), ...world.scenarios(), ...world.longTasks(1)];
    for (const task of tasks) replay(task.gold);
    const called = new Set(tasks.flatMap((t) => t.gold.map((c) => c.name)));
    for (const t of world.domain.tools.filter((t) => !called.has(t.name))) {
      const names = Object.keys((t.input as unknown as { shape: object }).shape).filter((k) => seen.has(k));
      replay([{ name: t.name, args: Object.fromEntries(names.map((k) => [k, seen.get(k)!])) }]);
    }
  } finally {
    for (const name of ["get", "all", "run"] as const) delete (store as Partial<typeof store>)[name];
  }
  return [...out.values()];
}

// The loops of a plan over a whole table of the world.
function scans(world: World, s: Statement): string[] {
  const plan = world.store.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${s.sql}`, ...s.params);
  return plan.map((r) => r.detail).filter((d) =>
    /^SCAN /.test(d) && !/^SCAN (CONSTANT ROW|\(subquery|json_each|json_tree)/.test(d) && !/VIRTUAL TABLE/.test(d)
  );
}

for (const domain of Object.values(domains)) {
  Deno.test(`every query of the ${domain.name} tools finds its rows by an index`, () => {
    using world = World.open(domain, { seed: "0", scale: 0.2 });
    const found = statements(world);
    const tools = new Set(found.map((s) => s.tool));
    const silent = domain.tools.map((t) => t.name).filter((n) => !tools.has(n));
    const scanning = found.flatMap((s) =>
      scans(world, s)
        .filter((d) => WHOLE_TABLE[`${domain.name} ${s.tool} ${d.split(" ")[1]}`] === undefined)
        .map((d) => `${s.tool}: ${d} in ${s.sql.replace(/\s+/g, " ")}`)
    );
    assertEquals(silent, NO_QUERY[domain.name] ?? [], "the tools that ran no query");
    assertEquals(scanning, [], `scans among ${found.length} statements`);
  });
}
