/**
 * `deno task import --from tau-bench|tau2-bench|ark|inspect FILE --out DIR`: replays another harness's transcripts in
 * ark's worlds, grades and judges them, and writes a normal results folder; prints what ark found
 * (rewards recomputed, tool results reproduced, lenient passes, policy breaks) and the report.
 *
 * Exit codes: 0 every episode imported; 1 the file, the data or the folder cannot be used, or some
 * episodes were skipped (each named; the rest are imported); 2 bad flags.
 *
 * @module
 */
import { defaultTauBenchDomain, domains, tau2BenchDomains, tauBenchDomains } from "../envs/mod.ts";
import { readFlags } from "./_flags.ts";
import { ImportError, type ImportSummary, runImport, type RunImportOptions } from "../interop/import/mod.ts";
import type { ImportReport } from "../report/mod.ts";
import { REPORT_FILES } from "../report/mod.ts";
import { ResultsStoreError } from "../eval/store.ts";
import { ModelError } from "../agents/model/mod.ts";
import { isLlmJudge, openNlJudge } from "./_import_judge.ts";

/** Usage text of `deno task import`. */
export const USAGE = `Usage: deno task import --from tau-bench|tau2-bench|ark|inspect FILE --out DIR [flags]

Replays another harness's transcripts tool call by tool call in ark's worlds, grades
and judges every episode, and writes DIR/results.sqlite, DIR/records.jsonl,
DIR/report.json and DIR/report.html, so score, report, compare and judge work on it.

Formats:
  --from tau-bench   τ-bench's results file (the JSON array its run.py writes); tasks
                     are τ-bench's test tasks on τ-bench's data, run = trial
  --from tau2-bench  τ²-bench's results: one JSON file, or a folder with results.json
                     and simulations/<id>.json; tasks are the file's (or --task-file's),
                     on τ-bench's (or τ²'s) data of the file's domain, run = trial
  --from ark         ark's transcripts: JSON Lines, one {agent, task, run, messages}
                     per line (README, "Importing runs")
  --from inspect     inspect_ai logs: a .json or .eval log, or a folder of them (each
                     sample × epoch one episode, run = epoch - 1, task
                     inspect:<task>/<sample id>); transcripts alone, no world: the
                     figures that need one are null, with the reason; with
                     --domain NAME, sample i is task i of NAME's generated world,
                     replayed, graded and judged there, the score kept beside

Flags:
  --out DIR          the results folder to write (required)
  --domain NAME      the domain of a τ-bench file (default ${defaultTauBenchDomain()?.name ?? "none"}); of a
                     τ²-bench file (default: the file's info.environment_info.domain_name); or
                     the domain whose world replays inspect_ai logs' tool calls
  --data DIR         τ-bench's data of the domain (default $ARK_TAU_BENCH/<domain>,
                     else ../shared/tau-bench/<domain> beside the repository); for a
                     τ²-bench file also τ²'s domain folder (its db.json)
  --task-file FILE   τ²-bench's tasks.json, for a τ²-bench file's tasks (default: its own)
  --judge J          "llm:PROVIDER:MODEL": judge a τ²-bench file's NL_ASSERTION component
                     again with that model (answers kept in DIR/model_cache.sqlite);
                     default: taken from the file
  --agent NAME       the agent's name for a τ-bench file (default: the file's base name)
  --seed S           the experiment seed, for the bootstrap (default 0)
  --world-seed S     the world seed of ark's generated worlds, for an ark file's
                     "<domain>/<i>" tasks (default 0)
  --tasks N          how many tasks of each generated world those are among
                     (default 50, as deno task eval)
  --scorer NAME      inspect: the scorer whose values say success (default: each
                     log's first); success iff the value is full credit ("C", 1,
                     true, "yes"); "I", "N", "P", numbers below 1 fail; a value
                     outside [0, 1] or an object skips the sample, named
  --score-key KEY    inspect: the key to read of a scorer's object values
  --help             show this help

Exit codes: 0 every episode imported; 1 the file, the data or the folder cannot be
used, or some episodes were skipped (each is named; the rest are imported); 2 bad flags.
`;

const FLAGS = [
  "--from",
  "--out",
  "--domain",
  "--data",
  "--agent",
  "--seed",
  "--world-seed",
  "--tasks",
  "--task-file",
  "--judge",
  "--scorer",
  "--score-key",
  "--help",
];

