/**
 * `deno task report DIR`: re-renders `DIR/report.json` and `DIR/report.html`
 * from the results store `DIR/results.sqlite` of a finished (or interrupted)
 * experiment, seeded with the experiment's seed, and prints the terminal report.
 *
 * Exit codes: 0 written, 1 the results store cannot be read, 2 bad arguments.
 *
 * @module
 */
import { parsedOr, readDirArgs, wholeFlag } from "./_flags.ts";
import { ResultsStore, ResultsStoreError } from "../eval/store.ts";
import { REPORT_FILES, writeReports } from "../report/mod.ts";
import type { ImportSummary } from "../report/imported.ts";
import { IMPORT_NOTE } from "../interop/import/mod.ts";

/** Usage text of `deno task report`. */
export const USAGE = `Usage: deno task report DIR [flags]

Writes DIR/report.json and DIR/report.html from the results store DIR/results.sqlite
and prints the reliability profile of every agent.

Flags:
  --resamples N   bootstrap resamples (default 1000)
  --title TEXT    title of the report (default: the experiment's name)
  --help          show this help
`;

/** The resolved arguments of `deno task report`. */
export interface ReportArgs {
  dir: string;
  resamples: number;
  title: string | null;
}

/**
 * Parses the arguments of `deno task report` (or returns `"help"`); bad ones throw a
 * `TypeError` or `RangeError` saying what is accepted.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { parseReportArgs } from "./report.ts";
 * assertEquals(parseReportArgs(["results/x", "--resamples", "200"]), { dir: "results/x", resamples: 200, title: null });
 * ```
 */
export function parseReportArgs(args: readonly string[]): ReportArgs | "help" {
  const read = readDirArgs(args, ["--resamples", "--title", "--help"]);
  if (read === "help") return "help";
  const { dir, flags } = read;
  const out: ReportArgs = { dir, resamples: 1000, title: null };
  for (const [flag, value] of flags) {
    if (flag === "--title") out.title = value;
    else out.resamples = wholeFlag(flag, value);
  }
  return out;
}

/** Runs the CLI and returns its exit code (see the module doc). */
export async function main(args: readonly string[]): Promise<number> {
  const parsed = parsedOr(() => parseReportArgs(args), USAGE);
  if (typeof parsed === "number") return parsed;
  let store: ResultsStore;
  let experiment: { name: string; seed: string };
  try {
    ({ store, value: experiment } = ResultsStore.readWith(`${parsed.dir}/results.sqlite`, (s) => s.experiment()));
  } catch (err) {
    if (!(err instanceof ResultsStoreError)) throw err;
    console.error(err.message);
    return 1;
  }
  using _store = store;
  let text: string;
  try {
    text = await writeReports(parsed.dir, {
      records: store.records(),
      store,
      seed: experiment.seed,
      resamples: parsed.resamples,
      title: parsed.title ?? experiment.name,
      imported: store.note(IMPORT_NOTE) as ImportSummary | undefined,
    });
  } catch (err) {
    // A record or trajectory that does not decode: the file is damaged past its first pages.
    if (!(err instanceof ResultsStoreError)) throw err;
    console.error(err.message);
    return 1;
  }
  console.log(text);
  console.log(`Wrote ${parsed.dir}/${REPORT_FILES.json} and ${parsed.dir}/${REPORT_FILES.html}`);
  return 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
