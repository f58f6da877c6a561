/**
 * Agents under test. The scripted ones (`oracle`, `noisy`, `reckless`) have
 * known failure behaviour, so every metric can be checked against ground truth.
 *
 * @module
 */
import type { AgentFactory } from "../envs/mod.ts";
import { noisy, oracle, reckless } from "./scripted.ts";

export { DEFAULT_RATES, type ErrorRates, noisy, type NoisyOptions, oracle, reckless } from "./scripted.ts";

/** The scripted agents by name, each a function of its options. */
export const scriptedAgents: Readonly<Record<"oracle" | "noisy" | "reckless", (options?: object) => AgentFactory>> =
  Object.freeze({ oracle, noisy, reckless });

/**
 * An agent factory from its name as given on the command line.
 *
 * @example
 * ```ts
 * import { agentFactory } from "./mod.ts";
 * typeof agentFactory("oracle"); // "function"
 * ```
 */
export function agentFactory(spec: string): AgentFactory {
  if (Object.hasOwn(scriptedAgents, spec)) return scriptedAgents[spec as keyof typeof scriptedAgents]();
  const known = Object.keys(scriptedAgents).map((n) => `"${n}"`).join(", ");
  throw new RangeError(`Unknown agent "${spec}": expected one of ${known}`);
}
