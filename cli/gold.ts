/**
 * `deno task gold`: replays the gold actions of every τ-bench test task on a fresh world
 * and writes each task's final state, in τ-bench's db.json shape, as one JSON line.
 *
 * @module
 */
import { readFlags } from "./_flags.ts";
import { hasTauBench, tauBenchFolder } from "../interop/tau_data.ts";
import { defaultTauBenchDomain, getDomain } from "../envs/mod.ts";
import { goldDomains, goldFinalStates, type GoldTask, writeGoldStates } from "../interop/tau_gold.ts";
import { errorReason } from "../eval/fs_errors.ts";

// The domain replayed when --domain is not given: the first registered one that declares `tauBench`.
const DEFAULT_DOMAIN = defaultTauBenchDomain()?.name;

/** Usage text of `deno task gold`. */
export const USAGE = `Usage: deno task gold --out FILE [--data DIR] [--domain NAME] [--split test|train|dev]

Replays the gold actions of every task in DIR/tasks_<split>.json on the data of DIR/db.json
and writes one line {"task": i, "state": <final state>} per task to FILE: τ-bench's gold final
states, computed by ark's worlds. (To run an experiment again from its model cache, use
deno task eval --replay DIR.)

Flags:
  --domain NAME   domain of the data: ${goldDomains().join(", ")} (default "${DEFAULT_DOMAIN ?? ""}")
  --data DIR      folder holding τ-bench's db.json and tasks_test.json (default: the domain's
                  folder in $ARK_TAU_BENCH, else in ../shared/tau-bench beside the repository)
  --split S       τ-bench's task split: test (default), train or dev, where the data have it
  --out FILE      file to write (required)
  --help          show this help
`;

const FLAGS = ["--domain", "--data", "--split", "--out", "--help"];
const SPLITS = ["test", "train", "dev"] as const;

/** The resolved flags of `deno task gold`. */
export interface GoldArgs {
  /** The domain whose τ-bench data are replayed. */
  domain: string;
  /** The folder of τ-bench's `db.json` and `tasks_test.json`. */
  data: string;
  /** The JSON Lines file to write. */
  out: string;
  /** τ-bench's task split: `tasks_<split>.json`. */
  split: "test" | "train" | "dev";
}

/**
 * Parses the flags of `deno task gold` (or returns `"help"`); bad flags throw a `TypeError` (an unknown domain a `RangeError`, as `getDomain()` does)
 * whose message says what is accepted.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { parseGoldArgs } from "./gold.ts";
 * assertEquals(parseGoldArgs(["--data", "d", "--out=o.jsonl"]), { domain: "airline", data: "d", out: "o.jsonl", split: "test" });
 * ```
 */
export function parseGoldArgs(args: readonly string[]): GoldArgs | "help" {
  const flags = readFlags(args, FLAGS);
  if (flags === "help") return "help";
  const values: Partial<Record<keyof GoldArgs, string>> = {};
  for (const [flag, value] of flags) {
    values[flag.slice(2) as keyof GoldArgs] = value;
  }
  const domain = values.domain ?? DEFAULT_DOMAIN;
  if (domain === undefined) {
    throw new TypeError("Cannot replay the gold actions: no domain declares τ-bench's data (`tauBench`)");
  }
  getDomain(domain, { for: "--domain", among: goldDomains() });
  if (values.out === undefined) throw new TypeError("Missing --out FILE: the file to write");
  const split = values.split ?? "test";
  if (!(SPLITS as readonly string[]).includes(split)) {
    throw new TypeError(`Invalid value "${split}" for --split: expected one of "test", "train", "dev"`);
  }
  return { domain, data: values.data ?? tauBenchFolder(domain), out: values.out, split: split as GoldArgs["split"] };
}

function checkWritable(path: string): void {
  try {
    Deno.openSync(path, { write: true, create: true, truncate: true }).close();
  } catch (err) {
    throw new Error(`Cannot write "${path}": ${errorReason(err)}`);
  }
}

/** Runs the CLI and returns its exit code: 0 done, 2 bad flags, unreadable data or an unwritable output. */
export function main(args: readonly string[]): number {
  let replayed: Iterable<GoldTask>;
  let out: string;
  try {
    const parsed = parseGoldArgs(args);
    if (parsed === "help") {
      console.log(USAGE);
      return 0;
    }
    out = parsed.out;
    if (parsed.data === tauBenchFolder(parsed.domain) && !hasTauBench(parsed.domain)) {
      throw new Error(`τ-bench data not found at "${parsed.data}": pass --data DIR or set ARK_TAU_BENCH`);
    }
    // Validates the domain and loads the data; nothing is replayed or written yet.
    replayed = goldFinalStates(parsed.domain, parsed.data, { split: parsed.split });
    checkWritable(out);
  } catch (err) {
    // Bad flags (TypeError, RangeError), data that cannot be loaded and an output that cannot be written.
    if (err instanceof Error) {
      console.error(err.message);
      return 2;
    }
    throw err;
  }
  const count = writeGoldStates(replayed, out);
  console.log(`Wrote ${count} final states to ${out}`);
  return 0;
}

if (import.meta.main) Deno.exit(main(Deno.args));
