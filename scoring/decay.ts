/**
 * Long-horizon reliability (METRICS.md "Long horizon"): the decay curve of
 * milestones reached with a bootstrap band over tasks, the hazard and the
 * fragile step, the decay rate, the steady state, the mean path length of
 * failures, variance amplification and error recovery; overall, per task
 * length class and per condition.
 *
 * Within one length class the curve is exactly METRICS.md's fraction of episodes
 * with `reached ≥ t`. Where classes are mixed (the overall and per-condition
 * views) it is the product of `1 − h(t)` over the episodes still at risk, so the
 * end of a shorter class is not read as failures (a perfect agent stays at 1).
 *
 * The fragile step is per condition, never pooled: a group that mixes conditions
 * (overall, each length class) takes it from its nominal records.
 *
 * @module
 */
import type { EpisodeRecord } from "./record.ts";
import { prng, type Unit, units } from "./_stats.ts";
import { bootstrapOptions, drawWeights, fitDecayRate, fitSteadyState, percentileInterval } from "./_fit.ts";

/** Options of `decayProfile()`. */
export interface DecayOptions {
  /**
   * Seed of the bootstrap.
   * @default {"0"}
   */
  seed?: string;
  /**
   * Bootstrap resamples of task ids; 0 leaves the bands and intervals `null`.
   * @default {1000}
   */
  resamples?: number;
}

/** One point of the decay curve: `R(t)` with its 95% band. */
export interface CurvePoint {
  t: number;
  R: number;
  lo: number | null;
  hi: number | null;
}

/**
 * `h(t) = 1 − R(t)/R(t−1)`; `at_risk` = episodes that reached t − 1 and had a milestone t to
 * attempt (in a group mixing lengths, those that completed a task of t − 1 milestones are out).
 */
export interface HazardPoint {
  /** Milestone number, from 1. */
  t: number;
  /** `h(t)`; null when no episode was at risk. */
  h: number | null;
  /** Episodes at risk at t. */
  at_risk: number;
  /** Wilson 95% interval of h(t) from the episodes at risk; null when none is. */
  ci: [number, number] | null;
}

/**
 * The milestone with the highest hazard among those at least 10 episodes attempted, under one
 * condition (never pooled across conditions).
 */
export interface FragileStep {
  /** Milestone number, from 1. */
  t: number;
  /** Its label, when every record that lists `milestone_labels` (else `milestone_tools`) names the same one. */
  label: string | null;
  /** `h(t)` over the condition's episodes. */
  hazard: number;
  /** Wilson 95% interval of the hazard. */
  ci: [number, number] | null;
  /** The condition's episodes at risk at t (at least `MIN_AT_RISK`). */
  at_risk: number;
  /** The condition whose records it was computed from. */
  condition: EpisodeRecord["condition"];
}

/** The fit `R(t) ≈ R∞ + (1 − R∞) e^{−λ t}`. */
export interface SteadyState {
  /** R∞ in [0, 1]. */
  value: number;
  /** λ ≥ 0 of this fit; `null` when infinite (the curve drops to R∞ in one step). */
  lambda: number | null;
  /** Root mean square residual over the curve's points t = 0..max. */
  rmse: number;
}

/** The decay figures of one group of episodes; `null` where undefined, with the reason in `reasons`. */
export interface DecayGroup {
  /** Episodes (records with `milestones`). */
  n: number;
  /** Task ids: what the bootstrap resamples. */
  tasks: number;
  /** `R(t)` for t = 0..the largest milestone total; empty without episodes. */
  curve: CurvePoint[];
  /** For t = 1..max, over every record of the group. */
  hazard: HazardPoint[];
  /**
   * Under one condition: a group that mixes conditions takes it from its nominal records (or its
   * only condition's), else it is null with the reason; `by_condition.<c>` from c's records.
   */
  fragile_step: FragileStep | null;
  /** λ ≥ 0 of `ln R(t) ≈ −λ t`. */
  lambda: number | null;
  /** `e^{−λ}` in [0, 1]; 0 when λ is infinite. */
  per_step_reliability: number | null;
  r_inf: SteadyState | null;
  /** Mean `reached` of the failed episodes, in [0, max]. */
  mean_path_length: number | null;
  /** Mean variance amplification α_t over tasks and steps, ≥ −1 (> 0: runs drift apart). */
  alpha: number | null;
  /** Share of episodes with faults that succeeded. */
  error_recovery_rate: number | null;
  /** Mean extra steps from an injected fault to the next on-plan action, ≥ 0. */
  recovery_cost: number | null;
  /** 95% percentile bootstrap intervals `[lo, hi]` over tasks. */
  ci: Record<HeadlineName, [number, number] | null>;
  /** Why each `null` is null, keyed by field (`"band"` for the curve's lo/hi). */
  reasons: Record<string, string>;
}

