/**
 * The report people read: `writeReports()` scores an experiment's records and
 * writes `report.json` (every docs/metrics.md figure per agent, overall and per
 * condition, with intervals and the reason for every null) and `report.html`
 * (one self-contained page with charts and linked trajectories), and returns
 * the terminal summary. The same records and seed give byte-identical files.
 *
 * @example
 * ```ts ignore
 * import { writeReports } from "./mod.ts";
 * using store = ResultsStore.open("results/x/results.sqlite", { config });
 * console.log(await writeReports("results/x", { records: store.records(), store, seed: config.seed }));
 * ```
 *
 * @module
 */
import type { EpisodeRecord } from "../scoring/mod.ts";
import { buildReport, reportJson } from "./json.ts";
import { type EventSource, renderHtml } from "./html.ts";
import { formatTerminal } from "./terminal.ts";
import type { ImportSummary } from "./imported.ts";

export {
  type AbstentionPart,
  type AgentReport,
  buildReport,
  type CalibrationBin,
  type ExperimentInfo,
  METRIC_KEYS,
  type Report,
  reportJson,
  type ReportOptions,
  ROBUSTNESS_RULE,
  type ShownRun,
  type TaskRow,
  type TaskViolation,
  type WrongScenario,
} from "./json.ts";
export { type EventSource, type HtmlOptions, renderHtml } from "./html.ts";
export { compareText, escapeHtml, fixed } from "./format.ts";
export {
  type AgentComparison,
  type CompareOptions,
  compareRecords,
  type Comparison,
  isMetricKey,
  type MetricComparison,
  type Verdict,
} from "./compare.ts";
export type { ImportSummary, ResultMismatch, RewardCheck, RewardRecomputation, ToolFidelity } from "./imported.ts";
export type { ImportReport, InspectImport, InspectLogImport, QuotedViolation } from "./imported.ts";
export { describeWeaknesses, formatTerminal, TERMINAL_SCORES } from "./terminal.ts";
export {
  COMPONENT_KEYS,
  type FragileWeakness,
  type LowMetric,
  type ViolationWeakness,
  type Weaknesses,
  weaknesses,
  type WeaknessOptions,
} from "./weaknesses.ts";
export {
  type AgentSummary,
  formatReport,
  passHatK,
  summarize,
  type SummarizeOptions,
  SUMMARY_SCORES,
} from "./summary.ts";

/** Options of `writeReports()`. */
export interface WriteReportsOptions {
  /** The experiment's records (any mix of conditions). */
  records: readonly EpisodeRecord[];
  /**
   * Where the trajectories' events come from: a results store or `(cell) => events`.
   * @default {none: trajectories list their runs without events}
   */
  store?: EventSource;
  /** Seed of the bootstrap: the experiment seed. */
  seed: string;
  /**
   * Bootstrap resamples.
   * @default {1000}
   */
  resamples?: number;
  /**
   * Title of the report (the experiment's name is a good one).
   * @default {"ark reliability report"}
   */
  title?: string;
  /**
   * What the import of the records did, for an imported experiment (`ResultsStore.note("import")`).
   * @default {none: not imported}
   */
  imported?: ImportSummary;
}

/** The files `writeReports()` writes into its folder. */
export const REPORT_FILES = { json: "report.json", html: "report.html" } as const;

/**
 * Writes `report.json` and `report.html` into a folder (created when missing; each file is
 * replaced atomically) and returns the terminal text.
 *
 * @example
 * ```ts ignore
 * import { writeReports } from "./mod.ts";
 * const text = await writeReports("results/x", { records, store, seed: "0", title: "airline-s0-t50-k5" });
 * console.log(text); // per agent: R, R_con, R_rob, R_pred, R_saf with intervals, pass^k, weaknesses
 * ```
 */
export async function writeReports(dir: string, options: WriteReportsOptions): Promise<string> {
  const { records, seed } = options;
  if (!Array.isArray(records)) throw new TypeError("Invalid records: expected an array of episode records");
  if (typeof seed !== "string") throw new TypeError(`Invalid seed ${JSON.stringify(seed)}: expected a string`);
  const report = buildReport(records, {
    seed,
    resamples: options.resamples,
    title: options.title,
    imported: options.imported,
  });
  await Deno.mkdir(dir, { recursive: true });
  await replace(`${dir}/${REPORT_FILES.json}`, reportJson(report));
  await replace(`${dir}/${REPORT_FILES.html}`, renderHtml(report, { records, events: options.store }));
  return formatTerminal(report);
}

async function replace(path: string, text: string): Promise<void> {
  const tmp = `${path}.tmp`;
  await Deno.writeTextFile(tmp, text);
  await Deno.rename(tmp, path);
}
