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
  const { start, slot, value } = entries, cluster = table.cluster;
  const s = new Float64Array(entries.size);
  for (let i = 0; i < table.rows; i++) {
    const wi = w[cluster[i]];
    if (wi === 0) continue;
    // An infinite or NaN weight times a left-out zero is NaN: such weights take every entry.
    if (wi - wi !== 0) return denseSums(table, w, layout, safety);
    for (let j = start[i], end = start[i + 1]; j < end; j++) s[slot[j]] += wi * value[j];
  }
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
  return { start, slot: Int32Array.from(slots), value: Float64Array.from(values), size: hist + K + 1 };
}
