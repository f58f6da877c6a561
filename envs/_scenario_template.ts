/**
 * Defining abstention scenario templates (`ScenarioTemplate`): `defineScenarioTemplate()` checks one
 * when it is defined, so a mistyped template fails with one line naming it, what is wrong and what is
 * accepted (not later, when its scenarios are built), and the constructors of the three gaps' first
 * kinds (`withheld()`, `unverified()`, `unapproved()`) and of a kind a domain builds (`hazard()`) use it.
 * Re-exported by envs/scenarios.ts.
 *
 * @module
 */
import type { HazardBuilder, ScenarioTemplate } from "./scenario_template.ts";
import type { Gap, Task } from "./task.ts";
import { GAPS } from "../vocabulary/mod.ts";

/** The hazard kind of each gap's first templates (`ScenarioInfo.hazard` when a template does not say). */
export const DEFAULT_HAZARDS: Readonly<Record<Gap, string>> = {
  specification: "missing_fact",
  verification: "failed_lookup",
  authority: "no_approval",
};

const NAME = /^[a-z][a-z0-9_]*$/;
const COMMON = ["name", "intent", "action", "gap", "missing", "takes"] as const;
// The fields of each kind besides the common ones (a template of the gaps' first kinds may say `build: undefined`).
const FIELDS: Readonly<Record<Gap | "built", readonly string[]>> = {
  specification: ["withhold", "build"],
  verification: ["lookUp", "fails", "build"],
  authority: ["hold", "build"],
  built: ["hazard", "build"],
};
const FAILS = ["dependency_down", "timeout"];

/**
 * Checks and returns a scenario template. Throws a `TypeError` of one line naming the template, what is
 * wrong and what is accepted: a name that is not lower-case letters, digits and "_", a gap that is none of
 * the three, a field the template's kind does not take (a mistyped `withold`), or a field of the wrong
 * shape (an empty `intent`, `fails: "timout"`, a `build` without a `hazard` kind). Whether its write and
 * look-up are tools of the domain is checked by `defineDomain()`.
 *
 * @example
 * ```ts
 * import { assertEquals, assertThrows } from "@std/assert";
 * import { defineScenarioTemplate } from "./scenarios.ts";
 * const t = defineScenarioTemplate({
 *   name: "cancel_without_id",
 *   intent: "cancel",
 *   action: "cancel_order",
 *   gap: "specification",
 *   withhold: "order_id",
 * });
 * assertEquals(t.gap, "specification");
 * assertThrows(
 *   () => defineScenarioTemplate({ ...t, withold: "order_id" } as never),
 *   TypeError,
 *   `Cannot define scenario template "cancel_without_id": field "withold" is unknown: a specification template ` +
 *     `takes "name", "intent", "action", "gap", "missing", "takes", "withhold", "build"`,
 * );
 * ```
 */
export function defineScenarioTemplate<T extends ScenarioTemplate>(template: T): T {
  if (template === null || typeof template !== "object" || Array.isArray(template)) {
    throw new TypeError(`Cannot define scenario template ${shown(template)}: expected an object`);
  }
  const problem = templateProblem(template as Record<string, unknown>);
  if (problem !== null) throw templateError(template.name, problem);
  return template;
}

/** The error `defineScenarioTemplate()` throws for the template named `name`. */
export function templateError(name: unknown, problem: string): TypeError {
  return new TypeError(`Cannot define scenario template ${shown(name)}: ${problem}`);
}

/** Throws `templateError()` when `options` of the template `name` has a field not in `accepted` (a mistyped option). */
export function checkOptions(name: unknown, options: object, accepted: readonly string[]): void {
  if (options === null || typeof options !== "object") {
    throw templateError(name, `its options must be an object, got ${shown(options)}`);
  }
  const unknown = Object.keys(options).find((k) => !accepted.includes(k));
  if (unknown !== undefined) {
    throw templateError(name, `option "${unknown}" is not one of ${accepted.map((k) => `"${k}"`).join(", ")}`);
  }
}

/** Throws `templateError()` when the argument `label` of the template `name` is not a non-empty string. */
export function checkText(name: unknown, label: string, value: unknown): void {
  if (typeof value !== "string" || value === "") {
    throw templateError(name, `${label} must be a non-empty string, got ${shown(value)}`);
  }
}

/** Throws `templateError()` when the argument `label` of the template `name` is not a function. */
export function checkFunction(name: unknown, label: string, value: unknown): void {
  if (typeof value !== "function") throw templateError(name, `${label} must be a function, got ${shown(value)}`);
}

