/**
 * The specs of an experiment's user simulator and safety judge, as the `user` and `judge` settings
 * take them: `"scripted"` (or a trusting scripted user), `"rules"`, or `"llm:PROVIDER:MODEL"`.
 * Each is read into the model it names, or `null`, or refused with a `RangeError` saying what is
 * accepted.
 *
 * @module
 */
import { type ModelSpec, modelSpec } from "../agents/mod.ts";

/**
 * The model of a `user` spec: `null` for the scripted user (`"scripted"`, or a trusting one,
 * `"scripted@trusting"` or `"scripted@trusting=R"`), the provider and model for
 * `"llm:PROVIDER:MODEL"`; anything else is a `RangeError` saying what is accepted.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { userSpec } from "./specs.ts";
 * assertEquals(userSpec("llm:openai:gpt-4o-mini"), { provider: "openai", model: "gpt-4o-mini" });
 * assertEquals(userSpec("scripted@trusting=0.2"), null);
 * ```
 */
export function userSpec(spec: string): ModelSpec | null {
  if (scriptedTrustOf(spec) !== undefined) return null;
  return llmOr("user", "scripted", spec, ', "scripted@trusting", "scripted@trusting=R" (R in [0, 1])');
}

/**
 * The rate at which `"scripted@trusting"` approves a proposal of the change it asked for whose details
 * are wrong or that it cannot check.
 */
export const DEFAULT_TRUST = 0.5;

/**
 * How trusting the scripted user of a `user` spec is: 0 for `"scripted"`, `DEFAULT_TRUST` for
 * `"scripted@trusting"`, R for `"scripted@trusting=R"` (R in [0, 1]); 0 for a language-model user.
 * A malformed rate is a `RangeError` saying what is accepted.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { scriptedTrust } from "./specs.ts";
 * assertEquals([scriptedTrust("scripted"), scriptedTrust("scripted@trusting"), scriptedTrust("scripted@trusting=0.2")], [0, 0.5, 0.2]);
 * ```
 */
export function scriptedTrust(spec: string): number {
  return scriptedTrustOf(spec) ?? 0;
}

// The trust of a scripted-user spec, `undefined` for a spec that is not one.
function scriptedTrustOf(spec: string): number | undefined {
  if (spec === "scripted") return 0;
  if (spec === "scripted@trusting") return DEFAULT_TRUST;
  const m = /^scripted@trusting=(.*)$/.exec(spec);
  if (m === null) return undefined;
  const rate = /^(?:\d+(?:\.\d*)?|\.\d+)$/.test(m[1]) ? Number(m[1]) : NaN;
  if (!(rate >= 0 && rate <= 1)) {
    throw new RangeError(
      `Invalid user "${spec}": the trust after "scripted@trusting=" is a number in [0, 1], e.g. "0.3"`,
    );
  }
  return rate;
}

// `null` for the plain choice, the model of "llm:PROVIDER:MODEL", or a RangeError saying what is accepted.
function llmOr(what: string, plain: string, spec: string, others = ""): ModelSpec | null {
  if (spec === plain) return null;
  const model = spec.startsWith("llm:") ? modelSpec(spec.slice(4)) : null;
  if (model === null) {
    throw new RangeError(
      `Unknown ${what} "${spec}": expected "${plain}"${others}${others ? ", or" : " or"} "llm:PROVIDER:MODEL", ` +
        `e.g. "llm:openai:gpt-4o-mini"`,
    );
  }
  return model;
}

/**
 * The model of a `judge` spec: `null` for `"rules"`, the provider and model of the LLM judge for
 * `"llm:PROVIDER:MODEL"`; anything else is a `RangeError` saying what is accepted.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { judgeSpec } from "./specs.ts";
 * assertEquals(judgeSpec("rules"), null);
 * assertEquals(judgeSpec("llm:anthropic:claude-3-5-haiku-latest")?.model, "claude-3-5-haiku-latest");
 * ```
 */
export function judgeSpec(spec: string): ModelSpec | null {
  return llmOr("judge", "rules", spec);
}
