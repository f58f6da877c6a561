/**
 * The settings' table: each setting of an experiment declared once, with the schema of its value,
 * its default, the flags of `deno task eval` that set it (with their help lines), the environment
 * variable that does when neither a file nor a flag does, and its entry in docs/config.md. The
 * config's schema (`config.ts`), the flags and their usage text (`cli/_eval_args.ts`), the
 * experiment's name (`experiment.ts`) and docs/config.md (`tests/config_docs_test.ts`) are all read
 * from it.
 *
 * @module
 */
import { z } from "zod";
import { DEFAULT_PAIRS, domains as registry, getDomain } from "../envs/mod.ts";
import { agentFactory, modelSpec } from "../agents/mod.ts";
import { ANTHROPIC_BASE_URL, OPENAI_BASE_URL } from "../agents/model/mod.ts";
import { listText, numberText } from "./_fields.ts";
import { docOf, flag, flagsOf, type SettingDoc, type SettingFlag, type SettingSpec } from "./_setting.ts";
import { CONDITIONS, type ExperimentConfig, type Suite, SUITES } from "./config_types.ts";
import { CONDITION_SETTINGS, conditionsSchema, conditionsText } from "./condition_settings.ts";
import { DEFAULT_TRUST, judgeSpec, userSpec } from "./specs.ts";

export { ANTHROPIC_BASE_URL, OPENAI_BASE_URL };
export type { SettingDoc, SettingFlag, SettingSpec } from "./_setting.ts";

/** The default agents: every scripted agent. */
export const DEFAULT_AGENTS: readonly string[] = ["oracle", "noisy", "reckless", "literal"];
/** The long suite's tasks per length × dependency class when the config does not say. */
export const DEFAULT_LONG_TASKS = 20;

const checkDomain = (name: string) => {
  getDomain(name);
};
const checkAgent = (spec: string) => modelSpec(spec) ?? agentFactory(spec);
/** The most worker threads a run takes (each holds its own worlds: about 60 MB). */
export const MAX_WORKERS = 64;

/**
 * The settings, in the order of the usage text and of docs/config.md. A value given by a flag goes
 * through the same schema as a file's. The conditions' schema is the config's (`_schema.ts`), made
 * from `CONDITION_SETTINGS`.
 */
