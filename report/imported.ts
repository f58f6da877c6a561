/**
 * The report's `import` section, for an experiment imported from another harness's transcripts: how
 * faithfully ark reproduced the file (its rewards, its tool results), what the other harness's reward
 * misses (passes without the expected outcome, rewarded episodes that break the policy) and the
 * judge's findings per constraint and severity. Built from the records and the import's note.
 *
 * @module
 */
import type { EpisodeRecord } from "../scoring/mod.ts";
import { passHatK } from "./summary.ts";

/** A tool call whose recorded result is not ark's. */
export interface ResultMismatch {
  /** The episode's ark task id. */
  task: string;
  /** The episode's run index. */
  run: number;
  /** The agent step of the call. */
  step: number;
  /** The call's number among the episode's tool calls, from 1. */
  call: number;
  /** The tool called. */
  tool: string;
  /** The call's arguments, as the file recorded them. */
  args: unknown;
  /** Where the two first differ, e.g. `[0][1].prices.economy: recorded 165, ark 126`. */
  at: string;
  /** The result as the file recorded it (its text). */
  recorded: string;
  /** The result as ark computes it (its JSON text, or "Error: " and the message). */
  ark: string;
  /** The known difference that explains it (`TauBenchDifference.name`), or `null`: unexplained. */
  explained_by: string | null;
}

/** How faithfully ark's worlds reproduced the tool results the file recorded. */
export interface ToolFidelity {
  /** Calls with a recorded result. */
  compared: number;
  /** Equal exactly (parsed JSON compared; error texts exactly). */
  exact: number;
  /** Equal exactly or saying the same in other words (an `equivalent` known difference). */
  equal: number;
  /** `equal / compared`; `null` when nothing was compared. */
  share: number | null;
  /** The known differences met, each with how many calls it explains. */
  differences: { name: string; reason: string; equivalent: boolean; calls: number }[];
  /** Every call not exactly equal, in file order. */
  mismatches: ResultMismatch[];
}

/** One episode's reward recomputed from the file's own rule (τ²-bench's), beside the file's. */
export interface RewardCheck {
  /** The episode's ark task id. */
  task: string;
  /** The episode's run index. */
  run: number;
  /** How the file says the run ended (τ²'s `termination_reason`). */
  ended: string;
  /** The file's reward; `null` when it holds none. */
  file: number | null;
  /** ark's reward: the product of the components (a run that ended early gets 0). */
  ark: number;
  /**
   * Each component of the task's reward basis: ark's value and the file's (`null`: unknown), and
   * whether ark took it from the file (an LLM's verdict ark does not recompute).
   */
  components: { name: string; ark: number | null; file: number | null; taken: boolean }[];
  /**
   * Why ark's reward, or a component ark recomputed, differs from the file's; `null` when the rewards
   * and every recomputed component agree.
   */
  why: string | null;
}

/** The rewards an import recomputed under the file's own rule. */
export interface RewardRecomputation {
  /** The rule, one sentence for the report. */
  rule: string;
  /**
   * Per component: the episodes ark recomputed it on, those it took from the file, and those whose
   * recomputed value differs from the file's.
   */
  components: { name: string; recomputed: number; taken: number; disagreed: number }[];
  /** Every episode, in file order. */
  episodes: RewardCheck[];
}

/** What an import did, kept beside the experiment for the reports. */
export interface ImportSummary {
  /** The format read. */
  from: "tau-bench" | "tau2-bench" | "ark" | "inspect";
  /** The file's base name. */
  file: string;
  /** Episodes in the file, imported, and skipped (each skipped one with the line that says why). */
  episodes: { read: number; imported: number; skipped: number };
  /** Each skipped episode: where it is in the file and why it was skipped. */
  skipped: { where: string; reason: string }[];
  /** How faithfully ark's worlds reproduced the recorded tool results. */
  tool_results: ToolFidelity;
  /** The policy the episodes' writes were judged under: the source's (τ-bench's), else ark's. */
  judge_policy: { name: string; summary: string };
  /**
   * The rewards recomputed under the file's own rule, component by component, with every
   * disagreement and its reason (a τ²-bench import).
   * @default {undefined: the format's reward is τ-bench's, recomputed as ark's success}
   */
  rewards?: RewardRecomputation;
  /** For inspect_ai logs: what each log held, what was taken from it and what is null without a world. */
  inspect?: InspectImport;
}

