/**
 * The flags of `deno task eval` and their usage text, both read from the settings' table
 * (`eval/settings.ts`): a flag's text becomes its setting's value and goes through the config's
 * own schema.
 *
 * @module
 */
import { readFlags } from "./_flags.ts";
import {
  checkConfig,
  CONDITIONS,
  type ExperimentConfig,
  type GivenText,
  SETTING_FLAGS,
  type SettingFlag,
} from "../eval/config.ts";
import { parseShard, type Shard } from "../eval/shard.ts";
import { MAX_PLANNED_EPISODES } from "../eval/plan.ts";

const CONFIG_FLAG: SettingFlag = {
  name: "--config",
  arg: "FILE",
  help: [
    "JSON experiment config (see README): any of domains, agents,",
    "tasks, runs, conditions, seed, worldSeed, maxSteps, out,",
    "concurrency, judge and the model settings",
  ],
  read: (text) => text,
  path: [],
};
const SHARD_FLAG: SettingFlag = {
  name: "--shard",
  arg: "I/N",
  help: [
    "run only shard I of N (1-based; by a stable hash of each",
    "cell), into <out>-shardIofN unless --out says; merge the",
    "shards' folders with deno task merge (docs/shards.md)",
  ],
  read: (text) => text,
  path: [],
};
const YES_FLAG: SettingFlag = {
  name: "--yes",
  arg: "",
  help: [
    `run a plan of more than ${MAX_PLANNED_EPISODES.toLocaleString("en")} episodes (refused`,
    "without it: a plan that big is usually a typo in --tasks or --runs)",
  ],
  read: (text) => text,
  path: [],
};
const HELP_FLAG: SettingFlag = { name: "--help", arg: "", help: "show this help", read: (text) => text, path: [] };
const FLAGS: readonly SettingFlag[] = [CONFIG_FLAG, ...SETTING_FLAGS, SHARD_FLAG, YES_FLAG, HELP_FLAG];

// The column where a flag's help starts; a flag and argument wider than it put the help under them.
const COLUMN = 21;

function usageLines(flag: SettingFlag): string {
  const head = `  ${flag.name}${flag.arg === "" ? "" : ` ${flag.arg}`}`;
  const [first, ...rest] = typeof flag.help === "string" ? [flag.help] : flag.help;
  const lines = head.length < COLUMN ? [head.padEnd(COLUMN) + first] : [head, " ".repeat(COLUMN) + first];
  return [...lines, ...rest.map((line) => " ".repeat(COLUMN) + line)].join("\n");
}

/** Usage text of `deno task eval`. */
export const USAGE = `Usage: deno task eval [flags]

Runs agents on every domain's tasks under the reliability protocol's conditions
(${CONDITIONS.join(", ")}) and reports reliability (R, R_con, R_rob, R_pred,
R_saf) beside accuracy and pass^k.

Flags (each overrides the same setting of --config):
${FLAGS.map(usageLines).join("\n")}

Conditions: fault injects a seeded fault (timeout, server error, rate limit,
malformed, partial or empty response, authentication failure, dependency down)
into a tool or model call with probability P, answered without touching the
world; env perturbs the tool interface (low: camelCase parameters and reordered
keys; medium: also {status, data} results and MM/DD/YYYY dates; high: also
formatted numbers and renamed result columns); prompt opens with paraphrase j.

API keys come from OPENAI_API_KEY and ANTHROPIC_API_KEY only (not needed for an
endpoint on localhost) and are never stored.

Writes DIR/results.sqlite (every episode and event), DIR/records.jsonl (one
record per episode), DIR/report.json (every metric with its interval, or its
reason when null) and DIR/report.html (one self-contained page), and for
language models DIR/model_cache.sqlite with every model answer: --replay DIR
--out NEW runs the experiment stored in DIR again offline and gives the same
records.jsonl byte for byte (its settings come from DIR/results.sqlite; a flag
that would change them is refused). records.jsonl grows as episodes finish,
whole lines only. The first Ctrl-C (SIGINT) or SIGTERM starts no new episode,
lets those in flight finish and writes what finished; running the same command
again resumes. A signal while records.jsonl and the reports are written at the
end ends the run at once: the store keeps every episode, and running again
writes them.
Metrics: docs/metrics.md; every config field: docs/config.md.

Agents: "noisy@Fx" is noisy with every error rate times F ("noisy@2x",
"noisy@0.5x"); "AGENT@text" runs a scripted agent or baseline in words only
("oracle@text"); "checkpoint:AGENT" and "prompt_only:AGENT" wrap any agent.
Users: the scripted user reads intents and plain text; it warns when it could
not read more than 5% of an agent's messages (docs/users.md).

A record's time resource is the episode's simulated seconds plus the recorded
latency of the agent's model calls.

Exit codes: 0 done; 1 the run cannot go on (results store or model cache
unusable, corrupt or empty, the --out folder being written by another process,
missing API key, endpoint unreachable, a replay without the answer, a rejected
key); 2 bad flags or config file (a config or price file must be a regular file
of at most 64 MB), or a plan of more than ${MAX_PLANNED_EPISODES.toLocaleString("en")} episodes without --yes;
3 stopped at the --max-cost budget (run again with a higher one to resume); 130
stopped by SIGINT or SIGTERM, also while tasks are generated (run the same
command again to resume).
`;