/**
 * Parses the arguments of `deno task import` (or `"help"`); bad ones throw a `TypeError` saying what
 * is accepted.
 *
 * @example
 * ```ts
 * import { assert, assertEquals } from "@std/assert";
 * import { parseImportArgs } from "./import.ts";
 * const args = parseImportArgs(["--from", "tau-bench", "runs.json", "--out", "results/gpt-4o"]);
 * assert(args !== "help");
 * assertEquals([args.from, args.file, args.out], ["tau-bench", "runs.json", "results/gpt-4o"]);
 * ```
 */
export function parseImportArgs(
  args: readonly string[],
): Omit<RunImportOptions, "onProgress" | "nlJudge"> & { judge?: string } | "help" {
  const files: string[] = [], flagArgs: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (!arg.startsWith("--")) {
      files.push(arg);
      continue;
    }
    flagArgs.push(arg);
    if (!arg.includes("=") && arg !== "--help" && i + 1 < args.length && !args[i + 1].startsWith("--")) {
      flagArgs.push(args[++i]);
    }
  }
  const flags = readFlags(flagArgs, FLAGS);
  if (flags === "help") return "help";
  const got = new Map(flags);
  const from = got.get("--from");
  if (from === undefined) throw new TypeError("Missing --from: expected --from tau-bench, tau2-bench, ark or inspect");
  if (from !== "tau-bench" && from !== "tau2-bench" && from !== "ark" && from !== "inspect") {
    throw new TypeError(`Invalid value "${from}" for --from: expected "tau-bench", "tau2-bench", "ark" or "inspect"`);
  }
  if (from !== "inspect") {
    for (const flag of ["--scorer", "--score-key"]) {
      if (got.has(flag)) {
        throw new TypeError(`Unexpected ${flag} with --from ${from}: only inspect_ai logs have scorers`);
      }
    }
  } else {
    if (got.has("--data")) {
      throw new TypeError("Unexpected --data with --from inspect: --domain replays in the domain's generated world");
    }
    for (const flag of ["--world-seed", "--tasks"]) {
      if (got.has(flag) && !got.has("--domain")) {
        throw new TypeError(`Unexpected ${flag} with --from inspect without --domain: it sets the domain's world`);
      }
    }
  }
  if (files.length !== 1) {
    throw new TypeError(
      files.length === 0
        ? "Missing FILE: the transcripts to import, e.g. deno task import --from tau-bench gpt-4o.json --out results/x"
        : `Unexpected arguments ${files.slice(1).map((f) => `"${f}"`).join(", ")}: expected one FILE`,
    );
  }
  const out = got.get("--out");
  if (out === undefined) throw new TypeError("Missing --out: the results folder to write, e.g. --out results/gpt-4o");
  if (from === "ark") {
    for (const flag of ["--domain", "--agent"]) {
      if (got.has(flag)) throw new TypeError(`Unexpected ${flag} with --from ark: each line names its agent and task`);
    }
  } else if (from === "tau-bench" || from === "tau2-bench") {
    for (const flag of ["--world-seed", "--tasks"]) {
      if (got.has(flag)) throw new TypeError(`Unexpected ${flag} with --from ${from}: its tasks are the file's`);
    }
  }
  for (const flag of ["--task-file", "--judge"]) {
    if (got.has(flag) && from !== "tau2-bench") {
      throw new TypeError(`Unexpected ${flag} with --from ${from}: only a τ²-bench file takes it`);
    }
  }
  const judge = got.get("--judge");
  if (judge !== undefined && !isLlmJudge(judge)) {
    throw new TypeError(
      `Invalid value "${judge}" for --judge: expected "llm:PROVIDER:MODEL", e.g. "llm:openai:gpt-4o-mini"`,
    );
  }
  const domain = got.get("--domain");
  const known = from === "inspect"
    ? Object.keys(domains)
    : (from === "tau2-bench" ? tau2BenchDomains() : tauBenchDomains()).map((d) => d.name);
  if (domain !== undefined && !known.includes(domain)) {
    throw new TypeError(
      `Invalid value "${domain}" for --domain: expected one of ${known.map((n) => `"${n}"`).join(", ")} ` +
        (from === "inspect"
          ? "(the registered domains)"
          : `(the domains ${from === "tau2-bench" ? "τ²-bench" : "τ-bench"} has)`),
    );
  }
  const tasks = got.get("--tasks");
  if (tasks !== undefined && (!/^\d+$/.test(tasks) || Number(tasks) < 1 || !Number.isSafeInteger(Number(tasks)))) {
    throw new TypeError(`Invalid value "${tasks}" for --tasks: expected a whole number of at least 1`);
  }
  return {
    from,
    file: files[0],
    out: out.replace(/\/+$/, "") || "/",
    ...(got.has("--domain") ? { domain: got.get("--domain")! } : {}),
    ...(got.has("--data") ? { data: got.get("--data")! } : {}),
    ...(got.has("--agent") ? { agent: got.get("--agent")! } : {}),
    ...(got.has("--seed") ? { seed: got.get("--seed")! } : {}),
    ...(got.has("--world-seed") ? { worldSeed: got.get("--world-seed")! } : {}),
    ...(tasks !== undefined ? { tasks: Number(tasks) } : {}),
    ...(got.has("--task-file") ? { taskFile: got.get("--task-file")! } : {}),
    ...(judge !== undefined ? { judge } : {}),
    ...(got.has("--scorer") ? { scorer: got.get("--scorer")! } : {}),
    ...(got.has("--score-key") ? { scoreKey: got.get("--score-key")! } : {}),
  };
}

