// The long-horizon figures that are not read off the decay curve (docs/metrics.md "Long horizon"):
// completion share (mean achieved / total) and meltdown (rate, and median onset s / steps), each
// with a 95% percentile bootstrap interval over task ids. Private to scoring/.
import type { LongHeadlineName } from "./_decay_types.ts";
import type { EpisodeRecord } from "./record.ts";
import { compareText, units } from "./_stats.ts";
import { percentileInterval } from "./_fit.ts";
import { byWeights, type DrawCache, resampler } from "./_draws.ts";

/** The calls in a row that fail or repeat the previous one before an episode counts as melting down. */
export const MELTDOWN_RUN = 3;

/** The figures of one group; null where undefined, the reason in `reasons`. */
export interface LongFigures {
  completion_share: number | null;
  meltdown_rate: number | null;
  meltdown_onset: number | null;
  ci: Record<LongName, [number, number] | null>;
  reasons: Record<string, string>;
}

/** One of `LONG_NAMES`. */
export type LongName = LongHeadlineName;

/** The figures `longFigures()` gives, in the order reasons list them. */
export const LONG_NAMES: readonly LongName[] = ["completion_share", "meltdown_rate", "meltdown_onset"];

/**
 * The step (from 1) at which an episode with these `step_outcomes` melts down, or null: the first
 * tool call that begins at least `MELTDOWN_RUN` consecutive tool calls (steps without a call in
 * between do not break the run) that fail (`x`) or repeat the previous call (`r`), with no
 * milestone first reached (an upper-case letter) after it.
 */
export function meltdownStep(outcomes: string): number | null {
  const calls: number[] = [];
  let lastProgress = -1;
  for (let i = 0; i < outcomes.length; i++) {
    const c = outcomes[i];
    if (c !== "m" && c !== "M") calls.push(i);
    if (c !== c.toLowerCase()) lastProgress = i;
  }
  const bad = (i: number) => outcomes[i] === "x" || outcomes[i] === "X" || outcomes[i] === "r" || outcomes[i] === "R";
  let run = 0;
  // Scan backwards: run = bad calls in a row from call j on.
  const startsRun = new Array<boolean>(calls.length).fill(false);
  for (let j = calls.length - 1; j >= 0; j--) {
    run = bad(calls[j]) ? run + 1 : 0;
    startsRun[j] = run >= MELTDOWN_RUN;
  }
  for (let j = 0; j < calls.length; j++) if (startsRun[j] && lastProgress <= calls[j]) return calls[j] + 1;
  return null;
}

// Per record in a fixed order: its task id's index, completion share (NaN: none) and meltdown onset
// (NaN: did not melt down; undefined outcomes: not counted).
interface Entries {
  cluster: Int32Array;
  share: Float64Array;
  counted: Uint8Array;
  onset: Float64Array;
  clusters: number;
}

function entriesOf(records: readonly EpisodeRecord[]): Entries {
  const ids = new Map<string, number>(), cluster: number[] = [], share: number[] = [];
  const counted: number[] = [], onset: number[] = [];
  const ordered = units(records).flatMap((u) => u.runs);
  for (const task of [...new Set(ordered.map((r) => r.task))].sort(compareText)) ids.set(task, ids.size);
  for (const r of ordered) {
    cluster.push(ids.get(r.task)!);
    const m = r.milestones;
    share.push(m !== undefined && m.achieved !== undefined && m.total > 0 ? m.achieved / m.total : NaN);
    counted.push(r.step_outcomes === undefined ? 0 : 1);
    const s = r.step_outcomes === undefined ? null : meltdownStep(r.step_outcomes);
    const steps = r.steps ?? r.step_outcomes?.length ?? 0;
    onset.push(s === null || steps === 0 ? NaN : Math.min(1, s / steps));
  }
  return {
    cluster: Int32Array.from(cluster),
    share: Float64Array.from(share),
    counted: Uint8Array.from(counted),
    onset: Float64Array.from(onset),
    clusters: ids.size,
  };
}

// The three figures with every task id weighted; NaN where undefined.
function figures(e: Entries, weights: ArrayLike<number>, onsets: { value: number; cluster: number }[]): number[] {
  let shareSum = 0, shareN = 0, n = 0, melted = 0;
  for (let i = 0; i < e.cluster.length; i++) {
    const w = weights[e.cluster[i]];
    if (w === 0) continue;
    if (!Number.isNaN(e.share[i])) shareSum += w * e.share[i], shareN += w;
    if (e.counted[i] === 1) n += w, melted += Number.isNaN(e.onset[i]) ? 0 : w;
  }
  return [shareN > 0 ? shareSum / shareN : NaN, n > 0 ? melted / n : NaN, weightedMedian(onsets, weights)];
}

// The median of the values (sorted) each repeated its cluster's weight times; NaN when none.
function weightedMedian(sorted: readonly { value: number; cluster: number }[], weights: ArrayLike<number>): number {
  let total = 0;
  for (const o of sorted) total += weights[o.cluster];
  if (total === 0) return NaN;
  const at = (k: number) => {
    let seen = 0;
    for (const o of sorted) if ((seen += weights[o.cluster]) > k) return o.value;
    return NaN;
  };
  return total % 2 === 1 ? at((total - 1) / 2) : (at(total / 2 - 1) + at(total / 2)) / 2;
}

/** The completion share and meltdown figures of some records with their intervals (none at 0 resamples). */
export function longFigures(
  records: readonly EpisodeRecord[],
  options: { seed: string; resamples: number; cache?: DrawCache },
): LongFigures {
  const e = entriesOf(records);
  const onsets = Array.from(e.onset, (value, i) => ({ value, cluster: e.cluster[i] }))
    .filter((o) => !Number.isNaN(o.value)).sort((a, b) => a.value - b.value || a.cluster - b.cluster);
  const point = figures(e, new Float64Array(e.clusters).fill(1), onsets);
  const draws = LONG_NAMES.map(() => new Float64Array(options.resamples));
  const draw = resampler(`${options.seed}\u001flong`, e.clusters, options);
  const figuresOf = byWeights(e.clusters, (weights) => figures(e, weights, onsets));
  // Without records every figure is undefined, and no interval is read.
  for (let b = 0; b < (e.clusters > 0 ? options.resamples : 0); b++) {
    const values = figuresOf(draw(b));
    values.forEach((v, k) => draws[k][b] = v);
  }
  const why: Record<LongName, string> = {
    completion_share: "no record has milestones with achieved and a total above 0",
    meltdown_rate: "no record has step_outcomes",
    meltdown_onset: e.counted.includes(1) ? "no episode melted down" : "no record has step_outcomes",
  };
  const value = (k: number) => Number.isFinite(point[k]) ? point[k] : null;
  const ci = {} as LongFigures["ci"], reasons: Record<string, string> = {};
  LONG_NAMES.forEach((name, k) => {
    ci[name] = value(k) !== null && options.resamples > 0 ? percentileInterval(draws[k]) : null;
    if (value(k) === null) reasons[name] = why[name];
  });
  return { completion_share: value(0), meltdown_rate: value(1), meltdown_onset: value(2), ci, reasons };
}
