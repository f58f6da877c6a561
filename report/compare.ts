/**
 * Comparison of two experiments' records, agent by agent, with a paired
 * bootstrap over the tasks both ran: each resample draws the paired task ids
 * once and reweights both sides' per-task tables (`buildTable`/`tableFigures`)
 * with the same multiplicities, so a resample costs two passes over T rows,
 * not a rescoring of the records.
 *
 * @module
 */
import {
  bootstrap,
  buildTable,
  type EpisodeRecord,
  figureKeys,
  HEADLINE_KEYS,
  LOWER_IS_BETTER,
  misreadWarning,
  tableFigures,
  userMisread,
} from "../scoring/mod.ts";

/**
 * What a metric did from A to B, judged by the 95% interval of Δ = B − A. For a higher-is-better
 * metric (all but those of `LOWER_IS_BETTER`) "better" means the interval lies above 0 and "worse"
 * below; for a lower-is-better one (near_misses) "worse" means significantly higher (interval above
 * 0) and "better" significantly lower. "–" when it cannot be compared.
 */
export type Verdict = "better" | "worse" | "no significant change" | "–";

/** One metric of one agent, A against B. */
export interface MetricComparison {
  /** A headline key (docs/metrics.md), `accuracy`, `near_misses` or `pass^k`. */
  metric: string;
  /** The metric on A's records (of the tasks both sides ran); null when it is undefined there (see `reason`). */
  a: number | null;
  /** The metric on B's records (of the tasks both sides ran); null when it is undefined there (see `reason`). */
  b: number | null;
  /** B − A; null when either side is null. */
  delta: number | null;
  /** 95% percentile interval of B − A over the paired resamples. */
  ci: [number, number] | null;
  /** Two-sided bootstrap p-value: `min(1, 2·min(share of Δ* ≤ 0, share of Δ* ≥ 0))`. */
  p: number | null;
  /** Significant when the interval excludes 0; its direction depends on the metric's (see `Verdict`). */
  verdict: Verdict;
  /** Why the verdict is "–". */
  reason?: string;
}

/** One agent of A compared with its counterpart in B. */
export interface AgentComparison {
  /** The agent's name in A's records. */
  a: string;
  /** The agent's name in B's records (the same unless paired with `pairs`). */
  b: string;
  /** Task ids both sides ran, sorted. */
  tasks: string[];
  /** Task ids only one side ran: left out of every figure. */
  unpairedTasks: { a: string[]; b: string[] };
  /** Records compared on each side (those of paired tasks, without `user_error`). */
  records: { a: number; b: number };
  /** One entry per metric: those of `CompareOptions.metrics` in its order, else every figure of the records. */
  metrics: MetricComparison[];
  /**
   * Why a side's figures mean nothing, when they do not: the simulated user could not read too many
   * of the agent's messages there (`misreadWarning()`). A gate checks no metric of such an agent.
   * @default {absent: both sides can be read}
   */
  unreadable?: { a?: string; b?: string };
}

/** The comparison of two record sets. */
export interface Comparison {
  /** Seed of the paired bootstrap. */
  seed: string;
  /** Bootstrap resamples drawn per agent pair. */
  resamples: number;
  /** One comparison per agent pair (equal names on both sides, or paired by `pairs`), sorted by A's name. */
  agents: AgentComparison[];
  /** Agents only one side has, not compared. */
  unpairedAgents: { a: string[]; b: string[] };
}

/** Options of `compareRecords()`. */
export interface CompareOptions {
  /**
   * Seed of the paired bootstrap (every agent pair draws from the same stream).
   * @default {"0"}
   */
  seed?: string;
  /**
   * Bootstrap resamples.
   * @default {1000}
   */
  resamples?: number;
  /**
   * Agents compared under different names, `[name in A, name in B]`; the others pair by equal name.
   * @default {[]}
   */
  pairs?: readonly (readonly [string, string])[];
  /**
   * Compare only these agents (a name on either side).
   * @default {every agent both sides have}
   */
  agents?: readonly string[];
  /**
   * Metrics to report, in this order.
   * @default {the headline keys, accuracy, near_misses, then pass^1 … pass^K}
   */
  metrics?: readonly string[];
}

/**
 * Whether a key names a metric `compareRecords()` reports: a headline key (near_misses too) or `pass^k` (k ≥ 1).
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { isMetricKey } from "./compare.ts";
 * assertEquals([isMetricKey("R_saf"), isMetricKey("near_misses"), isMetricKey("pass^3"), isMetricKey("R_safe")], [true, true, true, false]);
 * ```
 */
export function isMetricKey(key: string): boolean {
  return (HEADLINE_KEYS as readonly string[]).includes(key) || /^pass\^[1-9]\d*$/.test(key);
}

const compareText = (x: string, y: string) => x < y ? -1 : x > y ? 1 : 0;
const quote = (names: readonly string[]) => names.map((n) => `"${n}"`).join(", ");

