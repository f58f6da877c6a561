/**
 * The one-table summary per agent: the reliability scores from scoring (R,
 * R_con, R_rob, R_pred, R_saf, without intervals) beside capability (accuracy,
 * pass^k for k = 1..K, the τ-bench estimator) and mean steps, as data and as an
 * aligned text table with deterministic formatting. `writeReports()` gives the
 * full report; this compact table stays for callers that want one line per agent.
 *
 * @module
 */
import { headlineScores } from "../scoring/mod.ts";
import type { EpisodeRecord } from "../eval/records.ts";

/** The reliability scores the summary shows (`null` when they cannot be computed). */
export const SUMMARY_SCORES = ["R", "R_con", "R_rob", "R_pred", "R_saf"] as const;

/** One agent's figures: reliability over all its records, capability over its nominal ones. */
export interface AgentSummary {
  /** The agent's name, as its records give it. */
  agent: string;
  /** Nominal episodes. */
  episodes: number;
  /** Distinct task ids of its nominal episodes. */
  tasks: number;
  /** Overall reliability and its parts (docs/metrics.md), over every condition; safety beside it. */
  scores: Record<typeof SUMMARY_SCORES[number], number | null>;
  /** Mean success. */
  accuracy: number;
  /** pass^k for k = 1..K, index k − 1; `null` when no task has k runs. */
  passHat: (number | null)[];
  /** Mean agent steps of its nominal episodes. */
  meanSteps: number;
}

/** Options of `summarize()`. */
export interface SummarizeOptions {
  /**
   * Largest k of pass^k.
   * @default {the fewest runs of any task}
   */
  k?: number;
  /**
   * Order of the agents in the result; agents not listed follow in order of first appearance.
   * @default {order of first appearance}
   */
  agents?: readonly string[];
}

/**
 * C(c, k) / C(n, k): the chance that k runs drawn without replacement from n,
 * of which c succeeded, all succeeded.
 */
function allSucceed(n: number, c: number, k: number): number {
  let p = 1;
  for (let i = 0; i < k; i++) p *= (c - i) / (n - i);
  return Math.max(p, 0);
}

/**
 * pass^k: mean over tasks of C(c, k) / C(n, k), where a task has n runs and c
 * successes; tasks with fewer than k runs are skipped, and `null` is returned when none is left.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { passHatK } from "./summary.ts";
 * const r = (task: string, success: boolean) => ({ task, success });
 * assertEquals(passHatK([r("a/0", true), r("a/0", false), r("a/1", true), r("a/1", true)], 2), 0.5);
 * ```
 */
export function passHatK(records: readonly Pick<EpisodeRecord, "task" | "success">[], k: number): number | null {
  if (!(Number.isInteger(k) && k >= 1)) throw new RangeError(`Cannot compute pass^${k}: k must be a positive integer`);
  const byTask = new Map<string, { n: number; c: number }>();
  for (const r of records) {
    const t = byTask.get(r.task) ?? { n: 0, c: 0 };
    t.n++;
    if (r.success) t.c++;
    byTask.set(r.task, t);
  }
  const terms = [...byTask.values()].filter((t) => t.n >= k).map((t) => allSucceed(t.n, t.c, k));
  return terms.length === 0 ? null : terms.reduce((a, b) => a + b, 0) / terms.length;
}

/**
 * Figures per agent: reliability scores over all its records, capability and mean steps over its nominal ones.
 * Records with a `user_error` (the user simulator left its script) are left out of every figure;
 * `summarizeUsage()` counts them.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import type { EpisodeRecord } from "../eval/mod.ts";
 * import { summarize } from "./summary.ts";
 * const r = (agent: string, success: boolean) => ({ agent, task: "t/1", run: 0, condition: "nominal", success }) as EpisodeRecord;
 * const summaries = summarize([r("oracle", true), r("noisy", false)], { agents: ["oracle", "noisy"] });
 * assertEquals(summaries.map((s) => [s.agent, s.accuracy]), [["oracle", 1], ["noisy", 0]]);
 * ```
 */
export function summarize(records: readonly EpisodeRecord[], options: SummarizeOptions = {}): AgentSummary[] {
  const byAgent = new Map<string, EpisodeRecord[]>();
  for (const agent of options.agents ?? []) byAgent.set(agent, []);
  for (const r of records) {
    if (r.user_error !== undefined) continue;
    const list = byAgent.get(r.agent) ?? [];
    list.push(r);
    byAgent.set(r.agent, list);
  }
  const out: AgentSummary[] = [];
  for (const [agent, all] of byAgent) {
    const list = all.filter((r) => r.condition === "nominal");
    if (list.length === 0) continue;
    const headline = headlineScores(all);
    const runs = new Map<string, number>();
    for (const r of list) runs.set(r.task, (runs.get(r.task) ?? 0) + 1);
    const k = options.k ?? Math.min(...runs.values());
    out.push({
      agent,
      episodes: list.length,
      tasks: runs.size,
      scores: Object.fromEntries(SUMMARY_SCORES.map((k) => [k, headline[k]])) as AgentSummary["scores"],
      accuracy: list.filter((r) => r.success).length / list.length,
      passHat: Array.from({ length: k }, (_, i) => passHatK(list, i + 1)),
      meanSteps: list.reduce((s, r) => s + r.steps, 0) / list.length,
    });
  }
  return out;
}

const fixed = (x: number | null, digits: number) => x === null ? "-" : x.toFixed(digits);

/**
 * An aligned text table: one row per agent, columns agent, episodes, R,
 * R_con, R_rob, R_pred, R_saf, accuracy, pass^1..pass^K and mean steps ("-"
 * for a score that cannot be computed). Ends with a newline.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { formatReport } from "./summary.ts";
 * const scores = { R: 1, R_con: 1, R_rob: null, R_pred: 1, R_saf: null };
 * assertEquals(formatReport([{ agent: "oracle", episodes: 2, tasks: 1, scores, accuracy: 1, passHat: [1, 1], meanSteps: 7 }]), "agent   episodes      R  R_con  R_rob  R_pred  R_saf  accuracy  pass^1  pass^2  mean steps\n" +
 * "oracle         2  1.000  1.000      -   1.000      -     1.000   1.000   1.000        7.00\n");
 * ```
 */
export function formatReport(summaries: readonly AgentSummary[]): string {
  const k = Math.max(0, ...summaries.map((s) => s.passHat.length));
  const header = [
    "agent",
    "episodes",
    ...SUMMARY_SCORES,
    "accuracy",
    ...Array.from({ length: k }, (_, i) => `pass^${i + 1}`),
    "mean steps",
  ];
  const rows = summaries.map((s) => [
    s.agent,
    String(s.episodes),
    ...SUMMARY_SCORES.map((k) => fixed(s.scores[k], 3)),
    fixed(s.accuracy, 3),
    ...Array.from({ length: k }, (_, i) => fixed(s.passHat[i] ?? null, 3)),
    fixed(s.meanSteps, 2),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i])).join("  ").trimEnd();
  return [header, ...rows].map(line).join("\n") + "\n";
}