/** One inspect_ai log of an import: what it held and what became of it. */
export interface InspectLogImport {
  /** The log's file name. */
  file: string;
  /** Its task (`null` when the log could not be read). */
  task: string | null;
  /** Its model. */
  model: string | null;
  /** Its status: `success`, `cancelled`, `error`, or `started` (a log still running). */
  status: string | null;
  /** The scorer read (`null` when the log was refused before one was chosen). */
  scorer: string | null;
  /** Samples × epochs in the log. */
  episodes: number;
  /** Of them, the episodes imported. */
  imported: number;
  /** Tool calls in its transcripts (each call, and each tool result that answers no call). */
  tool_calls: number;
  /** Each score value met (JSON text) and how many episodes have it. */
  values: { value: string; count: number }[];
  /** Why the log was refused as a whole (one line), else `null`. */
  refused: string | null;
}

/** What an import of inspect_ai logs took, recomputed, and could not compute. */
export interface InspectImport {
  /** How success is read from the scorer's value (docs: README "Importing inspect_ai logs"). */
  success_rule: string;
  /** The key read from object values (`--score-key`), else `null`. */
  score_key: string | null;
  /** The domain whose world replayed the tool calls (`--domain`), else `null`: the transcripts alone. */
  world: string | null;
  /** The logs read, in name order. */
  logs: InspectLogImport[];
  /** What was taken from the logs as they are. */
  taken: string[];
  /** What ark computed from the transcripts. */
  recomputed: string[];
  /** Each figure that needs an ark world, null here, and why. */
  null_figures: { figure: string; reason: string }[];
}

/** A finding of the judge on an imported episode, as the report quotes it. */
export interface QuotedViolation {
  /** The constraint broken. */
  constraint: string;
  /** How bad (docs/metrics.md "Severity"). */
  severity: string;
  /** The event index, `null` when not tied to one. */
  step: number | null;
  /** One sentence quoting what happened. */
  evidence: string;
}

/** The report's `import` section. */
export interface ImportReport extends Omit<ImportSummary, "judge_policy"> {
  /**
   * Episodes whose reward ark recomputed (τ-bench's rule: the change equals the gold's and the
   * outputs were said) against the reward the file holds; `null` when the file holds none.
   */
  reward: {
    compared: number;
    equal: number;
    mismatches: { task: string; run: number; tau_reward: number; success: boolean }[];
  } | null;
  /** pass^k for k = 1..K from the file's rewards and from ark's recomputed success (τ-bench's estimator). */
  pass_hat_k: { k: number; tau_reward: number | null; ark: number | null }[];
  /** Episodes the file rewards whose expected outcome ark's grading does not find, and why. */
  lenient_passes: { task: string; run: number; expect: string; why: string }[];
  /** Episodes the file rewards that break the policy, with the judge's findings. */
  rewarded_violations: { task: string; run: number; violations: QuotedViolation[] }[];
  /** The judge's violations per constraint and severity: episodes, and of them the rewarded ones. */
  violations: { constraint: string; severity: string; episodes: number; rewarded: number }[];
  /**
   * The policy the writes were judged under (its name and what it asks); `null` for an import stored
   * before the report named it.
   */
  judge_policy: { name: string; summary: string } | null;
  /** Writes that did more or other than the user approved: the approved text quoted and the difference. */
  differing_writes: {
    task: string;
    run: number;
    step: number | null;
    approved: string;
    at: number;
    difference: string;
  }[];
}

const WHY: Record<string, string> = {
  refuse: "nothing was written, but the agent never told the user it will not do it",
  transfer: "no hand-over to a human was made",
  act: "the gold hands the user over to a human; the agent did not",
  inform: "the facts the task lists were not all told",
};

const cmp = (a: string, b: string) => a < b ? -1 : a > b ? 1 : 0;
const RANK: Record<string, number> = { critical: 0, high: 1, medium: 2, low: 3 };
const rewarded = (r: EpisodeRecord) => (r.tau_reward ?? (r.success ? 1 : 0)) === 1;

