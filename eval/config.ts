/**
 * The experiment config: what a user writes (a JSON file given with `--config`, flags, the
 * environment's API roots), checked once with zod at the edge and resolved into one type with
 * every field set. Each setting is declared once, in one table: its schema and default, and the
 * flags and environment variable that set it; the config file, the flags of `deno task eval` and
 * their usage text are all read from it. Every bad field is reported, one per line, saying what is
 * accepted.
 *
 * @module
 */
import { z } from "zod";
import { canonicalJson, DEFAULT_PAIRS, deriveSeed, domains as registry } from "../envs/mod.ts";
import { agentFactory, ENV_PRESET_NAMES, type EnvPreset, type ModelSpec, modelSpec } from "../agents/mod.ts";
import type { EpisodeRecord } from "../scoring/mod.ts";
import {
  type Fields,
  fieldsWith,
  givenLine,
  type GivenText,
  GOT_NOTHING,
  GOT_VALUE,
  isMalformed,
  isRange,
  issueLines,
  listText,
  numberText,
  quoted,
} from "./_fields.ts";

export type { GivenText } from "./_fields.ts";
import { InputFileError, jsonErrorWhere, MAX_CONFIG_BYTES, readInputText } from "./fs_errors.ts";

/**
 * The conditions, in the order the plan lays them out: those of the record format (docs/metrics.md,
 * `scoring/record.ts`), which scoring declares apart as it imports nothing from eval.
 */
export const CONDITIONS = [
  "nominal",
  "fault",
  "env",
  "prompt",
] as const satisfies readonly EpisodeRecord["condition"][];

/** The condition a cell runs under. */
export type Condition = typeof CONDITIONS[number];

/** The conditions of an experiment as a user writes them: `false` turns one off, `true` or `{}` keeps its defaults. */
export interface ConditionsConfig {
  /** K runs per task. @default {{ runs: <runs> }} */
  nominal?: boolean | { runs?: number };
  /** Faults with probability `p_fault` per tool and model call. @default {{ p_fault: 0.2, runs: <runs> }} */
  fault?: boolean | { p_fault?: number; runs?: number };
  /** Perturbed tool interfaces, one variant per preset. @default {{ presets: ["low", "medium", "high"], runs: <runs> }} */
  env?: boolean | { presets?: EnvPreset[]; runs?: number };
  /**
   * `variants` paraphrases of the opening request, from the task's own (`"templates"`) or written
   * by a model (`"llm:PROVIDER:MODEL"`), `runs` runs each.
   * @default {{ variants: 5, paraphrases: "templates", runs: 1 }}
   */
  prompt?: boolean | { variants?: number; paraphrases?: string; runs?: number };
}

/** The conditions with every field resolved; `false` when off. */
export type ResolvedConditions = {
  [C in Condition]: Required<Exclude<ConditionsConfig[C], boolean | undefined>> | false;
};

// The parameters of a condition as a user writes them.
type Params<C extends Condition> = Exclude<ConditionsConfig[C], boolean | undefined>;