/** The figures that carry a bootstrap interval. */
export type HeadlineName =
  | "per_step_reliability"
  | "r_inf"
  | "mean_path_length"
  | "alpha"
  | "error_recovery_rate"
  | "recovery_cost";

const HEADLINES: readonly HeadlineName[] = [
  "per_step_reliability",
  "r_inf",
  "mean_path_length",
  "alpha",
  "error_recovery_rate",
  "recovery_cost",
];

/** The decay figures overall, per task length class (milestone total) and per condition. */
export interface DecayProfile extends DecayGroup {
  by_length: Record<string, DecayGroup>;
  by_condition: Record<string, DecayGroup>;
}

/** A fragile step needs at least this many episodes to have attempted it. */
export const MIN_AT_RISK = 10;
/** z of a two-sided 95% interval. */
const Z95 = 1.959963984540054;
/** Variances at or below METRICS.md's ε count as 0, so rounding noise between equal runs is not amplification. */
const EPSILON = 1e-8;
const CONDITIONS = ["nominal", "fault", "env", "prompt"] as const;

// The sums a cell keeps after its histogram of `reached`.
const SUMS = ["failed", "failedReached", "faulted", "recovered", "recoverySum", "recoveryCount"] as const;
type Tally = Record<(typeof SUMS)[number] | "n" | "alphaSum" | "alphaCount", number>;

// The records of one milestone total under one condition. Every cell keeps its histogram of
// `reached` (total + 1 slots) and its SUMS in one accumulator vector, from `base` on.
interface Cell {
  total: number;
  condition: string;
  base: number;
  records: EpisodeRecord[];
  /** Indexes of the groups it belongs to. */
  groups: number[];
  /** Milestone index → the one label its records name there, null if they disagree, undefined if none does. */
  labels: Map<number, string | null | undefined>;
}

// Overall, one length class or one condition: a union of cells. Variance amplification is a
// ratio within a task, so it does not add up over cells: each group has its own two slots
// (sum and count of α_t) at `alpha`.
interface Group {
  key: string;
  cells: Cell[];
  maxT: number;
  alpha: number;
  tasks: number;
  diverged: boolean;
}

/**
 * The decay profile of the records that carry `milestones` (others are ignored).
 *
 * The bootstrap resamples task ids with replacement, so all runs of a task
 * (every agent, every condition) move together, and one resample serves every
 * group, so the groups' bands are jointly consistent; a percentile interval
 * skips the resamples where its figure is undefined (as for a group none of
 * whose tasks was drawn). Variance amplification is per task, i.e. one agent's
 * runs of one task id: `V_t` is the population variance of `d_t` over the runs
 * whose `divergence` reaches t (α_t is a ratio of variances, so the divisor
 * cancels whenever the same runs count at t and t + 1), and α pools every
 * (task, t) with `V_t > 1e-8`. The same records and seed give the same digits
 * in any record order.
 *
 * @example
 * ```ts
 * import { decayProfile } from "./decay.ts";
 * const r = (task: string, run: number, reached: number) =>
 *   ({ agent: "a", task, run, condition: "nominal" as const, success: reached === 2, milestones: { total: 2, reached } });
 * const p = decayProfile([r("t/0", 0, 2), r("t/0", 1, 1), r("t/1", 0, 0), r("t/1", 1, 2)], { resamples: 100 });
 * p.curve.map((c) => c.R); // [4/4, 3/4, 2/4] = [1, 0.75, 0.5]
 * ```
 */
