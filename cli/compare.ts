/**
 * `deno task compare A B`: compares two experiments' records (a results folder
 * holding `records.jsonl`, or a `.jsonl` file) agent by agent on the tasks both
 * ran, with a paired bootstrap (see `compareRecords()`), and gates a release
 * with `--fail-on`.
 *
 * Exit codes: 0 compared, every `--fail-on` metric checked and none
 * significantly worse; 1 a `--fail-on` metric is significantly worse for some
 * agent (every one checked); 2 bad flags, a records file that cannot be read, a
 * malformed or duplicate record, or a `--fail-on` metric that cannot be computed for some
 * compared agent pair or an agent only one side has (even when another one regressed: the gate
 * did not run).
 * "Worse" follows the metric's direction: near_misses is lower-is-better.
 *
 * @module
 */
import { type EpisodeRecord, HEADLINE_KEYS, LOWER_IS_BETTER } from "../scoring/mod.ts";
import { readRecords } from "./score.ts";
import { splitDuplicates } from "../eval/records.ts";
import { cellText } from "../eval/shard.ts";
import { readFlags, wholeFlag } from "./_flags.ts";
import { errorReason, InputFileError, MAX_RECORDS_BYTES, openInputFile } from "../eval/fs_errors.ts";
import {
  type AgentComparison,
  compareRecords,
  type Comparison,
  isMetricKey,
  type MetricComparison,
} from "../report/compare.ts";

/** Usage text of `deno task compare`. */
export const USAGE = `Usage: deno task compare A B [flags]

Compares experiment B with experiment A, agent by agent, on the tasks both ran:
every metric (the reliability keys R, R_con ... R_saf, accuracy, near_misses, pass^k) on each side, the
change B − A, its 95% interval from a paired bootstrap over tasks, a two-sided
p-value, and a verdict: "better" or "worse" when the interval excludes 0,
"no significant change", or "–" when a side has no value. Every metric is
higher-is-better except near_misses (near misses per 100 analysed episodes):
for it "worse" means significantly higher (the interval of B − A above 0).

A and B are results folders holding records.jsonl, or JSON Lines files.

Flags:
  --fail-on M,...    exit 1 when any of these metrics is significantly worse
                     for any compared agent, e.g. "R,S_comp,near_misses";
                     exit 2 when one cannot be computed for an agent pair,
                     or an agent is in one experiment only (pair it with
                     --pair or leave it out with --agents)
  --metrics M,...    metrics to show (default: all; --fail-on ones always show)
  --agents A,...     compare only these agents (a name on either side)
  --pair A=B         compare agent A of the first experiment with agent B of
                     the second, e.g. "noisy=noisy@2x" (repeat the flag or
                     separate pairs with commas); other agents pair by name
  --seed S           bootstrap seed (default "0")
  --resamples N      bootstrap resamples (default 1000)
  --json             print one JSON object instead of tables
  --help             show this help

Exit codes: 0 compared and no --fail-on metric is significantly worse; 1 one
is; 2 bad flags, records that cannot be read, a malformed or duplicate record,
or, with --fail-on, a metric that cannot be computed for some compared agent
or an agent that only one side has ("Cannot check", even when another one
regressed).
`;

/** Parsed arguments of `deno task compare`. */
export interface CompareArgs {
  a: string;
  b: string;
  failOn: string[];
  metrics: string[] | null;
  agents: string[] | null;
  pairs: [string, string][];
  seed: string;
  resamples: number;
  json: boolean;
}

const VALUE_FLAGS = ["--fail-on", "--metrics", "--agents", "--pair", "--seed", "--resamples"];
const SWITCHES = ["--json", "--help"];

function list(flag: string, value: string): string[] {
  const items = value.split(",").map((s) => s.trim());
  if (items.some((s) => s === "")) {
    throw new TypeError(`Invalid value "${value}" for ${flag}: expected names separated by commas`);
  }
  return items;
}

function metricList(flag: string, value: string): string[] {
  const keys = list(flag, value);
  const unknown = keys.find((k) => !isMetricKey(k));
  if (unknown !== undefined) {
    const known = HEADLINE_KEYS.join(", ");
    throw new RangeError(`Unknown metric "${unknown}" in ${flag}: expected ${known} or pass^k (k = 1, 2, …)`);
  }
  return keys;
}