/**
 * Compares two record sets agent by agent on their paired tasks: per metric A,
 * B, B − A, its 95% paired-bootstrap interval and p-value, and a verdict in the
 * metric's direction (near_misses is lower-is-better).
 * Records with a `user_error` are left out, as in scoring. The same records
 * (in any order), seed and options give the same result. A `pairs` or
 * `agents` entry naming an agent a side lacks is a RangeError.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { compareRecords } from "./compare.ts";
 * const r = (agent: string, task: string, success: boolean) =>
 *   ({ agent, task, run: 0, condition: "nominal" as const, success });
 * const a = [r("x", "t/1", true), r("x", "t/2", true), r("y", "t/1", true)];
 * const b = [r("x", "t/1", false), r("x", "t/2", false), r("x", "t/3", true)];
 * const c = compareRecords(a, b, { resamples: 50, metrics: ["accuracy"] });
 * assertEquals(c.agents[0].metrics[0].delta, -1);
 * assertEquals([c.agents[0].unpairedTasks.b, c.unpairedAgents.a], [["t/3"], ["y"]]);
 * ```
 */
export function compareRecords(
  a: readonly EpisodeRecord[],
  b: readonly EpisodeRecord[],
  options: CompareOptions = {},
): Comparison {
  const { seed = "0", resamples = 1000, pairs = [], agents } = options;
  if (typeof seed !== "string") throw new TypeError(`Invalid seed ${JSON.stringify(seed)}: expected a string`);
  if (!(Number.isSafeInteger(resamples) && resamples >= 1)) {
    throw new RangeError(`Invalid resamples "${resamples}": expected a whole number of at least 1`);
  }
  for (const key of options.metrics ?? []) {
    if (!isMetricKey(key)) {
      throw new RangeError(`Unknown metric "${key}": expected one of ${quote(HEADLINE_KEYS)} or "pass^k"`);
    }
  }
  const byA = byAgent(a), byB = byAgent(b);
  const matched = matchAgents([...byA.keys()], [...byB.keys()], pairs);
  let compared = matched.pairs;
  if (agents !== undefined) {
    for (const name of agents) {
      if (!byA.has(name) && !byB.has(name)) {
        throw new RangeError(
          `Unknown agent "${name}": the records have ${quote([...new Set([...byA.keys(), ...byB.keys()])])}`,
        );
      }
    }
    compared = compared.filter(([x, y]) => agents.includes(x) || agents.includes(y));
  }
  return {
    seed,
    resamples,
    agents: compared.map(([x, y]) =>
      compareAgent(byA.get(x)!, byB.get(y)!, { names: [x, y], seed, resamples, metrics: options.metrics })
    ),
    unpairedAgents: matched.unpaired,
  };
}

/** Records by agent, `user_error` ones left out. */
function byAgent(records: readonly EpisodeRecord[]): Map<string, EpisodeRecord[]> {
  const out = new Map<string, EpisodeRecord[]>();
  for (const r of records) {
    if (r.user_error !== undefined) continue;
    let list = out.get(r.agent);
    if (list === undefined) out.set(r.agent, list = []);
    list.push(r);
  }
  return out;
}

/** Agent pairs `[A name, B name]` sorted by A name: the explicit pairs, then equal names. */
function matchAgents(
  namesA: string[],
  namesB: string[],
  pairs: readonly (readonly [string, string])[],
): { pairs: [string, string][]; unpaired: { a: string[]; b: string[] } } {
  const out: [string, string][] = [];
  const usedA = new Set<string>(), usedB = new Set<string>();
  for (const [x, y] of pairs) {
    if (!namesA.includes(x)) {
      throw new RangeError(`Agent "${x}" of pair "${x}=${y}" is not in A: A has ${quote(namesA)}`);
    }
    if (!namesB.includes(y)) {
      throw new RangeError(`Agent "${y}" of pair "${x}=${y}" is not in B: B has ${quote(namesB)}`);
    }
    if (usedA.has(x) || usedB.has(y)) throw new RangeError(`Agent pair "${x}=${y}" names an agent paired twice`);
    out.push([x, y]);
    usedA.add(x);
    usedB.add(y);
  }
  for (const x of namesA) {
    if (!usedA.has(x) && !usedB.has(x) && namesB.includes(x)) {
      out.push([x, x]);
      usedA.add(x);
      usedB.add(x);
    }
  }
  const unpaired = {
    a: namesA.filter((x) => !usedA.has(x)).sort(compareText),
    b: namesB.filter((y) => !usedB.has(y)).sort(compareText),
  };
  return { pairs: out.sort((p, q) => compareText(p[0], q[0]) || compareText(p[1], q[1])), unpaired };
}

