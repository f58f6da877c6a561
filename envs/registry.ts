/**
 * The registry of domains. Adding a domain is one folder under `envs/` and one
 * line here.
 *
 * @module
 */
import type { Domain } from "./types.ts";
import { airline } from "./airline/mod.ts";

/** Every domain ark knows, by name. */
export const domains: Readonly<Record<string, Domain>> = Object.freeze({
  airline: airline as Domain,
});

/**
 * A domain by name.
 *
 * @example
 * ```ts ignore
 * import { getDomain } from "./registry.ts";
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
