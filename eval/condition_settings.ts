/**
 * The conditions' parameters, each declared once like a setting (`settings.ts`): schema, default,
 * flags, docs entry; and the conditions' schema made from them, where a condition's runs left
 * unset are the experiment's K.
 *
 * @module
 */
import { z } from "zod";
import { ENV_PRESET_NAMES, type EnvPreset, modelSpec } from "../agents/mod.ts";
import { type Fields, fieldsWith, GOT_VALUE, listText, numberText, quoted } from "./_fields.ts";
import { flag, type SettingSpec, shapeOf } from "./_setting.ts";
import {
  type Condition,
  type ConditionParams,
  CONDITIONS,
  type ConditionsConfig,
  type ResolvedConditions,
} from "./config_types.ts";

const checkParaphrases = (spec: string) => {
  if (spec !== "templates" && (!spec.startsWith("llm:") || modelSpec(spec.slice(4)) === null)) {
    throw new RangeError(`Unknown paraphrases "${spec}": expected "templates" or "llm:PROVIDER:MODEL"`);
  }
};

/** A condition: its parameters, and an example of its object for the messages. */
export interface ConditionSpec<C extends Condition> {
  /** An object of the condition, as a message shows it. */
  example: string;
  /** Each parameter's declaration. */
  params: { [K in keyof ConditionParams<C>]-?: SettingSpec<ConditionParams<C>[K]> };
}

const RUNS_DOC_DEFAULT = "K";

/** Each condition's parameters. A condition's runs left unset are the experiment's K. */
export const CONDITION_SETTINGS = {
  nominal: {
    example: '{"runs": 5}',
    params: {
      runs: { schema: (f) => f.count("the runs").optional(), doc: "runs per task", docDefault: RUNS_DOC_DEFAULT },
    },
  },
  fault: {
    example: '{"p_fault": 0.2, "runs": 5}',
    params: {
      p_fault: {
        schema: (f) => f.probability(),
        default: 0.2,
        flags: [flag("--p-fault P", "fault probability per tool and model call (default {default})", numberText)],
        doc: "probability of a fault per tool and model call (note: a field of `fault`, not of the top)",
      },
      runs: {
        schema: (f) => f.count("the runs").optional(),
        flags: [flag("--fault-runs N", "runs per task under faults (default K)", numberText)],
        doc: "runs per task under faults",
        docDefault: RUNS_DOC_DEFAULT,
      },
    },
  },
  env: {
    example: `{"presets": [${quoted(ENV_PRESET_NAMES)}], "runs": 5}`,
    params: {
      presets: {
        schema: (f) =>
          z.array(
            z.enum(ENV_PRESET_NAMES as [EnvPreset, ...EnvPreset[]], {
              error: f.expected(`one of ${quoted(ENV_PRESET_NAMES)}`),
            }),
            { error: f.expected(`a list of presets (${quoted(ENV_PRESET_NAMES)})`) },
          ).min(1, { error: `expected at least one preset of ${quoted(ENV_PRESET_NAMES)}` })
            .transform((p) => ENV_PRESET_NAMES.filter((n) => p.includes(n))),
        default: [...ENV_PRESET_NAMES],
        flags: [
          flag(
            "--env-presets P,..",
            `perturbation presets, of ${ENV_PRESET_NAMES.join(", ")} (default all)`,
            listText("names"),
          ),
        ],
        doc: "the perturbation presets",
      },
      runs: {
        schema: (f) => f.count("the runs").optional(),
        flags: [flag("--env-runs N", "runs per task and preset (default K)", numberText)],
        doc: "runs per task and preset",
        docDefault: RUNS_DOC_DEFAULT,
      },
    },
  },
  prompt: {
    example: '{"variants": 5, "paraphrases": "templates"}',
    params: {
      variants: {
        schema: (f) => f.count("the number of paraphrases"),
        default: 5,
        flags: [
          flag(
            "--prompt-variants J",
            "paraphrases of the opening request, one run each (default {default})",
            numberText,
          ),
        ],
        doc: "paraphrases of the opening request, one run each",
      },
      paraphrases: {
        schema: (f) => f.known(checkParaphrases),
        default: "templates",
        flags: [flag("--paraphrases S", [
          `where paraphrases come from: "templates" (the task's own,`,
          'default) or "llm:PROVIDER:MODEL" (written by a model, cached)',
        ])],
        doc: '`"templates"` (the task\'s own) or `"llm:PROVIDER:MODEL"` (written by a model, cached)',
      },
      runs: { schema: (f) => f.count("the runs"), default: 1, doc: "runs per paraphrase" },
    },
  },
} as const satisfies { [C in Condition]: ConditionSpec<C> };

/** `--conditions`: the ones listed with their defaults, the others off; an unknown one is a `RangeError`. */
export function conditionsText(text: string, flag: string): ConditionsConfig {
  const on = listText("names")(text, flag);
  const bad = on.find((c) => !(CONDITIONS as readonly string[]).includes(c));
  if (bad !== undefined) {
    throw new RangeError(`Invalid value "${bad}" for ${flag}: expected some of ${quoted(CONDITIONS)}`);
  }
  return Object.fromEntries(CONDITIONS.map((c) => [c, on.includes(c) ? {} : false]));
}

// What the conditions' schema gives, before their runs are filled in.
type ParsedConditions = Record<Condition, false | { runs?: number }>;

/** The schema of the `conditions` setting; each condition's parameters get their defaults, its runs stay unset. */
export function conditionsSchema(f: Fields): z.ZodType<ParsedConditions, ConditionsConfig | undefined> {
  const shape = Object.fromEntries(CONDITIONS.map((c) => {
    const { example, params } = CONDITION_SETTINGS[c];
    return [c, f.toggle(example, z.strictObject(shapeOf(params, f))).prefault({})];
  }));
  const schema = z.object(shape, { error: f.expected(`an object with ${CONDITIONS.join(", ")}`) }).strict();
  return schema.prefault({}) as unknown as z.ZodType<ParsedConditions, ConditionsConfig | undefined>;
}

/** The conditions with a condition's runs left unset as the experiment's K. */
export function withRuns(conditions: ParsedConditions, runs: number): ResolvedConditions {
  const entries = CONDITIONS.map((c) => {
    const value = conditions[c];
    return [c, value === false ? false : { ...value, runs: value.runs ?? runs }];
  });
  return Object.fromEntries(entries) as ResolvedConditions;
}

const DEFAULTS = conditionsSchema(fieldsWith(GOT_VALUE)).parse(undefined);

/**
 * The conditions a config that sets none resolves to, at K runs.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { defaultConditions } from "./condition_settings.ts";
 * assertEquals(defaultConditions(3).fault, { p_fault: 0.2, runs: 3 });
 * ```
 */
export function defaultConditions(runs: number): ResolvedConditions {
  return withRuns(DEFAULTS, runs);
}
