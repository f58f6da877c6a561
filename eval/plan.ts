/**
 * The plan of an experiment: one cell per domain × agent × task × condition × variant × run,
 * each with its own child seed. The config it is made from lives in `config.ts`, the cell itself
 * (its key, seed and order) in `cell.ts`.
 *
 * @module
 */
import { getDomain, LONG_SOURCE, parseTaskId, type Task, taskSuite, World } from "../envs/mod.ts";
import { type Condition, CONDITIONS, DEFAULT_LONG_TASKS, type ResolvedConfig, suiteParts } from "./config.ts";
import { conditionDefinition } from "./conditions/registry.ts";
import { type Cell, type CellKey, cellSeed } from "./cell.ts";

export { type Cell, type CellKey, cellKey, cellSeed, compareCells, type LooseCellKey, taskIndex } from "./cell.ts";

/**
 * The variants of a condition as the config sets it, each with its runs: `null` (one variant)
 * for nominal, `p<p_fault>` for fault, the preset for env, `j1`…`jJ` for prompt; none when off.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { conditionVariants } from "./plan.ts";
 * import { resolveConfig } from "./config.ts";
 * assertEquals(conditionVariants(resolveConfig(), "env"), [["low", 5], ["medium", 5], ["high", 5]]);
 * ```
 */
export function conditionVariants(
  config: Pick<ResolvedConfig, "conditions">,
  condition: Condition,
): [variant: string | null, runs: number][] {
  return conditionDefinition(condition).variants(config.conditions);
}

/** What the plan reads of a task: its id, its milestones when it may be long, whether it is a scenario. */
export type PlannedTask = Pick<Task, "id"> & Partial<Pick<Task, "milestones" | "scenario">>;

/**
 * The cells of an experiment, in a fixed order: domain (in the order tasks come; another
 * benchmark's tasks and abstention scenarios apart, `taskSuite()`), agent, task, condition,
 * variant, run (a long task's runs capped by `longRuns`, see `runsOf()`; an abstention scenario
 * runs nominal only, `scenarioRuns` times; a task of the long suite, `long:<domain>/<n>`, nominal
 * only, `runs` times, capped the same way). A cell's seed
 * depends only on its own coordinates, so adding tasks, runs, agents or conditions changes no
 * other cell. Throws a `TypeError` on a task id that `parseTaskId()` does not read.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { planCells } from "./plan.ts";
 * import { resolveConfig } from "./config.ts";
 * const config = resolveConfig({ agents: ["oracle"], runs: 2, conditions: { fault: false, env: false, prompt: false } });
 * assertEquals(planCells(config, [{ id: "airline/0" }, { id: "airline/1" }]).map((c) => c.run), [0, 1, 0, 1]);
 * ```
 */
export function planCells(
  config:
    & Pick<ResolvedConfig, "agents" | "seed" | "conditions" | "runs">
    & Partial<Pick<ResolvedConfig, "longRuns" | "scenarioRuns">>,
  tasks: readonly PlannedTask[],
): Cell[] {
  const byDomain = new Map<string, PlannedTask[]>();
  const longSuite = new Set<string>();
  for (const task of tasks) {
    const id = parseTaskId(task.id);
    if (id === null) {
      throw new TypeError(`Invalid task id "${task.id}": expected "<domain>/<index>" or "<source>:<domain>/<index>"`);
    }
    const suite = taskSuite(id);
    const list = byDomain.get(suite);
    if (list === undefined) byDomain.set(suite, [task]);
    else list.push(task);
    if (id.source === LONG_SOURCE) longSuite.add(task.id);
  }
  const variants = CONDITIONS.map((condition) => [condition, conditionVariants(config, condition)] as const);
  const cells: Cell[] = [];
  for (const domainTasks of byDomain.values()) {
    for (const agent of config.agents) {
      for (const task of domainTasks) {
        // An abstention scenario runs as it is (nominal), `scenarioRuns` times; a task of the long
        // suite nominal only, `runs` times (capped by `longRuns`).
        const nominal = task.scenario !== undefined
          ? config.scenarioRuns ?? 1
          : longSuite.has(task.id)
          ? runsOf(task, config.runs, config.longRuns ?? null)
          : null;
        if (nominal !== null) {
          for (let run = 0; run < nominal; run++) {
            const key: CellKey = { agent, task: task.id, run, condition: "nominal", variant: null };
            cells.push({ ...key, seed: cellSeed(config.seed, key) });
          }
          continue;
        }
        for (const [condition, list] of variants) {
          for (const [variant, all] of list) {
            const runs = runsOf(task, all, config.longRuns ?? null);
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

/** The most episodes a plan may hold before `deno task eval` asks for `--yes`: a million take days. */
export const MAX_PLANNED_EPISODES = 1_000_000;

/**
 * The episodes an experiment's plan holds, worked out from its config before any task is generated
 * (generating a million tasks alone takes an hour): per domain and agent, the tasks times the runs
 * of every condition's variants, the abstention scenarios (two per pair of each template) times
 * `scenarioRuns`, and the long suite's tasks times `runs`. The long suite's classes are counted on
 * the domain's world. A bound, not always the count: `longRuns` may cap a long task's runs.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { plannedEpisodes } from "./plan.ts";
 * import { resolveConfig } from "./config.ts";
 * const config = resolveConfig({ domains: ["airline"], agents: ["oracle"], tasks: 10, runs: 2, suite: "tasks" });
 * // Nominal, fault and env (three presets) 2 runs each, prompt 5 variants of 1 run.
 * assertEquals(plannedEpisodes(config), 10 * (2 + 2 + 3 * 2 + 5));
 * ```
 */
export function plannedEpisodes(
  config:
    & Pick<
      ResolvedConfig,
      "domains" | "agents" | "tasks" | "runs" | "conditions" | "suite" | "scenarioPairs" | "scenarioRuns" | "worldSeed"
    >
    & Partial<Pick<ResolvedConfig, "longTasks">>,
): number {
  const parts = suiteParts(config);
  const perTask = CONDITIONS.reduce(
    (sum, condition) => sum + conditionVariants(config, condition).reduce((n, [, runs]) => n + runs, 0),
    0,
  );
  let episodes = 0;
  for (const name of config.domains) {
    const domain = getDomain(name);
    if (parts.tasks) episodes += config.tasks * perTask;
    if (parts.scenarios) episodes += 2 * config.scenarioPairs * (domain.scenarios?.length ?? 0) * config.scenarioRuns;
    if (parts.long && domain.longTasks !== undefined) {
      using world = World.open(domain, { seed: config.worldSeed });
      const classes = world.longTasks(1).length;
      episodes += (config.longTasks ?? DEFAULT_LONG_TASKS) * classes * config.runs;
    }
  }
  return episodes * config.agents.length;
}

/** The milestones from which a task counts as long: it runs `longRuns` times per variant when set. */
export const LONG_TASK_MILESTONES = 100;

/**
 * The runs of each variant of a task: a long one (at least `LONG_TASK_MILESTONES` milestones)
 * runs at most `longRuns` times when that is set.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { runsOf } from "./plan.ts";
 * const long = { milestones: new Array(100).fill({ kind: "told", label: "x", outputs: [] }) };
 * assertEquals([runsOf(long, 5, 2), runsOf(long, 5, null), runsOf({ milestones: [] }, 5, 2)], [2, 5, 5]);
 * ```
 */
export function runsOf(task: Partial<Pick<Task, "milestones">>, runs: number, longRuns: number | null): number {
  const long = (task.milestones?.length ?? 0) >= LONG_TASK_MILESTONES;
  return long && longRuns !== null ? Math.min(runs, longRuns) : runs;
}
