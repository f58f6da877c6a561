// The figures `deno task bench` shows in its table (issue 27, "Every core, and bookkeeping near the
// floor"), each measured on this checkout and, with `--baseline DIR`, by the same code on DIR's
// modules, with its target and its floor. Private to cli/.
import type { benchScoring } from "./_bench_score.ts";
import { benchEval, type EvalBench } from "./_bench_eval.ts";
import { benchGrade, type GradeBench, GRADED_MILESTONES } from "./_bench_grade.ts";
import { benchFloors, benchSteps, STEP_DOMAINS, type StepBench } from "./_bench_steps.ts";
import { benchSize, SIZE_DOMAINS, type SizeBench, SIZES } from "./_bench_sizes.ts";
import { type Kit, member, outcome } from "./_bench_kit.ts";
import { type Figure, type Measured, type Target, valueOf } from "./_bench_figures.ts";

/** The checkouts measured: this one, and the baseline when given. */
export interface Kits {
  now: Kit;
  before: Kit | null;
}

/** Options of `issueFigures()`: how long each timing loop runs, and the world-size budget. */
export interface IssueOptions {
  /** Progress lines go here (stderr), one per figure group. @default {none} */
  progress?: (line: string) => void;
  /** A world that takes longer to build (with its tasks) is given up, in ms. @default {60000} */
  buildMs?: number;
}

const le = (bound: number): Target => ({ op: "<=", bound });
const ge = (bound: number): Target => ({ op: ">=", bound });
const lt = (bound: number): Target => ({ op: "<", bound });

/** Measures `fn` on this checkout, then on the baseline's (in that order). */
async function both<T>(kits: Kits, fn: (kit: Kit) => Promise<T>): Promise<{ now: T; before: T | null }> {
  const now = await fn(kits.now);
  return { now, before: kits.before === null ? null : await fn(kits.before) };
}

/** `a / b` of two measurements, or why there is none. */
function per(a: Measured, b: Measured, scale = 1): Measured {
  if (!("value" in a)) return a;
  if (!("value" in b)) return b;
  return { value: (a.value / b.value) * scale };
}

