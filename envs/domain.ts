/**
 * `defineDomain()`: a domain (a simulated business) is one value, made here and
 * exported from its folder `envs/<name>/mod.ts`.
 *
 * @module
 */
import type { Domain } from "./types.ts";
import { vocabularyProblem } from "./vocabulary.ts";

/**
 * Checks and returns a domain definition. Throws a `TypeError` for a name that is not lower-case
 * letters, digits and "_", a tool defined twice, or a scenario template defined twice, whose write
 * is not a tool that writes, or (verification) whose look-up is not a reading tool, or a vocabulary that
 * does not fit its tools (`vocabularyProblem()`).
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
  const names = new Set<string>();
  for (const t of spec.scenarios ?? []) {
    const why = names.has(t.name)
      ? "is defined twice"
      : !spec.tools.some((x) => x.name === t.action && x.writes)
      ? `names "${t.action}" as its write, which is not a tool that writes`
      : t.build !== undefined
      ? (typeof t.build !== "function" || !(typeof t.hazard === "string" && t.hazard !== "")
        ? "builds its twins without a function and a hazard kind"
        : null)
      : t.gap === "verification" && !spec.tools.some((x) => x.name === t.lookUp && !x.writes)
      ? `names "${t.lookUp}" as its look-up, which is not a reading tool`
      : null;
    if (why !== null) throw new TypeError(`Cannot define domain "${spec.name}": scenario template "${t.name}" ${why}`);
    names.add(t.name);
  }
  const problem = spec.vocabulary === undefined ? null : vocabularyProblem(spec.vocabulary, spec.tools);
  if (problem !== null) throw new TypeError(`Cannot define domain "${spec.name}": its vocabulary's ${problem}`);
  return spec;
}
