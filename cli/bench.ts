/**
 * `deno task bench [--json] [--baseline DIR]`: how fast ark is. First a table of the figures of
 * issue 27, each with its target and, where there is one, its floor (what SQLite alone takes):
 * `deno task eval` end to end on two worker threads and on one (seconds and episodes per second);
 * the results store's cost per episode (the default eval's episodes, held in memory, added to a
 * fresh store up to its close) and size; the reports on the default eval's records; the rules judge
 * over every episode; a writing and a reading tool step inside an episode (every domain's gold
 * calls); grading and judging a 100-milestone episode (the long suite's oracle episodes); every
 * domain's tool steps per second at ×1 and ×10 its world size, and ×10 over ×1;
 * scoring a million records (seconds, peak memory).
 *
 * With `--baseline DIR`, DIR is another ark checkout (e.g. `git worktree add ../ark-before <commit>`):
 * each figure is measured again by the same code on DIR's modules (loaded by dynamic import) and
 * printed beside this checkout's with their ratio; a figure DIR cannot give (a module or export
 * missing) says so in one line and the rest goes on. Then, on this checkout only, the figures the
 * bench had before the table: each domain's kernel on τ-bench's data (its generated world when the
 * data are absent, said on stderr) and ×10, `--suite long` and `--suite abstention`, an import, the
 * oracle on long tasks, the checkpoint's cost per call, the episode API under load and text mode.
 * `--json` prints every figure as `{value, before, ratio, target, met, floor}` (a `reason` when a
 * value is missing). Progress goes to stderr.
 *
 * Exit codes: 0 measured, 1 a figure of this checkout could not be measured (an error), 2 bad flags
 * or a baseline folder that does not exist.
 *
 * @module
 */
import { baselineKit, currentKit, type Kit } from "./_bench_kit.ts";
import { failedFigures, issueFigures } from "./_bench_issue.ts";
import { benchExtras } from "./_bench_extras.ts";
import { figuresJson, figuresTable } from "./_bench_figures.ts";

export { type BenchFigures, type BenchOptions, benchWorld } from "./_bench_world.ts";

/** Usage text of `deno task bench`. */
export const USAGE = `Usage: deno task bench [--json] [--baseline DIR]

Measures the default eval end to end (2 workers and 1), the results store, the reports, the judge,
tool steps in episodes, grading long episodes, tool steps by world size and scoring a million
records, each beside its target and floor; then the kernel of every domain on tau-bench's data (a
generated world without them; ARK_TAU_BENCH names their folder) and a 10x world, the suites, an
import, long tasks, the checkpoint, the episode API under load and text mode.

Flags:
  --json          print one JSON object: every figure as {value, before, ratio, target, met, floor}
  --baseline DIR  measure the table's figures again on the ark checkout in DIR (e.g. made by
                  git worktree add ../ark-before <commit>) and print them beside these
  --help          show this help
`;

/** Parsed flags of `deno task bench`. */
export interface BenchArgs {
  json: boolean;
  /** The baseline checkout's folder; `null` without `--baseline`. */
  baseline: string | null;
}

/**
 * Parses the flags of `deno task bench` (or `"help"`); a bad flag throws a `TypeError` saying what is accepted.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { parseBenchArgs } from "./bench.ts";
 * assertEquals(parseBenchArgs(["--baseline", "../ark-before", "--json"]), { json: true, baseline: "../ark-before" });
 * ```
 */
export function parseBenchArgs(args: readonly string[]): BenchArgs | "help" {
  const out: BenchArgs = { json: false, baseline: null };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--help") return "help";
    if (arg === "--json") out.json = true;
    else if (arg === "--baseline" || arg.startsWith("--baseline=")) {
      const dir = arg === "--baseline" ? args[++i] : arg.slice("--baseline=".length);
      if (dir === undefined || dir === "" || dir.startsWith("--")) {
        throw new TypeError("Flag --baseline needs a folder: an ark checkout, e.g. made by git worktree add");
      }
      out.baseline = dir;
    } else throw new TypeError(`Unknown argument "${arg}": expected --json, --baseline DIR or --help`);
  }
  return out;
}

/** Options of `main()` (for tests). */
export interface MainOptions {
  /** Runs the extras (the figures measured on this checkout only). @default {true} */
  extras?: boolean;
}

/** Runs the bench and returns its exit code. */
export async function main(args: readonly string[], options: MainOptions = {}): Promise<number> {
  let parsed: BenchArgs | "help";
  let before: Kit | null = null;
  try {
    parsed = parseBenchArgs(args);
    if (parsed !== "help" && parsed.baseline !== null) before = baselineKit(parsed.baseline);
  } catch (err) {
    if (!(err instanceof TypeError)) throw err;
    console.error(err.message);
    return 2;
  }
  if (parsed === "help") {
    console.log(USAGE);
    return 0;
  }
  const progress = (line: string) => console.error(line);
  const started = performance.now();
  const figures = await issueFigures({ now: currentKit(), before }, { progress });
  const extras = options.extras === false ? null : await benchExtras(progress);
  const seconds = (performance.now() - started) / 1000;
  if (parsed.json) {
    console.log(JSON.stringify({
      baseline: parsed.baseline,
      bench_s: Math.round(seconds),
      figures: figuresJson([...figures, ...(extras?.figures ?? [])]),
      notes: extras?.notes ?? {},
    }));
  } else {
    const table = figuresTable(figures, { baseline: before !== null });
    const ratio = before === null ? "" : `; new/before is this checkout's figure over ${before.dir}'s`;
    const legend = `(! marks a figure that misses its target${ratio})`;
    console.log(
      [table, legend, ...(extras === null ? [] : ["", extras.text]), "", `bench: ${seconds.toFixed(0)} s`].join("\n"),
    );
  }
  const failed = failedFigures(figures);
  for (const f of failed) console.error(`bench: ${f.label} could not be measured on this checkout`);
  return failed.length > 0 ? 1 : 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
