/**
 * `deno task bench [--json]`: how fast the kernel is, for every registered domain, on τ-bench's
 * data of the domain (its generated world when the data are absent, said in one line on stderr)
 * and on its generated world ten times larger: tool steps per second
 * (gold actions through tool dispatch), the time of one snapshot restore, and
 * gold-replay tasks per second including the reset and the grading of changes;
 * then how long scoring a million records with 1,000 bootstrap resamples
 * takes, and the peak memory meanwhile; then the default experiment end to end and
 * how much of it the rules judge takes (`judge_episodes_per_s`, `judge_share`); then the time of
 * `deno task eval --suite long` and `--suite abstention` end to end (`eval_long_s`,
 * `eval_abstention_s`); then
 * how fast `deno task import` takes 100 episodes (`import_episodes_per_s`): τ-bench's
 * GPT-4o runs, or an ark experiment's own transcripts without τ-bench's data; then the oracle's
 * episodes per second on each domain's long tasks (100 or more milestones), where it has any; then
 * what the checkpoint wrapper adds per tool call (`checkpoint_overhead_us_per_call`); then the
 * episode API under load: 200 episodes open at once over loopback, played with the oracle's and
 * noisy's in-process decisions, their records compared (`serve_leaks`), a tool call's p50 and p99
 * (`serve_tool_p99_ms`) and the memory per open episode (`serve_mb_per_episode`); then the results
 * store's size (`store_bytes_per_episode`) on the default eval's; then text mode: every scripted
 * agent and baseline in intents and in words (`AGENT@text`) on the default tasks, the share of
 * episodes with the same verdict both ways (`text_mode_agreement`) and the time per episode of each
 * (`text_mode_ms_per_episode`).
 *
 * @module
 */
import { type Domain, domains, Rng, sameChanges, type ToolCall, World } from "../envs/mod.ts";
import type { RowChange } from "../envs/mod.ts";
import { hasTauBench, tauBenchFolder, tauBenchRoot } from "../interop/tau_data.ts";
import { benchScoring, type ScoreBench } from "./_bench_score.ts";
import { benchJudge, type JudgeBench } from "./_bench_judge.ts";
import { benchImport, type ImportBench } from "./_bench_import.ts";
import { benchLong, type LongBench } from "./_bench_long.ts";
import { benchSuites, type SuiteBench } from "./_bench_suites.ts";
import { benchCheckpoint, type CheckpointBench } from "./_bench_checkpoint.ts";
import { benchServe, type ServeBench } from "./_bench_serve.ts";
import type { StoreBench } from "./_bench_store.ts";
import { benchText, type TextBench } from "./_bench_text.ts";

/** The figures of one world. */
export interface BenchFigures {
  /** Tasks whose gold was replayed. */
  tasks: number;
  /** Gold actions executed per second (world reset once per task, not timed separately). */
  tool_steps_per_s: number;
  /** Mean time of one `store.restore(image)`, in ms. */
  restore_ms: number;
  /** Tasks per second: reset, replay of the gold actions, tracked changes compared with the gold changes. */
  gold_replay_tasks_per_s: number;
  /** Share of replays whose changes equal the gold changes (1 unless the kernel is non-deterministic). */
  gold_match: number;
}

/** Options of `benchWorld()`. */
export interface BenchOptions {
  /**
   * Each figure is measured over at least this many milliseconds, after one warm-up pass.
   * @default {400}
   */
  minMs?: number;
}

function timed(minMs: number, fn: () => number): { count: number; ms: number } {
  fn();
  let count = 0;
  const start = performance.now();
  let ms = 0;
  while (ms < minMs) {
    count += fn();
    ms = performance.now() - start;
  }
  return { count, ms };
}

/** Replays gold calls on a world inside one episode and returns the changes they made (undone after). */
function replay(world: World, gold: readonly ToolCall[]): RowChange[] {
  using episode = world.beginEpisode();
  const ctx = world.context(new Rng("bench"));
  for (const call of gold) world.call(ctx, call.name, call.args);
  return episode.changes();
}

