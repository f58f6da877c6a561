/**
 * The registered domains by name (`domains`, `getDomain()`), from the registry
 * (`registry.ts`), which holds one line per domain and nothing else.
 *
 * @module
 */
import type { Domain } from "./domain.ts";
import * as registered from "./registry.ts";

function byName(all: Record<string, unknown>): Readonly<Record<string, Domain>> {
  const out: Record<string, Domain> = {};
  // A module's exports come sorted by name: the domains' order is their names' order.
  for (const [exported, value] of Object.entries(all)) {
    const domain = value as Domain;
    if (domain?.name !== exported) {
      throw new TypeError(`envs/registry.ts exports "${exported}", which is not the domain of that name`);
    }
    out[exported] = domain;
  }
  return Object.freeze(out);
}

/** Every domain ark knows, by name, in their names' order. */
export const domains: Readonly<Record<string, Domain>> = byName(registered);

/**
 * A domain by name.
 *
 * @example
 * ```ts ignore
 * import { getDomain } from "./domains.ts";
 * getDomain("airline").tools.length; // 14
 * ```
 */
export function getDomain(name: string): Domain {
  const domain = Object.hasOwn(domains, name) ? domains[name] : undefined;
  if (!domain) {
    const known = Object.keys(domains).map((n) => `"${n}"`).join(", ");
    throw new RangeError(`Unknown domain "${name}": expected one of ${known}`);
  }
  return domain;
}
