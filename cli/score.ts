/**
 * `deno task score --records FILE.jsonl`: the reliability profile of a JSON
 * Lines file of episode records, as an aligned table or (`--json`) one JSON
 * object. The file is read line by line; every line is checked against
 * `EpisodeRecordSchema`.
 *
 * Exit codes: 0 scored, 1 the records file cannot be read, 2 bad flags, a
 * malformed record (without `--skip-bad`) or a cell recorded twice (without `--drop-duplicates`).
 *
 * @module
 */
import { type GroupBy, type Profile, scoreRecords } from "../scoring/profile.ts";
import { HEADLINE_KEYS } from "../scoring/mod.ts";
import { misreadWarnings } from "../scoring/misread.ts";
import { InputFileError, MAX_RECORDS_BYTES, openInputFile } from "../eval/fs_errors.ts";
import { type BadLine, readRecords } from "../eval/records_read.ts";
import { splitDuplicates } from "../eval/records.ts";
import { readFlags, wholeFlag } from "./_flags.ts";
import { cellText } from "../eval/shard.ts";

export { type BadLine, readRecords } from "../eval/records_read.ts";

/** Usage text of `deno task score`. */
export const USAGE = `Usage: deno task score --records FILE.jsonl [flags]

Scores episode records (docs/metrics.md): consistency, robustness, predictability,
safety, R, accuracy, near misses per 100 analysed records (lower is better)
and pass^k per group, with 95% bootstrap intervals.

Flags:
  --records FILE     JSON Lines file of episode records (required)
  --json             print one JSON object instead of a table
  --by KEY           group by "agent" (default), "condition" or "domain"
  --seed S           bootstrap seed (default "0")
  --resamples N      bootstrap resamples (default 1000)
  --skip-bad         skip malformed lines with a warning instead of failing
  --drop-duplicates  keep the first record of a cell (agent, task, run,
                     condition, variant) given more than once, with a warning,
                     instead of failing
  --help             show this help

The file must be a regular file of at most 4 GB, each line at most 1048576
characters.

Exit codes: 0 scored, 1 the records file cannot be read, 2 bad flags, a
malformed line or a duplicate record.
`;

/** Parsed flags of `deno task score`. */
export interface ScoreArgs {
  records: string;
  json: boolean;
  by: GroupBy;
  seed: string;
  resamples: number;
  skipBad: boolean;
  dropDuplicates: boolean;
}

const VALUE_FLAGS = ["--records", "--by", "--seed", "--resamples"];
const SWITCHES = ["--json", "--skip-bad", "--drop-duplicates", "--help"];

/**
 * Parses the flags of `deno task score` (or `"help"`); bad flags throw a
 * TypeError or RangeError saying what is accepted.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { parseScoreArgs } from "./score.ts";
 * assertEquals(parseScoreArgs(["--records", "r.jsonl", "--json"]), { records: "r.jsonl", json: true, by: "agent", seed: "0", resamples: 1000, skipBad: false, dropDuplicates: false });
 * ```
 */
export function parseScoreArgs(args: readonly string[]): ScoreArgs | "help" {
  const flags = readFlags(args, [...VALUE_FLAGS, ...SWITCHES], { switches: SWITCHES });
  if (flags === "help") return "help";
  const out: Partial<ScoreArgs> = {
    json: false,
    by: "agent",
    seed: "0",
    resamples: 1000,
    skipBad: false,
    dropDuplicates: false,
  };
  for (const [flag, value] of flags) {
    if (flag === "--json") out.json = true;
    else if (flag === "--skip-bad") out.skipBad = true;
    else if (flag === "--drop-duplicates") out.dropDuplicates = true;
    else if (flag === "--records") out.records = value;
    else if (flag === "--seed") out.seed = value;
    else if (flag === "--by") {
      if (value !== "agent" && value !== "condition" && value !== "domain") {
        throw new RangeError(`Invalid value "${value}" for --by: expected "agent", "condition" or "domain"`);
      }
      out.by = value;
    } else out.resamples = wholeFlag(flag, value);
  }
  if (out.records === undefined) throw new TypeError("Missing --records FILE: see --help");
  return out as ScoreArgs;
}

/**
 * Opens a records file to read (`openInputFile()`): a regular file of at most `MAX_RECORDS_BYTES`;
 * throws an `InputFileError` saying why not.
 */
export function openRecordsFile(path: string): Promise<Deno.FsFile> {
  return openInputFile(path, { what: "records file", limit: MAX_RECORDS_BYTES });
}

const fixed = (x: number | null) => x === null ? "-" : x.toFixed(3);

/**
 * An aligned text table of profiles: one row per figure, one column per
 * group, each cell the value and its 95% interval; then why figures are null.
 * The `user errors` row counts records left out because the user simulator left its script.
 *
 * @example
 * ```ts
 * import { assertStringIncludes } from "@std/assert";
 * import { scoreRecords } from "../scoring/mod.ts";
 * import { formatProfiles } from "./score.ts";
 * const r = (run: number, success: boolean) => ({ agent: "a", task: "t/1", run, condition: "nominal" as const, success });
 * const text = formatProfiles(scoreRecords([r(0, true), r(1, false)], { resamples: 10 }));
 * assertStringIncludes(text, "accuracy               0.500 [0.500, 0.500]");
 * ```
 */
