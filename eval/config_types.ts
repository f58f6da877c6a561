/**
 * The config's types: what a user writes (`ExperimentConfig`, every field optional, each with its
 * `@default`) and what it resolves to (`ResolvedConfig`, every field set), the conditions and the
 * suites. The settings' table that declares each field's schema, default and flags is
 * `settings.ts`; `config.ts` parses a config into a resolved one.
 *
 * @module
 */
import type { EnvPreset } from "../agents/mod.ts";
import type { Tau2BenchTask } from "../envs/mod.ts";
import { type Condition, CONDITIONS } from "../vocabulary/mod.ts";

export { type Condition, CONDITIONS };

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

/** The parameters of a condition as a user writes them. */
export type ConditionParams<C extends Condition> = Exclude<ConditionsConfig[C], boolean | undefined>;

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
  /** Worker threads that run the episodes (1: the main thread). @default {null} (one per core) */
  workers?: number | null;
  /** Output folder. @default {"results/<experiment>"} */
  out?: string;
}

/** A world the episodes of an imported experiment are replayed in. */
export type ImportWorld =
  /** A domain's world on τ-bench's data (`data`: the folder of its files, absolute) with τ-bench's tasks. */
  | { tauBench: { domain: string; data: string } }
  /** A domain's generated world at a world seed, with its first `tasks` tasks. */
  | { generated: { domain: string; worldSeed: string; tasks: number } }
  /** A domain's world on τ²-bench's (or τ-bench's) data (`data`, absolute), with a τ² results file's tasks. */
  | { tau2Bench: { domain: string; data: string; tasks: Tau2BenchTask[] } };

/** Where the episodes of an imported experiment came from (`deno task import`). */
export interface ImportSource {
  /** The format read: τ-bench's results array, τ²-bench's results, ark's transcript JSON Lines, or inspect_ai logs. */
  from: "tau-bench" | "tau2-bench" | "ark" | "inspect";
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

/** What an experiment runs (see `ExperimentConfig.suite`). */
export type Suite = "all" | "tasks" | "abstention" | "long";
/** The suites, as `--suite` takes them. */
export const SUITES: readonly Suite[] = ["all", "tasks", "abstention", "long"];
/**
 * Whether an experiment runs the domains' tasks, their abstention scenarios, and the long suite.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { suiteParts } from "./config_types.ts";
 * assertEquals(suiteParts({ suite: "long" }), { tasks: false, scenarios: false, long: true });
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
