/**
 * The reliability protocol's conditions as generic wrappers around an episode: injected faults
 * around tool and model calls (`fault`), perturbed tool interfaces (`env`, presets low, medium
 * and high), and paraphrased openings (`prompt`). Each is one `ConditionDefinition` that owns its
 * whole behaviour (`CONDITION_DEFINITIONS`); `prepareConditions()` prepares them for an
 * experiment and gives each cell its setup.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { faultAt, openingOf, promptVariants } from "./mod.ts";
 * assertEquals(faultAt({ seed: "0", p: 0 }, 3), null);
 * assertEquals(promptVariants(2).map((v) => openingOf({ id: "t/1", openings: ["a", "b", "c"] }, v)), [1, 2]);
 * ```
 *
 * @module
 */
export {
  type CellSetup,
  type ConditionDefinition,
  nominalDefinition,
  type PreparedCondition,
  type PrepareInput,
  type SetupInput,
  unchangedSetup,
} from "./condition.ts";
export {
  CONDITION_DEFINITIONS,
  conditionDefinition,
  conditionModels,
  prepareConditions,
  type PreparedConditions,
} from "./registry.ts";
export {
  FAULT_KINDS,
  faultAt,
  faultCondition,
  faultDefinition,
  type FaultKind,
  faultMessage,
  type FaultOptions,
  FaultyModel,
} from "./faults.ts";
export {
  columnRenames,
  ENV_PRESET_NAMES,
  ENV_PRESETS,
  type EnvCondition,
  envCondition,
  envDefinition,
  type EnvOptions,
  type EnvPreset,
  type Perturbation,
} from "./perturb.ts";
// The perturbations' own helpers, defined with them in agents/ (kept here for eval's public API).
export { camelCase, formatNumber } from "../../agents/mod.ts";
export { openingOf, paraphrasedTask, promptDefinition, promptVariants } from "./prompt.ts";
