/**
 * The conditions by name, and the runner's two calls into them: the language models they call
 * themselves (`conditionModels()`), and their preparation for one experiment
 * (`prepareConditions()`), which gives each cell its setup from the definition of its condition.
 *
 * @module
 */
import { type Condition, CONDITIONS, type ResolvedConditions } from "../config.ts";
import type { Cell } from "../cell.ts";
import {
  type CellSetup,
  type ConditionDefinition,
  nominalDefinition,
  type PreparedCondition,
  type PrepareInput,
  type SetupInput,
} from "./condition.ts";
import { faultDefinition } from "./faults.ts";
import { envDefinition } from "./perturb.ts";
import { promptDefinition } from "./prompt.ts";

/** Every condition's definition, by name. */
export const CONDITION_DEFINITIONS: Readonly<Record<Condition, ConditionDefinition>> = Object.freeze({
  nominal: nominalDefinition,
  fault: faultDefinition,
  env: envDefinition,
  prompt: promptDefinition,
});

/**
 * The definition of a condition by name.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { conditionDefinition } from "./registry.ts";
 * assertEquals(conditionDefinition("env").name, "env");
 * ```
 */
export function conditionDefinition(name: string): ConditionDefinition {
  if (!Object.hasOwn(CONDITION_DEFINITIONS, name)) throw unknownCondition(name);
  return CONDITION_DEFINITIONS[name as Condition];
}

function unknownCondition(name: string): RangeError {
  const known = CONDITIONS.map((c) => `"${c}"`).join(", ");
  return new RangeError(`Unknown condition "${name}": expected one of ${known}`);
}

/**
 * The language models the conditions call themselves (e.g. a paraphraser), as specs
 * `"provider:model"`, in the order of the conditions.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { conditionModels } from "./registry.ts";
 * assertEquals(conditionModels({ nominal: { runs: 5 }, fault: false, env: false, prompt: false }), []);
 * ```
 */
export function conditionModels(conditions: ResolvedConditions): string[] {
  return CONDITIONS.flatMap((name) => CONDITION_DEFINITIONS[name].models(conditions));
}

/** The conditions prepared for one experiment: the setup of any of its cells. */
export interface PreparedConditions {
  /** The setup of a cell, by the definition of its condition. */
  setup(cell: Cell, input: SetupInput): CellSetup;
}

/**
 * Prepares every condition for an experiment, in the conditions' order, each with its own cells
 * of `input.cells` (those still to run).
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { getDomain, World } from "../../envs/mod.ts";
 * import { resolveConfig } from "../config.ts";
 * import { prepareConditions } from "./registry.ts";
 * using world = World.open(getDomain("airline"));
 * const task = world.defaultTasks(1)[0];
 * const { conditions } = resolveConfig({ domains: ["airline"] });
 * const prepared = await prepareConditions({ conditions, worlds: [world], tasks: new Map([[task.id, task]]), cells: [] });
 * const cell = (condition: "nominal" | "env", variant: string | null) =>
 *   ({ agent: "oracle", task: task.id, run: 0, condition, variant, seed: "s" });
 * // The nominal cell runs the episode as it is; the env cell through the preset's wrapper.
 * assertEquals(prepared.setup(cell("nominal", null), { task, domain: world.domain }).condition, undefined);
 * assertEquals(prepared.setup(cell("env", "low"), { task, domain: world.domain }).condition !== undefined, true);
 * ```
 */
export async function prepareConditions(input: PrepareInput): Promise<PreparedConditions> {
  const prepared = new Map<string, PreparedCondition>();
  for (const name of CONDITIONS) {
    const cells = input.cells.filter((c) => c.condition === name);
    prepared.set(name, await CONDITION_DEFINITIONS[name].prepare({ ...input, cells }));
  }
  return {
    setup(cell, episode) {
      const condition = prepared.get(cell.condition);
      if (condition === undefined) throw unknownCondition(cell.condition);
      return condition.setup(cell, episode);
    },
  };
}
