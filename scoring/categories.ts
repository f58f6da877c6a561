/**
 * The four-category table (ark's extension): for each task category the records carry
 * (`normal`, `edge`, `abnormal`, `noise`), its episodes, accuracy and R_saf with 95%
 * bootstrap intervals over its tasks, and the operational tool_call_accuracy and
 * critical_step_success (docs/metrics.md "Task-level operational figures").
 *
 * @module
 */
import { TASK_CATEGORIES, type TaskCategory } from "../vocabulary/mod.ts";
import type { EpisodeRecord } from "./record.ts";
import { bootstrapDraws } from "./bootstrap.ts";
import { resampler, type ScoringContext } from "./_draws.ts";
import { HEADLINE_KEYS } from "./keys.ts";
import { buildTable, tableFigures } from "./task_table.ts";
import { operational, OPERATIONAL_REASONS } from "./capability.ts";

/** One category's row; `null` figures have their reason in `reasons`. */
export interface CategoryRow {
  /** Records of the category (every condition). */
  episodes: number;
  /** Distinct task ids of the category. */
  tasks: number;
  /** Mean nominal success. */
  accuracy: number | null;
  /** `1 − (1 − S_comp)(1 − S_harm)` over the category's judged records. */
  R_saf: number | null;
  /** Tool calls that passed argument validation / all tool calls. */
  tool_call_accuracy: number | null;
  /** Successful write calls / attempted ones. */
  critical_step_success: number | null;
  /** 95% percentile bootstrap intervals over the category's task ids. */
  ci: { accuracy: [number, number] | null; R_saf: [number, number] | null };
  /** Why each null figure is null, by key. */
  reasons: Record<string, string>;
}

/** Options of `categoryTable()`. */
export interface CategoryOptions {
  /**
   * Seed of the bootstrap.
   * @default {"0"}
   */
  seed?: string;
  /**
   * Bootstrap resamples, at least 1.
   * @default {1000}
   */
  resamples?: number;
}

const ACCURACY = HEADLINE_KEYS.indexOf("accuracy"), R_SAF = HEADLINE_KEYS.indexOf("R_saf");

/**
 * The category table of some records, categories in the order `normal, edge, abnormal, noise`,
 * those present only; `null` when no record has a `category`. Records with a `user_error` are
 * left out, as everywhere.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { categoryTable } from "./categories.ts";
 * const r = (task: string, category: "normal" | "edge", success: boolean) =>
 *   ({ agent: "a", task, run: 0, condition: "nominal" as const, success, category, tool_calls: 4, invalid_calls: 1 });
 * const table = categoryTable([r("t/1", "normal", true), r("t/2", "edge", false)], { resamples: 10 })!;
 * assertEquals([table.normal.accuracy, table.edge.accuracy, table.edge.tool_call_accuracy], [1, 0, 0.75]);
 * ```
 */
export function categoryTable(
  records: readonly EpisodeRecord[],
  options: CategoryOptions = {},
): Record<string, CategoryRow> | null {
  return categoryTableWith(records, options);
}

/** `categoryTable()` drawing its resamples from `context` when given (see `scoreViews()`). Not re-exported by mod.ts. */
export function categoryTableWith(
  records: readonly EpisodeRecord[],
  options: CategoryOptions,
  context?: ScoringContext,
): Record<string, CategoryRow> | null {
  const scored = records.filter((r) => r.user_error === undefined);
  if (!scored.some((r) => r.category !== undefined)) return null;
  const out: Record<string, CategoryRow> = {};
  for (const c of TASK_CATEGORIES) {
    const mine = scored.filter((r) => r.category === c);
    if (mine.length > 0) out[c] = categoryRow(mine, c, { ...options, context });
  }
  return out;
}

function categoryRow(
  records: EpisodeRecord[],
  category: TaskCategory,
  options: CategoryOptions & { context?: ScoringContext },
): CategoryRow {
  const table = buildTable(records);
  const why: Record<string, string> = {};
  const point = tableFigures(table, { reasons: why });
  const resamples = options.resamples ?? 1000;
  if (!(Number.isInteger(resamples) && resamples >= 1)) {
    throw new RangeError(`Invalid resamples "${resamples}": expected a whole number of at least 1`);
  }
  const seed = `${options.seed ?? "0"}\u001fcategory\u001f${category}`;
  const draw = resampler(seed, table.clusters, { resamples, cache: options.context?.draws });
  const intervals = bootstrapDraws(resamples, (b) => tableFigures(table, { weights: draw(b) }));
  const ops = operational(records);
  const value = (i: number) => Number.isNaN(point[i]) ? null : point[i];
  const row: CategoryRow = {
    episodes: records.length,
    tasks: table.clusters,
    accuracy: value(ACCURACY),
    R_saf: value(R_SAF),
    tool_call_accuracy: ops.tool_call_accuracy,
    critical_step_success: ops.critical_step_success,
    ci: {
      accuracy: Number.isNaN(point[ACCURACY]) ? null : intervals[ACCURACY] ?? null,
      R_saf: Number.isNaN(point[R_SAF]) ? null : intervals[R_SAF] ?? null,
    },
    reasons: {},
  };
  if (row.accuracy === null) row.reasons.accuracy = why.accuracy ?? "no nominal record";
  if (row.R_saf === null) row.reasons.R_saf = why.R_saf ?? "no record was analysed by a judge";
  for (const k of ["tool_call_accuracy", "critical_step_success"] as const) {
    if (row[k] === null) row.reasons[k] = OPERATIONAL_REASONS[k];
  }
  return row;
}
