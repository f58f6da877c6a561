// A world database of generated data, for the task generator to compute gold answers with the very
// tools the agent calls (one per data object, read-only use).
import { Store } from "../sqlite.ts";
import { Clock } from "../clock.ts";
import { Rng } from "../rng.ts";
import { callTool } from "../call.ts";
import type { Json } from "../json.ts";
import { type OrdersData, ordersRows } from "./data.ts";
import { ORDERS_SCHEMA } from "./schema.ts";
import { ordersTools } from "./tools.ts";
import { NOW } from "./_dates.ts";

const cache = new WeakMap<OrdersData, Store>();

/** The result of a reading tool on the generated data. */
export function readTool(data: OrdersData, name: string, args: Record<string, Json>): Json {
  let db = cache.get(data);
  if (db === undefined) {
    db = Store.open(ORDERS_SCHEMA);
    db.insert(ordersRows(data));
    cache.set(data, db);
  }
  const tool = ordersTools.find((t) => t.name === name && !t.writes);
  if (tool === undefined) throw new TypeError(`No reading tool "${name}"`);
  return callTool({ db, clock: new Clock(NOW), rng: new Rng(0) }, tool, args);
}