/**
 * Parses the arguments of `deno task compare` (or `"help"`): two record
 * sources, then flags; bad ones throw a TypeError or RangeError saying what is accepted.
 *
 * @example
 * ```ts
 * import { assert, assertEquals } from "@std/assert";
 * import { parseCompareArgs } from "./compare.ts";
 * const args = parseCompareArgs(["old", "new", "--fail-on", "R,accuracy", "--pair=noisy=noisy@2x"]);
 * assert(args !== "help");
 * assertEquals([args.failOn, args.pairs], [["R", "accuracy"], [["noisy", "noisy@2x"]]]);
 * ```
 */
export function parseCompareArgs(args: readonly string[]): CompareArgs | "help" {
  const sources: string[] = [], flagArgs: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (!arg.startsWith("--")) sources.push(arg);
    else {
      flagArgs.push(arg);
      if (!arg.includes("=") && !SWITCHES.includes(arg) && i + 1 < args.length && !args[i + 1].startsWith("--")) {
        flagArgs.push(args[++i]);
      }
    }
  }
  const flags = readFlags(flagArgs, [...VALUE_FLAGS, ...SWITCHES], { switches: SWITCHES, repeatable: ["--pair"] });
  if (flags === "help") return "help";
  const json = flags.some(([flag]) => flag === "--json");
  if (sources.length !== 2) {
    const given = sources.length === 0 ? "none" : sources.map((s) => `"${s}"`).join(", ");
    throw new TypeError(`Expected two record sources A and B (results folders or .jsonl files), got ${given}`);
  }
  const out: CompareArgs = {
    a: sources[0],
    b: sources[1],
    failOn: [],
    metrics: null,
    agents: null,
    pairs: [],
    seed: "0",
    resamples: 1000,
    json,
  };
  for (const [flag, value] of flags) {
    if (flag === "--fail-on") out.failOn = metricList(flag, value);
    else if (flag === "--metrics") out.metrics = metricList(flag, value);
    else if (flag === "--agents") out.agents = list(flag, value);
    else if (flag === "--seed") out.seed = value;
    else if (flag === "--json") continue;
    else if (flag === "--pair") {
      for (const pair of list(flag, value)) {
        const [x, y, ...rest] = pair.split("=");
        if (!x || !y || rest.length > 0) {
          throw new TypeError(`Invalid value "${pair}" for --pair: expected A_NAME=B_NAME, e.g. "noisy=noisy@2x"`);
        }
        out.pairs.push([x, y]);
      }
    } else out.resamples = wholeFlag(flag, value);
  }
  return out;
}

/** The records of a results folder (its `records.jsonl`) or a JSON Lines file, or why they cannot be had. */
async function loadRecords(source: string, side: "A" | "B"): Promise<EpisodeRecord[] | { problem: string }> {
  let path = source;
  let file: Deno.FsFile;
  try {
    if ((await Deno.stat(source)).isDirectory) path = `${source}/records.jsonl`;
    file = await openInputFile(path, { what: `records of ${side}`, limit: MAX_RECORDS_BYTES });
  } catch (err) {
    if (err instanceof InputFileError) return { problem: err.message };
    if (!(err instanceof Error) || !(err.name in Deno.errors)) throw err;
    return { problem: `Cannot read records of ${side} "${path}": ${errorReason(err)}` };
  }
  const { records, bad } = await readRecords(file.readable);
  if (bad.length > 0) {
    const more = bad.length > 1 ? ` (and ${bad.length - 1} more malformed lines)` : "";
    return { problem: `Malformed record on line ${bad[0].line} of "${path}": ${bad[0].problem}${more}` };
  }
  if (records.length === 0) return { problem: `No records in "${path}": expected JSON Lines episode records` };
  const { dropped } = splitDuplicates(records);
  if (dropped.length > 0) {
    const cell = cellText({ ...dropped[0], variant: dropped[0].variant ?? null });
    return {
      problem: `Duplicate record in "${path}": ${cell} is there more than once (${dropped.length} duplicate ` +
        "records in all); remove them (deno task score --drop-duplicates counts each cell once)",
    };
  }
  return records;
}

const fixed = (x: number | null) => x === null ? "-" : x.toFixed(3);
const signed = (x: number | null) => x === null ? "-" : `${x >= 0 ? "+" : ""}${x.toFixed(3)}`;
const pValue = (p: number | null) => p === null ? "-" : p < 0.001 ? "<0.001" : p.toFixed(3);

