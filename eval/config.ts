/**
 * The experiment config: what a user writes (flags, or a JSON file given with `--config`),
 * checked once with zod at the edge and resolved into one type with every field set. Every
 * bad field is reported, one per line, saying what is accepted.
 *
 * @module
 */
import { z } from "zod";
import { canonicalJson, deriveSeed, domains as registry } from "../envs/mod.ts";
import { agentFactory, type ModelSpec, modelSpec } from "../agents/mod.ts";
import { ENV_PRESET_NAMES, type EnvPreset } from "./conditions/perturb.ts";

/** The condition a cell runs under (METRICS.md). */
export type Condition = "nominal" | "fault" | "env" | "prompt";

/** The conditions, in the order the plan lays them out. */
export const CONDITIONS: readonly Condition[] = ["nominal", "fault", "env", "prompt"];

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
export interface ResolvedConditions {
  nominal: { runs: number } | false;
  fault: { p_fault: number; runs: number } | false;
  env: { presets: EnvPreset[]; runs: number } | false;
  prompt: { variants: number; paraphrases: string; runs: number } | false;
}

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
  /** Output folder. @default {"results/<experiment>"} */
  out?: string;
  /** Agent steps after which an episode is cut off. @default {30} */
  maxSteps?: number;
  /** The user simulator: `"scripted"` or `"llm:PROVIDER:MODEL"`. @default {"scripted"} */
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
  /** API root of every `openai:` model, without `/chat/completions`. @default {"https://api.openai.com/v1"} */
  baseUrl?: string;
  /** API root of every `anthropic:` model, without `/v1/messages`. @default {"https://api.anthropic.com"} */
  anthropicBaseUrl?: string;
  /** JSON price file over the default table. @default {null} */
  prices?: string | null;
  /** A model cache file or a results folder holding one: answer every model call from it. @default {null} (live) */
  replay?: string | null;
  /** Dollars of model calls after which no new episode starts. @default {null} (no budget) */
  maxCost?: number | null;
  /** Episodes in flight at once, each in its own world. @default {1} */
  concurrency?: number;
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