/** What the flags of `deno task eval` say: settings over those of a `--config` file. */
export interface EvalArgs extends ExperimentConfig {
  /** The `--config` file, when given. */
  configFile?: string;
  /** The shard to run (`--shard I/N`), when given; not part of the experiment. */
  shard?: Shard;
  /** `--yes`: run a plan of more than `MAX_PLANNED_EPISODES` episodes; not part of the experiment. */
  yes?: true;
}

/**
 * Parses the flags of `deno task eval` into settings (or `"help"`), each checked by the config's
 * schema; bad flags throw a `TypeError` or `RangeError` (a `--shard` that is not `I/N`, a
 * `SyntaxError`) whose message names the flag and says what is accepted.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { parseEvalArgs } from "./_eval_args.ts";
 * assertEquals(parseEvalArgs(["--tasks", "6", "--runs=2"]), { tasks: 6, runs: 2 });
 * ```
 */
export function parseEvalArgs(args: readonly string[]): EvalArgs | "help" {
  const flags = readFlags(args, FLAGS.map((f) => f.name), { switches: [YES_FLAG.name] });
  if (flags === "help") return "help";
  let configFile: string | undefined;
  let shard: Shard | undefined;
  let yes = false;
  const given: (GivenText & { value: unknown })[] = [];
  for (const [name, text] of flags) {
    if (name === YES_FLAG.name) {
      yes = true;
      continue;
    }
    if (name === CONFIG_FLAG.name) {
      configFile = text;
      continue;
    }
    if (name === SHARD_FLAG.name) {
      shard = parseShard(text, name);
      continue;
    }
    const flag = SETTING_FLAGS.find((f) => f.name === name)!;
    given.push({ path: flag.path, name, text, value: flag.read(text, name) });
  }
  const config = checkConfig(settingsOf(given), { given });
  return {
    ...(configFile === undefined ? {} : { configFile }),
    ...config,
    ...(shard === undefined ? {} : { shard }),
    ...(yes ? { yes: true as const } : {}),
  };
}

// The settings the flags give. A flag setting a whole value (`--conditions`) comes before those
// setting a field in it, whatever their order; a field of a value set to `false` (only a condition
// turned off can be) is an error.
function settingsOf(given: readonly (GivenText & { value: unknown })[]): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  const byDepth = [...given].sort((a, b) => a.path.length - b.path.length);
  for (const { path, name, value } of byDepth) {
    let at = config;
    for (const [i, key] of path.slice(0, -1).entries()) {
      if (at[key] === false) {
        const off = byDepth.findLast((g) => g.path.length <= i + 1 && g.path.every((p, j) => path[j] === p))!;
        throw new TypeError(`Cannot use ${name}: ${off.name} leaves the ${key} condition out`);
      }
      at = (at[key] ??= {}) as Record<string, unknown>;
    }
    at[path.at(-1)!] = value;
  }
  return config;
}
