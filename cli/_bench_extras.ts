// The rest of `deno task bench`, measured on this checkout only: each domain's kernel on τ-bench's
// data (or its generated world) and on its world ten times larger, `--suite long` and
// `--suite abstention` end to end, an import, the oracle on long tasks, the checkpoint's cost per call,
// the episode API under load and text mode. Printed as before the table's figures existed, and given
// to `--json` as figures without a `before`. Private to cli/.
import { type Domain, domains, World } from "../envs/mod.ts";
import { hasTauBench, tauBenchFolder, tauBenchRoot } from "../interop/tau_data.ts";
import type { ToolCall } from "../envs/mod.ts";
import { benchImport, benchImportTau2, benchInspectImport } from "./_bench_import.ts";
import { benchLong } from "./_bench_long.ts";
import { benchSuites } from "./_bench_suites.ts";
import { benchCheckpoint } from "./_bench_checkpoint.ts";
import { benchServe } from "./_bench_serve.ts";
import { benchText } from "./_bench_text.ts";
import type { Figure } from "./_bench_figures.ts";
import { type BenchFigures, benchWorld } from "./_bench_world.ts";

/** The extras: their figures (for JSON), facts that are not numbers, and their lines of text. */
export interface Extras {
  figures: Figure[];
  notes: Record<string, string>;
  text: string;
}

/** The world of the first kernel column and the gold action lists replayed on it. */
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

function kernelTable(kernels: readonly DomainFigures[]): string {
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
  return table.map((r) => r.map((c, i) => i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i])).join("  ")).join("\n");
}

