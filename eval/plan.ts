/**
 * Experiment config and plan: the config is parsed once with zod at the edge,
 * and the plan lays out one cell per agent × task × run, each with its own
 * child seed.
 *
 * @module
 */
import { z } from "zod";
import { deriveSeed, getDomain, type Task } from "../envs/mod.ts";
import { agentFactory, type ModelSpec, modelSpec } from "../agents/mod.ts";

/** An experiment's config as a user writes it; every field is optional. */
export interface ExperimentConfig {
  /**
   * Domain name from the registry.
   * @default {"airline"}
   */
  domain?: string;
  /**
   * Agent specs, each accepted by `agentFactory()`.
   * @default {["oracle", "noisy", "reckless"]}
   */
  agents?: string[];
  /**
   * Number of the domain's default tasks.
   * @default {50}
   */
  tasks?: number;
  /**
   * Runs per task and agent (K of pass^k).
   * @default {5}
   */
  runs?: number;
  /**
   * Experiment seed; every cell's seed derives from it.
   * @default {"0"}
   */
  seed?: string;
  /**
   * Seed of the generated world and its tasks. Fixed by default so that every
   * experiment seed runs the same 50 default tasks.
   * @default {"0"}
   */
  worldSeed?: string;
  /**
   * Output folder.
   * @default {"results/<experiment>"}
   */
  out?: string;
  /**
   * Agent steps after which an episode is cut off.
   * @default {30}
   */
  maxSteps?: number;
  /**
   * The user simulator: `"scripted"`, or a language model as `"llm:PROVIDER:MODEL"`
   * (e.g. `"llm:openai:gpt-4o-mini"`).
   * @default {"scripted"}
   */
  user?: string;
  /**
   * Sampling temperature of language-model agents.
   * @default {null} (the provider's default)
   */
  temperature?: number | null;
  /**
   * Output token limit per call of language-model agents.
   * @default {null} (the client's default)
   */
  maxTokens?: number | null;
  /**
   * API root of every `openai:` model (agents and user), without `/chat/completions`.
   * @default {"https://api.openai.com/v1"} (the CLI reads `OPENAI_BASE_URL` first)
   */
  baseUrl?: string;
  /**
   * API root of every `anthropic:` model, without `/v1/messages`.
   * @default {"https://api.anthropic.com"} (the CLI reads `ANTHROPIC_BASE_URL` first)
   */
  anthropicBaseUrl?: string;
  /**
   * JSON price file `{ "provider:model": { "input": $/Mtok, "output": $/Mtok } }` over the default table.
   * @default {null} (the default price table)
   */
  prices?: string | null;
  /**
   * A model cache file, or a results folder holding `model_cache.sqlite`: every model answer
   * comes from it, a miss fails the run, and no endpoint is contacted.
   * @default {null} (live: call the models and cache every answer in `<out>/model_cache.sqlite`)
   */
  replay?: string | null;
  /**
   * Dollars of model calls (agents and user, resumed episodes included) after which no new episode starts.
   * @default {null} (no budget)
   */
  maxCost?: number | null;
  /**
   * Episodes in flight at once, each in its own world.
   * @default {1}
   */
  concurrency?: number;
}

/** A config with every field resolved, plus the experiment's name. */
export interface ResolvedConfig {
  domain: string;
  agents: string[];
  tasks: number;
  runs: number;
  seed: string;
  worldSeed: string;
  out: string;
  maxSteps: number;
  user: string;
  temperature: number | null;
  maxTokens: number | null;
  baseUrl: string;
  anthropicBaseUrl: string;
  prices: string | null;
  replay: string | null;
  maxCost: number | null;
  concurrency: number;
  /** Deterministic name made from the config, e.g. `airline-s0-t50-k5`. */
  experiment: string;
}

/** The default API root of `openai:` models. */
export const OPENAI_BASE_URL = "https://api.openai.com/v1";
/** The default API root of `anthropic:` models. */
export const ANTHROPIC_BASE_URL = "https://api.anthropic.com";

/** The default agents. */
export const DEFAULT_AGENTS: readonly string[] = ["oracle", "noisy", "reckless"];

const count = (what: string) =>
  z.number({ error: `Expected ${what} to be a number` }).int({ error: `Expected ${what} to be a whole number` })
    .positive({ error: `Expected ${what} to be at least 1` });