/** An experiment's config as a user writes it (flags or a JSON file); every field is optional. */
export interface ExperimentConfig {
  /** Domain names from the registry. @default {every registered domain} */
  domains?: string[];
  /** Agent specs, each accepted by `agentFactory()`. @default {["oracle", "noisy", "reckless", "literal"]} */
  agents?: string[];
  /** Number of each domain's default tasks. @default {50} */
  tasks?: number;
  /** K: runs per task of the nominal condition, and of the fault and env conditions unless they say. @default {5} */
  runs?: number;
  /** The reliability protocol's conditions and their parameters. @default {all four, with their defaults} */
  conditions?: ConditionsConfig;
  /** Experiment seed; every cell's seed derives from it. @default {"0"} */
  seed?: string | number;
  /** Seed of the generated worlds and their tasks (fixed, so every experiment seed runs the same tasks). @default {"0"} */
  worldSeed?: string | number;
  /** Agent steps after which an episode is cut off (a long task gets at least its own `maxSteps`). @default {30} */
  maxSteps?: number;
  /**
   * Runs per variant of every condition for a task of at least 100 milestones (each costs as much
   * as dozens of short ones); `null` runs them as often as the others. The report lists each length
   * class's runs.
   * @default {null}
   */
  longRuns?: number | null;
  /**
   * What the experiment runs: the domains' tasks under the conditions (`"tasks"`), their paired
   * abstention scenarios (`"abstention"`, docs/metrics.md "Abstention"), or both (`"all"`); or the
   * long-horizon suite alone (`"long"`, docs/metrics.md "Long horizon"): `longTasks` tasks of each
   * length × dependency class of every domain that has long task families, nominal only, `runs`
   * times each (`longRuns` for 100+ milestones). The domains' tasks hold one long task per class only.
   * @default {"all"}
   */
  suite?: Suite;
  /** Tasks per length × dependency class of the long suite (`suite: "long"`). @default {20} */
  longTasks?: number;
  /** Pairs of abstention scenarios per template of each domain. @default {2} */
  scenarioPairs?: number;
  /** Runs of each abstention scenario (nominal only). @default {1} */
  scenarioRuns?: number;
  /**
   * The user simulator: `"scripted"`, a trusting scripted user `"scripted@trusting"` (approving, at
   * rate 0.5, a proposal of the change it asked for whose details are wrong or that it cannot check)
   * or `"scripted@trusting=R"`, or
   * `"llm:PROVIDER:MODEL"`. @default {"scripted"}
   */
  user?: string;
  /**
   * The safety judge: `"rules"` (the rules judge alone) or `"llm:PROVIDER:MODEL"` (the rules judge
   * and an LLM judge, whose agreement is reported). @default {"rules"}
   */
  judge?: string;
  /** Sampling temperature of language-model agents. @default {null} (the provider's default) */
  temperature?: number | null;
  /** Output token limit per call of language-model agents. @default {null} (the client's default) */
  maxTokens?: number | null;
  /**
   * API root of every `openai:` model, without `/chat/completions` (`deno task eval` reads
   * `$OPENAI_BASE_URL` when neither a flag nor the file sets it).
   * @default {"https://api.openai.com/v1"}
   */
  baseUrl?: string;
  /**
   * API root of every `anthropic:` model, without `/v1/messages` (`deno task eval` reads
   * `$ANTHROPIC_BASE_URL` when neither a flag nor the file sets it).
   * @default {"https://api.anthropic.com"}
   */
  anthropicBaseUrl?: string;
  /** JSON price file over the default table. @default {null} */
  prices?: string | null;
  /** A model cache file or a results folder holding one: answer every model call from it. @default {null} (live) */
  replay?: string | null;
  /** Dollars of model calls after which no new episode starts. @default {null} (no budget) */
  maxCost?: number | null;
  /** Episodes in flight at once, each in its own world. @default {1} */
  concurrency?: number;
  /** Output folder. @default {"results/<experiment>"} */
  out?: string;
}

/** A world the episodes of an imported experiment are replayed in. */
export type ImportWorld =
  /** A domain's world on τ-bench's data (`data`: the folder of its files, absolute) with τ-bench's tasks. */
  | { tauBench: { domain: string; data: string } }
  /** A domain's generated world at a world seed, with its first `tasks` tasks. */
  | { generated: { domain: string; worldSeed: string; tasks: number } };

/** Where the episodes of an imported experiment came from (`deno task import`). */
export interface ImportSource {
  /** The format read: τ-bench's results array, or ark's transcript JSON Lines. */
  from: "tau-bench" | "ark";
  /** The file's base name. */
  file: string;
  /** The SHA-256 of the file's bytes, hex. */
  sha256: string;
  /** The worlds its episodes were replayed in. */
  worlds: ImportWorld[];
}

/** A config with every field resolved (each as `ExperimentConfig` documents it), plus the experiment's name. */
export interface ResolvedConfig extends Required<Omit<ExperimentConfig, "conditions" | "seed" | "worldSeed">> {
  /** The conditions, each with every parameter, or `false` when off. */
  conditions: ResolvedConditions;
  /** The experiment seed, as text. */
  seed: string;
  /** The world seed, as text. */
  worldSeed: string;
  /** Deterministic, short name: `<domains>-s<seed>-t<tasks>-k<runs>`, plus a hash of anything else not default. */
  experiment: string;
  /**
   * For an experiment imported from another harness's transcripts: where they came from. Its
   * episodes were replayed, not run: the plan's fields (domains, tasks, runs, conditions) do not apply.
   * @default {undefined: ark ran the experiment}
   */
  source?: ImportSource;
}

/** The default API root of `openai:` models. */
export const OPENAI_BASE_URL = "https://api.openai.com/v1";
/** The default API root of `anthropic:` models. */
export const ANTHROPIC_BASE_URL = "https://api.anthropic.com";
/** What an experiment runs (see `ExperimentConfig.suite`). */
export type Suite = "all" | "tasks" | "abstention" | "long";
/** The suites, as `--suite` takes them. */
export const SUITES: readonly Suite[] = ["all", "tasks", "abstention", "long"];
/** The long suite's tasks per length × dependency class when the config does not say. */
export const DEFAULT_LONG_TASKS = 20;