function compareAgent(
  recordsA: EpisodeRecord[],
  recordsB: EpisodeRecord[],
  options: { names: [string, string]; seed: string; resamples: number; metrics?: readonly string[] },
): AgentComparison {
  const tasksA = new Set(recordsA.map((r) => r.task)), tasksB = new Set(recordsB.map((r) => r.task));
  const tasks = [...tasksA].filter((t) => tasksB.has(t)).sort(compareText);
  const unpairedTasks = {
    a: [...tasksA].filter((t) => !tasksB.has(t)).sort(compareText),
    b: [...tasksB].filter((t) => !tasksA.has(t)).sort(compareText),
  };
  const keptA = recordsA.filter((r) => tasksB.has(r.task)), keptB = recordsB.filter((r) => tasksA.has(r.task));
  const unreadableA = misreadWarning(options.names[0], userMisread(keptA));
  const unreadableB = misreadWarning(options.names[1], userMisread(keptB));
  const base = {
    a: options.names[0],
    b: options.names[1],
    tasks,
    unpairedTasks,
    records: { a: keptA.length, b: keptB.length },
    ...(unreadableA === null && unreadableB === null ? {} : {
      unreadable: {
        ...(unreadableA === null ? {} : { a: unreadableA }),
        ...(unreadableB === null ? {} : { b: unreadableB }),
      },
    }),
  };
  if (tasks.length === 0) {
    const keys = options.metrics ?? HEADLINE_KEYS;
    const metrics = keys.map((metric) => blank(metric, null, null, "no task in both"));
    return { ...base, metrics };
  }
  // One agent's table has one row per task id, in code-unit order: cluster i is tasks[i] on both sides.
  const tableA = buildTable(keptA), tableB = buildTable(keptB);
  const reasonsA: Record<string, string> = {}, reasonsB: Record<string, string> = {};
  const pointA = tableFigures(tableA, { reasons: reasonsA }), pointB = tableFigures(tableB, { reasons: reasonsB });
  const keysA = figureKeys(tableA), keysB = figureKeys(tableB);
  const keys = keysA.length >= keysB.length ? keysA : keysB;
  const at = (point: Float64Array, key: string) => {
    const i = keys.indexOf(key);
    return i >= 0 && i < point.length && !Number.isNaN(point[i]) ? point[i] : null;
  };
  const deltaOf = (figA: Float64Array, figB: Float64Array, out: Float64Array) => {
    for (let i = 0; i < out.length; i++) out[i] = i < figA.length && i < figB.length ? figB[i] - figA[i] : NaN;
    return out;
  };
  // bootstrap() draws the multinomial weights (seeded) and gives the intervals; the draws are kept for the p-values.
  const draws: Float64Array[] = [];
  const intervals = bootstrap(tasks.length, (weights) => {
    const d = deltaOf(
      tableFigures(tableA, { weights }),
      tableFigures(tableB, { weights }),
      new Float64Array(keys.length),
    );
    draws.push(d);
    return d;
  }, { seed: options.seed, resamples: options.resamples });

  const metrics = (options.metrics ?? keys).map((metric): MetricComparison => {
    const i = keys.indexOf(metric);
    const valueA = at(pointA, metric), valueB = at(pointB, metric);
    const whyA = valueA === null ? reasonsA[metric] ?? noPassHat(metric) : null;
    const whyB = valueB === null ? reasonsB[metric] ?? noPassHat(metric) : null;
    if (whyA !== null && whyA === whyB) return blank(metric, valueA, valueB, `A and B: ${whyA}`);
    if (whyA !== null || whyB !== null) {
      const reason = [whyA === null ? "" : `A: ${whyA}`, whyB === null ? "" : `B: ${whyB}`].filter(Boolean).join("; ");
      return blank(metric, valueA, valueB, reason);
    }
    const delta = valueB! - valueA!, ci = intervals[i] ?? null;
    if (ci === null) return { ...blank(metric, valueA, valueB, "no resample defined both sides"), delta };
    let below = 0, above = 0, defined = 0;
    for (const d of draws) {
      if (Number.isNaN(d[i])) continue;
      defined++;
      if (d[i] <= 0) below++;
      if (d[i] >= 0) above++;
    }
    const p = Math.min(1, (2 * Math.min(below, above)) / defined);
    const up = ci[0] > 0, down = ci[1] < 0;
    const verdict = !up && !down ? "no significant change" : up !== LOWER_IS_BETTER.has(metric) ? "better" : "worse";
    return { metric, a: valueA, b: valueB, delta, ci, p, verdict };
  });
  return { ...base, metrics };
}

function noPassHat(metric: string): string {
  return metric.startsWith("pass^") ? `no task has ${metric.slice(5)} nominal runs` : "not computed";
}

function blank(metric: string, a: number | null, b: number | null, reason: string): MetricComparison {
  return { metric, a, b, delta: null, ci: null, p: null, verdict: "–", reason };
}