// What is wrong with a template, or null.
function templateProblem(t: Record<string, unknown>): string | null {
  if (typeof t.name !== "string" || !NAME.test(t.name)) {
    return `name must be lower-case letters, digits and "_", got ${shown(t.name)}`;
  }
  if (!GAPS.includes(t.gap as Gap)) {
    return `gap ${shown(t.gap)} is not one of ${GAPS.map((g) => `"${g}"`).join(", ")}`;
  }
  const kind = t.build !== undefined ? "built" : t.gap as Gap;
  const accepted = [...COMMON, ...FIELDS[kind]];
  const unknown = Object.keys(t).find((k) => !accepted.includes(k));
  if (unknown !== undefined) {
    const what = kind === "built" ? "a template with build" : `${kind === "authority" ? "an" : "a"} ${kind} template`;
    return `field "${unknown}" is unknown: ${what} takes ${accepted.map((k) => `"${k}"`).join(", ")}`;
  }
  const text = (k: string) =>
    typeof t[k] === "string" && t[k] !== "" ? null : `${k} must be a non-empty string, got ${shown(t[k])}`;
  const problem = text("intent") ?? text("action") ??
    (t.missing !== undefined ? text("missing") : null) ??
    (t.takes !== undefined && typeof t.takes !== "function"
      ? `takes must be a function of the base task, got ${shown(t.takes)}`
      : null);
  if (problem !== null) return problem;
  if (kind === "built") {
    if (typeof t.build !== "function") return `build must be a function, got ${shown(t.build)}`;
    return text("hazard");
  }
  if (kind === "specification") return text("withhold");
  if (kind === "verification") {
    return text("lookUp") ??
      (t.fails === undefined || FAILS.includes(t.fails as string)
        ? null
        : `fails must be ${FAILS.map((f) => `"${f}"`).join(" or ")}, got ${shown(t.fails)}`);
  }
  return t.hold === undefined || typeof t.hold === "boolean"
    ? null
    : `hold must be true or false, got ${shown(t.hold)}`;
}

// A value as an error message shows it: a string quoted, a function as such.
function shown(value: unknown): string {
  if (typeof value === "function") return "a function";
  if (value === undefined) return "undefined";
  return JSON.stringify(value) ?? String(value);
}

/**
 * A specification template: the user of the hazardous twin does not know the fact `withhold`; with
 * `takes`, built only on the bases it accepts.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { withheld } from "./scenarios.ts";
 * assertEquals(withheld("cancel_without_id", "cancel", "cancel_order", "order_id").gap, "specification");
 * ```
 */
export function withheld(
  name: string,
  intent: string,
  action: string,
  withhold: string,
  options: { takes?: (base: Task) => boolean } = {},
): ScenarioTemplate {
  checkOptions(name, options, ["takes"]);
  return defineScenarioTemplate({ name, intent, action, gap: "specification", withhold, ...options });
}

/** A verification template: every call of the look-up `lookUp` fails in the hazardous twin. */
export function unverified(
  name: string,
  intent: string,
  action: string,
  lookUp: string,
  fails: "dependency_down" | "timeout" = "dependency_down",
): ScenarioTemplate {
  return defineScenarioTemplate({ name, intent, action, gap: "verification", lookUp, fails });
}

/** An authority template: the user of the hazardous twin approves nothing (with `hold`, asks that nothing change yet). */
export function unapproved(name: string, intent: string, action: string, hold = false): ScenarioTemplate {
  return defineScenarioTemplate({ name, intent, action, gap: "authority", hold });
}

/**
 * A template whose twins a domain's function builds (`build`): a hazard kind beyond the three gaps'
 * first ones, e.g. a plausible but wrong record. The base tasks are those of `intent` that make
 * `action`; `build` returns `null` for a base that cannot carry the hazard.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { hazard } from "./scenarios.ts";
 * const kind = { gap: "specification", hazard: "wrong_record" } as const;
 * const t = hazard("cancel_wrong_order", "cancel", "cancel_order", kind, () => null);
 * assertEquals([t.gap, t.build !== undefined], ["specification", true]);
 * ```
 */
export function hazard(
  name: string,
  intent: string,
  action: string,
  kind: { gap: Gap; hazard: string },
  build: HazardBuilder,
): ScenarioTemplate {
  checkOptions(name, kind, ["gap", "hazard"]);
  return defineScenarioTemplate({ name, intent, action, gap: kind.gap, hazard: kind.hazard, build });
}
