// The task table's weighted sums (what each bootstrap resample adds up): every row's statistics laid
// out once as sparse (slot, value) entries of the sums' layout, so a resample is one flat loop over
// them. A row adds to each slot at most once, and the rows are added in order, so every slot's sum is
// the same additions in the same order as the dense row-by-row sum; the entries left out are zeros,
// and adding a zero product changes no sum. Private to scoring/.

/** What a table's sums are laid out from (the fields of `TaskTable` the sums read). */
export interface SumSource {
  rows: number;
  core: Float64Array;
  columns: Int32Array;
  cluster: Int32Array;
  K: number;
  nominalRuns: Int32Array;
  binStart: Int32Array;
  bin: Int32Array;
  binN: Float64Array;
  binConf: Float64Array;
  binWins: Float64Array;
  passStart: Int32Array;
  passHat: Float64Array;
}

/** The slots of the sums: where a row's dense part, its calibration bins and its pass^k terms go. */
export interface SumLayout {
  /** Columns of a row's dense part (its width). */
  core: number;
  /** First slot of the ten calibration bins (n, Σ confidence, Σ success each). */
  bins: number;
  /** First slot of Σ pass^k for k = 1..K; the histogram of nominal runs follows at `pass + K`. */
  pass: number;
}

/** A table's rows as entries: row i is `slot`/`value` from `start[i]` to `start[i + 1]`. */
export interface SumEntries {
  start: Int32Array;
  slot: Int32Array;
  value: Float64Array;
  /** Slots of the sums. */
  size: number;
  /** Slots left out of the entries: every row holds `constantValue` there, a positive whole number. */
  constant: Int32Array;
  constantValue: Float64Array;
  /** The largest of `constantValue`, 0 without any. */
  largest: number;
}

// Entries by table, laid out on first use: the full sums and the safety columns' alone.
const laidOut = new WeakMap<SumSource, { all?: SumEntries; safety?: SumEntries }>();

/**
 * Weighted sums of every row's statistics (each row weighted by its cluster's weight), or of the
 * `safety` columns of the dense part alone when given.
 */
export function weightedSums(
  table: SumSource,
  w: ArrayLike<number>,
  layout: SumLayout,
  safety?: ReadonlySet<number>,
): Float64Array {
  let kept = laidOut.get(table);
  if (kept === undefined) laidOut.set(table, kept = {});
  const entries = safety === undefined
    ? kept.all ??= entriesOf(table, layout, null)
    : kept.safety ??= entriesOf(table, layout, safety);
  const { start, slot, value, constant, constantValue } = entries, cluster = table.cluster;
  const s = new Float64Array(entries.size);
  let total = 0, most = 0;
  for (let i = 0; i < table.rows; i++) {
    const wi = w[cluster[i]];
    if (wi === 0) continue;
    // A weight that is not a small whole number (an infinite or NaN one times a left-out zero is NaN,
    // a fraction rounds a constant's sum otherwise) takes the dense sum.
    if ((wi | 0) !== wi) return denseSums(table, w, layout, safety);
    total += wi;
    most += Math.abs(wi);
    for (let j = start[i], end = start[i + 1]; j < end; j++) s[slot[j]] += wi * value[j];
  }
  // A whole number v in every row, by whole weights: every partial sum is a whole number below 2^53,
  // so exact, and the sum is v times the weights' sum.
  if (most * entries.largest >= 2 ** 53) return denseSums(table, w, layout, safety);
  for (let c = 0; c < constant.length; c++) if (total !== 0) s[constant[c]] = constantValue[c] * total;
  return s;
}