function title(c: AgentComparison): string {
  const who = c.a === c.b ? `"${c.a}"` : `"${c.a}" (A) vs "${c.b}" (B)`;
  return `${who}: ${c.tasks.length} paired tasks, ${c.records.a} records in A, ${c.records.b} in B`;
}

function names(xs: string[], max = 5): string {
  const shown = xs.slice(0, max).map((x) => `"${x}"`).join(", ");
  return xs.length > max ? `${shown} and ${xs.length - max} more` : shown;
}

/**
 * The comparison as text: per agent an aligned table (metric, A, B, Δ, 95% CI
 * of Δ, p, verdict), then the tasks and agents left out.
 *
 * @example
 * ```ts
 * import { assertStringIncludes } from "@std/assert";
 * import { formatComparison } from "./compare.ts";
 * import { compareRecords } from "../report/mod.ts";
 * const r = (agent: string, task: string, success: boolean) => ({ agent, task, run: 0, condition: "nominal" as const, success });
 * const a = [r("x", "t/1", true), r("x", "t/2", true)];
 * const b = [r("x", "t/1", false), r("x", "t/2", false)];
 * const comparison = compareRecords(a, b, { resamples: 50, metrics: ["accuracy"] });
 * assertStringIncludes(formatComparison(comparison), "accuracy  1.000  0.000  -1.000  [-1.000, -1.000]  <0.001  worse");
 * ```
 */
export function formatComparison(comparison: Comparison): string {
  const out: string[] = [];
  for (const c of comparison.agents) {
    const rows = [["metric", "A", "B", "Δ", "95% CI of Δ", "p", "verdict"]];
    for (const m of c.metrics) {
      const ci = m.ci === null ? "-" : `[${signed(m.ci[0])}, ${signed(m.ci[1])}]`;
      const verdict = m.verdict === "–" ? `– (${m.reason})` : m.verdict;
      rows.push([m.metric, fixed(m.a), fixed(m.b), signed(m.delta), ci, pValue(m.p), verdict]);
    }
    const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
    out.push(title(c));
    for (const r of rows) {
      out.push(
        r.map((cell, i) => i === 0 || i === 6 ? cell.padEnd(widths[i]) : cell.padStart(widths[i])).join("  ").trimEnd(),
      );
    }
    if (c.unpairedTasks.a.length > 0) out.push(`Tasks only in A, left out: ${names(c.unpairedTasks.a)}`);
    if (c.unpairedTasks.b.length > 0) out.push(`Tasks only in B, left out: ${names(c.unpairedTasks.b)}`);
    if (c.unreadable?.a !== undefined) out.push(`Warning: in A, ${c.unreadable.a}`);
    if (c.unreadable?.b !== undefined) out.push(`Warning: in B, ${c.unreadable.b}`);
    out.push("");
  }
  const { a, b } = comparison.unpairedAgents;
  if (a.length > 0) out.push(`Agents only in A, not compared: ${names(a, Infinity)}`);
  if (b.length > 0) out.push(`Agents only in B, not compared: ${names(b, Infinity)}`);
  out.push(`Paired bootstrap: ${comparison.resamples} resamples of tasks, seed "${comparison.seed}"`);
  return out.join("\n") + "\n";
}

/** A `--fail-on` metric significantly worse for an agent (for near_misses: significantly higher). */
export interface Regression {
  agent: string;
  metric: string;
  delta: number;
  ci: [number, number];
}

/**
 * The `--fail-on` metrics that are significantly worse (in each metric's direction), by agent,
 * and those that could not be checked (verdict "–").
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { regressions } from "./compare.ts";
 * import { compareRecords } from "../report/mod.ts";
 * const r = (agent: string, task: string, success: boolean) => ({ agent, task, run: 0, condition: "nominal" as const, success });
 * const a = [r("x", "t/1", true), r("x", "t/2", true)];
 * const b = [r("x", "t/1", false), r("x", "t/2", false)];
 * const comparison = compareRecords(a, b, { resamples: 50, metrics: ["accuracy"] });
 * assertEquals(regressions(comparison, ["accuracy"]).failed, [{ agent: "x", metric: "accuracy", delta: -1, ci: [-1, -1] }]);
 * ```
 */