/**
 * Measures one world on a set of gold action lists.
 *
 * @example
 * ```ts
 * import { assert, assertEquals } from "@std/assert";
 * import { getDomain, World } from "../envs/mod.ts";
 * import { benchWorld } from "./bench.ts";
 * using world = World.open(getDomain("airline"));
 * const figures = benchWorld(world, world.defaultTasks(2).map((t) => t.gold), { minMs: 1 });
 * assertEquals([figures.tasks, figures.gold_match], [2, 1]);
 * assert(figures.restore_ms >= 0);
 * ```
 */
export function benchWorld(
  world: World,
  golds: readonly (readonly ToolCall[])[],
  options: BenchOptions = {},
): BenchFigures {
  const minMs = options.minMs ?? 400;
  const ctx = world.context(new Rng("bench"));
  const steps = timed(minMs, () => {
    let n = 0;
    for (const gold of golds) {
      world.store.begin();
      for (const call of gold) world.call(ctx, call.name, call.args);
      world.store.rollback();
      n += gold.length;
    }
    return n;
  });

  const image = world.store.snapshot();
  const restores = timed(minMs, () => {
    for (let i = 0; i < 20; i++) world.store.restore(image);
    return 20;
  });

  const expected = golds.map((gold) => replay(world, gold));
  let matched = 0, replays = 0;
  const tasks = timed(minMs, () => {
    golds.forEach((gold, i) => {
      if (sameChanges(replay(world, gold), expected[i])) matched++;
      replays++;
    });
    return golds.length;
  });

  return {
    tasks: golds.length,
    tool_steps_per_s: steps.count / (steps.ms / 1000),
    restore_ms: restores.ms / restores.count,
    gold_replay_tasks_per_s: tasks.count / (tasks.ms / 1000),
    gold_match: replays === 0 ? 1 : matched / replays,
  };
}

/** The world of the first column and the gold action lists replayed on it. */
interface Baseline {
  label: "tau-bench" | "generated";
  world: World;
  golds: ToolCall[][];
}

/** τ-bench's data and test tasks of a domain, or its generated world and tasks when they are absent. */
function openBaseline(domain: Domain): Baseline {
  if (domain.tauBench === undefined || !hasTauBench(domain.name)) {
    // A domain τ-bench has no copy of is measured on its generated world, without a word.
    if (domain.tauBench !== undefined) {
      console.warn(
        `τ-bench data not found at ${tauBenchRoot()}: ${domain.name}'s replay figures use a generated world ` +
          `(set ARK_TAU_BENCH)`,
      );
    }
    const world = World.open(domain, { seed: "0" });
    return { label: "generated", world, golds: world.defaultTasks().map((t) => t.gold) };
  }
  const { data, tasks } = domain.tauBench.load(tauBenchFolder(domain.name));
  const golds = tasks.map((t) => t.actions.map((a) => ({ name: a.name, args: a.kwargs })));
  return { label: "tau-bench", world: World.fromData(domain, data), golds };
}

/** One domain's kernel figures: on τ-bench's data (or its generated world) and on a world ten times larger. */
interface DomainFigures {
  domain: string;
  label: Baseline["label"];
  base: BenchFigures;
  x10: BenchFigures;
}