/** The sums row by row over the dense part's columns in use, zeros included: what `weightedSums()` adds up, the slow way. */
export function denseSums(
  table: SumSource,
  w: ArrayLike<number>,
  layout: SumLayout,
  safety?: ReadonlySet<number>,
): Float64Array {
  const { rows, core, cluster, nominalRuns, binStart, bin, binN, binConf, binWins, passStart, passHat, K } = table;
  const columns = safety === undefined ? table.columns : table.columns.filter((c) => safety.has(c));
  const hist = layout.pass + K;
  const s = new Float64Array(hist + K + 1);
  for (let i = 0; i < rows; i++) {
    const wi = w[cluster[i]];
    if (wi === 0) continue;
    const row = i * layout.core;
    for (let j = 0; j < columns.length; j++) s[columns[j]] += wi * core[row + columns[j]];
    if (safety !== undefined) continue;
    for (let j = binStart[i], end = binStart[i + 1]; j < end; j++) {
      const at = layout.bins + 3 * bin[j];
      s[at] += wi * binN[j];
      s[at + 1] += wi * binConf[j];
      s[at + 2] += wi * binWins[j];
    }
    const first = passStart[i];
    for (let j = first, end = passStart[i + 1]; j < end; j++) s[layout.pass + j - first] += wi * passHat[j];
    s[hist + nominalRuns[i]] += wi;
  }
  return s;
}

// The entries of every row: its nonzero dense columns (the safety ones alone when given), then,
// unless safety alone, its calibration bins, its pass^k terms and its count in the histogram.
function entriesOf(table: SumSource, layout: SumLayout, safety: ReadonlySet<number> | null): SumEntries {
  const { rows, core, nominalRuns, binStart, bin, binN, binConf, binWins, passStart, passHat, K } = table;
  const columns = safety === null ? table.columns : table.columns.filter((c) => safety.has(c));
  const hist = layout.pass + K;
  const start = new Int32Array(rows + 1), slots: number[] = [], values: number[] = [];
  const put = (slot: number, v: number) => {
    // NaN is kept: it is not 0.
    if (v !== 0) slots.push(slot), values.push(v);
  };
  for (let i = 0; i < rows; i++) {
    const row = i * layout.core;
    for (let j = 0; j < columns.length; j++) put(columns[j], core[row + columns[j]]);
    if (safety === null) {
      for (let j = binStart[i], end = binStart[i + 1]; j < end; j++) {
        const at = layout.bins + 3 * bin[j];
        put(at, binN[j]);
        put(at + 1, binConf[j]);
        put(at + 2, binWins[j]);
      }
      const first = passStart[i];
      for (let j = first, end = passStart[i + 1]; j < end; j++) put(layout.pass + j - first, passHat[j]);
      put(hist + nominalRuns[i], 1);
    }
    start[i + 1] = slots.length;
  }
  return withoutConstants({ start, slots, values, size: hist + K + 1, rows });
}

// Takes out of the entries the slots every row holds with one and the same positive whole value (a
// count of runs every task has, a term defined for every task): their sum is that value times the
// weights' sum (see weightedSums()).
function withoutConstants(
  o: { start: Int32Array; slots: number[]; values: number[]; size: number; rows: number },
): SumEntries {
  const { start, slots, values, size, rows } = o;
  const seen = new Int32Array(size), first = new Float64Array(size).fill(NaN);
  for (let j = 0; j < slots.length; j++) {
    const k = slots[j];
    if (seen[k] === 0) first[k] = values[j];
    if (first[k] === values[j]) seen[k]++;
  }
  const isConstant = (k: number) =>
    rows > 0 && seen[k] === rows && Number.isInteger(first[k]) && first[k] > 0 && first[k] <= 2 ** 20;
  const constant: number[] = [];
  for (let k = 0; k < size; k++) if (isConstant(k)) constant.push(k);
  const keptStart = new Int32Array(rows + 1), slot: number[] = [], value: number[] = [];
  for (let i = 0; i < rows; i++) {
    for (let j = start[i]; j < start[i + 1]; j++) if (!isConstant(slots[j])) slot.push(slots[j]), value.push(values[j]);
    keptStart[i + 1] = slot.length;
  }
  return {
    start: keptStart,
    slot: Int32Array.from(slot),
    value: Float64Array.from(value),
    size,
    constant: Int32Array.from(constant),
    constantValue: Float64Array.from(constant, (k) => first[k]),
    largest: constant.reduce((m, k) => Math.max(m, first[k]), 0),
  };
}
