/**
 * The flags of `deno task eval` and their usage text.
 *
 * @module
 */
import { readFlags } from "./_flags.ts";
import type { ExperimentConfig } from "./plan.ts";

/** Usage text of `deno task eval`. */
export const USAGE = `Usage: deno task eval [flags]

Runs agents on a domain's tasks, K runs each, and reports reliability (R, R_con,
R_rob, R_pred, R_saf) beside accuracy and pass^k.

Flags:
  --domain NAME      domain to run (default "airline")
  --agents A,B,...   agents to test (default "oracle,noisy,reckless"): scripted
                     names, or language models as PROVIDER:MODEL with PROVIDER
                     "openai" (any OpenAI-compatible server) or "anthropic",
                     e.g. "openai:gpt-4o-mini,anthropic:claude-3-5-haiku-latest"
  --user U           user simulator: "scripted" (default) or "llm:PROVIDER:MODEL"
  --tasks N          number of tasks (default 50)
  --runs K           runs per task and agent (default 5)
  --seed S           experiment seed (default "0")
  --world-seed S     seed of the generated world and its tasks (default "0")
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
rejected key); 2 bad flags; 3 stopped at the --max-cost budget (run again with a
higher one to resume).
`;

const FLAGS = [
  "--domain",
  "--agents",
  "--user",
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

function url(flag: string, value: string): string {
  if (!URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol)) {
    throw new TypeError(
      `Invalid value "${value}" for ${flag}: expected an http(s) URL, e.g. "http://localhost:11434/v1"`,
    );
  }
  return value;
}

/**
 * Parses the flags of `deno task eval` into a config (or `"help"`); bad flags
 * throw a `TypeError` or `RangeError` whose message says what is accepted.
 *
 * @example
 * ```ts
 * import { parseEvalArgs } from "./args.ts";
 * parseEvalArgs(["--tasks", "6", "--runs=2"]); // { tasks: 6, runs: 2 }
 * ```
 */
export function parseEvalArgs(args: readonly string[]): ExperimentConfig | "help" {
  const flags = readFlags(args, FLAGS);
  if (flags === "help") return "help";
  const config: ExperimentConfig = {};
  for (const [flag, value] of flags) {
    switch (flag) {
      case "--domain":
        config.domain = value;
        break;
      case "--agents":
        config.agents = value.split(",").map((a) => a.trim());
        if (config.agents.some((a) => a === "")) {
          throw new TypeError(`Invalid value "${value}" for --agents: expected names separated by commas`);
        }
        break;
      case "--user":
        config.user = value;
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
  return config;
}