/** A config with every field resolved, plus the experiment's name. */
export interface ResolvedConfig {
  domains: string[];
  agents: string[];
  tasks: number;
  runs: number;
  conditions: ResolvedConditions;
  seed: string;
  worldSeed: string;
  out: string;
  maxSteps: number;
  user: string;
  judge: string;
  temperature: number | null;
  maxTokens: number | null;
  baseUrl: string;
  anthropicBaseUrl: string;
  prices: string | null;
  replay: string | null;
  maxCost: number | null;
  concurrency: number;
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
/** The default agents: every scripted agent. */
export const DEFAULT_AGENTS: readonly string[] = ["oracle", "noisy", "reckless", "literal"];

const got = (v: unknown) => {
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
};
const count = (what: string) =>
  z.number({ error: (i) => `expected ${what}, a whole number of at least 1, got ${got(i.input)}` })
    .int({ error: (i) => `expected ${what}, a whole number of at least 1, got ${got(i.input)}` })
    .positive({ error: (i) => `expected ${what}, a whole number of at least 1, got ${got(i.input)}` });
const text = (what: string) =>
  z.string({ error: (i) => `expected ${what} as a non-empty string, got ${got(i.input)}` }).min(1, {
    error: `expected ${what} as a non-empty string`,
  });
const url = (what: string) =>
  z.string({ error: (i) => `expected ${what} as an http(s) URL, got ${got(i.input)}` }).refine(
    (s) => URL.canParse(s) && /^https?:$/.test(new URL(s).protocol),
    {
      error: (i) => `expected ${what} as an http(s) URL, e.g. "http://localhost:11434/v1", got ${got(i.input)}`,
      params: { shape: true },
    },
  ).transform((s) => s.replace(/\/+$/, ""));
const seedValue = (what: string) =>
  z.union([z.string(), z.number()], { error: (i) => `expected ${what} as a string or number, got ${got(i.input)}` })
    .transform(String);
const amount = (what: string, min: string) =>
  z.number({ error: (i) => `expected ${what}, a number of at least ${min}, got ${got(i.input)}` })
    .min(0, { error: (i) => `expected ${what}, a number of at least ${min}, got ${got(i.input)}` });

// A name refused by `check` gets the thrower's own message ("Unknown agent ...: expected one of ...").
function known(check: (name: string) => unknown): z.ZodType<string> {
  return z.string({ error: (i) => `expected a name, got ${got(i.input)}` }).superRefine((name, ctx) => {
    try {
      check(name);
    } catch (err) {
      if (!(err instanceof RangeError || err instanceof TypeError)) throw err;
      ctx.addIssue({ code: "custom", message: err.message, input: name });
    }
  });
}

const checkDomain = (name: string) => {
  if (!Object.hasOwn(registry, name)) {
    const names = Object.keys(registry).map((n) => `"${n}"`).join(", ");
    throw new RangeError(`Unknown domain "${name}": expected one of ${names}`);
  }
};
const checkAgent = (spec: string) => modelSpec(spec) ?? agentFactory(spec);
const checkParaphrases = (spec: string) => {
  if (spec !== "templates" && (!spec.startsWith("llm:") || modelSpec(spec.slice(4)) === null)) {
    throw new RangeError(`Unknown paraphrases "${spec}": expected "templates" or "llm:PROVIDER:MODEL"`);
  }
};

// `false` (off), `true` (the defaults) or the condition's object; the object's own issues are
// reported at their own paths (a union would hide them behind one "invalid input").
function toggle<T extends z.ZodType<object>>(example: string, inner: T) {
  return z.unknown().transform((v, ctx): false | z.output<T> => {
    if (v === false) return false;
    if (v !== null && typeof v === "object" && !Array.isArray(v) || v === true) {
      const parsed = inner.safeParse(v === true ? {} : v);
      if (parsed.success) return parsed.data;
      for (const issue of parsed.error.issues) ctx.issues.push({ ...issue, input: undefined } as never);
      return z.NEVER;
    }
    ctx.issues.push({
      code: "custom",
      message: `expected false (off), true, or an object such as ${example}, got ${got(v)}`,
      input: v,
      params: { shape: true },
    });
    return z.NEVER;
  });
}

function conditionsSchema(runs: number) {
  const r = count("the runs").default(runs);
  return z.object({
    nominal: toggle('{"runs": 5}', z.strictObject({ runs: r })).prefault({}),
    fault: toggle(
      '{"p_fault": 0.2, "runs": 5}',
      z.strictObject({
        p_fault: z.number({ error: (i) => `expected a probability in [0, 1], got ${got(i.input)}` })
          .min(0, { error: (i) => `expected a probability in [0, 1], got ${got(i.input)}` })
          .max(1, { error: (i) => `expected a probability in [0, 1], got ${got(i.input)}` })
          .default(0.2),
        runs: r,
      }),
    ).prefault({}),
    env: toggle(
      '{"presets": ["low", "medium", "high"], "runs": 5}',
      z.strictObject({
        presets: z.array(
          z.enum(ENV_PRESET_NAMES as [EnvPreset, ...EnvPreset[]], {
            error: (i) => `expected one of "low", "medium", "high", got ${got(i.input)}`,
          }),
          { error: (i) => `expected a list of presets ("low", "medium", "high"), got ${got(i.input)}` },
        ).min(1, { error: 'expected at least one preset of "low", "medium", "high"' })
          .transform((p) => ENV_PRESET_NAMES.filter((n) => p.includes(n)))
          .default([...ENV_PRESET_NAMES]),
        runs: r,
      }),
    ).prefault({}),
    prompt: toggle(
      '{"variants": 5, "paraphrases": "templates"}',
      z.strictObject({
        variants: count("the number of paraphrases").default(5),
        paraphrases: known(checkParaphrases).default("templates"),
        runs: count("the runs").default(1),
      }),
    ).prefault({}),
  }, { error: (i) => `expected an object with nominal, fault, env, prompt, got ${got(i.input)}` }).strict();
}

function configSchema(runs: number) {
  return z.object({
    domains: z.array(known(checkDomain), {
      error: (i) => `expected a list of domain names, got ${got(i.input)}`,
    }).min(1, { error: "expected at least one domain" }).transform((d) => [...new Set(d)]).default(
      Object.keys(registry),
    ),
    agents: z.array(known(checkAgent), { error: (i) => `expected a list of agent names, got ${got(i.input)}` })
      .min(1, { error: "expected at least one agent" }).transform((a) => [...new Set(a)]).default([...DEFAULT_AGENTS]),
    tasks: count("the number of tasks").default(50),
    runs: count("the runs per task").default(5),
    conditions: conditionsSchema(runs).prefault({}),
    seed: seedValue("the seed").default("0"),
    worldSeed: seedValue("the world seed").default("0"),
    out: text("the output folder").optional(),
    maxSteps: count("the step limit").default(30),
    user: known(userSpec).default("scripted"),
    judge: known(judgeSpec).default("rules"),
    temperature: amount("the temperature", "0").nullable().default(null),
    maxTokens: count("the token limit").nullable().default(null),
    baseUrl: url("the API root").default(OPENAI_BASE_URL),
    anthropicBaseUrl: url("the API root").default(ANTHROPIC_BASE_URL),
    prices: text("a price file").nullable().default(null),
    replay: text("a model cache or results folder").nullable().default(null),
    maxCost: amount("the budget in dollars", "0").nullable().default(null),
    concurrency: count("the concurrency").default(1),
  }, { error: (i) => `expected a JSON object of settings, got ${got(i.input)}` }).strict();
}

const TOP_KEYS = Object.keys(configSchema(1).shape);
const CONDITION_KEYS: Record<string, string[]> = {
  conditions: [...CONDITIONS],
  "conditions.nominal": ["runs"],
  "conditions.fault": ["p_fault", "runs"],
  "conditions.env": ["presets", "runs"],
  "conditions.prompt": ["variants", "paraphrases", "runs"],
};

function pathText(path: readonly PropertyKey[]): string {
  return path.map((p, i) => typeof p === "number" ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`).join("");
}

// One line per bad field; an unknown key lists the keys accepted there.
function issueLines(issues: readonly z.core.$ZodIssue[]): string[] {
  return issues.flatMap((issue) => {
    const at = pathText(issue.path);
    if (issue.code === "unrecognized_keys") {
      const accepted = at === "" ? TOP_KEYS : CONDITION_KEYS[at] ?? [];
      return issue.keys.map((k) =>
        `"${at ? `${at}.` : ""}${k}": unknown field; expected one of ${accepted.join(", ")}`
      );
    }
    return [at ? `"${at}": ${issue.message}` : issue.message];
  });
}

// A malformed value (a URL that is not one) is a wrong shape; an unknown name or a number out of range is not.
const isRange = (issue: z.core.$ZodIssue) =>
  issue.code === "too_small" || issue.code === "too_big" || (issue.code === "custom" && !issue.params?.shape) ||
  issue.code === "invalid_value" || (issue.code === "invalid_type" && issue.expected === "int");

/** Options of `checkConfig()`. */
export interface CheckOptions {
  /**
   * Where the config came from, named in the message (e.g. `config file "exp.json"`).
   * @default {"config"}
   */
  source?: string;
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
  const runs = typeof input === "object" && input !== null && typeof (input as ExperimentConfig).runs === "number"
    ? (input as ExperimentConfig).runs!
    : 5;
  const parsed = configSchema(Number.isInteger(runs) && runs > 0 ? runs : 5).safeParse(input);
  if (parsed.success) return input as ExperimentConfig;
  const lines = issueLines(parsed.error.issues);
  const source = options.source ?? "config";
  const message = lines.length === 1 && options.source === undefined
    ? `Invalid config field ${lines[0]}`
    : `Invalid ${source}:\n${lines.map((l) => `  ${l}`).join("\n")}`;
  throw parsed.error.issues.every(isRange) ? new RangeError(message) : new TypeError(message);
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
  checkConfig(input);
  const c = configSchema(input.runs ?? 5).parse(input);
  const experiment = experimentName(c);
  return { ...c, conditions: c.conditions as ResolvedConditions, experiment, out: c.out ?? `results/${experiment}` };
}

/**
 * Reads an experiment config from a JSON file and checks it (see `checkConfig()`); every message
 * names the file. A missing file is a `TypeError`, text that is not JSON a `SyntaxError` with
 * the position.
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
    text = await Deno.readTextFile(path);
  } catch (err) {
    if (!(err instanceof Error)) throw err;
    const why = err instanceof Deno.errors.NotFound ? "no such file" : err.message;
    throw new TypeError(`Cannot read config file "${path}": ${why}`);
  }
  let input: unknown;
  try {
    input = JSON.parse(text);
  } catch (err) {
    if (!(err instanceof SyntaxError)) throw err;
    const where = /position \d+/.test(err.message)
      ? ""
      : err.message.includes("end of JSON")
      ? ` at the end (line ${text.split("\n").length})`
      : "";
    throw new SyntaxError(`Cannot parse config file "${path}" as JSON: ${err.message}${where}`);
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
 * The model of a `user` spec: `null` for `"scripted"`, the provider and model for
 * `"llm:PROVIDER:MODEL"`; anything else is a `RangeError` saying what is accepted.
 *
 * @example
 * ```ts
 * import { userSpec } from "./config.ts";
 * userSpec("llm:openai:gpt-4o-mini"); // { provider: "openai", model: "gpt-4o-mini" }
 * ```
 */
export function userSpec(spec: string): ModelSpec | null {
  return llmOr("user", "scripted", spec);
}

// `null` for the plain choice, the model of "llm:PROVIDER:MODEL", or a RangeError saying what is accepted.
function llmOr(what: string, plain: string, spec: string): ModelSpec | null {
  if (spec === plain) return null;
  const model = spec.startsWith("llm:") ? modelSpec(spec.slice(4)) : null;
  if (model === null) {
    throw new RangeError(
      `Unknown ${what} "${spec}": expected "${plain}" or "llm:PROVIDER:MODEL", e.g. "llm:openai:gpt-4o-mini"`,
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
  const defaults = configSchema(c.runs).parse({ runs: c.runs }).conditions;
  if (canonicalJson(c.conditions) !== canonicalJson(defaults)) out.conditions = c.conditions;
  if (c.maxSteps !== 30) out.maxSteps = c.maxSteps;
  if (c.worldSeed !== "0") out.worldSeed = c.worldSeed;
  if (c.user !== "scripted") out.user = c.user;
  // Not the judge: it changes how episodes are judged, not what they are, and `deno task judge`
  // may change it later; the experiment keeps its name.
  if (c.temperature !== null) out.temperature = c.temperature;
  if (c.maxTokens !== null) out.maxTokens = c.maxTokens;
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
  if (config.user !== "scripted") identity.user = config.user;
  if (config.judge !== "rules") identity.judge = config.judge;
  if (config.temperature !== null) identity.temperature = config.temperature;
  if (config.maxTokens !== null) identity.maxTokens = config.maxTokens;
  return identity;
}
