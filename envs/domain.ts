/**
 * `defineDomain()`: a domain (a simulated business) is one value, made here and
 * exported from its folder `envs/<name>/mod.ts`.
 *
 * @module
 */
import type { Domain } from "./types.ts";

/**
 * Checks and returns a domain definition.
 *
 * @example
 * ```ts
 * import { defineDomain } from "./domain.ts";
 * const empty = defineDomain({
 *   name: "empty", policy: "Be kind.", schema: "CREATE TABLE t (id TEXT PRIMARY KEY)",
 *   now: "2024-01-01T00:00:00", generate: () => ({}), rows: () => ({ t: [] }), read: () => ({}),
 *   tools: [], tasks: () => [], solver: () => ({ next: () => ({ type: "end" }) }),
 * });
 * empty.name; // "empty"
 * ```
 */
export function defineDomain<D>(spec: Domain<D>): Domain<D> {
  if (!/^[a-z][a-z0-9_]*$/.test(spec.name)) {
    throw new TypeError(`Cannot define domain "${spec.name}": a name is lower-case letters, digits and "_"`);
  }
  const seen = new Set<string>();
  for (const tool of spec.tools) {
    if (seen.has(tool.name)) {
      throw new TypeError(`Cannot define domain "${spec.name}": tool "${tool.name}" is defined twice`);
    }
    seen.add(tool.name);
  }
  return spec;
}