/**
 * Whether an experiment runs the domains' tasks, their abstention scenarios, and the long suite.
 *
 * @example
 * ```ts
 * import { suiteParts } from "./config.ts";
 * suiteParts({ suite: "long" }); // { tasks: false, scenarios: false, long: true }
 * ```
 */
export function suiteParts(
  config: Pick<ResolvedConfig, "suite">,
): { tasks: boolean; scenarios: boolean; long: boolean } {
  const { suite } = config;
  return {
    tasks: suite === "all" || suite === "tasks",
    scenarios: suite === "all" || suite === "abstention",
    long: suite === "long",
  };
}

/** The default agents: every scripted agent. */
export const DEFAULT_AGENTS: readonly string[] = ["oracle", "noisy", "reckless", "literal"];

/** A flag of a setting: how the usage text shows it and how its text becomes the setting's value. */
export interface SettingFlag {
  /** The flag, e.g. `"--max-steps"`. */
  name: string;
  /** Its argument in the usage text, e.g. `"N"`; `""` for none. */
  arg: string;
  /** What it does, for the usage text: one line, or several. */
  help: string | readonly string[];
  /** Its text as the setting's value, which the config's schema then checks like a file's field. */
  read: (text: string, flag: string) => unknown;
  /** Where the value goes in the config, e.g. `["conditions", "fault", "p_fault"]`. */
  path: readonly string[];
}

const checkDomain = (name: string) => {
  if (!Object.hasOwn(registry, name)) {
    throw new RangeError(`Unknown domain "${name}": expected one of ${quoted(Object.keys(registry))}`);
  }
};
const checkAgent = (spec: string) => modelSpec(spec) ?? agentFactory(spec);
const checkParaphrases = (spec: string) => {
  if (spec !== "templates" && (!spec.startsWith("llm:") || modelSpec(spec.slice(4)) === null)) {
    throw new RangeError(`Unknown paraphrases "${spec}": expected "templates" or "llm:PROVIDER:MODEL"`);
  }
};

// `--conditions`: the ones listed with their defaults, the others off.
const conditionsText = (text: string, flag: string): ConditionsConfig => {
  const on = listText("names")(text, flag);
  const bad = on.find((c) => !(CONDITIONS as readonly string[]).includes(c));
  if (bad !== undefined) {
    throw new RangeError(`Invalid value "${bad}" for ${flag}: expected some of ${quoted(CONDITIONS)}`);
  }
  return Object.fromEntries(CONDITIONS.map((c) => [c, on.includes(c) ? {} : false]));
};

// A flag as the usage text shows it ("--tasks N"), what it does, and how its text becomes the
// setting's value (`read`: the text itself unless given).
function flag(usage: string, help: SettingFlag["help"], read?: SettingFlag["read"]): FlagSpec {
  const [name, arg = ""] = usage.split(" ");
  return { name, arg, help, read: read ?? ((text) => text) };
}

type FlagSpec = Omit<SettingFlag, "path">;

// One setting: the schema of its value (default included), the flags that set it and the
// environment variable that does when neither the file nor a flag does.
interface SettingSpec<In> {
  schema: (f: Fields) => z.ZodType<unknown, In>;
  flags?: readonly FlagSpec[];
  env?: string;
}

// A condition: its parameters, and an example of its object for the messages.
interface ConditionSpec<C extends Condition> {
  example: string;
  params: { [K in keyof Params<C>]-?: SettingSpec<Params<C>[K]> };
}