/** The issue's figures, in the table's order. */
export async function issueFigures(kits: Kits, options: IssueOptions = {}): Promise<Figure[]> {
  const say = options.progress ?? (() => {});
  const figures: Figure[] = [];
  const add = (f: Figure) => figures.push(f);
  const pair = <T>(got: { now: T; before: T | null }, pick: (x: T) => Measured) => ({
    now: pick(got.now),
    before: got.before === null ? null : pick(got.before),
  });

  say("bench: scoring 1M records");
  const score = await both(kits, (kit) =>
    outcome(async () => {
      const run = await member<typeof benchScoring>(kit, "cli/_bench_score.ts", "benchScoring");
      return await run({ tasks: 10_000, agents: 5, runs: 20 });
    }));
  type Scored = Awaited<ReturnType<typeof benchScoring>>;
  // A checkout whose bench did not time the reading on its own has no read figure (nor a sum).
  const scored = (pick: (s: Scored) => number | undefined) => (o: typeof score.now): Measured => {
    if (!("ok" in o)) return o;
    const value = pick(o.ok);
    return value === undefined || Number.isNaN(value) ? { reason: "not timed by this checkout's bench" } : { value };
  };

  say("bench: the default eval, end to end (1 and 2 workers), its store, reports and judge");
  const evals = await both(kits, benchEval);
  const episodes = evals.now.episodes;
  const workersNote = evals.before !== null && !evals.before.workers ? "1 worker" : undefined;
  // The baseline without --workers runs on one thread: its one-worker figures stand beside the two-worker ones.
  const two = (e: EvalBench) => e.workers ? e.eval2_s : e.eval1_s;
  const rate = (e: EvalBench, m: Measured) => per({ value: e.episodes }, m);
  add({
    key: "eval_default_2_workers_s",
    label: `default eval, 2 workers (s, ${episodes} episodes)`,
    now: evals.now.eval2_s,
    before: evals.before && two(evals.before),
    beforeNote: workersNote,
    target: le(12),
  });
  add({
    key: "eval_default_2_workers_episodes_per_s",
    label: "default eval, 2 workers (episodes/s)",
    now: rate(evals.now, evals.now.eval2_s),
    before: evals.before && rate(evals.before, two(evals.before)),
    beforeNote: workersNote,
    target: ge(1600),
    digits: 0,
  });
  add({ key: "eval_default_s", label: "default eval, 1 worker (s)", ...pair(evals, (e) => e.eval1_s) });
  add({
    key: "eval_default_episodes_per_s",
    label: "default eval, 1 worker (episodes/s)",
    ...pair(evals, (e) => rate(e, e.eval1_s)),
    target: ge(1000),
    digits: 0,
  });

  say("bench: floors (SQLite alone)");
  const floors = benchFloors();
  add({
    key: "store_us_per_episode",
    label: "store (µs per episode, close included)",
    ...pair(evals, (e) => e.store_us),
    target: le(60),
    floor: floors.commit_file_us,
    digits: 1,
  });
  add({
    key: "store_bytes_per_episode",
    label: "store (bytes per episode)",
    ...pair(evals, (e) => e.store_bytes),
    digits: 0,
  });
  add({ key: "report_s", label: "report.json + report.html (s)", ...pair(evals, (e) => e.report_s), target: le(2) });
  add({ key: "judge_s", label: "rules judge, every episode (s)", ...pair(evals, (e) => e.judge_s) });
  add({
    key: "judge_episodes_per_s",
    label: "rules judge (episodes/s)",
    ...pair(evals, (e) => per({ value: e.episodes }, e.judge_s)),
    digits: 0,
  });
  add({
    key: "judge_share",
    label: "rules judge / default eval, 1 worker",
    ...pair(evals, (e) => per(e.judge_s, e.eval1_s)),
    digits: 3,
  });

  say(`bench: tool steps in episodes (${STEP_DOMAINS.join(", ")})`);
  const steps = await both(kits, (kit) => benchSteps(kit));
  const pick = (k: keyof Pick<StepBench, "write_us" | "read_us">) => pair(steps, (s) => s[k]);
  add({
    key: "write_step_us",
    label: "write step (µs, median)",
    ...pick("write_us"),
    target: le(60),
    floor: floors.update_us,
    digits: 1,
  });
  add({ key: "read_step_us", label: "read step (µs, median)", ...pick("read_us"), floor: floors.select_us, digits: 1 });
  const floor = (key: string, label: string, value: number) =>
    add({ key, label, now: { value }, before: null, noBefore: "a floor: SQLite's, not the code's", digits: 1 });
  floor("floor_select_us", "floor: point select (µs, in memory)", floors.select_us);
  floor("floor_update_us", "floor: point update (µs, in memory)", floors.update_us);
  floor("floor_empty_commit_us", "floor: empty commit (µs, in memory)", floors.commit_memory_us);
  floor("floor_file_commit_us", "floor: one-row commit (µs, WAL file)", floors.commit_file_us);

  say(`bench: grading and judging ${GRADED_MILESTONES}-milestone episodes`);
  const graded = await both(kits, (kit) => benchGrade(kit));
  const gradeLabel = (what: string) => `${what} a ${GRADED_MILESTONES}-milestone episode (ms)`;
  add({
    key: "grade_100_ms",
    label: gradeLabel("grade"),
    ...pair(graded, (g: GradeBench) => g.grade_ms),
    target: le(0.5),
    digits: 3,
  });
  add({ key: "judge_100_ms", label: gradeLabel("judge"), ...pair(graded, (g: GradeBench) => g.judge_ms), digits: 3 });

  for (const domain of SIZE_DOMAINS) {
    say(`bench: ${domain} tool steps per second at ×${SIZES.join(", ×")}`);
    const sizes = await both(kits, async (kit) => {
      const out: SizeBench[] = [];
      for (const scale of SIZES) out.push(await benchSize(kit, { domain, scale }, { buildMs: options.buildMs }));
      return out;
    });
    SIZES.forEach((scale, i) =>
      add({
        key: `${domain}_x${scale}_steps_per_s`,
        label: `${domain} tool steps/s ×${scale}`,
        ...pair(sizes, (s) => s[i]),
        digits: 0,
      })
    );
    for (let i = 1; i < SIZES.length; i++) {
      add({
        key: `${domain}_x${SIZES[i]}_over_x1`,
        label: `${domain} steps/s ×${SIZES[i]} / ×1`,
        ...pair(sizes, (s) => per(s[i], s[0])),
        target: ge(0.8),
      });
    }
  }

  // As `deno task score` sees it: reading the JSON Lines file, then scoring.
  add({
    key: "score_1m_s",
    label: "score 1M records (s, read + score)",
    ...pair(score, scored((s) => s.read_s + s.score_s)),
    target: lt(5),
  });
  add({ key: "score_1m_read_s", label: "score 1M records: read (s)", ...pair(score, scored((s) => s.read_s)) });
  add({
    key: "score_1m_rss_mb",
    label: "score 1M records (peak MB)",
    ...pair(score, scored((s) => s.rss_mb)),
    target: lt(1024),
    digits: 0,
  });
  return figures;
}

/** Whether a figure of this checkout could not be measured for an error (a bug, or a module gone). */
export function failedFigures(figures: readonly Figure[]): Figure[] {
  return figures.filter((f) => valueOf(f.now) === null && "failed" in f.now && f.now.failed === true);
}
