// Small numeric helpers shared by the scoring modules. Private to scoring/.
import type { EpisodeRecord } from "./record.ts";

/** Mean of the values; NaN for none. */
export function mean(values: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < values.length; i++) s += values[i];
  return s / values.length;
}

/** Sample standard deviation (divisor n − 1); NaN for fewer than two values. */
export function sampleStd(values: ArrayLike<number>): number {
  const n = values.length;
  if (n < 2) return NaN;
  const m = mean(values);
  let ss = 0;
  for (let i = 0; i < n; i++) ss += (values[i] - m) ** 2;
  return Math.sqrt(ss / (n - 1));
}

/**
 * Jensen–Shannon divergence in bits between two count vectors of the same
 * length (each normalised to a distribution), clamped to [0, 1].
 */
export function jsdBits(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let sa = 0, sb = 0;
  for (let i = 0; i < a.length; i++) {
    sa += a[i];
    sb += b[i];
  }
  let kl = 0;
  for (let i = 0; i < a.length; i++) {
    const p = a[i] / sa, q = b[i] / sb, m = (p + q) / 2;
    if (p > 0) kl += p * Math.log2(p / m);
    if (q > 0) kl += q * Math.log2(q / m);
  }
  return Math.min(1, Math.max(0, kl / 2));
}

/** Levenshtein distance between two sequences of symbols (unit costs). */
export function levenshtein(a: ArrayLike<number | string>, b: ArrayLike<number | string>): number {
  if (a.length < b.length) [a, b] = [b, a];
  const m = b.length;
  if (m === 0) return a.length;
  let prev = new Int32Array(m + 1), cur = new Int32Array(m + 1);
  for (let j = 0; j <= m; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    const ai = a[i - 1];
    for (let j = 1; j <= m; j++) {
      const sub = prev[j - 1] + (ai === b[j - 1] ? 0 : 1);
      const del = prev[j] + 1, ins = cur[j - 1] + 1;
      cur[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
    }
    [prev, cur] = [cur, prev];
  }
  return prev[m];
}

/**
 * C(c, k) / C(n, k) as a product of k ratios (no factorials, no overflow):
 * the chance that k of n items drawn without replacement all come from c.
 */
export function binomRatio(counts: { n: number; c: number }, k: number): number {
  const { n, c } = counts;
  if (k > c) return 0;
  let p = 1;
  for (let i = 0; i < k; i++) p *= (c - i) / (n - i);
  return p;
}

/** 32-bit FNV-1a hash of a string (UTF-16 code units). */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A seeded PRNG (mulberry32 over the FNV-1a hash of the seed): floats in [0, 1). */
export function prng(seed: string): () => number {
  let s = hash32(seed);
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The q-quantile (q in [0, 1]) of values sorted ascending, interpolating
 * linearly between order statistics at position q·(n − 1) (numpy's default).
 */
export function quantileSorted(sorted: ArrayLike<number>, q: number): number {
  const pos = q * (sorted.length - 1);
  const lo = Math.floor(pos), hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

/**
 * The q-quantiles of the first `n` values of `buffer`, each exactly what `quantileSorted()` gives
 * for them sorted ascending, found by selection (linear time) instead of a sort; the buffer's first
 * `n` values are reordered. `qs` in [0, 1]; ascending ones reuse the previous partition.
 */
export function selectQuantiles(buffer: Float64Array, n: number, qs: readonly number[]): number[] {
  const out: number[] = [];
  let from = 0;
  for (const q of qs) {
    const pos = q * (n - 1);
    const lo = Math.floor(pos), hi = Math.ceil(pos);
    if (lo < from) from = 0;
    // After selecting lo, buffer[lo + 1..n) holds the order statistics above it: the next is their least.
    const a = select(buffer, lo, { from, to: n });
    let b = a;
    if (hi > lo) {
      b = buffer[lo + 1];
      for (let i = lo + 2; i < n; i++) if (buffer[i] < b) b = buffer[i];
    }
    out.push(a + (b - a) * (pos - lo));
    from = lo;
  }
  return out;
}

// Moves the k-th smallest of a[from..to) to index k, those before it ≤ and those after ≥ it, and
// returns it: quickselect with a median-of-three pivot and a Hoare partition (fast with ties).
function select(a: Float64Array, k: number, range: { from: number; to: number }): number {
  let l = range.from, r = range.to - 1;
  while (r > l + 1) {
    const mid = (l + r) >>> 1;
    swap(a, mid, l + 1);
    if (a[l] > a[r]) swap(a, l, r);
    if (a[l + 1] > a[r]) swap(a, l + 1, r);
    if (a[l] > a[l + 1]) swap(a, l, l + 1);
    const pivot = a[l + 1];
    let i = l + 1, j = r;
    for (;;) {
      do i++; while (a[i] < pivot);
      do j--; while (a[j] > pivot);
      if (j < i) break;
      swap(a, i, j);
    }
    a[l + 1] = a[j];
    a[j] = pivot;
    if (j >= k) r = j - 1;
    if (j <= k) l = i;
  }
  if (r === l + 1 && a[r] < a[l]) swap(a, l, r);
  return a[k];
}

function swap(a: Float64Array, i: number, j: number): void {
  const t = a[i];
  a[i] = a[j];
  a[j] = t;
}

/** Clamps a finite score into [0, 1] against rounding; keeps null. */
export function unit(x: number | null): number | null {
  return x === null ? null : Math.min(1, Math.max(0, x));
}

const CONDITION_ORDER: Readonly<Record<string, number>> = { nominal: 0, fault: 1, env: 2, prompt: 3 };

/** Orders the runs of one task: condition, variant, run; so per-task sums never depend on input order. */
export function compareRuns(a: EpisodeRecord, b: EpisodeRecord): number {
  return CONDITION_ORDER[a.condition] - CONDITION_ORDER[b.condition] ||
    compareText(a.variant ?? "", b.variant ?? "") || a.run - b.run ||
    Number(a.success) - Number(b.success) || compareText(JSON.stringify(a), JSON.stringify(b));
}

/** Code-unit string order (locale-free, so the same everywhere). */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** One agent's runs of one task, in `compareRuns` order. */
export interface Unit {
  agent: string;
  task: string;
  runs: EpisodeRecord[];
}

/**
 * Records grouped by (agent, task), ordered by task then agent, each group's
 * runs in `compareRuns` order. A "task" in every per-task metric is one such unit.
 */
export function units(records: readonly EpisodeRecord[]): Unit[] {
  // By task, then agent, in maps (no key text made for each record).
  const byTask = new Map<string, Map<string, Unit>>(), all: Unit[] = [];
  for (const r of records) {
    let byAgent = byTask.get(r.task);
    if (byAgent === undefined) byTask.set(r.task, byAgent = new Map());
    let u = byAgent.get(r.agent);
    if (u === undefined) byAgent.set(r.agent, u = { agent: r.agent, task: r.task, runs: [] }), all.push(u);
    u.runs.push(r);
  }
  const out = all.sort((a, b) => compareText(a.task, b.task) || compareText(a.agent, b.agent));
  for (const u of out) u.runs.sort(compareRuns);
  return out;
}