// Each condition's parameters. A condition's runs left unset are the experiment's K (see `withRuns()`).
const CONDITION_SETTINGS = {
  nominal: {
    example: '{"runs": 5}',
    params: { runs: { schema: (f) => f.count("the runs").optional() } },
  },
  fault: {
    example: '{"p_fault": 0.2, "runs": 5}',
    params: {
      p_fault: {
        schema: (f) => f.probability().default(0.2),
        flags: [flag("--p-fault P", "fault probability per tool and model call (default 0.2)", numberText)],
      },
      runs: {
        schema: (f) => f.count("the runs").optional(),
        flags: [flag("--fault-runs N", "runs per task under faults (default K)", numberText)],
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
            .transform((p) => ENV_PRESET_NAMES.filter((n) => p.includes(n)))
            .default([...ENV_PRESET_NAMES]),
        flags: [
          flag(
            "--env-presets P,..",
            `perturbation presets, of ${ENV_PRESET_NAMES.join(", ")} (default all)`,
            listText("names"),
          ),
        ],
      },
      runs: {
        schema: (f) => f.count("the runs").optional(),
        flags: [flag("--env-runs N", "runs per task and preset (default K)", numberText)],
      },
    },
  },
  prompt: {
    example: '{"variants": 5, "paraphrases": "templates"}',
    params: {
      variants: {
        schema: (f) => f.count("the number of paraphrases").default(5),
        flags: [
          flag("--prompt-variants J", "paraphrases of the opening request, one run each (default 5)", numberText),
        ],
      },
      paraphrases: {
        schema: (f) => f.known(checkParaphrases).default("templates"),
        flags: [flag("--paraphrases S", [
          `where paraphrases come from: "templates" (the task's own,`,
          'default) or "llm:PROVIDER:MODEL" (written by a model, cached)',
        ])],
      },
      runs: { schema: (f) => f.count("the runs").default(1) },
    },
  },
} satisfies { [C in Condition]: ConditionSpec<C> };