export function decayProfile(records: readonly EpisodeRecord[], options: DecayOptions = {}): DecayProfile {
  const { seed, resamples } = bootstrapOptions(options, "the decay curve");
  const kept = records.filter((r) => r.milestones !== undefined);
  if (kept.length === 0) return { ...emptyGroup("no record has milestones"), by_length: {}, by_condition: {} };
  const { groups, size, cellOf } = layout(kept);
  const rows = taskRows(units(kept), groups, cellOf);

  // The point estimate is the resample that draws every task once.
  const acc = new Float64Array(size), weights = new Int32Array(rows.clusters).fill(1);
  accumulate(rows, weights, acc);
  const points = groups.map((g) => {
    const survivors = new Float64Array(g.maxT + 1), completed = new Float64Array(g.maxT + 1);
    return { survivors, completed, tally: groupTally(g, acc, survivors, completed), fragile: fragileOf(g, acc) };
  });

  const boots = groups.map((g) => ({
    columns: new Float64Array((g.maxT + 1) * resamples),
    draws: Object.fromEntries(HEADLINES.map((h) => [h, new Float64Array(resamples)])),
    survivors: new Float64Array(g.maxT + 1),
    completed: new Float64Array(g.maxT + 1),
    curve: new Float64Array(g.maxT + 1),
  }));
  const random = prng(`${seed}\u001fdecay`);
  for (let b = 0; b < resamples; b++) {
    accumulate(rows, drawWeights(random, weights), acc);
    groups.forEach((g, k) => {
      const { columns, draws, survivors, completed, curve } = boots[k];
      const s = groupTally(g, acc, survivors, completed);
      productLimit(survivors, completed, curve);
      // NaN where the resample drew no task of this group: the percentiles skip it.
      for (let t = 0; t <= g.maxT; t++) columns[t * resamples + b] = curve[t];
      const v = s.n > 0 ? headlines(curve, s).values : null;
      for (const h of HEADLINES) draws[h][b] = v === null ? NaN : v[h];
    });
  }
  const summary = (k: number) => summarize(groups[k], points[k], boots[k], resamples);
  const keyed = (prefix: string) =>
    Object.fromEntries(
      groups.flatMap((g, k) => g.key.startsWith(prefix) ? [[g.key.slice(prefix.length), summary(k)]] : []),
    );
  return { ...summary(0), by_length: keyed("length/"), by_condition: keyed("condition/") };
}

// The cells (by total, then condition), the groups (overall, lengths, conditions) and the vector's size.
function layout(records: readonly EpisodeRecord[]) {
  const byTotal = new Map<number, Map<string, Cell>>();
  const cellOf = (r: EpisodeRecord) => byTotal.get(r.milestones!.total)!.get(r.condition)!;
  for (const r of records) {
    const { total, reached } = r.milestones!;
    if (reached > total) {
      throw new RangeError(
        `Cannot score the milestones of task "${r.task}" run ${r.run}: reached ${reached} exceeds total ${total}`,
      );
    }
    let byCondition = byTotal.get(total), cell = byCondition?.get(r.condition);
    if (byCondition === undefined) byTotal.set(total, byCondition = new Map());
    if (cell === undefined) {
      byCondition.set(
        r.condition,
        cell = { total, condition: r.condition, base: 0, records: [], groups: [], labels: new Map() },
      );
    }
    cell.records.push(r);
  }
  const order = (c: string) => CONDITIONS.indexOf(c as typeof CONDITIONS[number]);
  const cells = [...byTotal.values()].flatMap((m) => [...m.values()]).sort((a, b) =>
    a.total - b.total || order(a.condition) - order(b.condition)
  );
  let size = 0;
  for (const c of cells) c.base = size, size += c.total + 1 + SUMS.length;
  const group = (key: string, members: Cell[]): Group => {
    const alpha = size;
    size += 2;
    return { key, cells: members, maxT: Math.max(...members.map((c) => c.total)), alpha, tasks: 0, diverged: false };
  };
  const lengths = [...new Set(cells.map((c) => c.total))];
  const groups = [
    group("all", cells),
    ...lengths.map((l) => group(`length/${l}`, cells.filter((c) => c.total === l))),
    ...CONDITIONS.filter((x) => cells.some((c) => c.condition === x))
      .map((x) => group(`condition/${x}`, cells.filter((c) => c.condition === x))),
  ];
  groups.forEach((g, k) => g.cells.forEach((c) => c.groups.push(k)));
  return { groups, size, cellOf };
}