const pct = (x: number | null) => x === null ? "n/a" : `${(100 * x).toFixed(1)}%`;

/** The lines that say what an import found. */
export function importLines(summary: ImportSummary, report: ImportReport | undefined): string[] {
  const lines: string[] = [];
  const { episodes, tool_results: t } = summary;
  lines.push(`Imported ${episodes.imported} of ${episodes.read} episodes from ${summary.file} (${summary.from})`);
  for (const s of summary.skipped) lines.push(`  skipped ${s.where}: ${s.reason}`);
  if (summary.inspect !== undefined) lines.push(...inspectLines(summary.inspect));
  if (report?.reward) {
    lines.push(
      `Rewards: ark's recomputed reward equals the file's on ${report.reward.equal} of ${report.reward.compared} episodes`,
    );
    for (const m of report.reward.mismatches) {
      lines.push(`  ${m.task} run ${m.run}: the file says ${m.tau_reward}, ark ${m.success ? 1 : 0}`);
    }
  }
  if (summary.rewards !== undefined) lines.push(...rewardLines(summary.rewards));
  if (t.compared > 0) {
    const known = t.differences.filter((d) => d.equivalent).reduce((n, d) => n + d.calls, 0);
    lines.push(
      `Tool results: ${t.equal} of ${t.compared} calls (${pct(t.share)}) equal the recorded ones (${t.exact} exactly` +
        `${known > 0 ? `, ${known} in other words` : ""}); ${t.compared - t.equal} differ`,
    );
    for (const d of t.differences) lines.push(`  ${d.calls} × ${d.name}: ${d.reason}`);
    const unexplained = t.mismatches.filter((m) => m.explained_by === null);
    for (const m of unexplained) {
      lines.push(`  unexplained: ${m.task} run ${m.run} call ${m.call} (${m.tool}): ${m.at}`);
    }
  }
  // An inspect_ai import has no world: no rewards recomputed, no judge (its own lines say why).
  if (report !== undefined && (summary.inspect === undefined || summary.inspect.world !== null)) {
    const k = report.pass_hat_k.map((p) => `pass^${p.k} ${p.ark?.toFixed(3) ?? "n/a"}`).join(", ");
    const tau = report.pass_hat_k.map((p) => p.tau_reward?.toFixed(3) ?? "n/a").join(", ");
    if (k !== "") lines.push(`${k} (from the file's rewards: ${tau})`);
    lines.push(
      `Lenient passes: ${report.lenient_passes.length} rewarded episodes lack the expected outcome` +
        (report.lenient_passes.length > 0
          ? ` (${report.lenient_passes.slice(0, 8).map((l) => `${l.task} run ${l.run}`).join(", ")}${
            report.lenient_passes.length > 8 ? ", ..." : ""
          })`
          : ""),
    );
    const serious = report.rewarded_violations.filter((r) =>
      r.violations.some((v) => v.severity === "high" || v.severity === "critical")
    );
    lines.push(
      `Policy: ${report.rewarded_violations.length} rewarded episodes break the policy, ${serious.length} at high ` +
        `or critical severity${
          serious.length > 0 ? ` (${serious.slice(0, 8).map((r) => `${r.task} run ${r.run}`).join(", ")})` : ""
        }; report.json's import section quotes the evidence`,
    );
    if (report.judge_policy !== null) {
      lines.push(
        `Judged under the "${report.judge_policy.name}" policy (${report.judge_policy.summary}); ` +
          `${report.differing_writes.length} writes differ from what the user approved`,
      );
    }
  }
  return lines;
}