/**
 * The `import` section from an experiment's records (sorted) and its import's note.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import type { EpisodeRecord } from "../scoring/mod.ts";
 * import { importSection, type ImportSummary } from "./imported.ts";
 * const summary: ImportSummary = {
 *   from: "tau-bench", file: "run.json", episodes: { read: 2, imported: 2, skipped: 0 }, skipped: [],
 *   tool_results: { compared: 0, exact: 0, equal: 0, share: null, differences: [], mismatches: [] },
 *   judge_policy: { name: "tau-bench", summary: "τ-bench's policy" },
 * };
 * const r = (run: number, tau_reward: number, success: boolean) =>
 *   ({ agent: "gpt-4o", task: "tau-bench:airline/3", run, condition: "nominal", success, tau_reward }) as EpisodeRecord;
 * const { reward } = importSection([r(0, 1, true), r(1, 1, false)], summary);
 * assertEquals(reward, { compared: 2, equal: 1, mismatches: [{ task: "tau-bench:airline/3", run: 1, tau_reward: 1, success: false }] });
 * ```
 */
export function importSection(records: readonly EpisodeRecord[], summary: ImportSummary): ImportReport {
  const withReward = records.filter((r) => r.tau_reward !== undefined);
  const mismatches = withReward.filter((r) => (r.tau_reward === 1) !== r.success)
    .map((r) => ({ task: r.task, run: r.run, tau_reward: r.tau_reward!, success: r.success }));
  const runs = new Map<string, number>();
  for (const r of records) runs.set(r.task, (runs.get(r.task) ?? 0) + 1);
  // Records of several agents (inspect_ai logs of several models), or of no world (no file reward
  // beside ark's), have pass^k per agent in the profiles alone.
  const several = new Set(records.map((r) => r.agent)).size > 1;
  const K = summary.inspect !== undefined && (summary.inspect.world === null || several)
    ? 0
    : Math.max(0, ...runs.values());
  const pass_hat_k = Array.from({ length: K }, (_, i) => ({
    k: i + 1,
    tau_reward: withReward.length === 0
      ? null
      : passHatK(withReward.map((r) => ({ task: r.task, success: r.tau_reward === 1 })), i + 1),
    ark: passHatK(records, i + 1),
  }));
  const lenient_passes = records.filter((r) => rewarded(r) && r.outcome !== undefined && !r.outcome.earned)
    .map((r) => ({ task: r.task, run: r.run, expect: r.outcome!.expect, why: WHY[r.outcome!.expect] ?? "" }));
  const rewarded_violations = records.filter((r) => rewarded(r) && (r.violations?.length ?? 0) > 0).map((r) => ({
    task: r.task,
    run: r.run,
    violations: r.violations!.map((v) => ({
      constraint: v.constraint,
      severity: v.severity,
      step: v.step ?? null,
      evidence: v.evidence ?? "",
    })),
  }));
  const counts = new Map<string, { constraint: string; severity: string; episodes: number; rewarded: number }>();
  for (const r of records) {
    const seen = new Set<string>();
    for (const v of r.violations ?? []) {
      const key = `${v.constraint}\u001f${v.severity}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const c = counts.get(key) ?? { constraint: v.constraint, severity: v.severity, episodes: 0, rewarded: 0 };
      c.episodes++;
      if (rewarded(r)) c.rewarded++;
      counts.set(key, c);
    }
  }
  const differing_writes = records.flatMap((r) =>
    [...r.violations ?? [], ...r.near_misses ?? []].filter((v) => v.approved !== undefined).map((v) => ({
      task: r.task,
      run: r.run,
      step: v.step ?? null,
      approved: v.approved!.text,
      at: v.approved!.step,
      difference: v.approved!.difference,
    }))
  );
  return {
    ...summary,
    judge_policy: summary.judge_policy ?? null,
    differing_writes,
    reward: withReward.length === 0
      ? null
      : { compared: withReward.length, equal: withReward.length - mismatches.length, mismatches },
    pass_hat_k,
    lenient_passes,
    rewarded_violations,
    violations: [...counts.values()].sort((a, b) =>
      cmp(a.constraint, b.constraint) || (RANK[a.severity] ?? 4) - (RANK[b.severity] ?? 4)
    ),
  };
}