/** Measures the extras; throws when τ-bench's files are there but cannot be loaded. */
export async function benchExtras(progress: (line: string) => void = () => {}): Promise<Extras> {
  progress("bench: kernels (τ-bench's data or generated worlds, and x10)");
  const kernels: DomainFigures[] = [];
  for (const domain of Object.values(domains)) {
    const baseline = openBaseline(domain);
    let base: BenchFigures;
    {
      using world = baseline.world;
      base = benchWorld(world, baseline.golds);
    }
    using world = World.open(domain, { seed: "0", scale: 10 });
    const x10 = benchWorld(world, world.defaultTasks().map((t) => t.gold));
    kernels.push({ domain: domain.name, label: baseline.label, base, x10 });
  }
  progress("bench: --suite long and --suite abstention");
  const suites = await benchSuites();
  progress("bench: import, long tasks, checkpoint, serve, text mode");
  const imported = await benchImport();
  const tau2 = await benchImportTau2();
  const inspected = await benchInspectImport();
  const long = await benchLong(Object.values(domains));
  const checked = await benchCheckpoint(Object.values(domains));
  const served = await benchServe(Object.keys(domains)[0]);
  const text = await benchText();

  const figures: Figure[] = [];
  const add = (key: string, label: string, value: number) =>
    figures.push({ key, label, now: { value }, before: null, noBefore: "measured on this checkout only" });
  for (const k of kernels) {
    for (const [at, f] of [[k.domain, k.base], [`${k.domain}.x10`, k.x10]] as const) {
      for (const [name, value] of Object.entries(f)) add(`${at}.${name}`, `${at} ${name}`, value);
    }
  }
  for (const x of suites) {
    add(`eval_${x.suite}_s`, `--suite ${x.suite} (s)`, x.eval_s);
    add(`eval_${x.suite}_episodes`, `--suite ${x.suite} episodes`, x.episodes);
  }
  add("import_s", "import (s)", imported.import_s);
  add("import_episodes_per_s", "import (episodes/s)", imported.import_episodes_per_s);
  if (tau2 !== null) add("import_tau2_episodes_per_s", "import τ²-bench (episodes/s)", tau2.import_episodes_per_s);
  add("import_inspect_s", "import inspect_ai (s)", inspected.import_s);
  add("import_inspect_episodes_per_s", "import inspect_ai (episodes/s)", inspected.import_episodes_per_s);
  for (const l of long) {
    add(`long.${l.domain}.tasks`, `long ${l.domain} tasks`, l.tasks);
    add(`long.${l.domain}.milestones`, `long ${l.domain} milestones`, l.milestones);
    add(`long.${l.domain}.long_episodes_per_s`, `long ${l.domain} episodes/s`, l.episodes_per_s);
    add(`long.${l.domain}.steps_per_s`, `long ${l.domain} steps/s`, l.steps_per_s);
  }
  add("checkpoint_tool_calls", "checkpoint tool calls", checked.tool_calls);
  add("checkpoint_overhead_us_per_call", "checkpoint overhead (µs per call)", checked.overhead_us_per_call);
  add("serve_episodes", "serve episodes", served.episodes);
  add("serve_leaks", "serve leaks", served.leaks);
  add("serve_tool_p50_ms", "serve tool call p50 (ms)", served.p50_ms);
  add("serve_tool_p99_ms", "serve tool call p99 (ms)", served.p99_ms);
  add("serve_mb_per_episode", "serve MB per open episode", served.mb_per_episode);
  add("text_mode_episodes", "text mode episodes", text.episodes);
  for (const [a, v] of Object.entries(text.agreement)) add(`text_mode_agreement.${a}`, `text mode agreement ${a}`, v);
  add("text_mode_ms_per_episode.intents", "text mode ms per episode, intents", text.intent_ms);
  add("text_mode_ms_per_episode.words", "text mode ms per episode, words", text.text_ms);

  const notes = {
    ...Object.fromEntries(kernels.map((k) => [`${k.domain}.data`, k.label])),
    import_data: imported.data,
  };
  const lines = [
    kernelTable(kernels),
    "",
    ...suites.map((x) => `--suite ${x.suite} (${x.episodes} episodes): ${x.eval_s.toFixed(2)} s (eval_${x.suite}_s)`),
    `import ${imported.episodes} episodes (${
      imported.data === "tau-bench" ? "τ-bench's GPT-4o runs" : "transcripts of a generated experiment"
    }): ${imported.import_s.toFixed(2)} s (import_episodes_per_s ${imported.import_episodes_per_s.toFixed(0)})`,
    tau2 === null
      ? "import τ²-bench: no τ²-bench results file with its domain's data (ARK_TAU2_BENCH, ARK_TAU_BENCH)"
      : `import τ²-bench ${tau2.episodes} episodes: ${tau2.import_s.toFixed(2)} s (import_tau2_episodes_per_s ${
        tau2.import_episodes_per_s.toFixed(1)
      })`,
    `import ${inspected.episodes} inspect_ai samples × epochs (an .eval log made at bench time): ` +
    `${inspected.import_s.toFixed(2)} s (import_inspect_episodes_per_s ${inspected.import_episodes_per_s.toFixed(0)})`,
    ...(long.length === 0
      ? ["long tasks (100+ milestones): none among the default tasks of any domain"]
      : long.map((l) =>
        `long tasks (${l.domain}, ${l.tasks} of ${l.milestones.toFixed(0)} milestones on average): oracle ` +
        `${l.episodes_per_s.toFixed(1)} episodes per s (long_episodes_per_s), ${l.steps_per_s.toFixed(0)} steps per s`
      )),
    `checkpoint: oracle on every domain's default tasks, ${checked.tool_calls} tool calls: ${
      checked.bare_ms.toFixed(0)
    } ms bare, ${checked.checked_ms.toFixed(0)} ms checked (checkpoint_overhead_us_per_call ${
      checked.overhead_us_per_call.toFixed(1)
    })`,
    `serve: ${served.episodes} episodes open at once over loopback, ${served.tool_calls} tool calls: ` +
    `${served.leaks} leaks (serve_leaks), tool call p50 ${served.p50_ms.toFixed(2)} ms, p99 ${
      served.p99_ms.toFixed(2)
    } ms (serve_tool_p99_ms), ${served.mb_per_episode.toFixed(2)} MB per open episode (serve_mb_per_episode)`,
    `text mode: ${text.episodes} episodes per form, verdict the same in words as in intents (text_mode_agreement): ${
      Object.entries(text.agreement).map(([a, v]) => `${a} ${v.toFixed(3)}`).join(", ")
    }; ${text.intent_ms.toFixed(2)} ms per episode in intents, ${text.text_ms.toFixed(2)} in words ` +
    `(text_mode_ms_per_episode)`,
  ];
  return { figures, notes, text: lines.join("\n") };
}