export function formatProfiles(profiles: Record<string, Profile>, warnings: readonly string[] = []): string {
  const groups = Object.keys(profiles);
  if (groups.length === 0) return "No records\n";
  const K = Math.max(0, ...groups.map((g) => Object.keys(profiles[g].pass_hat_k).length));
  const cell = (value: number | null, ci: [number, number] | null | undefined) =>
    value === null ? "-" : ci ? `${fixed(value)} [${fixed(ci[0])}, ${fixed(ci[1])}]` : fixed(value);
  const rows: string[][] = [["", ...groups]];
  rows.push(["records", ...groups.map((g) => String(profiles[g].n.records))]);
  rows.push(["tasks", ...groups.map((g) => String(profiles[g].n.tasks))]);
  rows.push(["user errors", ...groups.map((g) => String(profiles[g].n.user_errors))]);
  for (const key of HEADLINE_KEYS) rows.push([key, ...groups.map((g) => cell(profiles[g][key], profiles[g].ci[key]))]);
  for (let k = 1; k <= K; k++) {
    rows.push([
      `pass^${k}`,
      ...groups.map((g) => cell(profiles[g].pass_hat_k[k] ?? null, profiles[g].ci.pass_hat_k[k])),
    ]);
  }
  for (let k = 1; k <= K; k++) rows.push([`pass@${k}`, ...groups.map((g) => fixed(profiles[g].pass_at_k[k] ?? null))]);
  for (const key of ["tool_call_accuracy", "critical_step_success", "mean_time"] as const) {
    rows.push([key, ...groups.map((g) => fixed(profiles[g].operational[key]))]);
  }
  rows.push(["violations", ...groups.map((g) => violations(profiles[g]))]);
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const text = rows.map((r) =>
    r.map((c, i) => i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i])).join("  ").trimEnd()
  );
  // One line per figure and reason, naming the groups it applies to.
  const reasons = new Map<string, string[]>();
  for (const g of groups) {
    for (const [key, why] of Object.entries(profiles[g].reasons)) {
      const line = `${key}: ${why}`;
      reasons.set(line, [...reasons.get(line) ?? [], g]);
    }
  }
  if (reasons.size > 0) {
    const all = (gs: string[]) => gs.length === groups.length && groups.length > 1 ? "all" : gs.join(", ");
    text.push("", "Null figures:", ...[...reasons].map(([line, gs]) => `  ${line} (${all(gs)})`));
  }
  for (const warning of warnings) text.push("", `Warning: ${warning}`);
  return text.join("\n") + "\n";
}

function violations(profile: Profile): string {
  const counts = profile.operational.violation_count;
  if (counts === null) return "-";
  return String(
    Object.values(counts).reduce((s, bySeverity) => s + Object.values(bySeverity).reduce((a, b) => a + b, 0), 0),
  );
}

/** Runs the CLI and returns its exit code (see the module doc). */
export async function main(args: readonly string[]): Promise<number> {
  let parsed: ScoreArgs | "help";
  try {
    parsed = parseScoreArgs(args);
  } catch (err) {
    if (err instanceof TypeError || err instanceof RangeError) {
      console.error(err.message);
      return 2;
    }
    throw err;
  }
  if (parsed === "help") {
    console.log(USAGE);
    return 0;
  }
  let file: Deno.FsFile;
  try {
    file = await openRecordsFile(parsed.records);
  } catch (err) {
    if (!(err instanceof InputFileError)) throw err;
    console.error(err.message);
    return 1;
  }
  const { records: read, bad } = await readRecords(file.readable);
  const where = (b: BadLine) => `line ${b.line} of "${parsed.records}": ${b.problem}`;
  if (bad.length > 0 && !parsed.skipBad) {
    const more = bad.length > 1 ? ` (and ${bad.length - 1} more malformed lines)` : "";
    console.error(`Malformed record on ${where(bad[0])}${more}; fix it or pass --skip-bad`);
    return 2;
  }
  for (const b of bad.slice(0, 10)) console.error(`Warning: skipping malformed record on ${where(b)}`);
  if (bad.length > 10) console.error(`Warning: skipped ${bad.length - 10} more malformed lines`);
  const { kept: records, dropped } = splitDuplicates(read);
  if (dropped.length > 0 && !parsed.dropDuplicates) {
    console.error(
      `Duplicate record in "${parsed.records}": ${cellText({ ...dropped[0], variant: dropped[0].variant ?? null })} ` +
        `is there more than once (${dropped.length} duplicate records in all); ` +
        "remove them or pass --drop-duplicates to keep the first of each",
    );
    return 2;
  }
  if (dropped.length > 0) {
    console.error(`Warning: dropped ${dropped.length} duplicate records, keeping the first of each cell`);
  }
  const profiles = scoreRecords(records, { by: parsed.by, seed: parsed.seed, resamples: parsed.resamples });
  console.log(parsed.json ? JSON.stringify(profiles) : formatProfiles(profiles, misreadWarnings(records)).trimEnd());
  return 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