function format(
  kernels: readonly DomainFigures[],
  score: ScoreBench,
  judge: JudgeBench,
  suites: readonly SuiteBench[],
  imported: ImportBench,
  long: readonly LongBench[],
  checked: CheckpointBench,
  served: ServeBench,
  stored: StoreBench,
  text: TextBench,
): string {
  const rows: [string, (f: BenchFigures) => string][] = [
    ["tasks", (f) => String(f.tasks)],
    ["tool steps per s", (f) => f.tool_steps_per_s.toFixed(0)],
    ["restore (ms)", (f) => f.restore_ms.toFixed(3)],
    ["gold replay tasks per s", (f) => f.gold_replay_tasks_per_s.toFixed(0)],
    ["gold replays matching", (f) => f.gold_match.toFixed(3)],
  ];
  const header = ["", ...kernels.flatMap((k) => [`${k.domain} ${k.label}`, `${k.domain} generated x10`])];
  const table = [header, ...rows.map(([label, get]) => [label, ...kernels.flatMap((k) => [get(k.base), get(k.x10)])])];
  const widths = header.map((_, i) => Math.max(...table.map((r) => r[i].length)));
  const kernel = table.map((r) => r.map((c, i) => i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i])).join("  "))
    .join("\n");
  const records = score.records.toLocaleString("en-US");
  return `${kernel}\n\nscore ${records} records, 1000 resamples: ${score.score_s.toFixed(2)} s, ` +
    `peak RSS ${score.rss_mb.toFixed(0)} MB\n` +
    `default eval (${judge.episodes} episodes): ${judge.eval_s.toFixed(2)} s; rules judge ${
      judge.judge_s.toFixed(2)
    } s (judge_episodes_per_s ${judge.judge_episodes_per_s.toFixed(0)}, ${
      (judge.judge_share * 100).toFixed(1)
    }% of the eval)\n` +
    suites.map((x) => `--suite ${x.suite} (${x.episodes} episodes): ${x.eval_s.toFixed(2)} s (eval_${x.suite}_s)\n`)
      .join("") +
    `import ${imported.episodes} episodes (${
      imported.data === "tau-bench" ? "τ-bench's GPT-4o runs" : "transcripts of a generated experiment"
    }): ${imported.import_s.toFixed(2)} s (import_episodes_per_s ${imported.import_episodes_per_s.toFixed(0)})\n` +
    (long.length === 0
      ? "long tasks (100+ milestones): none among the default tasks of any domain"
      : long.map((l) =>
        `long tasks (${l.domain}, ${l.tasks} of ${l.milestones.toFixed(0)} milestones on average): oracle ` +
        `${l.episodes_per_s.toFixed(1)} episodes per s (long_episodes_per_s), ${l.steps_per_s.toFixed(0)} steps per s`
      ).join("\n")) +
    `\ncheckpoint: oracle on every domain's default tasks, ${checked.tool_calls} tool calls: ${
      checked.bare_ms.toFixed(0)
    } ms bare, ${checked.checked_ms.toFixed(0)} ms checked (checkpoint_overhead_us_per_call ${
      checked.overhead_us_per_call.toFixed(1)
    })\n` +
    `serve: ${served.episodes} episodes open at once over loopback, ${served.tool_calls} tool calls: ` +
    `${served.leaks} leaks (serve_leaks), tool call p50 ${served.p50_ms.toFixed(2)} ms, p99 ${
      served.p99_ms.toFixed(2)
    } ms (serve_tool_p99_ms), ${served.mb_per_episode.toFixed(2)} MB per open episode (serve_mb_per_episode)\n` +
    `store: ${stored.episodes} episodes of the default eval: ${
      stored.bytes_per_episode.toFixed(0)
    } bytes per episode of results.sqlite (store_bytes_per_episode)\n` +
    `text mode: ${text.episodes} episodes per form, verdict the same in words as in intents (text_mode_agreement): ${
      Object.entries(text.agreement).map(([a, v]) => `${a} ${v.toFixed(3)}`).join(", ")
    }; ${text.intent_ms.toFixed(2)} ms per episode in intents, ${text.text_ms.toFixed(2)} in words ` +
    `(text_mode_ms_per_episode)`;
}

