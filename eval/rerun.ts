/**
 * Rerunning a finished experiment from its results folder (`deno task eval --replay DIR`): the
 * experiment's config comes from the folder's results store, and its model answers from the
 * folder's model cache. A setting given beside `--replay` that would change the experiment is
 * refused (one that gives the stored value, or only changes how the run goes, is accepted).
 * ("Replay" itself means running recorded tool calls in a fresh world, `envs/`.)
 *
 * @module
 */
import {
  configIdentity,
  type ExperimentConfig,
  mergeConfigs,
  resolveConfig,
  type ResolvedConfig,
  SETTING_FLAGS,
} from "./config.ts";
import { storedConfig } from "./rejudge.ts";
import { changedFields, ResultsStore, ResultsStoreError, shownValue } from "./store.ts";

// The file a results folder keeps its episodes in.
const RESULTS_FILE = "results.sqlite";

/**
 * The settings that change how a run goes but not what an episode is (`configIdentity()` leaves
 * them out): the only ones a rerun from a results store takes.
 */
export const RERUN_SETTINGS: readonly (keyof ExperimentConfig)[] = [
  "replay",
  "out",
  "concurrency",
  "workers",
  "maxCost",
  "prices",
  "baseUrl",
  "anthropicBaseUrl",
];

/**
 * The results store of a `--replay` argument: `results.sqlite` in a results folder, or `null` when
 * the argument is a model cache file or a folder without one (the experiment then comes from the
 * flags, as for a live run).
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { rerunStorePath } from "./rerun.ts";
 * const dir = Deno.makeTempDirSync();
 * assertEquals(rerunStorePath(dir), null);
 * Deno.writeTextFileSync(`${dir}/results.sqlite`, "");
 * assertEquals(rerunStorePath(`${dir}/`), `${dir}/results.sqlite`);
 * Deno.removeSync(dir, { recursive: true });
 * ```
 */
export function rerunStorePath(folder: string): string | null {
  const path = `${folder.replace(/\/+$/, "")}/${RESULTS_FILE}`;
  try {
    return Deno.statSync(folder).isDirectory && Deno.statSync(path).isFile ? path : null;
  } catch (err) {
    if (err instanceof Deno.errors.NotFound || err instanceof Deno.errors.NotADirectory) return null;
    throw err;
  }
}

/** Options of `rerunConfig()`. */
export interface RerunConfigOptions {
  /**
   * The `--config` file given beside `--replay`, refused: the experiment comes from the store.
   * @default {none}
   */
  configFile?: string;
}

/**
 * The config of rerunning the experiment stored at `storePath` (see `rerunStorePath()`), with the
 * settings `given` by flags over it. A setting that would change the experiment is a `RangeError`
 * naming its flag and the settings accepted; a store that is missing, not ark's, imported, or of
 * another ark version is a `ResultsStoreError`.
 *
 * @example
 * ```ts
 * import { assertEquals, assertThrows } from "@std/assert";
 * import { rerunConfig, rerunStorePath } from "./rerun.ts";
 * import { resolveConfig } from "./config.ts";
 * import { ResultsStore } from "./store.ts";
 * const dir = Deno.makeTempDirSync();
 * ResultsStore.open(`${dir}/results.sqlite`, { config: resolveConfig({ domains: ["airline"], tasks: 3 }) }).close();
 * const config = rerunConfig(rerunStorePath(dir)!, { replay: dir, out: `${dir}/again` });
 * assertEquals([config.tasks, config.replay, config.out], [3, dir, `${dir}/again`]);
 * assertThrows(() => rerunConfig(`${dir}/results.sqlite`, { replay: dir, tasks: 4 }), RangeError, "--tasks");
 * Deno.removeSync(dir, { recursive: true });
 * ```
 */
export function rerunConfig(
  storePath: string,
  given: ExperimentConfig,
  options: RerunConfigOptions = {},
): ResolvedConfig {
  const folder = given.replay ?? storePath;
  const accepted = acceptedFlags();
  if (options.configFile !== undefined) {
    throw new RangeError(
      `Cannot use --config with --replay "${folder}": the experiment comes from its results store; ` +
        `give only ${accepted}`,
    );
  }
  const { store, value: base } = ResultsStore.readWith(storePath, (s) => {
    if (s.config().source !== undefined) {
      throw new ResultsStoreError(
        "mismatch",
        `Cannot replay "${folder}": its experiment was imported from transcripts, not run; judge it again instead`,
      );
    }
    return storedConfig(s, { out: "." });
  });
  store.close();
  const { experiment: _, ...fields } = configIdentity(base);
  const config = resolveConfig(mergeConfigs(fields as ExperimentConfig, given));
  const there = configIdentity(base), here = configIdentity(config);
  const changed = new Set(changedFields(there, here));
  for (const path of leaves(given)) {
    const key = path[0] as keyof ResolvedConfig;
    if (!changed.has(key)) continue;
    throw new RangeError(
      `Cannot use ${flagOf(path)} with --replay "${folder}": it would change the experiment stored there ` +
        `("${key}" is ${shownValue(base[key])} there, ${shownValue(config[key])} here); give only ${accepted}`,
    );
  }
  return config;
}

// The paths of a settings object's values: a nested object's each, an empty one or any other value itself.
function leaves(value: unknown, path: string[] = []): string[][] {
  if (typeof value !== "object" || value === null || Array.isArray(value) || Object.keys(value).length === 0) {
    return path.length === 0 ? [] : [path];
  }
  return Object.entries(value).filter(([, v]) => v !== undefined).flatMap(([k, v]) => leaves(v, [...path, k]));
}

// The flags that set a value at `path`: those of the longest path it starts with.
function flagOf(path: readonly string[]): string {
  const matching = SETTING_FLAGS.filter((f) => f.path.every((p, i) => path[i] === p));
  const depth = Math.max(...matching.map((f) => f.path.length));
  return matching.filter((f) => f.path.length === depth).map((f) => f.name).join(" or ");
}

function acceptedFlags(): string {
  const names = SETTING_FLAGS.filter((f) => RERUN_SETTINGS.includes(f.path[0] as keyof ExperimentConfig))
    .map((f) => f.name);
  return `${names.slice(0, -1).join(", ")} or ${names.at(-1)}`;
}

/** @deprecated Use `RERUN_SETTINGS`: "replay" means running recorded tool calls in a world. */
export const REPLAY_SETTINGS: readonly (keyof ExperimentConfig)[] = RERUN_SETTINGS;

/** @deprecated Use `RerunConfigOptions`. */
export type ReplayConfigOptions = RerunConfigOptions;

/** @deprecated Use `rerunConfig()`: "replay" means running recorded tool calls in a world. */
export function replayConfig(
  storePath: string,
  given: ExperimentConfig,
  options: RerunConfigOptions = {},
): ResolvedConfig {
  return rerunConfig(storePath, given, options);
}

/** @deprecated Use `rerunStorePath()`. */
export function replayStorePath(folder: string): string | null {
  return rerunStorePath(folder);
}
