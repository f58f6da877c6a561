/**
 * The flags of `deno task eval` and their usage text.
 *
 * @module
 */
import { readFlags } from "./_flags.ts";
import { CONDITIONS, type ConditionsConfig, type ExperimentConfig } from "./config.ts";
import { ENV_PRESET_NAMES, type EnvPreset } from "./conditions/perturb.ts";

/** Usage text of `deno task eval`. */
export const USAGE = `Usage: deno task eval [flags]

Runs agents on every domain's tasks under the reliability protocol's conditions
(nominal, fault, env, prompt) and reports reliability (R, R_con, R_rob, R_pred,
R_saf) beside accuracy and pass^k.

Flags (each overrides the same setting of --config):
  --config FILE      JSON experiment config (see README): any of domains, agents,
                     tasks, runs, conditions, seed, worldSeed, maxSteps, out,
                     concurrency, judge and the model settings
  --domains A,B,...  domains to run (default: every registered domain)
  --domain NAME      one domain (the same as --domains NAME)
  --agents A,B,...   agents to test (default "oracle,noisy,reckless,literal"):
                     scripted names, the sanity baselines "idle", "apologist",
                     "broken", or language models as PROVIDER:MODEL with
                     PROVIDER "openai" (any OpenAI-compatible server) or
                     "anthropic", e.g. "openai:gpt-4o-mini"
  --user U           user simulator: "scripted" (default) or "llm:PROVIDER:MODEL"
  --judge J          safety judge: "rules" (default) or "llm:PROVIDER:MODEL" (the
                     rules judge and an LLM judge; their agreement is reported)
  --tasks N          number of tasks per domain (default 50)
  --runs K           runs per task: nominal, and fault and env unless set (default 5)
  --conditions C,... conditions to run, of nominal, fault, env, prompt (default all)
  --p-fault P        fault probability per tool and model call (default 0.2)
  --fault-runs N     runs per task under faults (default K)
  --env-presets P,.. perturbation presets, of low, medium, high (default all)
  --env-runs N       runs per task and preset (default K)
  --prompt-variants J  paraphrases of the opening request, one run each (default 5)
  --paraphrases S    where paraphrases come from: "templates" (the task's own,
                     default) or "llm:PROVIDER:MODEL" (written by a model, cached)
  --seed S           experiment seed (default "0")
  --world-seed S     seed of the generated worlds and their tasks (default "0")
  --max-steps N      agent steps before an episode is cut off (default 30)
  --temperature T    sampling temperature of model agents (default: the provider's)
  --max-tokens N     output token limit per model call (default: the client's)
  --base-url URL     API root of every openai: model (default $OPENAI_BASE_URL,
                     then "https://api.openai.com/v1"), e.g. "http://localhost:11434/v1"
  --anthropic-base-url URL
                     API root of every anthropic: model (default $ANTHROPIC_BASE_URL,
                     then "https://api.anthropic.com")
  --prices FILE      JSON prices {"provider:model": {"input": $/Mtok, "output": $/Mtok}}
                     over the built-in table
  --replay CACHE     serve every model answer from a model cache (a file, or a
                     results folder holding model_cache.sqlite); contacts no endpoint
  --max-cost D       start no new episode once model calls have cost D dollars
  --concurrency N    episodes in flight at once (default 1)
  --out DIR          output folder (default "results/<experiment>")
  --help             show this help

Conditions: fault injects a seeded fault (timeout, server error, rate limit,
malformed, partial or empty response, authentication failure, dependency down)
into a tool or model call with probability P, answered without touching the
world; env perturbs the tool interface (low: camelCase parameters and reordered
keys; medium: also {status, data} results and MM/DD/YYYY dates; high: also
formatted numbers and renamed result columns); prompt opens with paraphrase j.

API keys come from OPENAI_API_KEY and ANTHROPIC_API_KEY only (not needed for an
endpoint on localhost) and are never stored.

Writes DIR/results.sqlite and DIR/records.jsonl, and for language models
DIR/model_cache.sqlite with every model answer: --replay DIR --out NEW runs the
experiment again offline and gives the same records.jsonl byte for byte. Running
the same command again resumes an interrupted experiment.

A record's time resource is the episode's simulated seconds plus the recorded
latency of the agent's model calls.

Exit codes: 0 done; 1 the run cannot go on (results store or model cache
unusable, missing API key, endpoint unreachable, a replay without the answer, a
rejected key); 2 bad flags or config file; 3 stopped at the --max-cost budget
(run again with a higher one to resume).
`;

const FLAGS = [
  "--config",
  "--domains",
  "--domain",
  "--conditions",
  "--p-fault",
  "--fault-runs",
  "--env-presets",
  "--env-runs",
  "--prompt-variants",
  "--paraphrases",
  "--agents",
  "--user",
  "--judge",
  "--tasks",
  "--runs",
  "--seed",
  "--world-seed",
  "--max-steps",
  "--temperature",
  "--max-tokens",
  "--base-url",
  "--anthropic-base-url",
  "--prices",
  "--replay",
  "--max-cost",
  "--concurrency",
  "--out",
  "--help",
];

function count(flag: string, value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || !Number.isSafeInteger(Number(value))) {
    throw new RangeError(`Invalid value "${value}" for ${flag}: expected a whole number of at least 1`);
  }
  return Number(value);
}