// Each task's (one agent's runs of one task id) contribution as sparse (slot, value) entries of the
// accumulator vector, in task order; `cluster` is the index of its task id, the unit of resampling.
interface Rows {
  offsets: Int32Array;
  slots: Int32Array;
  values: Float64Array;
  cluster: Int32Array;
  clusters: number;
}

function taskRows(tasks: readonly Unit[], groups: Group[], cellOf: (r: EpisodeRecord) => Cell): Rows {
  const offsets = [0], slots: number[] = [], values: number[] = [], cluster: number[] = [];
  const seen: (string | null)[] = groups.map(() => null), ids = new Map<string, number>();
  for (const { task, runs } of tasks) {
    if (!ids.has(task)) ids.set(task, ids.size);
    cluster.push(ids.get(task)!);
    const row = new Map<number, number>();
    const add = (slot: number, value: number) => row.set(slot, (row.get(slot) ?? 0) + value);
    const runCells = runs.map(cellOf), present = new Set(runCells.flatMap((c) => c.groups));
    runs.forEach((r, i) => {
      const { total, reached } = r.milestones!, { base } = runCells[i], sums = base + total + 1;
      add(base + reached, 1);
      if (!r.success) add(sums, 1), add(sums + 1, reached);
      if ((r.faults ?? 0) > 0) add(sums + 2, 1), add(sums + 3, r.success ? 1 : 0);
      for (const steps of r.recovery_steps ?? []) add(sums + 4, steps), add(sums + 5, 1);
    });
    const diverged = runs.some((r) => r.divergence !== undefined);
    const whole = diverged ? amplification(runs) : null;
    for (const k of [...present].sort((a, b) => a - b)) {
      const g = groups[k];
      if (seen[k] !== task) g.tasks++, seen[k] = task;
      if (whole === null) continue;
      const mine = runs.filter((_, i) => runCells[i].groups.includes(k));
      // A task usually has one length, whose group then holds all its runs.
      const { alphaSum, alphaCount, diverged: some } = mine.length === runs.length ? whole : amplification(mine);
      g.diverged ||= some;
      if (alphaCount > 0) add(g.alpha, alphaSum), add(g.alpha + 1, alphaCount);
    }
    for (const [slot, value] of row) slots.push(slot), values.push(value);
    offsets.push(slots.length);
  }
  return {
    offsets: Int32Array.from(offsets),
    slots: Int32Array.from(slots),
    values: Float64Array.from(values),
    cluster: Int32Array.from(cluster),
    clusters: ids.size,
  };
}

// The accumulator vector of one resample: each task's entries, as many times as its task id was drawn.
function accumulate({ offsets, slots, values, cluster }: Rows, weights: Int32Array, acc: Float64Array): void {
  acc.fill(0);
  for (let i = 0; i < cluster.length; i++) {
    const w = weights[cluster[i]];
    if (w === 0) continue;
    for (let j = offsets[i], end = offsets[i + 1]; j < end; j++) acc[slots[j]] += w * values[j];
  }
}

// A group's tally from the vector, its survivors (`survivors[t]` = episodes with reached ≥ t)
// and its completions (`completed[t]` = episodes that reached every milestone of a t-milestone task).
function groupTally(g: Group, acc: Float64Array, survivors: Float64Array, completed: Float64Array): Tally {
  const s: Tally = {
    n: 0,
    failed: 0,
    failedReached: 0,
    faulted: 0,
    recovered: 0,
    recoverySum: 0,
    recoveryCount: 0,
    alphaSum: acc[g.alpha],
    alphaCount: acc[g.alpha + 1],
  };
  for (const { base, total } of g.cells) {
    for (let i = 0; i < SUMS.length; i++) s[SUMS[i]] += acc[base + total + 1 + i];
  }
  survival(g.cells, acc, survivors, completed);
  s.n = survivors[0];
  return s;
}

