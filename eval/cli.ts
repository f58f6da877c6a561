/**
 * `deno task eval`: runs an experiment into `<out>/results.sqlite`, writes
 * `<out>/records.jsonl` from the store and prints reliability and capability per agent. Running
 * the same command again resumes: finished episodes are kept and skipped.
 *
 * @module
 */
import { readFlags } from "./_flags.ts";
import { type ExperimentConfig, resolveConfig } from "./plan.ts";
import { writeRecordsJsonl } from "./records.ts";
import { formatReport, summarize } from "./report.ts";
import { type Progress, runExperiment } from "./run.ts";
import { ResultsStore, ResultsStoreError } from "./store.ts";

/** Usage text of `deno task eval`. */
export const USAGE = `Usage: deno task eval [flags]

Runs agents on a domain's tasks, K runs each, and reports reliability (R, R_con,
R_rob, R_pred, R_saf) beside accuracy and pass^k.

Flags:
  --domain NAME      domain to run (default "airline")
  --agents A,B,...   agents to test (default "oracle,noisy,reckless")
  --tasks N          number of tasks (default 50)
  --runs K           runs per task and agent (default 5)
  --seed S           experiment seed (default "0")
  --world-seed S     seed of the generated world and its tasks (default "0")
  --max-steps N      agent steps before an episode is cut off (default 30)
  --out DIR          output folder (default "results/<experiment>")
  --help             show this help

Writes DIR/results.sqlite and DIR/records.jsonl. Running the same command again
resumes an interrupted experiment.
`;

const FLAGS = ["--domain", "--agents", "--tasks", "--runs", "--seed", "--world-seed", "--max-steps", "--out", "--help"];

function count(flag: string, value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || !Number.isSafeInteger(Number(value))) {
    throw new RangeError(`Invalid value "${value}" for ${flag}: expected a whole number of at least 1`);
  }
  return Number(value);
}

/**
 * Parses the flags of `deno task eval` into a config (or `"help"`); bad flags
 * throw a `TypeError` or `RangeError` whose message says what is accepted.
 *
 * @example
 * ```ts
 * import { parseEvalArgs } from "./cli.ts";
 * parseEvalArgs(["--tasks", "6", "--runs=2"]); // { tasks: 6, runs: 2 }
 * ```
 */
export function parseEvalArgs(args: readonly string[]): ExperimentConfig | "help" {
  const flags = readFlags(args, FLAGS);
  if (flags === "help") return "help";
  const config: ExperimentConfig = {};
  for (const [flag, value] of flags) {
    switch (flag) {
      case "--domain":
        config.domain = value;
        break;
      case "--agents":
        config.agents = value.split(",").map((a) => a.trim());
        if (config.agents.some((a) => a === "")) {
          throw new TypeError(`Invalid value "${value}" for --agents: expected names separated by commas`);
        }
        break;
      case "--tasks":
        config.tasks = count(flag, value);
        break;
      case "--runs":
        config.runs = count(flag, value);
        break;
      case "--seed":
        config.seed = value;
        break;
      case "--world-seed":
        config.worldSeed = value;
        break;
      case "--max-steps":
        config.maxSteps = count(flag, value);
        break;
      case "--out":
        config.out = value;
        break;
    }
  }
  return config;
}

function progressLine(): ((p: Progress) => void) | undefined {
  if (!Deno.stderr.isTerminal()) return undefined;
  const encoder = new TextEncoder();
  let last = -Infinity;
  return ({ done, total }) => {
    // Wall-clock throttling of a terminal line only; nothing here reaches a record.
    const now = performance.now();
    if (done < total && now - last < 100) return;
    last = now;
    Deno.stderr.writeSync(encoder.encode(`\repisodes ${done}/${total}`));
    if (done === total) Deno.stderr.writeSync(encoder.encode("\r\x1b[K"));
  };
}

/** Runs the CLI and returns its exit code: 0 done, 1 the results store cannot be used, 2 bad flags. */
export async function main(args: readonly string[]): Promise<number> {
  let parsed: ReturnType<typeof parseEvalArgs>;
  let config: ReturnType<typeof resolveConfig>;
  try {
    parsed = parseEvalArgs(args);
    if (parsed === "help") {
      console.log(USAGE);
      return 0;
    }
    config = resolveConfig(parsed);
  } catch (err) {
    if (err instanceof TypeError || err instanceof RangeError || err instanceof SyntaxError) {
      console.error(err.message);
      return 2;
    }
    throw err;
  }

  try {
    await Deno.mkdir(config.out, { recursive: true });
  } catch (err) {
    if (
      !(err instanceof Deno.errors.NotADirectory || err instanceof Deno.errors.PermissionDenied ||
        err instanceof Deno.errors.AlreadyExists || err instanceof Deno.errors.NotFound)
    ) throw err;
    console.error(`Cannot create output folder "${config.out}": ${err.message}`);
    return 1;
  }
  const storePath = `${config.out}/results.sqlite`;
  const recordsPath = `${config.out}/records.jsonl`;
  let store: ResultsStore;
  try {
    store = ResultsStore.open(storePath, { config });
  } catch (err) {
    if (err instanceof ResultsStoreError) {
      console.error(err.code === "mismatch" ? `${err.message}; use another --out or the same flags` : err.message);
      return 1;
    }
    throw err;
  }
  using _store = store;
  const summary = await runExperiment(config, { sink: store, onProgress: progressLine() });
  const written = await writeRecordsJsonl(store, recordsPath);
  console.log(formatReport(summarize(store.records(), { k: config.runs, agents: config.agents })));
  const resumed = summary.skipped > 0 ? `, ${summary.skipped} resumed` : "";
  console.log(`Wrote ${storePath} and ${recordsPath} (${written} episodes${resumed})`);
  return 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