function amount(flag: string, value: string, what: string): number {
  if (!/^(\d+\.?\d*|\.\d+)$/.test(value) || !Number.isFinite(Number(value))) {
    throw new RangeError(`Invalid value "${value}" for ${flag}: expected ${what}`);
  }
  return Number(value);
}

function list(flag: string, value: string, what: string): string[] {
  const items = value.split(",").map((a) => a.trim());
  if (items.some((a) => a === "")) {
    throw new TypeError(`Invalid value "${value}" for ${flag}: expected ${what} separated by commas`);
  }
  return items;
}

function oneOf<T extends string>(flag: string, value: string, accepted: readonly T[]): T[] {
  const items = list(flag, value, "names");
  const bad = items.find((i) => !(accepted as readonly string[]).includes(i));
  if (bad !== undefined) {
    throw new RangeError(
      `Invalid value "${bad}" for ${flag}: expected some of ${accepted.map((a) => `"${a}"`).join(", ")}`,
    );
  }
  return items as T[];
}

function url(flag: string, value: string): string {
  if (!URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol)) {
    throw new TypeError(
      `Invalid value "${value}" for ${flag}: expected an http(s) URL, e.g. "http://localhost:11434/v1"`,
    );
  }
  return value;
}

/** What the flags of `deno task eval` say: settings over those of a `--config` file. */
export interface EvalArgs extends ExperimentConfig {
  /** The `--config` file, when given. */
  configFile?: string;
}

/**
 * Parses the flags of `deno task eval` into settings (or `"help"`); bad flags
 * throw a `TypeError` or `RangeError` whose message says what is accepted.
 *
 * @example
 * ```ts
 * import { parseEvalArgs } from "./args.ts";
 * parseEvalArgs(["--tasks", "6", "--runs=2"]); // { tasks: 6, runs: 2 }
 * ```
 */
export function parseEvalArgs(args: readonly string[]): EvalArgs | "help" {
  const flags = readFlags(args, FLAGS);
  if (flags === "help") return "help";
  const config: EvalArgs = {};
  let enabled: string[] | undefined;
  const params: Record<string, Record<string, unknown>> = {};
  const param = (condition: string, key: string, value: unknown) => (params[condition] ??= {})[key] = value;
  for (const [flag, value] of flags) {
    switch (flag) {
      case "--config":
        config.configFile = value;
        break;
      case "--domain":
        config.domains = [value];
        break;
      case "--domains":
        config.domains = list(flag, value, "domain names");
        break;
      case "--agents":
        config.agents = list(flag, value, "names");
        break;
      case "--conditions":
        enabled = oneOf(flag, value, CONDITIONS);
        break;
      case "--p-fault":
        param("fault", "p_fault", amount(flag, value, "a probability in [0, 1], e.g. 0.2"));
        if (!((params.fault.p_fault as number) <= 1)) {
          throw new RangeError(`Invalid value "${value}" for ${flag}: expected a probability in [0, 1], e.g. 0.2`);
        }
        break;
      case "--fault-runs":
        param("fault", "runs", count(flag, value));
        break;
      case "--env-presets":
        param("env", "presets", oneOf<EnvPreset>(flag, value, ENV_PRESET_NAMES));
        break;
      case "--env-runs":
        param("env", "runs", count(flag, value));
        break;
      case "--prompt-variants":
        param("prompt", "variants", count(flag, value));
        break;
      case "--paraphrases":
        param("prompt", "paraphrases", value);
        break;
      case "--user":
        config.user = value;
        break;
      case "--judge":
        config.judge = value;
        break;
      case "--tasks":
        config.tasks = count(flag, value);
        break;
      case "--runs":
        config.runs = count(flag, value);
        break;
      case "--seed":
        config.seed = value;
        break;
      case "--world-seed":
        config.worldSeed = value;
        break;
      case "--max-steps":
        config.maxSteps = count(flag, value);
        break;
      case "--temperature":
        config.temperature = amount(flag, value, "a number of at least 0, e.g. 0.7");
        break;
      case "--max-tokens":
        config.maxTokens = count(flag, value);
        break;
      case "--base-url":
        config.baseUrl = url(flag, value);
        break;
      case "--anthropic-base-url":
        config.anthropicBaseUrl = url(flag, value);
        break;
      case "--prices":
        config.prices = value;
        break;
      case "--replay":
        config.replay = value;
        break;
      case "--max-cost":
        config.maxCost = amount(flag, value, "dollars, e.g. 2.50");
        break;
      case "--concurrency":
        config.concurrency = count(flag, value);
        break;
      case "--out":
        config.out = value;
        break;
    }
  }
  const conditions = conditionFlags(enabled, params);
  if (conditions !== undefined) config.conditions = conditions;
  return config;
}

// `--conditions` turns the ones it does not list off; a parameter flag of a condition left off is an error.
function conditionFlags(
  enabled: string[] | undefined,
  params: Record<string, Record<string, unknown>>,
): ConditionsConfig | undefined {
  if (enabled === undefined && Object.keys(params).length === 0) return undefined;
  const out: Record<string, unknown> = {};
  for (const condition of CONDITIONS) {
    const own = params[condition];
    if (enabled !== undefined && !enabled.includes(condition)) {
      if (own !== undefined) {
        throw new TypeError(
          `Cannot set the ${condition} condition's ${Object.keys(own).join(", ")}: --conditions leaves it out`,
        );
      }
      out[condition] = false;
    } else if (own !== undefined || enabled !== undefined) {
      out[condition] = own ?? {};
    }
  }
  return out as ConditionsConfig;
}
