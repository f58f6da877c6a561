/**
 * The registry of domains: one line per domain, `export { <name> } from "./<name>/mod.ts";`.
 * Adding a domain is one folder under `envs/` and one line here; `domains.ts` reads them.
 *
 * @module
 */
export { airline } from "./airline/mod.ts";
export { retail } from "./retail/mod.ts";
export { orders } from "./orders/mod.ts";
