// Length robustness and runs per length class (docs/metrics.md "Long horizon"): `R_len` =
// min(Acc_longest / Acc_shortest, 1) over the length classes of one task family, per dependency
// kind, with a 95% bootstrap interval over the family's task ids; and how many runs each length
// class had (the longest tasks may run fewer times). Private to scoring/.
import type { LengthRobustness, LengthRuns } from "./_decay_types.ts";
import type { EpisodeRecord } from "./record.ts";
import { compareText, units } from "./_stats.ts";
import { percentileInterval } from "./_fit.ts";
import { byWeights, type DrawCache, resampler } from "./_draws.ts";
import { EPSILON } from "./_decay_alpha.ts";

/** A record's length class: its `length`, else its milestone total; null without either. */
export function lengthClass(r: EpisodeRecord): number | null {
  return r.length ?? r.milestones?.total ?? null;
}

/**
 * `R_len` of each family (`family`) and dependency kind (`dependency`, `"any"` for records without
 * one), both sorted, over nominal records; null when no record has a family.
 */
export function lengthRobustness(
  records: readonly EpisodeRecord[],
  options: { seed: string; resamples: number; cache?: DrawCache },
): Record<string, Record<string, LengthRobustness>> | null {
  const mine = records.filter((r) => r.family !== undefined && lengthClass(r) !== null);
  if (mine.length === 0) return null;
  const out: Record<string, Record<string, LengthRobustness>> = {};
  for (const family of [...new Set(mine.map((r) => r.family!))].sort(compareText)) {
    const own = mine.filter((r) => r.family === family);
    out[family] = {};
    for (const kind of [...new Set(own.map((r) => r.dependency ?? "any"))].sort(compareText)) {
      const seed = `${options.seed}\u001fr_len\u001f${family}\u001f${kind}`;
      out[family][kind] = familyRobustness(own.filter((r) => (r.dependency ?? "any") === kind), { ...options, seed });
    }
  }
  return out;
}

function familyRobustness(
  records: readonly EpisodeRecord[],
  options: { seed: string; resamples: number; cache?: DrawCache },
): LengthRobustness {
  const nominal = units(records.filter((r) => r.condition === "nominal"));
  const lengths = [...new Set(records.map((r) => lengthClass(r)!))].sort((a, b) => a - b);
  const ids = new Map<string, number>();
  for (const u of nominal) if (!ids.has(u.task)) ids.set(u.task, ids.size);
  // Per unit: its length's index, runs and successes.
  const rows = nominal.map((u) => ({
    cluster: ids.get(u.task)!,
    length: lengths.indexOf(lengthClass(u.runs[0])!),
    runs: u.runs.length,
    wins: u.runs.filter((r) => r.success).length,
  }));
  const accuracy = (weights: ArrayLike<number>) => {
    const n = new Float64Array(lengths.length), c = new Float64Array(lengths.length);
    for (const row of rows) {
      n[row.length] += weights[row.cluster] * row.runs, c[row.length] += weights[row.cluster] * row.wins;
    }
    return Array.from(n, (x, i) => x > 0 ? c[i] / x : NaN);
  };
  const ratio = (acc: number[]) => {
    const lo = acc[0], hi = acc[acc.length - 1];
    return acc.length < 2 || !(lo >= EPSILON) || Number.isNaN(hi) ? NaN : Math.min(hi / lo, 1);
  };
  const point = accuracy(new Float64Array(ids.size).fill(1));
  const byLength = Object.fromEntries(lengths.map((l, i) => [String(l), Number.isNaN(point[i]) ? null : point[i]]));
  const value = ratio(point);
  let reason: string | undefined;
  if (lengths.length < 2) reason = `the family has one length class (${lengths[0]})`;
  else if (Number.isNaN(point[0]) || Number.isNaN(point[point.length - 1])) {
    reason = "the shortest or the longest length class has no nominal record";
  } else if (!(point[0] >= EPSILON)) reason = `Acc_shortest is 0 (length ${lengths[0]})`;
  let ci: [number, number] | null = null;
  if (reason === undefined && options.resamples > 0) {
    const draws = new Float64Array(options.resamples), draw = resampler(options.seed, ids.size, options);
    const ratioOf = byWeights(ids.size, (weights) => ratio(accuracy(weights)));
    for (let b = 0; b < options.resamples; b++) draws[b] = ratioOf(draw(b));
    ci = percentileInterval(draws);
  }
  return {
    value: reason === undefined ? value : null,
    ci,
    shortest: lengths[0],
    longest: lengths[lengths.length - 1],
    accuracy: byLength,
    ...(reason === undefined ? {} : { reason }),
  };
}

/**
 * Episodes, task ids and runs per task (fewest and most) of each length class, by class: over the
 * records with a `length` (the long-horizon tasks), or by milestone total when none has one.
 */
export function runsByLength(records: readonly EpisodeRecord[]): Record<string, LengthRuns> {
  const byLength = new Map<number, EpisodeRecord[]>();
  const declared = records.some((r) => r.length !== undefined);
  for (const r of records) {
    const l = declared ? r.length ?? null : lengthClass(r);
    if (l === null) continue;
    let list = byLength.get(l);
    if (list === undefined) byLength.set(l, list = []);
    list.push(r);
  }
  const out: Record<string, LengthRuns> = {};
  for (const l of [...byLength.keys()].sort((a, b) => a - b)) {
    const mine = byLength.get(l)!, cells = new Map<string, number>();
    for (const r of mine) {
      const key = JSON.stringify([r.agent, r.task, r.condition, r.variant ?? null]);
      cells.set(key, (cells.get(key) ?? 0) + 1);
    }
    const counts = [...cells.values()];
    out[String(l)] = {
      episodes: mine.length,
      tasks: new Set(mine.map((r) => r.task)).size,
      runs: { min: Math.min(...counts), max: Math.max(...counts) },
    };
  }
  return out;
}