// The survivors and completions of some cells (see `groupTally()`), into arrays of at least their largest total + 1.
function survival(cells: readonly Cell[], acc: Float64Array, survivors: Float64Array, completed: Float64Array): void {
  survivors.fill(0);
  completed.fill(0);
  for (const { base, total } of cells) {
    completed[total] += acc[base + total];
    for (let t = 0; t <= total; t++) survivors[t] += acc[base + t];
  }
  for (let t = survivors.length - 2; t >= 0; t--) survivors[t] += survivors[t + 1];
}

// α_t = V_{t+1}/V_t − 1 over the steps of one task with V_t > ε, summed, with the count.
function amplification(runs: readonly EpisodeRecord[]): { alphaSum: number; alphaCount: number; diverged: boolean } {
  const ds: number[][] = [];
  let len = 0;
  for (const r of runs) {
    if (r.divergence === undefined) continue;
    ds.push(r.divergence);
    if (r.divergence.length > len) len = r.divergence.length;
  }
  let alphaSum = 0, alphaCount = 0, prev = 0;
  for (let t = 0; t < len; t++) {
    let m = 0, sum = 0, lo = Infinity, hi = -Infinity;
    for (const d of ds) {
      if (t >= d.length) continue;
      m++, sum += d[t];
      if (d[t] < lo) lo = d[t];
      if (d[t] > hi) hi = d[t];
    }
    let v = 0;
    if (hi > lo) {
      const mean = sum / m;
      for (const d of ds) if (t < d.length) v += (d[t] - mean) ** 2;
      v /= m;
    }
    if (t > 0 && prev > EPSILON) alphaSum += v / prev - 1, alphaCount++;
    prev = v;
  }
  return { alphaSum, alphaCount, diverged: ds.length > 0 };
}

// The headline figures of one tally; NaN where undefined, λ = Infinity when nothing passes milestone 1.
function headlines(curve: Float64Array, s: Tally) {
  const lambda = fitDecayRate(curve);
  const fit = curve.length > 2 ? fitSteadyState(curve) : null;
  return {
    lambda,
    fit,
    values: {
      per_step_reliability: Math.exp(-lambda),
      r_inf: fit === null ? NaN : fit.rInf,
      mean_path_length: s.failedReached / s.failed,
      alpha: s.alphaSum / s.alphaCount,
      error_recovery_rate: s.recovered / s.faulted,
      recovery_cost: s.recoverySum / s.recoveryCount,
    } satisfies Record<HeadlineName, number>,
  };
}

interface Boot {
  columns: Float64Array;
  draws: Record<string, Float64Array>;
}

