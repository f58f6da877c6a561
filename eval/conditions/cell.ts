/**
 * What a cell's condition changes in its episode: the `EpisodeCondition` (faults, or a
 * perturbed interface), the opening the user starts with, and a wrapper of the agent's model
 * client. The runner applies it the same way whatever the condition; nothing here knows a
 * domain or a tool by name.
 *
 * @module
 */
import { deriveSeed, type EpisodeCondition, type Task, type Tool } from "../../envs/mod.ts";
import type { ModelClient } from "../../agents/model/mod.ts";
import type { CellKey } from "../plan.ts";
import type { ResolvedConditions } from "../config.ts";
import { FaultyModel } from "./faults.ts";
import { faultCondition } from "./faults.ts";
import { envCondition, type EnvPreset } from "./perturb.ts";
import { openingOf } from "./prompt.ts";

/** What `cellSetup()` takes besides the cell. */
export interface CellSetupOptions {
  /** The experiment's conditions and their parameters. */
  conditions: ResolvedConditions;
  /** The cell's task (with the openings its user may use). */
  task: Pick<Task, "id" | "openings">;
  /** The domain's tools. */
  tools: readonly Tool[];
  /** The world's renamed columns (`columnRenames()`), for the env condition. */
  columns: Record<string, string>;
}

/** How a cell's condition changes its episode. */
export interface CellSetup {
  /** Passed to `runEpisode()`; absent under the nominal and prompt conditions. */
  condition?: EpisodeCondition;
  /** Index of the task's opening the user starts with. */
  opening: number;
  /** The agent's model client as the condition has it (faulted under `fault`), and the faults it injected. */
  model(client: ModelClient): { client: ModelClient; faults(): number };
}

const unchanged = (client: ModelClient) => ({ client, faults: () => 0 });

/**
 * The setup of a cell: faults seeded from the cell's seed (tool calls and model calls on separate
 * schedules), the env preset of its variant, or the opening of its prompt variant.
 *
 * @example
 * ```ts ignore
 * const setup = cellSetup(cell, { conditions: config.conditions, task, tools: domain.tools, columns });
 * await runEpisode(world, { task, agent, user, rng, condition: setup.condition });
 * ```
 */
export function cellSetup(cell: CellKey & { seed: string }, options: CellSetupOptions): CellSetup {
  const { conditions, task } = options;
  switch (cell.condition) {
    case "nominal":
      return { opening: 0, model: unchanged };
    case "fault": {
      if (conditions.fault === false) throw new RangeError(`Cannot run "${cell.variant}": the fault condition is off`);
      const p = conditions.fault.p_fault;
      return {
        condition: faultCondition({ seed: deriveSeed(cell.seed, "faults", "tools"), p }),
        opening: 0,
        model: (client) => {
          const faulty = new FaultyModel(client, { seed: deriveSeed(cell.seed, "faults", "model"), p });
          return { client: faulty, faults: () => faulty.faults.length };
        },
      };
    }
    case "env": {
      const condition = envCondition({
        preset: cell.variant as EnvPreset,
        tools: options.tools,
        columns: options.columns,
        seed: deriveSeed(cell.seed, "env"),
      });
      return { condition, opening: 0, model: unchanged };
    }
    case "prompt":
      return { opening: openingOf(task, cell.variant ?? ""), model: unchanged };
  }
}