// The settings, in the order of the usage text. A value given by a flag goes through the same
// schema as a file's.
const SETTINGS = {
  domains: {
    schema: (f) => f.names("domain", checkDomain).default(Object.keys(registry)),
    flags: [
      flag("--domains A,B,...", "domains to run (default: every registered domain)", listText("domain names")),
      flag("--domain NAME", "one domain (the same as --domains NAME)", (text) => [text]),
    ],
  },
  agents: {
    schema: (f) => f.names("agent", checkAgent).default([...DEFAULT_AGENTS]),
    flags: [flag("--agents A,B,...", [
      `agents to test (default "${DEFAULT_AGENTS.join(",")}"):`,
      'scripted names, the sanity baselines "idle", "apologist",',
      '"broken", or language models as PROVIDER:MODEL with',
      'PROVIDER "openai" (any OpenAI-compatible server) or',
      '"anthropic", e.g. "openai:gpt-4o-mini"; "checkpoint:AGENT"',
      'puts any of them behind the checkpoint wrapper, "prompt_only:AGENT"',
      "adds the abstention instruction to its policy; or an agent",
      "server's http(s) URL (docs/remote_agents.md)",
    ], listText("names"))],
  },
  tasks: {
    schema: (f) => f.count("the number of tasks").default(50),
    flags: [flag("--tasks N", "number of tasks per domain (default 50)", numberText)],
  },
  runs: {
    schema: (f) => f.count("the runs per task").default(5),
    flags: [flag("--runs K", "runs per task: nominal, and fault and env unless set (default 5)", numberText)],
  },
  conditions: {
    schema: conditionsSchema,
    flags: [flag("--conditions C,...", `conditions to run, of ${CONDITIONS.join(", ")} (default all)`, conditionsText)],
  },
  seed: {
    schema: (f) => f.seed("the seed").default("0"),
    flags: [flag("--seed S", 'experiment seed (default "0")')],
  },
  worldSeed: {
    schema: (f) => f.seed("the world seed").default("0"),
    flags: [flag("--world-seed S", 'seed of the generated worlds and their tasks (default "0")')],
  },
  maxSteps: {
    schema: (f) => f.count("the step limit").default(30),
    flags: [
      flag(
        "--max-steps N",
        "agent steps before an episode is cut off (default 30; a long task gets its own)",
        numberText,
      ),
    ],
  },
  longRuns: {
    schema: (f) => f.count("the runs of a long task").nullable().default(null),
    flags: [
      flag(
        "--long-runs N",
        "runs per variant of a task of 100+ milestones (default: as many as the others)",
        numberText,
      ),
    ],
  },
  suite: {
    schema: (f) =>
      z.enum(SUITES as [Suite, ...Suite[]], {
        error: f.expected(`a suite, one of ${SUITES.map((x) => `"${x}"`).join(", ")}`),
      })
        .default("all"),
    flags: [flag("--suite S", [
      'what to run: "tasks" (the tasks under the conditions), "abstention"',
      '(the paired abstention scenarios), "all" (both, default; one long',
      'task per class), or "long" (the long-horizon suite: --long-tasks',
      "tasks per length x dependency class, nominal, --runs each)",
    ])],
  },
  longTasks: {
    schema: (f) => f.count("the long tasks per class").default(DEFAULT_LONG_TASKS),
    flags: [flag("--long-tasks N", "tasks per length x dependency class of --suite long (default 20)", numberText)],
  },
  scenarioPairs: {
    schema: (f) => f.count("the scenario pairs per template").default(DEFAULT_PAIRS),
    flags: [flag("--scenario-pairs N", "abstention scenario pairs per template (default 2)", numberText)],
  },
  scenarioRuns: {
    schema: (f) => f.count("the runs per scenario").default(1),
    flags: [flag("--scenario-runs N", "runs of each abstention scenario (default 1)", numberText)],
  },
  user: {
    schema: (f) => f.known(userSpec).default("scripted"),
    flags: [flag("--user U", [
      'user simulator: "scripted" (default), "scripted@trusting[=R]" (approves',
      "a proposal of its change with wrong or unknown details at rate R,",
      'default 0.5) or "llm:PROVIDER:MODEL"',
    ])],
  },
  judge: {
    schema: (f) => f.known(judgeSpec).default("rules"),
    flags: [flag("--judge J", [
      'safety judge: "rules" (default) or "llm:PROVIDER:MODEL" (the',
      "rules judge and an LLM judge; their agreement is reported)",
    ])],
  },
  temperature: {
    schema: (f) => f.amount("the temperature", "0.7").nullable().default(null),
    flags: [flag("--temperature T", "sampling temperature of model agents (default: the provider's)", numberText)],
  },
  maxTokens: {
    schema: (f) => f.count("the token limit").nullable().default(null),
    flags: [flag("--max-tokens N", "output token limit per model call (default: the client's)", numberText)],
  },
  baseUrl: {
    schema: (f) => f.url("the API root").default(OPENAI_BASE_URL),
    env: "OPENAI_BASE_URL",
    flags: [flag("--base-url URL", [
      "API root of every openai: model (default $OPENAI_BASE_URL,",
      `then "${OPENAI_BASE_URL}"), e.g. "http://localhost:11434/v1"`,
    ])],
  },
  anthropicBaseUrl: {
    schema: (f) => f.url("the API root").default(ANTHROPIC_BASE_URL),
    env: "ANTHROPIC_BASE_URL",
    flags: [flag("--anthropic-base-url URL", [
      "API root of every anthropic: model (default $ANTHROPIC_BASE_URL,",
      `then "${ANTHROPIC_BASE_URL}")`,
    ])],
  },
  prices: {
    schema: (f) => f.text("a price file").nullable().default(null),
    flags: [flag("--prices FILE", [
      'JSON prices {"provider:model": {"input": $/Mtok, "output": $/Mtok}}',
      "over the built-in table",
    ])],
  },
  replay: {
    schema: (f) => f.text("a model cache or results folder").nullable().default(null),
    flags: [flag("--replay CACHE", [
      "run a results folder's experiment again from its results.sqlite",
      "and model_cache.sqlite, or answer the flags' experiment from a",
      "model cache file; contacts no endpoint",
    ])],
  },
  maxCost: {
    schema: (f) => f.amount("the budget in dollars", "2.50").nullable().default(null),
    flags: [flag("--max-cost D", "start no new episode once model calls have cost D dollars", numberText)],
  },
  concurrency: {
    schema: (f) => f.count("the concurrency").default(1),
    flags: [flag("--concurrency N", "episodes in flight at once (default 1)", numberText)],
  },
  out: {
    schema: (f) => f.text("the output folder").optional(),
    flags: [flag("--out DIR", 'output folder (default "results/<experiment>")')],
  },
} satisfies { [K in keyof ExperimentConfig]-?: SettingSpec<ExperimentConfig[K]> };

type Shape<T extends Record<string, { schema: (f: Fields) => z.ZodType }>> = {
  [K in keyof T]: ReturnType<T[K]["schema"]>;
};

function shapeOf<T extends Record<string, { schema: (f: Fields) => z.ZodType }>>(specs: T, f: Fields): Shape<T> {
  return Object.fromEntries(Object.entries(specs).map(([key, spec]) => [key, spec.schema(f)])) as Shape<T>;
}

// What the conditions' schema gives, before their runs are filled in.
type ParsedConditions = Record<Condition, false | { runs?: number }>;

function conditionsSchema(f: Fields): z.ZodType<ParsedConditions, ConditionsConfig | undefined> {
  const shape = Object.fromEntries(CONDITIONS.map((c) => {
    const { example, params } = CONDITION_SETTINGS[c];
    return [c, f.toggle(example, z.strictObject(shapeOf(params, f))).prefault({})];
  }));
  const schema = z.object(shape, { error: f.expected(`an object with ${CONDITIONS.join(", ")}`) }).strict();
  return schema.prefault({}) as unknown as z.ZodType<ParsedConditions, ConditionsConfig | undefined>;
}

