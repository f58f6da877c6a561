/**
 * The plan of an experiment: one cell per domain × agent × task × condition × variant × run,
 * each with its own child seed. The config it is made from lives in `config.ts` (re-exported
 * here).
 *
 * @module
 */
import { deriveSeed, type Task } from "../envs/mod.ts";
import { type Condition, CONDITIONS, type ResolvedConfig } from "./config.ts";
import { promptVariants } from "./conditions/prompt.ts";

export {
  ANTHROPIC_BASE_URL,
  checkConfig,
  type CheckOptions,
  type Condition,
  CONDITIONS,
  type ConditionsConfig,
  configIdentity,
  DEFAULT_AGENTS,
  type ExperimentConfig,
  type ImportSource,
  type ImportWorld,
  judgeSpec,
  loadConfigFile,
  mergeConfigs,
  OPENAI_BASE_URL,
  paraphraseModel,
  resolveConfig,
  type ResolvedConditions,
  type ResolvedConfig,
  userSpec,
} from "./config.ts";

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
  /** Child seed: `cellSeed(seed, cell)`. */
  seed: string;
}

/** A string key of a cell, unique per (agent, task, run, condition, variant). */
export function cellKey(cell: CellKey): string {
  return [cell.agent, cell.task, cell.run, cell.condition, cell.variant ?? ""].join("\u001f");
}

/**
 * The variants of a condition as the config sets it, each with its runs: `null` (one variant)
 * for nominal, `p<p_fault>` for fault, the preset for env, `j1`…`jJ` for prompt; none when off.
 *
 * @example
 * ```ts
 * import { conditionVariants, resolveConfig } from "./plan.ts";
 * conditionVariants(resolveConfig(), "env"); // [["low", 5], ["medium", 5], ["high", 5]]
 * ```
 */
export function conditionVariants(
  config: Pick<ResolvedConfig, "conditions">,
  condition: Condition,
): [variant: string | null, runs: number][] {
  const c = config.conditions;
  switch (condition) {
    case "nominal":
      return c.nominal === false ? [] : [[null, c.nominal.runs]];
    case "fault":
      return c.fault === false ? [] : [[`p${c.fault.p_fault}`, c.fault.runs]];
    case "env":
      return c.env === false ? [] : c.env.presets.map((p) => [p, (c.env as { runs: number }).runs]);
    case "prompt":
      return c.prompt === false
        ? []
        : promptVariants(c.prompt.variants).map((v) => [v, (c.prompt as { runs: number }).runs]);
  }
}

/**
 * A cell's child seed: `deriveSeed(seed, agent, task, run, condition)`, plus the variant when
 * there is one (so nominal cells keep the seeds they had before conditions existed).
 *
 * @example
 * ```ts
 * import { cellSeed } from "./plan.ts";
 * cellSeed("0", { agent: "oracle", task: "airline/0", run: 0, condition: "nominal", variant: null }).length; // 16
 * ```
 */
export function cellSeed(seed: string, cell: CellKey): string {
  const { agent, task, run, condition, variant } = cell;
  return variant === null
    ? deriveSeed(seed, agent, task, run, condition)
    : deriveSeed(seed, agent, task, run, condition, variant);
}

/**
 * The cells of an experiment, in a fixed order: domain (in the order tasks come), agent, task,
 * condition, variant, run. A cell's seed depends only on its own coordinates, so adding tasks,
 * runs, agents or conditions changes no other cell.
 *
 * @example
 * ```ts
 * import { planCells, resolveConfig } from "./plan.ts";
 * const config = resolveConfig({ agents: ["oracle"], runs: 2, conditions: { fault: false, env: false, prompt: false } });
 * planCells(config, [{ id: "airline/0" }, { id: "airline/1" }]).map((c) => c.run); // [0, 1, 0, 1]
 * ```
 */
export function planCells(
  config: Pick<ResolvedConfig, "agents" | "seed" | "conditions">,
  tasks: readonly Pick<Task, "id">[],
): Cell[] {
  const byDomain = new Map<string, Pick<Task, "id">[]>();
  for (const task of tasks) {
    const domain = task.id.slice(0, Math.max(task.id.lastIndexOf("/"), 0));
    byDomain.set(domain, [...byDomain.get(domain) ?? [], task]);
  }
  const variants = CONDITIONS.map((condition) => [condition, conditionVariants(config, condition)] as const);
  const cells: Cell[] = [];
  for (const domainTasks of byDomain.values()) {
    for (const agent of config.agents) {
      for (const task of domainTasks) {
        for (const [condition, list] of variants) {
          for (const [variant, runs] of list) {
            for (let run = 0; run < runs; run++) {
              const key: CellKey = { agent, task: task.id, run, condition, variant };
              cells.push({ ...key, seed: cellSeed(config.seed, key) });
            }
          }
        }
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
