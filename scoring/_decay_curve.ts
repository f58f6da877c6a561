// The decay curve (docs/metrics.md "Long horizon"): a group's tally and survivor counts read from the
// accumulator vector, and R(t) from them as a product-limit estimate. Private to scoring/.
import { type Cell, type Group, SUMS, type Tally } from "./_decay_cells.ts";
import { FIT_SUMS } from "./_decay_alpha.ts";

// groupTally() reads the sums by name, in the order of these lists: a change to either must change it.
if (
  SUMS.join() !== "failed,failedReached,faulted,recovered,recoverySum,recoveryCount" ||
  FIT_SUMS.join() !== "pairs,sx,sy,sxx,sxy"
) throw new Error("groupTally() does not read the decay sums in their order");

/**
 * A group's tally from the vector (into `into`, reused between resamples), its survivors (`survivors[t]` = episodes with reached ≥ t)
 * and its completions (`completed[t]` = episodes that reached every milestone of a t-milestone task).
 */
export function groupTally(
  g: Group,
  acc: Float64Array,
  survivors: Float64Array,
  completed: Float64Array,
  into: Tally = emptyTally(),
): Tally {
  // The fields by name, in SUMS and FIT_SUMS order (a read by a key from a list is a lookup).
  const s = into, a = g.alpha;
  s.pairs = acc[a], s.sx = acc[a + 1], s.sy = acc[a + 2], s.sxx = acc[a + 3], s.sxy = acc[a + 4];
  let failed = 0, failedReached = 0, faulted = 0, recovered = 0, recoverySum = 0, recoveryCount = 0;
  for (const { base, total } of g.cells) {
    const at = base + total + 1;
    failed += acc[at], failedReached += acc[at + 1], faulted += acc[at + 2];
    recovered += acc[at + 3], recoverySum += acc[at + 4], recoveryCount += acc[at + 5];
  }
  s.failed = failed, s.failedReached = failedReached, s.faulted = faulted;
  s.recovered = recovered, s.recoverySum = recoverySum, s.recoveryCount = recoveryCount;
  survival(g.cells, acc, survivors, completed);
  s.n = survivors[0];
  return s;
}

/** A tally of zeros, to be filled by `groupTally()`. */
export function emptyTally(): Tally {
  return {
    n: 0,
    failed: 0,
    failedReached: 0,
    faulted: 0,
    recovered: 0,
    recoverySum: 0,
    recoveryCount: 0,
    pairs: 0,
    sx: 0,
    sy: 0,
    sxx: 0,
    sxy: 0,
  };
}

/** The survivors and completions of some cells (see `groupTally()`), into arrays of at least their largest total + 1. */
export function survival(
  cells: readonly Cell[],
  acc: Float64Array,
  survivors: Float64Array,
  completed: Float64Array,
): void {
  survivors.fill(0);
  completed.fill(0);
  for (const { base, total, reached } of cells) {
    completed[total] += acc[base + total];
    // The other slots hold 0, and adding 0 to these whole counts changes nothing.
    for (let i = 0; i < reached.length; i++) survivors[reached[i]] += acc[base + reached[i]];
  }
  for (let t = survivors.length - 2; t >= 0; t--) survivors[t] += survivors[t + 1];
}

/**
 * The decay curve R(t) as a product of (1 − h(s)) over s ≤ t, with the hazards of `hazards()`.
 * Within one task length class this is exactly docs/metrics.md's "fraction of episodes with
 * reached ≥ t" (nobody completes before the last milestone). In a group mixing lengths, the
 * plain fraction would fall wherever a shorter class ends, and a perfect agent would seem to
 * decay; the product counts only the episodes still at risk (Kaplan–Meier). NaN when n = 0.
 */
export function productLimit(survivors: Float64Array, completed: Float64Array, curve: Float64Array): Float64Array {
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