function summarize(
  group: Group,
  point: { survivors: Float64Array; completed: Float64Array; tally: Tally; fragile: Fragile },
  boot: Boot,
  resamples: number,
): DecayGroup {
  const { survivors, completed, tally, fragile } = point;
  const curve = productLimit(survivors, completed, new Float64Array(survivors.length));
  const reasons: Record<string, string> = { ...fragile.reasons };
  const { lambda, fit, values } = headlines(curve, tally);
  const hazard = hazards(survivors, completed);
  if (hazard.some((p) => p.h === null)) reasons.hazard = "h(t) is null where no episode reached t − 1";
  if (resamples === 0) reasons.band = "resamples is 0";

  const why: Record<HeadlineName, string> = {
    per_step_reliability: "the curve stops at t = 0 (no task has milestones)",
    r_inf: "the fit needs the curve up to t = 2 at least",
    mean_path_length: "no episode failed",
    alpha: group.diverged ? `no task has a step with V_t > ${EPSILON} before another step` : "no record has divergence",
    error_recovery_rate: "no episode had faults",
    recovery_cost: "no record has recovery_steps",
  };
  const figures = {} as Record<HeadlineName, number | null>;
  const ci = {} as Record<HeadlineName, [number, number] | null>;
  for (const h of HEADLINES) {
    const defined = Number.isFinite(values[h]);
    figures[h] = defined ? values[h] : null;
    ci[h] = defined && resamples > 0 ? percentileInterval(boot.draws[h]) : null;
    if (!defined) reasons[h] = why[h];
    else if (resamples > 0 && ci[h] === null) reasons[`ci.${h}`] = "undefined in every resample";
  }
  if (lambda === Infinity) reasons.lambda = "infinite: no episode reached milestone 1";
  else if (Number.isNaN(lambda)) reasons.lambda = why.per_step_reliability;
  if (fit !== null && fit.q === 0) reasons["r_inf.lambda"] = "infinite: the fit drops to R∞ after one step";

  return {
    n: tally.n,
    tasks: group.tasks,
    curve: Array.from(curve, (R, t) => {
      const band = resamples === 0
        ? null
        : percentileInterval(boot.columns.subarray(t * resamples, (t + 1) * resamples));
      return { t, R, lo: band?.[0] ?? null, hi: band?.[1] ?? null };
    }),
    hazard,
    fragile_step: fragile.step,
    lambda: Number.isFinite(lambda) ? lambda : null,
    per_step_reliability: figures.per_step_reliability,
    r_inf: fit === null
      ? null
      : { value: fit.rInf, lambda: fit.q > 0 ? Math.max(0, -Math.log(fit.q)) : null, rmse: fit.rmse },
    mean_path_length: figures.mean_path_length,
    alpha: figures.alpha,
    error_recovery_rate: figures.error_recovery_rate,
    recovery_cost: figures.recovery_cost,
    ci,
    reasons,
  };
}

/**
 * The decay curve R(t) as a product of (1 − h(s)) over s ≤ t, with the hazards of `hazards()`.
 * Within one task length class this is exactly METRICS.md's "fraction of episodes with
 * reached ≥ t" (nobody completes before the last milestone). In a group mixing lengths, the
 * plain fraction would fall wherever a shorter class ends, and a perfect agent would seem to
 * decay; the product counts only the episodes still at risk (Kaplan–Meier). NaN when n = 0.
 */
function productLimit(survivors: Float64Array, completed: Float64Array, curve: Float64Array): Float64Array {
  // Between two completions the product telescopes to S(t) / S(anchor): computed that way,
  // a single length class gives exactly S(t) / n.
  let anchorR = survivors[0] > 0 ? 1 : NaN, anchorS = survivors[0];
  curve[0] = anchorR;
  for (let t = 1; t < survivors.length; t++) {
    if (completed[t - 1] > 0) {
      anchorR = curve[t - 1];
      anchorS = survivors[t - 1] - completed[t - 1];
    }
    curve[t] = anchorS > 0 ? anchorR * (survivors[t] / anchorS) : curve[t - 1];
  }
  return curve;
}

// h(t) = 1 − S(t)/S(t−1) from the survivor counts S. An episode that completed a task of
// t − 1 milestones had no milestone t to miss, so it is not at risk at t: within one length
// class this changes nothing, and in a mixed group the end of a class is not taken for failures.
function hazards(survivors: Float64Array, completed: Float64Array): HazardPoint[] {
  const out: HazardPoint[] = [];
  for (let t = 1; t < survivors.length; t++) {
    const atRisk = survivors[t - 1] - completed[t - 1];
    out.push({
      t,
      h: atRisk > 0 ? 1 - survivors[t] / atRisk : null,
      at_risk: atRisk,
      ci: atRisk > 0 ? wilsonInterval(atRisk - survivors[t], atRisk) : null,
    });
  }
  return out;
}

/**
 * The Wilson score 95% interval (z = 1.959963984540054) of a proportion `k / n`, for n > 0:
 * `(p̂ + z²/2n ± z·√(p̂(1 − p̂)/n + z²/4n²)) / (1 + z²/n)`; exactly 0 at k = 0 and 1 at k = n.
 *
 * @example
 * ```ts
 * import { wilsonInterval } from "./decay.ts";
 * // 6 of 20: p̂ = 0.3, centre (0.3 + 0.09604) / 1.19207 = 0.33223, half-width 0.18675
 * wilsonInterval(6, 20).map((x) => x.toFixed(4)); // ["0.1455", "0.5190"]
 * ```
 */