// A condition's runs left unset are the experiment's K.
function withRuns(conditions: ParsedConditions, runs: number): ResolvedConditions {
  const entries = CONDITIONS.map((c) => {
    const value = conditions[c];
    return [c, value === false ? false : { ...value, runs: value.runs ?? runs }];
  });
  return Object.fromEntries(entries) as ResolvedConditions;
}

function configSchema(f: Fields) {
  return z.object(shapeOf(SETTINGS, f), { error: f.expected("a JSON object of settings") }).strict()
    .transform((c) => ({ ...c, conditions: withRuns(c.conditions, c.runs) }));
}

const FILE_SCHEMA = configSchema(fieldsWith(GOT_VALUE));
const TEXT_SCHEMA = configSchema(fieldsWith(GOT_NOTHING));

const flagsOf = (path: readonly string[], spec: SettingSpec<unknown>): SettingFlag[] =>
  (spec.flags ?? []).map((flag) => ({ ...flag, path }));

/** The settings' flags, in the order of the usage text, each with where its value goes. */
export const SETTING_FLAGS: readonly SettingFlag[] = Object.entries(SETTINGS).flatMap(([key, spec]) => [
  ...flagsOf([key], spec as SettingSpec<unknown>),
  ...key !== "conditions"
    ? []
    : CONDITIONS.flatMap((c) =>
      Object.entries(CONDITION_SETTINGS[c].params).flatMap(([param, p]) =>
        flagsOf(["conditions", c, param], p as SettingSpec<unknown>)
      )
    ),
]);

/** The settings an environment variable gives when neither the file nor a flag does. */
export const SETTING_ENV: readonly { key: keyof ExperimentConfig; name: string }[] = Object.entries(SETTINGS)
  .flatMap(([key, spec]) => {
    const name = (spec as SettingSpec<unknown>).env;
    return name === undefined ? [] : [{ key: key as keyof ExperimentConfig, name }];
  });

// The keys accepted at a path of a config (`""`: the top).
const KEYS: Record<string, readonly string[]> = Object.fromEntries([
  ["", Object.keys(SETTINGS)],
  ["conditions", CONDITIONS],
  ...CONDITIONS.map((c) => [`conditions.${c}`, Object.keys(CONDITION_SETTINGS[c].params)]),
]);
const keysAt = (at: string) => KEYS[at] ?? [];

/** Options of `checkConfig()`. */
export interface CheckOptions {
  /**
   * Where the config came from, named in the message (e.g. `config file "exp.json"`).
   * @default {"config"}
   */
  source?: string;
  /**
   * The fields given as text by name (flags, environment variables). A bad one is reported on its
   * own line by that name and its text, `Invalid value "0" for --tasks: expected ...`; as all
   * text is text, a refused one is out of range (a `RangeError`) unless malformed.
   * @default {none: every field is named by its path}
   */
  given?: readonly GivenText[];
}

/**
 * Checks a config's shape and names, reporting every bad field on its own line:
 * `TypeError` when any has a wrong shape, `RangeError` when all are out of range or unknown.
 *
 * @example
 * ```ts
 * import { checkConfig } from "./config.ts";
 * checkConfig({ tasks: 6, conditions: { env: false } }); // { tasks: 6, conditions: { env: false } }
 * ```
 */
export function checkConfig(input: unknown, options: CheckOptions = {}): ExperimentConfig {
  parseConfig(input, options);
  return input as ExperimentConfig;
}

// The one parse of a config: its resolved fields but for the output folder and the name.
function parseConfig(input: unknown, options: CheckOptions) {
  const { given } = options;
  const parsed = (given === undefined ? FILE_SCHEMA : TEXT_SCHEMA).safeParse(input);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues;
  if (given !== undefined) {
    const lines = issues.map((issue) =>
      givenLine(issue, input, given) ?? `Invalid config field ${issueLines([issue], keysAt).join("; ")}`
    );
    throw new (issues.some(isMalformed) ? TypeError : RangeError)(lines.join("\n"));
  }
  const lines = issueLines(issues, keysAt);
  const source = options.source ?? "config";
  const message = lines.length === 1 && options.source === undefined
    ? `Invalid config field ${lines[0]}`
    : `Invalid ${source}:\n${lines.map((l) => `  ${l}`).join("\n")}`;
  throw issues.every(isRange) ? new RangeError(message) : new TypeError(message);
}

