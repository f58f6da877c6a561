/**
 * The reliability protocol's conditions as generic wrappers around an episode: injected faults
 * around tool and model calls (`fault`), perturbed tool interfaces (`env`, presets low, medium
 * and high), and paraphrased openings (`prompt`). `cellSetup()` gives a cell's.
 *
 * @example
 * ```ts
 * import { faultAt, openingOf, promptVariants } from "./mod.ts";
 * faultAt({ seed: "0", p: 0 }, 3); // null
 * promptVariants(2).map((v) => openingOf({ id: "t/1", openings: ["a", "b", "c"] }, v)); // [1, 2]
 * ```
 *
 * @module
 */
export { type CellSetup, cellSetup, type CellSetupOptions } from "./cell.ts";
export {
  FAULT_KINDS,
  faultAt,
  faultCondition,
  type FaultKind,
  faultMessage,
  type FaultOptions,
  FaultyModel,
} from "./faults.ts";
export {
  camelCase,
  columnRenames,
  ENV_PRESET_NAMES,
  ENV_PRESETS,
  type EnvCondition,
  envCondition,
  type EnvOptions,
  type EnvPreset,
  formatNumber,
  type Perturbation,
} from "./perturb.ts";
export { openingOf, paraphrasedTask, promptVariants } from "./prompt.ts";
