/**
 * Shards of an experiment: `--shard I/N` runs the cells whose stable hash (of `cellKey()`, see `shardOf()`
 * in `shard_cells.ts`, re-exported here) falls in shard I of N, so every shard knows its cells without asking the others, and
 * `mergeShards()` puts the shards' results folders back together into one, whose records and
 * reports are those of the experiment run in one piece. A shard is not part of the experiment's
 * identity (`configIdentity()`): its folder says which shard it holds in `shard.json`.
 *
 * @module
 */
import { getDomain, Store, World } from "../envs/mod.ts";
import { ModelCache } from "../agents/model/mod.ts";
import { type Cell, type CellKey, cellKey, planCells } from "./plan.ts";
import { parseShard, type Shard, shardText } from "./shard_cells.ts";
import type { ResolvedConfig } from "./config.ts";
import { experimentTasks } from "./worlds.ts";
import { changedFields, ResultsStore, ResultsStoreError, shownValue } from "./store.ts";
import { storedConfig } from "./rejudge.ts";
import type { EpisodeRecord } from "./records.ts";
import { MODEL_CACHE_FILE } from "./models.ts";
import { createOutputFolder, errorReason, jsonErrorWhere } from "./fs_errors.ts";

export { parseShard, type Shard, shardOf, shardOut, shardText } from "./shard_cells.ts";

/** The file a shard's results folder says which shard it holds in. */
export const SHARD_FILE = "shard.json";

/** A shard or a merge that cannot go on; `code` says why. */
export class ShardError extends Error {
  /**
   * Why: `"mismatch"`, folders (or a folder and the run) hold different experiments or shards;
   * `"missing"`, cells of the experiment are in none of the folders; `"unreadable"`, a folder
   * cannot be read.
   */
  readonly code: "mismatch" | "missing" | "unreadable";

  /** Makes an error with a code and a one-line message. */
  constructor(code: ShardError["code"], message: string) {
    super(message);
    this.name = "ShardError";
    this.code = code;
  }
}

/** Every cell of an experiment ark runs (not an imported one), in plan order. */
export function experimentCells(config: ResolvedConfig): Cell[] {
  const worlds: World[] = [];
  try {
    for (const name of config.domains) worlds.push(World.open(getDomain(name), { seed: config.worldSeed }));
    return planCells(config, [...experimentTasks(config, worlds).values()]);
  } finally {
    for (const world of worlds) world.close();
  }
}

/** The shard a results folder holds (its `shard.json`), or `null` for a whole experiment. */
export async function readShardFile(dir: string): Promise<Shard | null> {
  let text: string;
  try {
    text = await Deno.readTextFile(`${dir}/${SHARD_FILE}`);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return null;
    throw new ShardError("unreadable", `Cannot read "${dir}/${SHARD_FILE}": ${errorReason(err)}`);
  }
  let json: { shard?: unknown } | null;
  try {
    json = JSON.parse(text);
  } catch (err) {
    // V8's parse messages quote the text: say where, not what.
    const why = err instanceof SyntaxError ? `not JSON${jsonErrorWhere(err)}` : errorReason(err);
    throw new ShardError("unreadable", `Cannot read "${dir}/${SHARD_FILE}": ${why}`);
  }
  try {
    return parseShard(String(json?.shard), `"shard" of ${dir}/${SHARD_FILE}`);
  } catch (err) {
    throw new ShardError("unreadable", `Cannot read "${dir}/${SHARD_FILE}": ${errorReason(err)}`);
  }
}

/**
 * Checks that a results folder holds `shard` (`null`: the whole experiment) or nothing yet, and
 * records a shard in its `shard.json`; throws a `ShardError` "mismatch" when it holds another.
 */