/**
 * Resolves a config: checks it (see `checkConfig()`), fills every default and names the experiment.
 *
 * @example
 * ```ts
 * import { resolveConfig } from "./config.ts";
 * resolveConfig({ tasks: 6, runs: 2 }).experiment; // "airline-s0-t6-k2"
 * ```
 */
export function resolveConfig(input: ExperimentConfig = {}): ResolvedConfig {
  const c = parseConfig(input, {});
  if (c.suite === "long" && !c.domains.some((d) => registry[d]?.longTasks !== undefined)) {
    const long = Object.keys(registry).filter((d) => registry[d].longTasks !== undefined);
    throw new RangeError(
      `Invalid suite "long" for domains ${quoted(c.domains)}: none has long-horizon task families; ` +
        `expected some of ${quoted(long)}`,
    );
  }
  const experiment = experimentName(c);
  return { ...c, experiment, out: c.out ?? `results/${experiment}` };
}

/**
 * Reads an experiment config from a JSON file and checks it (see `checkConfig()`); every message
 * names the file. A missing file, a folder, a device or a pipe is a `TypeError`, a file over
 * `MAX_CONFIG_BYTES` a `RangeError`, text that is not JSON a `SyntaxError` with the position (and
 * never the text: the file may be anything).
 *
 * @example
 * ```ts ignore
 * import { loadConfigFile } from "./config.ts";
 * const config = resolveConfig(mergeConfigs(await loadConfigFile("exp.json"), flags));
 * ```
 */
export async function loadConfigFile(path: string): Promise<ExperimentConfig> {
  let text: string;
  try {
    text = await readInputText(path, { what: "config file", limit: MAX_CONFIG_BYTES });
  } catch (err) {
    if (!(err instanceof InputFileError)) throw err;
    throw err.code === "too_big" ? new RangeError(err.message) : new TypeError(err.message);
  }
  let input: unknown;
  try {
    input = JSON.parse(text);
  } catch (err) {
    if (!(err instanceof SyntaxError)) throw err;
    const where = jsonErrorWhere(err);
    throw new SyntaxError(
      `Cannot parse config file "${path}" as JSON${where}: expected one JSON object of settings (docs/config.md)`,
    );
  }
  return checkConfig(input, { source: `config file "${path}"` });
}

/**
 * A config with `over`'s fields over `base`'s (flags over a file): conditions merge one by one,
 * an object's fields over the other's, `false` turning a condition off.
 *
 * @example
 * ```ts
 * import { mergeConfigs } from "./config.ts";
 * mergeConfigs({ tasks: 6, conditions: { fault: { p_fault: 0.1 } } }, { conditions: { fault: { runs: 2 } } });
 * // { tasks: 6, conditions: { fault: { p_fault: 0.1, runs: 2 } } }
 * ```
 */
export function mergeConfigs(base: ExperimentConfig, over: ExperimentConfig): ExperimentConfig {
  const merged: ExperimentConfig = { ...base, ...over };
  if (base.conditions === undefined || over.conditions === undefined) return merged;
  const conditions: Record<string, unknown> = { ...base.conditions };
  for (const [name, value] of Object.entries(over.conditions)) {
    const was = conditions[name];
    conditions[name] = typeof value === "object" && typeof was === "object" && was !== null
      ? { ...was, ...value }
      : value;
  }
  merged.conditions = conditions as ConditionsConfig;
  return merged;
}

/**
 * The model of a `user` spec: `null` for the scripted user (`"scripted"`, or a trusting one,
 * `"scripted@trusting"` or `"scripted@trusting=R"`), the provider and model for
 * `"llm:PROVIDER:MODEL"`; anything else is a `RangeError` saying what is accepted.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { userSpec } from "./config.ts";
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
 * import { scriptedTrust } from "./config.ts";
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
 * import { judgeSpec } from "./config.ts";
 * [judgeSpec("rules"), judgeSpec("llm:anthropic:claude-3-5-haiku-latest")?.model]; // [null, "claude-3-5-haiku-latest"]
 * ```
 */
export function judgeSpec(spec: string): ModelSpec | null {
  return llmOr("judge", "rules", spec);
}

/**
 * The model a prompt condition's paraphrases come from, as `"provider:model"`, or `null` for the task's own.
 *
 * @example
 * ```ts
 * import { paraphraseModel, resolveConfig } from "./config.ts";
 * paraphraseModel(resolveConfig({ conditions: { prompt: { paraphrases: "llm:openai:gpt-4o-mini" } } }));
 * // "openai:gpt-4o-mini"
 * ```
 */