const url = (what: string) =>
  z.string({ error: `Expected ${what} to be a URL` }).refine(
    (s) => URL.canParse(s) && /^https?:$/.test(new URL(s).protocol),
    { error: `Expected ${what} to be an http(s) URL` },
  ).transform((s) => s.replace(/\/+$/, ""));

const schema = z.object({
  domain: z.string().min(1).default("airline"),
  agents: z.array(z.string().min(1)).min(1, { error: "Expected at least one agent" }).default([...DEFAULT_AGENTS]),
  tasks: count("tasks").default(50),
  runs: count("runs").default(5),
  seed: z.union([z.string(), z.number()]).transform(String).default("0"),
  worldSeed: z.union([z.string(), z.number()]).transform(String).default("0"),
  out: z.string().min(1).optional(),
  maxSteps: count("maxSteps").default(30),
  user: z.string().min(1).default("scripted"),
  temperature: z.number({ error: "Expected temperature to be a number" }).min(0, {
    error: "Expected temperature to be at least 0",
  }).nullable().default(null),
  maxTokens: count("maxTokens").nullable().default(null),
  baseUrl: url("baseUrl").default(OPENAI_BASE_URL),
  anthropicBaseUrl: url("anthropicBaseUrl").default(ANTHROPIC_BASE_URL),
  prices: z.string().min(1).nullable().default(null),
  replay: z.string().min(1).nullable().default(null),
  maxCost: z.number({ error: "Expected maxCost to be a number of dollars" }).min(0, {
    error: "Expected maxCost to be at least 0",
  }).nullable().default(null),
  concurrency: count("concurrency").default(1),
}).strict();

/**
 * Parses an experiment config: wrong shapes throw `TypeError`, numbers out of
 * range and unknown domains or agents throw `RangeError`.
 *
 * @example
 * ```ts ignore
 * import { resolveConfig } from "./plan.ts";
 * resolveConfig({ tasks: 6, runs: 2 }).experiment; // "airline-s0-t6-k2"
 * ```
 */
export function resolveConfig(input: ExperimentConfig = {}): ResolvedConfig {
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue.path.join(".");
    const message = `Invalid config${field ? ` field "${field}"` : ""}: ${issue.message}`;
    const range = issue.code === "too_small" || issue.code === "too_big" ||
      (issue.code === "invalid_type" && issue.expected === "int");
    throw range ? new RangeError(message) : new TypeError(message);
  }
  const c = parsed.data;
  getDomain(c.domain); // throws a RangeError naming the accepted domains
  const agents = [...new Set(c.agents)];
  // A model spec names a known provider; any other name must be a scripted agent.
  for (const agent of agents) if (modelSpec(agent) === null) agentFactory(agent);
  userSpec(c.user);
  const experiment = experimentName({ ...c, agents });
  return { ...c, agents, experiment, out: c.out ?? `results/${experiment}` };
}

/**
 * The model of a `--user` spec: `null` for `"scripted"`, the provider and model for
 * `"llm:PROVIDER:MODEL"`; anything else is a `RangeError` saying what is accepted.
 *
 * @example
 * ```ts
 * import { userSpec } from "./plan.ts";
 * userSpec("llm:openai:gpt-4o-mini"); // { provider: "openai", model: "gpt-4o-mini" }
 * ```
 */
export function userSpec(spec: string): ModelSpec | null {
  if (spec === "scripted") return null;
  const model = spec.startsWith("llm:") ? modelSpec(spec.slice(4)) : null;
  if (model === null) {
    throw new RangeError(
      `Unknown user "${spec}": expected "scripted" or "llm:PROVIDER:MODEL", e.g. "llm:openai:gpt-4o-mini"`,
    );
  }
  return model;
}

/** A deterministic, path-safe name of an experiment; non-default agents and step limits are part of it. */
function experimentName(
  c: Pick<ResolvedConfig, "domain" | "seed" | "tasks" | "runs" | "agents" | "maxSteps" | "worldSeed" | "user"> & {
    temperature: number | null;
    maxTokens: number | null;
  },
): string {
  const safe = (s: string) => s.replace(/[^A-Za-z0-9_.-]+/g, "_");
  let name = `${safe(c.domain)}-s${safe(c.seed)}-t${c.tasks}-k${c.runs}`;
  if (c.agents.join(",") !== DEFAULT_AGENTS.join(",")) name += `-${c.agents.map(safe).join("+")}`;
  if (c.maxSteps !== 30) name += `-m${c.maxSteps}`;
  if (c.worldSeed !== "0") name += `-w${safe(c.worldSeed)}`;
  if (c.user !== "scripted") name += `-user_${safe(c.user)}`;
  if (c.temperature !== null) name += `-temp${c.temperature}`;
  if (c.maxTokens !== null) name += `-mt${c.maxTokens}`;
  return name;
}