export function regressions(
  comparison: Comparison,
  failOn: readonly string[],
): { failed: Regression[]; unchecked: { agent: string; metric: string; reason: string }[] } {
  const failed: Regression[] = [], unchecked: { agent: string; metric: string; reason: string }[] = [];
  for (const c of comparison.agents) {
    const agent = c.a === c.b ? c.a : `${c.a}=${c.b}`;
    const unreadable = c.unreadable?.a !== undefined
      ? `in A, ${c.unreadable.a}`
      : c.unreadable?.b !== undefined
      ? `in B, ${c.unreadable.b}`
      : null;
    if (unreadable !== null) {
      for (const metric of failOn) unchecked.push({ agent, metric, reason: unreadable });
      continue;
    }
    for (const metric of failOn) {
      const m: MetricComparison | undefined = c.metrics.find((x) => x.metric === metric);
      if (m === undefined || m.verdict === "–") {
        unchecked.push({ agent, metric, reason: m?.reason ?? "no such figure in these records" });
      } else if (m.verdict === "worse") failed.push({ agent, metric, delta: m.delta!, ci: m.ci! });
    }
  }
  return { failed, unchecked };
}

/**
 * The agents a `--fail-on` gate cannot see: each one only A or only B has (within `--agents`), as
 * an unchecked metric. A gate never passes on what it cannot compare: an agent gone from B, or
 * renamed there, is paired with `--pair` or left out with `--agents`.
 */
function unseen(
  comparison: Comparison,
  args: Pick<CompareArgs, "failOn" | "agents">,
): { agent: string; metric: string; reason: string }[] {
  if (args.failOn.length === 0) return [];
  const { a, b } = comparison.unpairedAgents;
  const asked = (name: string) => args.agents === null || args.agents.includes(name);
  const only = (names: string[], here: "A" | "B", there: "A" | "B") =>
    names.filter(asked).map((agent) => ({
      agent,
      metric: args.failOn.join(","),
      reason: `it is only in ${here}; pair it with an agent of ${there} with --pair ` +
        `${here === "A" ? `${agent}=NAME` : `NAME=${agent}`}, or leave it out with --agents`,
    }));
  return [...only(a, "A", "B"), ...only(b, "B", "A")];
}

function fail(message: string): 2 {
  console.error(message);
  return 2;
}

/** Runs the CLI and returns its exit code (see the module doc). */
export async function main(args: readonly string[]): Promise<number> {
  let parsed: CompareArgs | "help";
  let comparison: Comparison;
  try {
    parsed = parseCompareArgs(args);
    if (parsed === "help") {
      console.log(USAGE);
      return 0;
    }
    const a = await loadRecords(parsed.a, "A");
    if (!Array.isArray(a)) return fail(a.problem);
    const b = await loadRecords(parsed.b, "B");
    if (!Array.isArray(b)) return fail(b.problem);
    const metrics = parsed.metrics === null ? undefined : [...new Set([...parsed.metrics, ...parsed.failOn])];
    comparison = compareRecords(a, b, {
      seed: parsed.seed,
      resamples: parsed.resamples,
      pairs: parsed.pairs,
      agents: parsed.agents ?? undefined,
      metrics,
    });
  } catch (err) {
    if (!(err instanceof TypeError || err instanceof RangeError)) throw err;
    return fail(err.message);
  }
  if (comparison.agents.length === 0) {
    return fail(
      parsed.agents === null
        ? "No agent to compare: A and B have no agent name in common; pair agents with --pair A_NAME=B_NAME"
        : `No agent to compare: --agents ${parsed.agents.join(",")} names no agent of both A and B`,
    );
  }
  const { failed, unchecked } = regressions(comparison, parsed.failOn);
  unchecked.push(...unseen(comparison, parsed));
  if (parsed.json) console.log(JSON.stringify({ ...comparison, failOn: parsed.failOn, failed, unchecked }));
  else console.log(formatComparison(comparison).trimEnd());
  if (unchecked.length > 0) {
    const [u] = unchecked, more = unchecked.length > 1 ? ` (and ${unchecked.length - 1} more unchecked)` : "";
    return fail(`Cannot check --fail-on ${u.metric} for "${u.agent}": ${u.reason}${more}`);
  }
  for (const f of failed) {
    const how = LOWER_IS_BETTER.has(f.metric) ? "worse (higher)" : "worse";
    console.error(
      `Regression: ${f.metric} is significantly ${how} for "${f.agent}" (Δ ${signed(f.delta)}, 95% CI [${
        signed(f.ci[0])
      }, ${signed(f.ci[1])}])`,
    );
  }
  if (failed.length > 0) return 1;
  if (parsed.failOn.length > 0 && !parsed.json) console.log(`No significant regression on ${parsed.failOn.join(", ")}`);
  return 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