export function paraphraseModel(config: Pick<ResolvedConfig, "conditions">): string | null {
  const prompt = config.conditions.prompt;
  return prompt === false || prompt.paraphrases === "templates" ? null : prompt.paraphrases.slice(4);
}

type Named = Omit<ResolvedConfig, "experiment" | "out" | "conditions"> & { conditions: unknown };

// What decides results beyond the name's own fields, where it is not the default.
function extras(c: Named): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (c.agents.join(",") !== DEFAULT_AGENTS.join(",")) out.agents = c.agents;
  const defaults = FILE_SCHEMA.parse({ runs: c.runs }).conditions;
  if (canonicalJson(c.conditions) !== canonicalJson(defaults)) out.conditions = c.conditions;
  if (c.maxSteps !== 30) out.maxSteps = c.maxSteps;
  if (c.longRuns !== null) out.longRuns = c.longRuns;
  if (c.worldSeed !== "0") out.worldSeed = c.worldSeed;
  if (c.suite !== "all") out.suite = c.suite;
  Object.assign(out, scenarioFields(c));
  if (suiteParts(c).long && c.longTasks !== DEFAULT_LONG_TASKS) out.longTasks = c.longTasks;
  if (c.user !== "scripted") out.user = c.user;
  // Not the judge: it changes how episodes are judged, not what they are, and `deno task judge`
  // may change it later; the experiment keeps its name.
  if (c.temperature !== null) out.temperature = c.temperature;
  if (c.maxTokens !== null) out.maxTokens = c.maxTokens;
  return out;
}

// The scenario settings where they are not the default and the suite runs scenarios: under
// `suite: "tasks"` they change no cell, so they change neither the name nor the identity.
function scenarioFields(c: Pick<ResolvedConfig, "suite" | "scenarioPairs" | "scenarioRuns">): Record<string, number> {
  const out: Record<string, number> = {};
  if (!suiteParts(c).scenarios) return out;
  if (c.scenarioPairs !== DEFAULT_PAIRS) out.scenarioPairs = c.scenarioPairs;
  if (c.scenarioRuns !== 1) out.scenarioRuns = c.scenarioRuns;
  return out;
}

// A deterministic, path-safe name: the domains, seed, tasks and runs, and a hash of the rest when not default.
function experimentName(c: Named): string {
  const safe = (s: string) => s.replace(/[^A-Za-z0-9_.-]+/g, "_");
  const name = `${c.domains.map(safe).join("+")}-s${safe(c.seed)}-t${c.tasks}-k${c.runs}`;
  const rest = extras(c);
  return Object.keys(rest).length === 0 ? name : `${name}-${deriveSeed(canonicalJson(rest)).slice(0, 8)}`;
}

/**
 * The part of a config that decides results: two stores with the same identity hold the same
 * experiment. Endpoints, keys, prices, the cache, the budget and the concurrency are not part of
 * it: they change how a run goes, not what an episode is.
 *
 * @example
 * ```ts
 * import { configIdentity, resolveConfig } from "./config.ts";
 * configIdentity(resolveConfig({ concurrency: 4 })).experiment; // "airline-s0-t50-k5"
 * ```
 */
export function configIdentity(config: ResolvedConfig): Record<string, unknown> {
  if (config.source !== undefined) {
    const imported: Record<string, unknown> = {
      source: config.source,
      agents: config.agents,
      seed: config.seed,
      experiment: config.experiment,
    };
    if (config.judge !== "rules") imported.judge = config.judge;
    return imported;
  }
  const identity: Record<string, unknown> = {
    domains: config.domains,
    agents: config.agents,
    tasks: config.tasks,
    runs: config.runs,
    conditions: config.conditions,
    seed: config.seed,
    worldSeed: config.worldSeed,
    maxSteps: config.maxSteps,
    experiment: config.experiment,
  };
  if (config.longRuns !== null) identity.longRuns = config.longRuns;
  if (config.suite !== "all") identity.suite = config.suite;
  Object.assign(identity, scenarioFields(config));
  if (suiteParts(config).long && config.longTasks !== DEFAULT_LONG_TASKS) identity.longTasks = config.longTasks;
  if (config.user !== "scripted") identity.user = config.user;
  if (config.judge !== "rules") identity.judge = config.judge;
  if (config.temperature !== null) identity.temperature = config.temperature;
  if (config.maxTokens !== null) identity.maxTokens = config.maxTokens;
  return identity;
}
