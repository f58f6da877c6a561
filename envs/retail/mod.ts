/**
 * The retail world, first part (issue 11): τ-bench's retail data shape and its 16 tools on SQLite,
 * with Python's int/float types kept, a seeded generator and τ-bench's loader and exporter. The
 * domain value (`defineDomain`) comes with its policy, task generator and playbook; until then the
 * parts are exported one by one and the domain is not registered.
 *
 * @module
 */
export type * from "./data.ts";
export { RETAIL_SCHEMA } from "./schema.ts";
export { retailTools } from "./tools.ts";
export { generateRetail } from "./generate.ts";
export { exportTauRetail, loadTauRetail, type LoadTauRetailOptions, openTauRetail, type TauSplit } from "./tau.ts";
