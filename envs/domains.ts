/**
 * The registered domains by name (`domains`, `getDomain()`), from the registry
 * (`registry.ts`), which holds one line per domain and nothing else.
 *
 * A domain is read from the registry on first use, never while the modules load: a domain's own
 * files may import `../mod.ts`, and whichever module is loaded first, no domain is read before
 * its module has run.
 *
 * @module
 */
import type { Domain } from "./domain.ts";
import * as registered from "./registry.ts";

// The registry's names are known before its values: a module namespace lists its keys without
// reading a binding (a domain still loading would throw), and lists them sorted.
const names: readonly string[] = Reflect.ownKeys(registered).filter((k): k is string => typeof k === "string");
const resolved = new Map<string, Domain>();

function resolve(exported: string): Domain {
  let domain = resolved.get(exported);
  if (domain === undefined) {
    domain = (registered as Record<string, unknown>)[exported] as Domain;
    if (domain?.name !== exported) {
      throw new TypeError(`envs/registry.ts exports "${exported}", which is not the domain of that name`);
    }
    resolved.set(exported, domain);
  }
  return domain;
}

/** Every domain ark knows, by name, in their names' order; each is read from the registry on first use. */
export const domains: Readonly<Record<string, Domain>> = Object.freeze(
  Object.defineProperties(
    {},
    Object.fromEntries(names.map((n) => [n, { enumerable: true, get: () => resolve(n) }])),
  ) as Record<string, Domain>,
);

/** Options of `getDomain()`: what is asked for, and which domains are accepted. */
export interface GetDomainOptions {
  /**
   * What names the domain, said after it in the error, e.g. `"--domain"`: `Unknown domain "x" for
   * --domain: expected one of …`.
   * @default {nothing: `Unknown domain "x": expected one of …`}
   */
  for?: string;
  /**
   * The domains accepted, when fewer than every registered one (e.g. those with τ-bench's data);
   * a registered domain outside them is unknown here too.
   * @default {every registered domain}
   */
  among?: readonly string[];
}

/**
 * A domain by name. Throws a `RangeError` naming the domains accepted otherwise, the one message
 * every command and the server give for an unknown domain.
 *
 * @example
 * ```ts
 * import { assertEquals, assertThrows } from "@std/assert";
 * import { getDomain } from "./domains.ts";
 * assertEquals(getDomain("airline").name, "airline");
 * assertThrows(() => getDomain("librar"), RangeError, 'Unknown domain "librar": expected one of "airline", "orders", "retail"');
 * assertThrows(
 *   () => getDomain("orders", { for: "--domain", among: ["airline"] }),
 *   RangeError,
 *   'Unknown domain "orders" for --domain: expected one of "airline"',
 * );
 * ```
 */
export function getDomain(name: string, options: GetDomainOptions = {}): Domain {
  const among = options.among ?? names;
  const domain = among.includes(name) && Object.hasOwn(domains, name) ? domains[name] : undefined;
  if (!domain) {
    const known = among.map((n) => `"${n}"`).join(", ");
    const asked = options.for === undefined ? "" : ` for ${options.for}`;
    throw new RangeError(`Unknown domain "${name}"${asked}: expected one of ${known}`);
  }
  return domain;
}
