/**
 * The `env` condition: semantics-preserving perturbations of the tool interface, the same for
 * a whole episode. The agent is shown copies of the tools whose JSON Schema (`Tool.parameters`)
 * uses the perturbed names and formats, and hints (`AgentContext.hints.perturbation`, see
 * `PerturbationHints`) describing them. The dispatcher accepts only the perturbed names and
 * formats, maps the arguments back, calls the world, then perturbs the result. The perturbations,
 * their presets and both directions of the translation are in `agents/perturbation.ts`, which
 * agents read too. `envDefinition` renames each world's columns once per experiment and gives
 * each cell the condition of its variant's preset, its keys ordered by the cell's seed.
 *
 * @module
 */
import { deriveSeed, type EpisodeCondition, type Json, type Tool, toolParameters } from "../../envs/mod.ts";
import {
  columnRenames,
  decodeArgs,
  encodeResult,
  encodeSchema,
  encodeText,
  type EnvPreset,
  type PerturbationHints,
  presetHints,
  seededKeyOrder,
} from "../../agents/mod.ts";
import { type ConditionDefinition, unchangedSetup } from "./condition.ts";

// Defined with the perturbations; re-exported for the condition's config and its world's columns.
export { columnRenames, ENV_PRESET_NAMES, ENV_PRESETS, type EnvPreset, type Perturbation } from "../../agents/mod.ts";

/** What `envCondition()` takes. */
export interface EnvOptions {
  /** The preset: which perturbations are on. */
  preset: EnvPreset;
  /** The domain's tools, as the world knows them. */
  tools: readonly Tool[];
  /** The world's renamed columns (`columnRenames()`); used by the `columns` perturbation. */
  columns: Record<string, string>;
  /** The episode's seed: the order of reordered keys. */
  seed: string;
}

/** The `env` condition of one episode: perturbed tools, their hints, and a translating dispatcher. */
export interface EnvCondition extends EpisodeCondition {
  /** Copies of the domain's tools with perturbed descriptions and JSON Schemas. */
  tools: readonly Tool[];
  /** What the agent is told about the perturbations (`AgentContext.hints.perturbation`). */
  hints: { perturbation: PerturbationHints & Record<string, Json> };
}

/**
 * The `env` condition of a preset for one episode.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { getDomain, toolParameters, World } from "../../envs/mod.ts";
 * import { columnRenames, envCondition } from "./perturb.ts";
 * using world = World.open(getDomain("airline"));
 * const condition = envCondition({ preset: "low", tools: world.domain.tools, columns: columnRenames(world.store), seed: "0" });
 * // The low preset shows camelCase parameters, and tells the agent so.
 * const tool = condition.tools.find((t) => t.name === "get_reservation_details")!;
 * assertEquals(toolParameters(tool).required, ["reservationId"]);
 * assertEquals(condition.hints.perturbation.names.reservation_id, "reservationId");
 * ```
 */
export function envCondition(options: EnvOptions): EnvCondition {
  const schemas = options.tools.map(parametersOf);
  const { hints, shown, descriptions } = presetOf(options, schemas);
  const order = { order: seededKeyOrder(options.seed) };
  // The perturbed schemas are worked out when an agent first reads them (a scripted agent never does).
  const tools = options.tools.map((tool, i): Tool => {
    let parameters: Record<string, unknown> | undefined;
    return Object.defineProperty({ ...tool, description: descriptions[i] }, "parameters", {
      enumerable: true,
      get: () => parameters ??= encodeSchema(schemas[i], hints, order) as Record<string, unknown>,
    });
  });
  return {
    tools,
    // The agent's own copy: the preset's hints are shared by every episode (they are JSON: read
    // back from their text, the copy is what a structured clone gives, made faster).
    hints: { perturbation: JSON.parse(shown) as PerturbationHints & Record<string, Json> },
    dispatch(call, next) {
      const decoded = decodeArgs(call.args, hints);
      if ("error" in decoded) {
        const message = `Invalid arguments for "${call.name}": ${decoded.error}`;
        return { name: call.name, args: call.args, ok: false, error: { code: "invalid_args", message } };
      }
      const r = next(call.name, decoded.args);
      if (!r.ok) {
        return { ...r, args: call.args, error: { code: r.error!.code, message: encodeText(r.error!.message, hints) } };
      }
      return { ...r, args: call.args, result: encodeResult(r.result ?? null, hints, order) };
    },
  };
}

// The hints (and their JSON text) and descriptions of a preset over some tools and columns, worked
// out once: they do not depend on the episode.
interface Preset {
  hints: PerturbationHints;
  shown: string;
  descriptions: string[];
}
const PRESETS = new WeakMap<readonly Tool[], Map<string, Preset>>();

function presetOf(options: EnvOptions, schemas: readonly Record<string, unknown>[]): Preset {
  let byPreset = PRESETS.get(options.tools);
  if (byPreset === undefined) PRESETS.set(options.tools, byPreset = new Map());
  const key = `${options.preset}\u001f${columnsKey(options.columns)}`;
  let found = byPreset.get(key);
  if (found === undefined) {
    const hints = presetHints(options.preset, { schemas, columns: options.columns });
    const descriptions = options.tools.map((t) => encodeText(t.description, hints));
    byPreset.set(key, found = { hints, shown: JSON.stringify(hints), descriptions });
  }
  return found;
}

// A world's renamed columns as text, the key of its presets: each world gives every cell the same
// object, so its text is written once.
const COLUMNS = new WeakMap<Record<string, string>, string>();
function columnsKey(columns: Record<string, string>): string {
  let key = COLUMNS.get(columns);
  if (key === undefined) COLUMNS.set(columns, key = JSON.stringify(columns));
  return key;
}

const PARAMETERS = new WeakMap<Tool, Record<string, unknown>>();

// A tool's JSON Schema, derived once per tool (read only: the encoder copies what it changes).
function parametersOf(tool: Tool): Record<string, unknown> {
  let schema = PARAMETERS.get(tool);
  if (schema === undefined) PARAMETERS.set(tool, schema = toolParameters(tool));
  return schema;
}

/**
 * The `env` condition: each cell's episode under the perturbed interface of its variant's preset.
 * Each world's renamed columns are worked out once per experiment.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { envDefinition } from "./perturb.ts";
 * assertEquals(envDefinition.models({ nominal: false, fault: false, env: { presets: ["low"], runs: 5 }, prompt: false }), []);
 * ```
 */
export const envDefinition: ConditionDefinition = {
  name: "env",
  variants: (c) => c.env === false ? [] : c.env.presets.map((p) => [p, (c.env as { runs: number }).runs]),
  models: () => [],
  prepare({ worlds }) {
    const columns = new Map(worlds.map((world) => [world.domain.name, columnRenames(world.store)]));
    return {
      setup(cell, { task, domain }) {
        const renamed = columns.get(domain.name);
        if (renamed === undefined) throw new RangeError(`Cannot perturb domain "${domain.name}": it has no world`);
        const condition = envCondition({
          preset: cell.variant as EnvPreset,
          tools: domain.tools,
          columns: renamed,
          seed: deriveSeed(cell.seed, "env"),
        });
        return { ...unchangedSetup(task), condition };
      },
    };
  },
};