// What ark recomputed of the file's own reward (τ²-bench's), what it took from the file, and why they differ.
function rewardLines(r: NonNullable<ImportSummary["rewards"]>): string[] {
  const parts = r.components.map((c) =>
    `${c.name} recomputed on ${c.recomputed} (differs from the file's on ${c.disagreed})` +
    (c.taken > 0 ? `, taken from the file on ${c.taken}` : "")
  );
  const lines = [`Reward components (${r.rule}): ${parts.join("; ")}`];
  for (const e of r.episodes) {
    if (e.why !== null) lines.push(`  ${e.task} run ${e.run}: the file says ${e.file}, ark ${e.ark}: ${e.why}`);
  }
  return lines;
}

// What each inspect_ai log held, its scorer's values, and the figures null without a world.
function inspectLines(inspect: NonNullable<ImportSummary["inspect"]>): string[] {
  const lines = inspect.logs.map((l) =>
    l.refused !== null
      ? `  refused ${l.refused}`
      : `  ${l.file}: ${l.imported} of ${l.episodes} samples × epochs, ${l.tool_calls} tool calls, scorer "${l.scorer}" (` +
        l.values.map((v) => `${v.value} × ${v.count}`).join(", ") + ")" +
        (l.status !== null && l.status !== "success"
          ? `; status "${l.status}": imported as far as it goes (the samples it holds)`
          : "")
  );
  lines.push(`Success: ${inspect.success_rule}`);
  for (const n of inspect.null_figures) lines.push(`  null: ${n.figure}: ${n.reason}`);
  return lines;
}

// Each agent's accuracy (pass^1): the figure an inspect_ai log's own summary gives first.
function accuracyLine(agents: Record<string, { overall: { accuracy?: number | null; n?: unknown } }>): string {
  const parts = Object.entries(agents).map(([a, p]) =>
    `${a} ${typeof p.overall.accuracy === "number" ? p.overall.accuracy.toFixed(3) : "n/a"}`
  );
  return `Accuracy (pass^1): ${parts.join(", ")}`;
}

/** Runs the CLI and returns its exit code (see the module doc). */
export async function main(args: readonly string[]): Promise<number> {
  let parsed: ReturnType<typeof parseImportArgs>;
  try {
    parsed = parseImportArgs(args);
  } catch (err) {
    if (!(err instanceof TypeError)) throw err;
    console.error(err.message);
    return 2;
  }
  if (parsed === "help") {
    console.log(USAGE);
    return 0;
  }
  const started = performance.now();
  let result: Awaited<ReturnType<typeof runImport>>;
  const models = parsed.judge === undefined ? null : await openNlJudge(parsed.judge, parsed.out);
  if (typeof models === "string") {
    console.error(models);
    return 1;
  }
  using _models = models ?? undefined;
  try {
    const { judge: _judge, ...options } = parsed;
    result = await runImport({ ...options, ...(models !== null ? { nlJudge: models.client } : {}) });
  } catch (err) {
    if (!(err instanceof ImportError || err instanceof ResultsStoreError || err instanceof ModelError)) throw err;
    console.error(err.message.replace(/\s*\n\s*/g, " "));
    return 1;
  }
  const seconds = (performance.now() - started) / 1000;
  const written = JSON.parse(await Deno.readTextFile(`${parsed.out}/${REPORT_FILES.json}`));
  const report = written.import as ImportReport | undefined;
  console.log(result.report);
  for (const line of importLines(result.summary, report)) console.log(line);
  if (result.summary.inspect !== undefined) console.log(accuracyLine(written.agents));
  console.log(
    `Wrote ${parsed.out}/results.sqlite, ${parsed.out}/records.jsonl, ${parsed.out}/${REPORT_FILES.json} and ` +
      `${parsed.out}/${REPORT_FILES.html} (${result.summary.episodes.imported} episodes in ${seconds.toFixed(1)} s)`,
  );
  if (result.summary.episodes.skipped > 0) {
    console.error(`${result.summary.episodes.skipped} episodes were skipped (named above); the rest are imported`);
    return 1;
  }
  const refused = result.summary.inspect?.logs.filter((l) => l.refused !== null).length ?? 0;
  if (refused > 0) {
    console.error(`${refused} logs were refused (named above); the rest are imported`);
    return 1;
  }
  return 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