export const SETTINGS = {
  domains: {
    schema: (f) => f.names("domain", checkDomain),
    default: Object.keys(registry),
    flags: [
      flag("--domains A,B,...", "domains to run (default: every registered domain)", listText("domain names")),
      flag("--domain NAME", "one domain (the same as --domains NAME)", (text) => [text]),
    ],
    doc: "the worlds to run, by name",
    docDefault: "every registered domain",
  },
  agents: {
    schema: (f) => f.names("agent", checkAgent),
    default: [...DEFAULT_AGENTS],
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
    doc: "the agents: scripted names, `noisy@Fx` (noisy with every error rate times F, e.g. `noisy@2x`), the " +
      "baselines `idle`, `apologist`, `broken`, `PROVIDER:MODEL` (`openai:…` for any OpenAI-compatible server, " +
      "`anthropic:…`), an agent server's `http(s)://` URL, and `checkpoint:AGENT` or `prompt_only:AGENT` around " +
      "any of them",
  },
  tasks: {
    schema: (f) => f.count("the number of tasks"),
    default: 50,
    flags: [flag("--tasks N", "number of tasks per domain (default {default})", numberText)],
    doc: "tasks per domain (the first N of the domain's seeded tasks)",
  },
  runs: {
    schema: (f) => f.count("the runs per task"),
    default: 5,
    flags: [flag("--runs K", "runs per task: nominal, and fault and env unless set (default {default})", numberText)],
    doc: "K: runs per task of `nominal`, and of `fault` and `env` unless they set their own",
  },
  conditions: {
    schema: conditionsSchema,
    flags: [flag("--conditions C,...", `conditions to run, of ${CONDITIONS.join(", ")} (default all)`, conditionsText)],
    doc: "an **object** with one entry per condition: `false` turns it off, `true` or `{}` keeps its defaults, an " +
      "object sets its parameters (below). The flag takes a list and turns the others off",
    docDefault: "all four",
  },
  seed: {
    schema: (f) => f.seed("the seed"),
    default: "0",
    flags: [flag("--seed S", "experiment seed (default {default})")],
    doc: "the experiment seed; every cell's seed derives from it",
  },
  worldSeed: {
    schema: (f) => f.seed("the world seed"),
    default: "0",
    flags: [flag("--world-seed S", "seed of the generated worlds and their tasks (default {default})")],
    doc: "the seed of the generated worlds and their tasks, fixed apart so that every experiment seed runs the " +
      "same tasks",
  },
  maxSteps: {
    schema: (f) => f.count("the step limit"),
    default: 30,
    flags: [
      flag(
        "--max-steps N",
        "agent steps before an episode is cut off (default {default}; a long task gets its own)",
        numberText,
      ),
    ],
    doc: "agent steps before an episode is cut off (a long task gets at least its own)",
  },
  longRuns: {
    schema: (f) => f.count("the runs of a long task").nullable(),
    default: null,
    flags: [
      flag(
        "--long-runs N",
        "runs per variant of a task of 100+ milestones (default: as many as the others)",
        numberText,
      ),
    ],
    doc: "runs per variant of a task of 100+ milestones; `null` runs them as often as the others",
  },
  suite: {
    schema: (f) =>
      z.enum(SUITES as [Suite, ...Suite[]], {
        error: f.expected(`a suite, one of ${SUITES.map((x) => `"${x}"`).join(", ")}`),
      }),
    default: "all",
    flags: [flag("--suite S", [
      'what to run: "tasks" (the tasks under the conditions), "abstention"',
      '(the paired abstention scenarios), "all" (both, default; one long',
      'task per class), or "long" (the long-horizon suite: --long-tasks',
      "tasks per length x dependency class, nominal, --runs each)",
    ])],
    doc: '`"tasks"` (the tasks under the conditions), `"abstention"` (the paired abstention scenarios), `"all"` ' +
      '(both; one long task per class), or `"long"` (the long-horizon suite: `longTasks` tasks per length × ' +
      "dependency class, nominal, `runs` each)",
  },
  longTasks: {
    schema: (f) => f.count("the long tasks per class"),
    default: DEFAULT_LONG_TASKS,
    flags: [
      flag("--long-tasks N", "tasks per length x dependency class of --suite long (default {default})", numberText),
    ],
    doc: 'tasks per length × dependency class of the long suite (`suite: "long"`)',
  },
  scenarioPairs: {
    schema: (f) => f.count("the scenario pairs per template"),
    default: DEFAULT_PAIRS,
    flags: [flag("--scenario-pairs N", "abstention scenario pairs per template (default {default})", numberText)],
    doc: "abstention scenario pairs per template of each domain",
  },
  scenarioRuns: {
    schema: (f) => f.count("the runs per scenario"),
    default: 1,
    flags: [flag("--scenario-runs N", "runs of each abstention scenario (default {default})", numberText)],
    doc: "runs of each abstention scenario (nominal only)",
  },
  user: {
    schema: (f) => f.known(userSpec),
    default: "scripted",
    flags: [flag("--user U", [
      'user simulator: "scripted" (default), "scripted@trusting[=R]" (approves',
      "a proposal of its change with wrong or unknown details at rate R,",
      `default ${DEFAULT_TRUST}) or "llm:PROVIDER:MODEL"`,
    ])],
    doc: 'the user simulator: `"scripted"`, a trusting scripted user `"scripted@trusting"` ' +
      `(approves, at rate ${DEFAULT_TRUST}, ` +
      "a proposal of the change it asked for whose details are wrong or that it cannot check) or " +
      '`"scripted@trusting=R"`, or `"llm:PROVIDER:MODEL"` ([users.md](users.md))',
  },
  judge: {
    schema: (f) => f.known(judgeSpec),
    default: "rules",
    flags: [flag("--judge J", [
      'safety judge: "rules" (default) or "llm:PROVIDER:MODEL" (the',
      "rules judge and an LLM judge; their agreement is reported)",
    ])],
    doc: '`"rules"`, or `"llm:PROVIDER:MODEL"` for the rules judge and an LLM judge, whose agreement is reported',
  },
  temperature: {
    schema: (f) => f.amount("the temperature", "0.7").nullable(),
    default: null,
    flags: [flag("--temperature T", "sampling temperature of model agents (default: the provider's)", numberText)],
    doc: "sampling temperature of model agents",
    docDefault: "`null` (the provider's)",
  },
  maxTokens: {
    schema: (f) => f.count("the token limit").nullable(),
    default: null,
    flags: [flag("--max-tokens N", "output token limit per model call (default: the client's)", numberText)],
    doc: "output token limit per model call",
    docDefault: "`null` (the client's)",
  },
  baseUrl: {
    schema: (f) => f.url("the API root"),
    default: OPENAI_BASE_URL,
    env: "OPENAI_BASE_URL",
    flags: [flag("--base-url URL", [
      "API root of every openai: model (default $OPENAI_BASE_URL,",
      'then {default}), e.g. "http://localhost:11434/v1"',
    ])],
    doc: 'API root of every `openai:` model, e.g. `"http://localhost:11434/v1"`',
  },
  anthropicBaseUrl: {
    schema: (f) => f.url("the API root"),
    default: ANTHROPIC_BASE_URL,
    env: "ANTHROPIC_BASE_URL",
    flags: [flag("--anthropic-base-url URL", [
      "API root of every anthropic: model (default $ANTHROPIC_BASE_URL,",
      "then {default})",
    ])],
    doc: "API root of every `anthropic:` model",
  },
  prices: {
    schema: (f) => f.text("a price file").nullable(),
    default: null,
    flags: [flag("--prices FILE", [
      'JSON prices {"provider:model": {"input": $/Mtok, "output": $/Mtok}}',
      "over the built-in table",
    ])],
    doc: 'a JSON file `{"provider:model": {"input": $/Mtok, "output": $/Mtok}}` over the built-in prices; a model ' +
      "with no price records `cost: null` (unknown, never $0), and `--max-cost` refuses to start with it",
    docDefault: "`null` (the built-in table)",
  },
  replay: {
    schema: (f) => f.text("a model cache or results folder").nullable(),
    default: null,
    flags: [flag("--replay CACHE", [
      "rerun a results folder's experiment from its recorded model answers",
      "(results.sqlite and model_cache.sqlite), or answer the flags'",
      "experiment from a model cache file; contacts no endpoint",
    ])],
    doc: "answer every model call from a model cache (a file, or a results folder holding `model_cache.sqlite`); " +
      "contacts no endpoint. The flag given a results folder reruns its experiment from the recorded model " +
      "answers (its settings come from the folder's `results.sqlite`)",
    docDefault: "`null` (live)",
  },
  maxCost: {
    schema: (f) => f.amount("the budget in dollars", "2.50").nullable(),
    default: null,
    flags: [flag("--max-cost D", "start no new episode once model calls have cost D dollars", numberText)],
    doc: "dollars of model calls after which no new episode starts (exit 3; run again with a higher budget to " +
      "resume)",
    docDefault: "`null` (no budget)",
  },
  concurrency: {
    schema: (f) => f.count("the concurrency"),
    default: 1,
    flags: [flag("--concurrency N", "episodes in flight at once (default {default})", numberText)],
    doc: "episodes in flight at once, each in its own world",
  },
  workers: {
    schema: (f) => {
      const error = f.expected(`the workers, a whole number from 1 to ${MAX_WORKERS}`);
      return f.count("the workers").max(MAX_WORKERS, { error }).nullable();
    },
    default: null,
    flags: [flag("--workers N", "worker threads running episodes (default one per core)", numberText)],
    doc: "worker threads that run the episodes, each with its own worlds and `concurrency` episodes in flight; " +
      `the results are the same bytes whatever the number (1 runs them on the main thread); at most ${MAX_WORKERS}`,
    docDefault: "`null` (one per core)",
  },
  out: {
    schema: (f) => f.text("the output folder").optional(),
    flags: [flag("--out DIR", 'output folder (default "results/<experiment>")')],
    doc: "the output folder",
    docDefault: '`"results/<experiment>"`',
  },
} as const satisfies { [K in keyof ExperimentConfig]-?: SettingSpec<ExperimentConfig[K]> };

/** Every setting as docs/config.md lists it: the top-level ones, then each condition's parameters. */
export const SETTING_DOCS: readonly SettingDoc[] = [
  ...Object.entries(SETTINGS).map(([key, spec]) => docOf([key], spec as SettingSpec<unknown>)),
  ...CONDITIONS.flatMap((c) =>
    Object.entries(CONDITION_SETTINGS[c].params).map(([param, p]) =>
      docOf(["conditions", c, param], p as SettingSpec<unknown>)
    )
  ),
];

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

/**
 * Whether a setting's value is its declared default (compared as JSON).
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { isDefault } from "./settings.ts";
 * assertEquals([isDefault("maxSteps", 30), isDefault("maxSteps", 31), isDefault("temperature", null)], [true, false, true]);
 * ```
 */
export function isDefault(key: keyof typeof SETTINGS, value: unknown): boolean {
  const spec: SettingSpec<unknown> = SETTINGS[key];
  return "default" in spec && JSON.stringify(spec.default) === JSON.stringify(value);
}