/**
 * The part of a config that decides results: two stores with the same identity hold the same
 * experiment. The user and sampling settings appear only when not the default, so stores made
 * before they existed still match. Endpoints, keys, prices, the cache, the budget and the
 * concurrency are not part of it: they change how a run goes, not what an episode is.
 */
export function configIdentity(config: ResolvedConfig): Record<string, string | number | string[]> {
  const identity: Record<string, string | number | string[]> = {
    domain: config.domain,
    agents: config.agents,
    tasks: config.tasks,
    runs: config.runs,
    seed: config.seed,
    worldSeed: config.worldSeed,
    maxSteps: config.maxSteps,
    experiment: config.experiment,
  };
  if (config.user !== "scripted") identity.user = config.user;
  if (config.temperature !== null) identity.temperature = config.temperature;
  if (config.maxTokens !== null) identity.maxTokens = config.maxTokens;
  return identity;
}

/** The condition a cell runs under. Only `nominal` exists so far. */
export type Condition = "nominal" | "fault" | "env" | "prompt";

/** What identifies a cell's episode in a results store. */
export interface CellKey {
  agent: string;
  /** The task id, `<domain>/<index>`. */
  task: string;
  run: number;
  condition: Condition;
  /** Paraphrase, fault schedule or perturbation preset; `null` for none. */
  variant: string | null;
}

/** One episode to run. */
export interface Cell extends CellKey {
  /** Child seed: `deriveSeed(seed, agent, task, run, condition)` (plus the variant when there is one). */
  seed: string;
}

/** A string key of a cell, unique per (agent, task, run, condition, variant). */
export function cellKey(cell: CellKey): string {
  return [cell.agent, cell.task, cell.run, cell.condition, cell.variant ?? ""].join("\u001f");
}

/**
 * The cells of an experiment, in a fixed order (agent, task, run). A cell's seed
 * depends only on its own coordinates, so adding tasks or runs changes no other cell.
 *
 * @example
 * ```ts ignore
 * import { planCells, resolveConfig } from "./plan.ts";
 * const cells = planCells(resolveConfig({ agents: ["oracle"], runs: 2 }), tasks);
 * cells.map((c) => c.run); // [0, 1, 0, 1, ...]
 * ```
 */
export function planCells(
  config: Pick<ResolvedConfig, "agents" | "runs" | "seed">,
  tasks: readonly Pick<Task, "id">[],
): Cell[] {
  const cells: Cell[] = [];
  const condition: Condition = "nominal";
  const variant = null;
  for (const agent of config.agents) {
    for (const task of tasks) {
      for (let run = 0; run < config.runs; run++) {
        const seed = deriveSeed(config.seed, agent, task.id, run, condition);
        cells.push({ agent, task: task.id, run, condition, variant, seed });
      }
    }
  }
  return cells;
}

/** The number after the last "/" of a task id (`airline/7` → 7), or `NaN`. */
export function taskIndex(task: string): number {
  const m = /\/(\d+)$/.exec(task);
  return m ? Number(m[1]) : NaN;
}

const cmp = (x: string, y: string) => x < y ? -1 : x > y ? 1 : 0;

function compareTasks(a: string, b: string): number {
  const ia = taskIndex(a), ib = taskIndex(b);
  if (Number.isNaN(ia) || Number.isNaN(ib)) return cmp(a, b);
  return cmp(a.slice(0, a.lastIndexOf("/")), b.slice(0, b.lastIndexOf("/"))) || ia - ib;
}

/** Compares cell keys by agent, task (domain, then index numerically), run, condition and variant. */
export function compareCells(a: CellKey, b: CellKey): number {
  return cmp(a.agent, b.agent) || compareTasks(a.task, b.task) || a.run - b.run ||
    cmp(a.condition, b.condition) || cmp(a.variant ?? "", b.variant ?? "");
}
