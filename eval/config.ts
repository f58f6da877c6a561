/**
 * The experiment config: what a user writes (a JSON file given with `--config`, flags, the
 * environment's API roots), checked once with zod at the edge and resolved into one type with
 * every field set. Each setting is declared once, in the settings' table (`settings.ts`, the
 * conditions' parameters in `condition_settings.ts`): its schema and default, and the flags and
 * environment variable that set it; this module makes the config's schema from it, and parses,
 * merges, reads and resolves configs. Every bad field is reported, one per line, saying what is
 * accepted. The config's types are in `config_types.ts`, the experiment's name in `experiment.ts`;
 * this module re-exports both.
 *
 * @module
 */
import { z } from "zod";
import { domains as registry } from "../envs/mod.ts";
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
  quoted,
} from "./_fields.ts";
import { shapeOf } from "./_setting.ts";
import { InputFileError, jsonErrorWhere, MAX_CONFIG_BYTES, readInputText } from "./fs_errors.ts";
import { CONDITIONS, type ConditionsConfig, type ExperimentConfig, type ResolvedConfig } from "./config_types.ts";
import { CONDITION_SETTINGS, withRuns } from "./condition_settings.ts";
import { SETTINGS } from "./settings.ts";
import { experimentName } from "./experiment.ts";

export type { GivenText } from "./_fields.ts";
export {
  type Condition,
  CONDITIONS,
  type ConditionsConfig,
  type ExperimentConfig,
  type ImportSource,
  type ImportWorld,
  type ResolvedConditions,
  type ResolvedConfig,
  type Suite,
  suiteParts,
  SUITES,
} from "./config_types.ts";
export {
  ANTHROPIC_BASE_URL,
  DEFAULT_AGENTS,
  DEFAULT_LONG_TASKS,
  OPENAI_BASE_URL,
  SETTING_DOCS,
  SETTING_ENV,
  SETTING_FLAGS,
  type SettingDoc,
  type SettingFlag,
} from "./settings.ts";
export { DEFAULT_TRUST, judgeSpec, scriptedTrust, userSpec } from "./specs.ts";
export { configIdentity } from "./experiment.ts";

function configSchema(f: Fields) {
  return z.object(shapeOf(SETTINGS, f), { error: f.expected("a JSON object of settings") }).strict()
    .transform((c) => ({ ...c, conditions: withRuns(c.conditions, c.runs) }));
}

const FILE_SCHEMA = configSchema(fieldsWith(GOT_VALUE));
const TEXT_SCHEMA = configSchema(fieldsWith(GOT_NOTHING));

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
 * import { assertEquals } from "@std/assert";
 * import { checkConfig } from "./config.ts";
 * assertEquals(checkConfig({ tasks: 6, conditions: { env: false } }), { tasks: 6, conditions: { env: false } });
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
 * import { assertEquals } from "@std/assert";
 * import { configIdentity, resolveConfig } from "./config.ts";
 * const config = resolveConfig({ domains: ["airline"], tasks: 6, runs: 2 });
 * assertEquals([config.experiment, config.out, config.maxSteps], ["airline-s0-t6-k2", "results/airline-s0-t6-k2", 30]);
 * // Another setting not default adds a hash of it; the concurrency is not part of the experiment.
 * assertEquals(resolveConfig({ domains: ["airline"], tasks: 6, runs: 2, maxSteps: 20 }).experiment.length, "airline-s0-t6-k2-".length + 8);
 * const busy = resolveConfig({ domains: ["airline"], tasks: 6, runs: 2, concurrency: 4 });
 * assertEquals(configIdentity(busy), configIdentity(config));
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
 * ```ts
 * import { assertEquals, assertRejects } from "@std/assert";
 * import { loadConfigFile } from "./config.ts";
 * const path = Deno.makeTempFileSync({ suffix: ".json" });
 * Deno.writeTextFileSync(path, '{"tasks": 6, "conditions": {"env": false}}');
 * assertEquals(await loadConfigFile(path), { tasks: 6, conditions: { env: false } });
 * Deno.writeTextFileSync(path, '{"tasks": 0}');
 * await assertRejects(() => loadConfigFile(path), RangeError, '"tasks": expected the number of tasks');
 * Deno.removeSync(path);
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
 * import { assertEquals } from "@std/assert";
 * import { mergeConfigs } from "./config.ts";
 * assertEquals(mergeConfigs({ tasks: 6, conditions: { fault: { p_fault: 0.1 } } }, { conditions: { fault: { runs: 2 } } }), { tasks: 6, conditions: { fault: { p_fault: 0.1, runs: 2 } } });
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
 * The model a prompt condition's paraphrases come from, as `"provider:model"`, or `null` for the task's own.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { paraphraseModel, resolveConfig } from "./config.ts";
 * const config = resolveConfig({ conditions: { prompt: { paraphrases: "llm:openai:gpt-4o-mini" } } });
 * assertEquals(paraphraseModel(config), "openai:gpt-4o-mini");
 * ```
 */
export function paraphraseModel(config: Pick<ResolvedConfig, "conditions">): string | null {
  const prompt = config.conditions.prompt;
  return prompt === false || prompt.paraphrases === "templates" ? null : prompt.paraphrases.slice(4);
}
