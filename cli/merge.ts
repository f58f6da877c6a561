/**
 * `deno task merge OUT DIR...`: merges the results folders of an experiment's shards
 * (`deno task eval --shard I/N`) into OUT: `results.sqlite` with each cell once,
 * `records.jsonl`, `report.json` and `report.html` byte for byte those of the experiment run in
 * one piece, and the shards' model caches in one `model_cache.sqlite`. Folders of different
 * experiments are refused; so are missing cells, unless `--partial`.
 *
 * Exit codes: 0 merged; 1 a folder cannot be read, holds another experiment, or cells are
 * missing (without `--partial`); 2 bad arguments.
 *
 * @module
 */
import { parsedOr, readFlags, wholeFlag } from "./_flags.ts";
import { writeRecordsJsonl } from "../eval/records.ts";
import { REPORT_FILES, writeReports } from "../report/mod.ts";
import { MODEL_CACHE_FILE } from "../eval/models.ts";
import { cellText, mergeShards, type MergeSummary, ShardError, shardText } from "../eval/shard.ts";
import { ResultsStoreError } from "../eval/store.ts";

/** Usage text of `deno task merge`. */
export const USAGE = `Usage: deno task merge OUT DIR... [flags]

Merges the results folders DIR... of an experiment's shards (deno task eval
--shard I/N) into OUT: OUT/results.sqlite holds each cell once, and
OUT/records.jsonl, OUT/report.json and OUT/report.html are byte for byte those
of the experiment run unsharded. The shards' model caches are merged into
OUT/model_cache.sqlite. Folders of different experiments are refused, and so
are cells that no folder holds, unless --partial.

Flags:
  --partial       merge even when cells are missing (and say which)
  --resamples N   bootstrap resamples of the report (default 1000)
  --help          show this help

Exit codes: 0 merged; 1 a folder cannot be read, holds another experiment, or
cells are missing; 2 bad arguments.
`;

/** The resolved arguments of `deno task merge`. */
export interface MergeArgs {
  /** The folder to merge into. */
  out: string;
  /** The shards' results folders. */
  dirs: string[];
  /** Whether to merge with cells missing. */
  partial: boolean;
  /** Bootstrap resamples of the report. */
  resamples: number;
}

/**
 * Parses the arguments of `deno task merge` (or returns `"help"`); bad ones throw a `TypeError`
 * or `RangeError` saying what is accepted.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { parseMergeArgs } from "./merge.ts";
 * assertEquals(parseMergeArgs(["out", "a", "b", "--partial"]), { out: "out", dirs: ["a", "b"], partial: true, resamples: 1000 });
 * ```
 */
export function parseMergeArgs(args: readonly string[]): MergeArgs | "help" {
  const positional: string[] = [];
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (!arg.startsWith("--")) positional.push(arg.replace(/\/+$/, "") || "/");
    else {
      rest.push(arg);
      const takesValue = !arg.includes("=") && arg !== "--partial" && arg !== "--help";
      if (takesValue && i + 1 < args.length && !args[i + 1].startsWith("--")) rest.push(args[++i]);
    }
  }
  const flags = readFlags(rest, ["--partial", "--resamples", "--help"], { switches: ["--partial"] });
  if (flags === "help") return "help";
  let resamples = 1000, partial = false;
  for (const [flag, value] of flags) {
    if (flag === "--partial") partial = true;
    else resamples = wholeFlag(flag, value);
  }
  const [out, ...dirs] = positional;
  if (out === undefined || dirs.length === 0) {
    throw new TypeError("Missing folders: expected OUT then at least one shard's results folder DIR, see --help");
  }
  const again = dirs.find((d) => d === out);
  if (again !== undefined) throw new TypeError(`Invalid OUT "${out}": it is also a DIR; merge into a new folder`);
  return { out, dirs, partial, resamples };
}

// One line on what the merge left out, when it did.
function missingLine(merged: MergeSummary): string {
  const { missing, missingShards, config } = merged;
  const shards = missingShards.length === 0 ? "" : `, shard ${missingShards.map(shardText).join(", ")} not given`;
  const more = missing.length > 1 ? ` and ${missing.length - 1} more` : "";
  return `Merged with ${missing.length} of ${missing.length + merged.episodes} cells of "${config.experiment}" ` +
    `missing (${cellText(missing[0])}${more}${shards})`;
}

/** Runs the CLI and returns its exit code (see the module doc). */
export async function main(args: readonly string[]): Promise<number> {
  try {
    return await merge(args);
  } catch (err) {
    // A store that is written by another process, or damaged (a record that does not decode).
    if (!(err instanceof ResultsStoreError)) throw err;
    console.error(err.message);
    return 1;
  }
}

async function merge(args: readonly string[]): Promise<number> {
  const parsed = parsedOr(() => parseMergeArgs(args), USAGE);
  if (typeof parsed === "number") return parsed;
  let merged: MergeSummary;
  try {
    merged = await mergeShards(parsed.out, parsed.dirs, { partial: parsed.partial });
  } catch (err) {
    if (!(err instanceof ShardError)) throw err;
    console.error(err.message);
    return 1;
  }
  using store = merged.store;
  const { out } = parsed;
  const written = await writeRecordsJsonl(store, `${out}/records.jsonl`);
  const text = await writeReports(out, {
    records: store.records(),
    store,
    seed: merged.config.seed,
    resamples: parsed.resamples,
    title: merged.config.experiment,
  });
  console.log(text);
  if (merged.missing.length > 0) console.error(missingLine(merged));
  const files = [
    `${out}/results.sqlite`,
    `${out}/records.jsonl`,
    `${out}/${REPORT_FILES.json}`,
    `${out}/${REPORT_FILES.html}`,
    ...(merged.modelAnswers === null ? [] : [`${out}/${MODEL_CACHE_FILE}`]),
  ];
  const duplicates = merged.duplicates > 0 ? `, ${merged.duplicates} found twice kept once` : "";
  const answers = merged.modelAnswers === null ? "" : `, ${merged.modelAnswers} model answers`;
  console.log(
    `Wrote ${files.slice(0, -1).join(", ")} and ${files.at(-1)} (${written} episodes from ${parsed.dirs.length} ` +
      `folders${duplicates}${answers})`,
  );
  return 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