export function wilsonInterval(k: number, n: number): [number, number] {
  if (!(n > 0 && k >= 0 && k <= n)) {
    throw new RangeError(`Invalid proportion "${k}" of "${n}": expected 0 ≤ k ≤ n and n > 0`);
  }
  const p = k / n, z2 = Z95 * Z95;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (Z95 * Math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  // At k = 0 (k = n) the lower (upper) bound is exactly 0 (1); computed, it is off by rounding.
  return [k === 0 ? 0 : Math.max(0, centre - half), k === n ? 1 : Math.min(1, centre + half)];
}

interface Fragile {
  step: FragileStep | null;
  /** `fragile_step` and `fragile_step.label` when null. */
  reasons: Record<string, string>;
}

// A group's fragile step, under one condition: its nominal cells', else its only condition's, else none.
function fragileOf(group: Group, acc: Float64Array): Fragile {
  const present = CONDITIONS.filter((c) => group.cells.some((cell) => cell.condition === c));
  const condition = present.includes("nominal") ? "nominal" : present.length === 1 ? present[0] : null;
  if (condition === null) {
    const where = present.map((c) => `by_condition.${c}.fragile_step`).join(", ");
    return {
      step: null,
      reasons: { fragile_step: `per condition, never pooled, and this group has no nominal records: see ${where}` },
    };
  }
  const cells = group.cells.filter((c) => c.condition === condition);
  const maxT = Math.max(...cells.map((c) => c.total));
  const survivors = new Float64Array(maxT + 1), completed = new Float64Array(maxT + 1);
  survival(cells, acc, survivors, completed);
  return fragileStep(cells, hazards(survivors, completed), condition);
}

function fragileStep(
  cells: readonly Cell[],
  hazard: readonly HazardPoint[],
  condition: FragileStep["condition"],
): Fragile {
  let best: HazardPoint | null = null;
  for (const p of hazard) {
    if (p.h !== null && p.h > 0 && p.at_risk >= MIN_AT_RISK && (best === null || p.h > best.h!)) best = p;
  }
  if (best === null) {
    const fragile_step = hazard.length === 0
      ? "no task has milestones"
      : hazard.every((p) => p.at_risk < MIN_AT_RISK)
      ? `no milestone was attempted by at least ${MIN_AT_RISK} ${condition} episodes`
      : `no milestone attempted by at least ${MIN_AT_RISK} ${condition} episodes was ever missed`;
    return { step: null, reasons: { fragile_step } };
  }
  const label = agreedLabel(cells, best.t - 1);
  return {
    step: { t: best.t, label, hazard: best.h!, ci: best.ci, at_risk: best.at_risk, condition },
    reasons: label === null ? { "fragile_step.label": "the records do not name one label for this milestone" } : {},
  };
}

// The label every record naming milestones (`milestone_labels`, else `milestone_tools`) gives at
// `index`; null if they disagree or none does.
function agreedLabel(cells: readonly Cell[], index: number): string | null {
  let label: string | undefined;
  for (const cell of cells) {
    let mine = cell.labels.get(index);
    if (!cell.labels.has(index)) {
      for (const r of cell.records) {
        const name = (r.milestone_labels ?? r.milestone_tools)?.[index];
        if (name === undefined || name === mine) continue;
        if (mine !== undefined) {
          mine = null;
          break;
        }
        mine = name;
      }
      cell.labels.set(index, mine);
    }
    if (mine === null || (label !== undefined && mine !== undefined && mine !== label)) return null;
    label ??= mine;
  }
  return label ?? null;
}

function emptyGroup(reason: string): DecayGroup {
  const reasons: Record<string, string> = {};
  for (const key of ["lambda", "fragile_step", ...HEADLINES]) reasons[key] = reason;
  return {
    n: 0,
    tasks: 0,
    curve: [],
    hazard: [],
    fragile_step: null,
    lambda: null,
    per_step_reliability: null,
    r_inf: null,
    mean_path_length: null,
    alpha: null,
    error_recovery_rate: null,
    recovery_cost: null,
    ci: Object.fromEntries(HEADLINES.map((h) => [h, null])) as DecayGroup["ci"],
    reasons,
  };
}