/** Runs the bench and returns its exit code. */
export async function main(args: readonly string[]): Promise<number> {
  const unknown = args.find((a) => a !== "--json" && a !== "--help");
  if (unknown !== undefined) {
    console.error(`Unknown argument "${unknown}": expected --json or --help`);
    return 2;
  }
  if (args.includes("--help")) {
    console.log(
      "Usage: deno task bench [--json]\n\nMeasures the kernel of every domain on tau-bench's data " +
        "(a generated world without them; ARK_TAU_BENCH names their folder) and a 10x world, scoring on a " +
        "million synthetic records, and the default eval with the share its judge takes.",
    );
    return 0;
  }
  const kernels: DomainFigures[] = [];
  for (const domain of Object.values(domains)) {
    let baseline: Baseline;
    try {
      baseline = openBaseline(domain);
    } catch (err) {
      // τ-bench's files are there but cannot be loaded.
      console.error(err instanceof Error ? err.message : String(err));
      return 1;
    }
    let base: BenchFigures;
    {
      using world = baseline.world;
      base = benchWorld(world, baseline.golds);
    }
    using world = World.open(domain, { seed: "0", scale: 10 });
    const x10 = benchWorld(world, world.defaultTasks().map((t) => t.gold));
    kernels.push({ domain: domain.name, label: baseline.label, base, x10 });
  }
  const score = await benchScoring({ tasks: 10_000, agents: 5, runs: 20 });
  const judge = await benchJudge();
  const suites = await benchSuites();
  const imported = await benchImport();
  const long = await benchLong(Object.values(domains));
  const checked = await benchCheckpoint(Object.values(domains));
  const served = await benchServe(Object.keys(domains)[0]);
  const stored = judge.store;
  const text = await benchText();
  if (args.includes("--json")) {
    const round = (v: number) => Math.round(v * 1000) / 1000;
    const figures = (f: BenchFigures) => Object.fromEntries(Object.entries(f).map(([k, v]) => [k, round(v)]));
    const out = Object.fromEntries([
      ...kernels.map((k) => [k.domain, { data: k.label, ...figures(k.base), x10: figures(k.x10) }]),
      ["score_1m_s", round(score.score_s)],
      ["score_1m_rss_mb", Math.round(score.rss_mb)],
      ["eval_default_s", round(judge.eval_s)],
      ["judge_s", round(judge.judge_s)],
      ["judge_episodes_per_s", Math.round(judge.judge_episodes_per_s)],
      ["judge_share", round(judge.judge_share)],
      ...suites.flatMap((x) => [[`eval_${x.suite}_s`, round(x.eval_s)], [`eval_${x.suite}_episodes`, x.episodes]]),
      ["import_data", imported.data],
      ["import_s", round(imported.import_s)],
      ["import_episodes_per_s", Math.round(imported.import_episodes_per_s)],
      [
        "long",
        Object.fromEntries(long.map((l) => [l.domain, {
          tasks: l.tasks,
          milestones: round(l.milestones),
          long_episodes_per_s: round(l.episodes_per_s),
          steps_per_s: Math.round(l.steps_per_s),
        }])),
      ],
      ["checkpoint_tool_calls", checked.tool_calls],
      ["checkpoint_overhead_us_per_call", round(checked.overhead_us_per_call)],
      ["serve_episodes", served.episodes],
      ["serve_leaks", served.leaks],
      ["serve_tool_p50_ms", round(served.p50_ms)],
      ["serve_tool_p99_ms", round(served.p99_ms)],
      ["serve_mb_per_episode", round(served.mb_per_episode)],
      ["store_episodes", stored.episodes],
      ["store_bytes_per_episode", Math.round(stored.bytes_per_episode)],
      ["text_mode_episodes", text.episodes],
      ["text_mode_agreement", Object.fromEntries(Object.entries(text.agreement).map(([a, v]) => [a, round(v)]))],
      ["text_mode_ms_per_episode", { intents: round(text.intent_ms), words: round(text.text_ms) }],
    ]);
    console.log(JSON.stringify(out));
  } else {
    console.log(format(kernels, score, judge, suites, imported, long, checked, served, stored, text));
  }
  return 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