export async function claimShard(dir: string, shard: Shard | null, options: { experiment: string }): Promise<void> {
  const there = await readShardFile(dir);
  const name = (s: Shard | null) => s === null ? "the whole experiment" : `shard ${shardText(s)}`;
  if (there !== null && (shard === null || shardText(there) !== shardText(shard))) {
    throw new ShardError("mismatch", `Cannot run ${name(shard)} into "${dir}": it holds ${name(there)}`);
  }
  if (there !== null || shard === null) return;
  try {
    if ((await Deno.stat(`${dir}/results.sqlite`)).isFile) {
      throw new ShardError("mismatch", `Cannot run ${name(shard)} into "${dir}": it holds ${name(null)}`);
    }
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  const file = { shard: shardText(shard), index: shard.index, count: shard.count, experiment: options.experiment };
  await Deno.writeTextFile(`${dir}/${SHARD_FILE}`, JSON.stringify(file, null, 2) + "\n");
}

/** What `mergeShards()` did. */
export interface MergeSummary {
  /** The merged experiment's config. */
  config: ResolvedConfig;
  /** The merged results store (open; the caller disposes of it). */
  store: ResultsStore;
  /** Cells of the plan in the merged store. */
  episodes: number;
  /** Cells of the plan in none of the folders (only with `partial`). */
  missing: Cell[];
  /** Shards of the folders' shard count that no folder holds. */
  missingShards: Shard[];
  /** Cells found in more than one folder (kept once). */
  duplicates: number;
  /** Model answers in the merged cache; `null` when no folder has a cache. */
  modelAnswers: number | null;
}

/** Options of `mergeShards()`. */
export interface MergeOptions {
  /**
   * Merge even when cells of the experiment are in none of the folders.
   * @default {false}
   */
  partial?: boolean;
}

interface Source {
  dir: string;
  store: ResultsStore;
  identity: Record<string, unknown>;
  shard: Shard | null;
}

/** A cell as a one-line message names it. */
export function cellText(cell: CellKey): string {
  return `${cell.agent} ${cell.task} ${cell.condition}${
    cell.variant === null ? "" : `:${cell.variant}`
  } run ${cell.run}`;
}

// The config a source's store holds (`storedConfig()`): a run's, never an imported experiment's.
function configOf(source: Source, out: string): ResolvedConfig {
  if (source.identity.source !== undefined) {
    throw new ShardError(
      "mismatch",
      `Cannot merge "${source.dir}": it holds an imported experiment, not a run's shard`,
    );
  }
  try {
    return storedConfig(source.store, { out });
  } catch (err) {
    if (err instanceof ResultsStoreError) {
      throw new ShardError("unreadable", `Cannot merge "${source.dir}": ${err.message}`);
    }
    throw err;
  }
}

async function openSources(dirs: readonly string[]): Promise<Source[]> {
  const sources: Source[] = [];
  try {
    for (const dir of dirs) {
      const { store, value: identity } = ResultsStore.readWith(`${dir}/results.sqlite`, (s) => {
        s.experiment();
        return s.config();
      });
      sources.push({ dir, store, identity, shard: null });
      sources.at(-1)!.shard = await readShardFile(dir);
    }
    return sources;
  } catch (err) {
    for (const s of sources) s.store.close();
    if (err instanceof ResultsStoreError) throw new ShardError("unreadable", err.message);
    throw err;
  }
}

/**
 * Merges the results folders of an experiment's shards into `out`: refuses folders of different
 * experiments (a `ShardError` "mismatch" naming two folders and the field), keeps each cell once,
 * and adds the episodes in plan order, so `records.jsonl` and the reports written from the store
 * are those of the experiment run in one piece. Cells in none of the folders are a `ShardError`
 * "missing" unless `partial`. The folders' model caches are merged into `out`'s.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { mergeShards, shardOf } from "./shard.ts";
 * import { resolveConfig } from "./config.ts";
 * import { runExperiment } from "./run.ts";
 * import { ResultsStore } from "./store.ts";
 * const dir = Deno.makeTempDirSync();
 * const config = resolveConfig({ domains: ["airline"], agents: ["oracle"], tasks: 4, runs: 1, suite: "tasks", conditions: { fault: false, env: false, prompt: false } });
 * for (const index of [1, 2]) {
 *   Deno.mkdirSync(`${dir}/shard${index}`);
 *   using store = ResultsStore.open(`${dir}/shard${index}/results.sqlite`, { config });
 *   await runExperiment(config, { sink: store, only: (cell) => shardOf(cell, 2) === index });
 * }
 * const merged = await mergeShards(`${dir}/all`, [`${dir}/shard1`, `${dir}/shard2`]);
 * using store = merged.store;
 * assertEquals([merged.missing.length, store.count()], [0, 4]);
 * ```
 */
export async function mergeShards(
  out: string,
  dirs: readonly string[],
  options: MergeOptions = {},
): Promise<MergeSummary> {
  if (dirs.length === 0) throw new TypeError("Missing DIR: give the results folders of the shards to merge");
  const sources = await openSources(dirs);
  let store: ResultsStore | undefined;
  try {
    for (const s of sources.slice(1)) {
      const [field] = changedFields(sources[0].identity, s.identity);
      if (field !== undefined) {
        throw new ShardError(
          "mismatch",
          `Cannot merge "${sources[0].dir}" and "${s.dir}": "${field}" is ${
            shownValue(sources[0].identity[field])
          } in ` +
            `"${sources[0].dir}", ${shownValue(s.identity[field])} in "${s.dir}"`,
        );
      }
    }
    const config = configOf(sources[0], out);
    const cells = experimentCells(config);
    const found = new Map<string, { source: Source; record: EpisodeRecord }>();
    let duplicates = 0;
    for (const source of sources) {
      for (const record of source.store.records()) {
        const key = cellKey({ ...record, variant: record.variant ?? null });
        if (found.has(key)) duplicates++;
        else found.set(key, { source, record });
      }
    }
    const missing = cells.filter((c) => !found.has(cellKey(c)));
    const missingShards = missingShardsOf(sources, missing);
    if (missing.length > 0 && options.partial !== true) throw missingError(cells.length, missing, missingShards);
    const outShard = await readShardFile(out);
    if (outShard !== null) {
      throw new ShardError(
        "mismatch",
        `Cannot merge into "${out}": it holds shard ${shardText(outShard)}; use a new OUT`,
      );
    }
    const unusable = await createOutputFolder(out, "OUT");
    if (unusable !== null) throw new ShardError("unreadable", unusable);
    try {
      store = ResultsStore.open(`${out}/results.sqlite`, { config });
    } catch (err) {
      if (err instanceof ResultsStoreError) throw new ShardError("mismatch", err.message);
      throw err;
    }
    let episodes = 0;
    for (const cell of cells) {
      const episode = found.get(cellKey(cell));
      if (episode === undefined) continue;
      store.add({ cell, record: episode.record, events: episode.source.store.events(cell) });
      episodes++;
    }
    const modelAnswers = await mergeModelCaches(out, dirs);
    return { config, store, episodes, missing, missingShards, duplicates, modelAnswers };
  } catch (err) {
    store?.close();
    throw err;
  } finally {
    for (const s of sources) s.store.close();
  }
}

// The shards of the folders' shard count(s) that no folder holds, when some cells are missing.
function missingShardsOf(sources: readonly Source[], missing: readonly Cell[]): Shard[] {
  if (missing.length === 0) return [];
  const counts = new Set(sources.flatMap((s) => s.shard === null ? [] : [s.shard.count]));
  const held = new Set(sources.flatMap((s) => s.shard === null ? [] : [shardText(s.shard)]));
  return [...counts].flatMap((count) =>
    Array.from({ length: count }, (_, i) => ({ index: i + 1, count })).filter((s) => !held.has(shardText(s)))
  );
}

function missingError(total: number, missing: readonly Cell[], shards: readonly Shard[]): ShardError {
  const which = shards.length === 0 ? "" : ` (shard ${shards.map(shardText).join(", ")} not given)`;
  return new ShardError(
    "missing",
    `Cannot merge: ${missing.length} of ${total} cells are in none of the folders${which}, e.g. "${
      cellText(missing[0])
    }"; give every shard's folder, or --partial to merge what there is`,
  );
}

/**
 * Merges the model caches of `dirs` (each `DIR/model_cache.sqlite`, when there is one) into
 * `out`'s, in the order the answers were stored, the first answer under a key kept; returns the
 * answers in `out`'s cache, or `null` when no folder has a cache.
 */
export async function mergeModelCaches(out: string, dirs: readonly string[]): Promise<number | null> {
  const paths: string[] = [];
  for (const dir of dirs) {
    try {
      if ((await Deno.stat(`${dir}/${MODEL_CACHE_FILE}`)).isFile) paths.push(`${dir}/${MODEL_CACHE_FILE}`);
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound)) throw err;
    }
  }
  if (paths.length === 0) return null;
  using cache = ModelCache.open(`${out}/${MODEL_CACHE_FILE}`);
  for (const path of paths) {
    using db = Store.open(undefined, { path });
    db.exec("PRAGMA busy_timeout = 5000");
    const rows = db.all<{ key: string; provider: string; model: string; run_index: number; response: string }>(
      "SELECT key, provider, model, run_index, response FROM model_answers ORDER BY created, key",
    );
    for (const row of rows) {
      cache.put(row.key, {
        provider: row.provider,
        model: row.model,
        runIndex: Number(row.run_index),
        answer: JSON.parse(row.response),
      });
    }
  }
  return cache.size;
}
