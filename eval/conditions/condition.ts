/**
 * What a condition of the reliability protocol is to the runner: one `ConditionDefinition` that
 * owns its whole behaviour. Once per experiment it prepares what its cells share (the world's
 * renamed columns, paraphrases written by a model); for each cell it gives a `CellSetup`: the
 * tools shown, the hints and the dispatch wrapper of the episode (`EpisodeCondition`), the task
 * the user sees and the opening the user starts with, the agent's model client as the condition
 * has it, and what the condition adds to the record. The runner looks a condition up by the
 * cell's name and calls it; it never names one.
 *
 * @module
 */
import type { Domain, EpisodeCondition, Task, World } from "../../envs/mod.ts";
import type { ModelClient } from "../../agents/model/mod.ts";
import type { Condition, ResolvedConditions } from "../config.ts";
import type { Cell } from "../cell.ts";
import type { ToRecordOptions } from "../to_record.ts";

/** What a condition is given once per experiment, before any of its cells runs. */
export interface PrepareInput {
  /** The experiment's conditions and their parameters. */
  conditions: ResolvedConditions;
  /** One world per domain of the experiment, as generated; open only while `prepare()` runs. */
  worlds: readonly World[];
  /** Every task of the experiment, by id. */
  tasks: ReadonlyMap<string, Task>;
  /** The condition's cells still to run, in plan order. */
  cells: readonly Cell[];
  /**
   * The client of each language model the condition names in `models()`, by spec.
   * @default {none: the condition names no model}
   */
  models?: (spec: string) => ModelClient;
}

/** What a cell's setup is given besides the cell: its task and its domain. */
export interface SetupInput {
  /** The cell's task, as the agent and the grader know it. */
  task: Task;
  /** The domain of the task (its tools and name). */
  domain: Domain;
}

/** How a condition changes one cell's episode. */
export interface CellSetup {
  /** Passed to `runEpisode()`: the tools shown, the hints, the dispatch wrapper; absent when none changes. */
  condition?: EpisodeCondition;
  /** The task as the user simulator sees it (the openings it may start with). */
  userTask: Task;
  /** Index of the opening of `userTask` the user starts with. */
  opening: number;
  /** The agent's model client as the condition has it (faulted under `fault`). */
  model(client: ModelClient): ModelClient;
  /** What the condition adds to the episode's record (e.g. the faults it injected into model calls). */
  record(): Pick<ToRecordOptions, "modelFaults">;
}

/** A condition prepared for one experiment: the setup of each of its cells. */
export interface PreparedCondition {
  /** The setup of one of the condition's cells. */
  setup(cell: Cell, input: SetupInput): CellSetup;
}

/** One condition of the reliability protocol, owning its whole behaviour. */
export interface ConditionDefinition {
  /** The condition's name, as cells and records carry it. */
  name: Condition;
  /**
   * The condition's variants as the config sets it, each with its runs (the plan makes a cell per
   * variant and run): none when the config turns the condition off.
   */
  variants(conditions: ResolvedConditions): [variant: string | null, runs: number][];
  /** Language models the condition itself calls (e.g. the paraphraser), as specs `"provider:model"`. */
  models(conditions: ResolvedConditions): string[];
  /** Works out what the condition's cells share, once per experiment. */
  prepare(input: PrepareInput): PreparedCondition | Promise<PreparedCondition>;
}

/**
 * The setup of a cell whose episode its condition leaves as it is: no wrapper, the nominal
 * opening, the agent's own model client, nothing added to the record.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { getDomain, World } from "../../envs/mod.ts";
 * import { unchangedSetup } from "./condition.ts";
 * using world = World.open(getDomain("airline"));
 * const task = world.defaultTasks(1)[0];
 * const setup = unchangedSetup(task);
 * assertEquals([setup.userTask, setup.opening, setup.record()], [task, 0, { modelFaults: 0 }]);
 * ```
 */
export function unchangedSetup(task: Task): CellSetup {
  return { userTask: task, opening: 0, model: (client) => client, record: () => ({ modelFaults: 0 }) };
}

/**
 * The nominal condition: the episode as the task has it, K runs per task.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { nominalDefinition } from "./condition.ts";
 * assertEquals(nominalDefinition.models({ nominal: { runs: 5 }, fault: false, env: false, prompt: false }), []);
 * ```
 */
export const nominalDefinition: ConditionDefinition = {
  name: "nominal",
  variants: (c) => c.nominal === false ? [] : [[null, c.nominal.runs]],
  models: () => [],
  prepare: () => ({ setup: (_cell, { task }) => unchangedSetup(task) }),
};
