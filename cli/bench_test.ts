import { assert, assertEquals, assertMatch, assertRejects, assertThrows } from "@std/assert";
import { getDomain, World } from "../envs/mod.ts";
import { benchWorld, main, parseBenchArgs } from "./bench.ts";
import { benchLong } from "./_bench_long.ts";
import { benchCheckpoint } from "./_bench_checkpoint.ts";
import { benchServe } from "./_bench_serve.ts";
import { benchText } from "./_bench_text.ts";
import { baselineKit, currentKit, type Kit, member, Missing } from "./_bench_kit.ts";
import { type Figure, figuresJson, figuresTable } from "./_bench_figures.ts";
import { benchEval, quietly } from "./_bench_eval.ts";
import { benchGrade } from "./_bench_grade.ts";
import { benchFloors, benchSteps, median } from "./_bench_steps.ts";
import { benchSize } from "./_bench_sizes.ts";
import { failedFigures } from "./_bench_issue.ts";

Deno.test("benchWorld() replays every gold and finds the same changes each time", () => {
  using world = World.open(getDomain("airline"), { seed: "0" });
  const golds = world.defaultTasks(10).map((t) => t.gold);
  const figures = benchWorld(world, golds, { minMs: 1 });
  assertEquals(figures.tasks, 10);
  assertEquals(figures.gold_match, 1);
  assert(figures.tool_steps_per_s > 0 && figures.restore_ms > 0 && figures.gold_replay_tasks_per_s > 0);
  // The world is left as it was: no episode open, the gold still applies.
  assertEquals(world.store.inTransaction, false);
});

Deno.test("benchLong() times the oracle on each domain's long tasks and leaves out a domain without any", async () => {
  const [orders] = await benchLong([getDomain("orders")], { minMs: 1 });
  assertEquals([orders.domain, orders.tasks, orders.milestones], ["orders", 2, 100]);
  assert(orders.episodes >= 2 && orders.episodes_per_s > 0 && orders.steps_per_s > orders.episodes_per_s);
  assertEquals(await benchLong([getDomain("airline")], { minMs: 1 }), []);
});

Deno.test("benchCheckpoint() times the oracle bare and behind the checkpoint on the same calls", async () => {
  const b = await benchCheckpoint([getDomain("airline")], { tasks: 3 });
  assert(b.tool_calls > 0 && b.bare_ms > 0 && b.checked_ms > 0, JSON.stringify(b));
  assertEquals(b.bare_tool_calls, b.tool_calls);
});

Deno.test("benchServe(): episodes open at once over loopback get the records they get alone in-process", async () => {
  const served = await benchServe("airline", { episodes: 20 });
  assertEquals([served.episodes, served.leaks], [20, 0]);
  assert(served.tool_calls > 0 && served.p99_ms >= served.p50_ms);
});

Deno.test("benchText() runs agents in intents and in words on the same cells and compares their verdicts", async () => {
  const text = await benchText({ tasks: 4, agents: ["oracle", "idle"] });
  assert(text.episodes > 0 && text.intent_ms > 0 && text.text_ms > 0, JSON.stringify(text));
  assertEquals(Object.keys(text.agreement), ["oracle", "idle"]);
  assertEquals(text.agreement.idle, 1);
});

Deno.test("parseBenchArgs() takes --json and --baseline DIR, and says what it accepts otherwise", () => {
  assertEquals(parseBenchArgs([]), { json: false, baseline: null });
  assertEquals(parseBenchArgs(["--baseline=../old", "--json"]), { json: true, baseline: "../old" });
  assertEquals(parseBenchArgs(["--json", "--help"]), "help");
  assertThrows(() => parseBenchArgs(["--baseline"]), TypeError, "--baseline needs a folder");
  assertThrows(() => parseBenchArgs(["--baseline", "--json"]), TypeError, "--baseline needs a folder");
  assertThrows(() => parseBenchArgs(["--fast"]), TypeError, 'Unknown argument "--fast": expected --json');
});

Deno.test("main() stops at once, exit 2 and one line, on a baseline folder that does not exist or a bad flag", async () => {
  const dir = await Deno.makeTempDir();
  try {
    for (const args of [["--baseline", `${dir}/gone`], ["--baseline", `${dir}/file`], ["--slow"]]) {
      await Deno.writeTextFile(`${dir}/file`, "");
      const { value: code, said } = await quietly(() => main(args, { extras: false }));
      assertEquals(code, 2);
      assertEquals(said.split("\n").length, 1, said);
      assertMatch(
        said,
        args[0] === "--slow"
          ? /^Unknown argument "--slow"/
          : /^Cannot use baseline ".*": it (does not exist|is not a folder)$/,
      );
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** A folder posing as a checkout, with the given files; removed by the caller. */
async function fakeCheckout(files: Record<string, string>): Promise<{ kit: Kit; dir: string }> {
  const dir = await Deno.makeTempDir({ prefix: "ark-bench-fake-" });
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(`${dir}/${path.split("/").slice(0, -1).join("/")}`, { recursive: true });
    await Deno.writeTextFile(`${dir}/${path}`, text);
  }
  return { kit: baselineKit(dir), dir };
}

Deno.test("member() names the module or export a baseline lacks, and a module that does not load", async () => {
  const { kit, dir } = await fakeCheckout({
    "eval/store.ts": "export const MemoryResults = class {};\n",
    "eval/run.ts": "export const runExperiment = (;\n",
  });
  try {
    await assertRejects(() => member(kit, "eval/config.ts", "resolveConfig"), Missing, `${dir} has no eval/config.ts`);
    await assertRejects(
      () => member(kit, "eval/store.ts", "ResultsStore"),
      Missing,
      `${dir} has no eval/store.ts ResultsStore`,
    );
    await assertRejects(
      () => member(kit, "eval/run.ts", "runExperiment"),
      Missing,
      `${dir}'s eval/run.ts does not load`,
    );
    assertEquals(typeof await member(kit, "eval/store.ts", "MemoryResults"), "function");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("benchEval(), benchGrade(), benchSteps() and benchSize() on a folder that is not ark give reasons, not values", async () => {
  const { kit, dir } = await fakeCheckout({ "README.md": "not ark\n" });
  try {
    const evals = await benchEval(kit);
    assertEquals(evals.eval1_s, { reason: `${dir} has no cli/eval.ts`, failed: true });
    assertEquals(evals.store_us, { reason: `no default eval to read: ${dir} has no cli/eval.ts` });
    const graded = await benchGrade(kit);
    assertEquals([graded.episodes, graded.grade_ms], [0, { reason: `${dir} has no eval/config.ts`, failed: true }]);
    assertEquals((await benchSteps(kit)).write_us, { reason: `${dir} has no envs/mod.ts`, failed: true });
    assertEquals(await benchSize(kit, { domain: "retail", scale: 1 }), {
      reason: `${dir} has no envs/mod.ts`,
      failed: true,
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("benchEval() times a checkout whose deno task eval has no --workers on one thread and says so", async () => {
  // An eval that refuses --workers as an older ark's does, and writes no results folder.
  const { kit, dir } = await fakeCheckout({
    "cli/eval.ts": `export async function main(args) {
      if (args.includes("--workers")) { console.error('Unknown flag "--workers": expected one of --out'); return 2; }
      return 0;
    }\n`,
  });
  try {
    const evals = await benchEval(kit);
    assert("value" in evals.eval1_s && evals.eval1_s.value >= 0, JSON.stringify(evals.eval1_s));
    assertEquals([evals.workers, evals.eval2_s], [false, { reason: `${dir}'s deno task eval has no --workers` }]);
    assertEquals(evals.store_us, { reason: `${dir} has no eval/store.ts`, failed: true });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("benchEval() on a small experiment: eval, store, reports and judge all measured", async () => {
  const args = ["--domains", "airline", "--agents", "oracle,noisy", "--tasks", "3", "--runs", "1"];
  const config = { domains: ["airline"], agents: ["oracle", "noisy"], tasks: 3, runs: 1 };
  const evals = await benchEval(currentKit(), { args, config, repeats: 1 });
  assert(evals.episodes > 10, String(evals.episodes));
  for (const m of [evals.eval1_s, evals.store_us, evals.store_bytes, evals.report_s, evals.judge_s]) {
    assert("value" in m && m.value > 0, JSON.stringify(evals));
  }
  // Two workers where the checkout's eval takes --workers, a reason where it does not.
  assert(evals.workers ? "value" in evals.eval2_s : "reason" in evals.eval2_s, JSON.stringify(evals));
});

Deno.test("benchGrade() grades and judges the oracle's 100-milestone long episodes", async () => {
  const graded = await benchGrade(currentKit(), { minMs: 1, tasks: 1 });
  assert(graded.episodes > 0, JSON.stringify(graded));
  assert("value" in graded.grade_ms && graded.grade_ms.value > 0, JSON.stringify(graded));
  assert("value" in graded.judge_ms && graded.judge_ms.value > 0, JSON.stringify(graded));
});

Deno.test("benchSteps() times writing and reading gold steps in episodes; benchFloors() SQLite alone", async () => {
  const steps = await benchSteps(currentKit(), { minMs: 1, tasks: 5, domains: ["retail"] });
  assert(steps.writes > 0 && steps.reads > 0, JSON.stringify(steps));
  assert("value" in steps.write_us && "value" in steps.read_us, JSON.stringify(steps));
  const floors = benchFloors({ calls: 50 });
  assert(Object.values(floors).every((v) => v > 0), JSON.stringify(floors));
  assertEquals([median([3, 1, 2]), median([4, 1, 3, 2])], [2, 2.5]);
});

Deno.test("benchSize() times a world's tool steps in a worker, and gives up on one slower to build than allowed", async () => {
  const one = await benchSize(currentKit(), { domain: "orders", scale: 1 }, { minMs: 1 });
  assert("value" in one && one.value > 0 && one.build_s! > 0, JSON.stringify(one));
  assertEquals(await benchSize(currentKit(), { domain: "orders", scale: 1 }, { minMs: 1, buildMs: 1 }), {
    reason: "the ×1 world and its tasks took over 0.001 s to build",
  });
});

const FIGURES: Figure[] = [
  {
    key: "store_us",
    label: "store (µs)",
    now: { value: 50 },
    before: { value: 200 },
    target: { op: "<=", bound: 60 },
    floor: 20,
  },
  {
    key: "report_s",
    label: "report (s)",
    now: { value: 3 },
    before: { reason: "/old has no report/mod.ts", failed: true },
    target: { op: "<=", bound: 2 },
  },
  {
    key: "eval_s",
    label: "eval (s)",
    now: { reason: "x has no --workers" },
    before: { value: 40 },
    beforeNote: "1 worker",
  },
  { key: "floor_us", label: "floor (µs)", now: { value: 2 }, before: null, noBefore: "a floor" },
];

Deno.test("figuresTable() prints new, before, their ratio, target and floor, and one line per missing reason", () => {
  const lines = figuresTable(FIGURES, { baseline: true }).split("\n");
  assertEquals(lines[0].split(/\s{2,}/), ["figure", "new", "before", "new/before", "target", "floor"]);
  assertEquals(lines[1].split(/\s{2,}/), ["store (µs)", "50.00", "200.00", "0.25", "≤ 60", "20.00"]);
  // A figure that misses its target is marked; a missing value is a dash, its reason below.
  assertEquals(lines[2].split(/\s{2,}/), ["report (s)", "3.00 !", "—", "≤ 2"]);
  assertEquals(lines[3].split(/\s{2,}/), ["eval (s)", "—", "40.00 (1 worker)"]);
  assertEquals(lines.slice(5), [
    "before: /old has no report/mod.ts (report (s))",
    "new: x has no --workers (eval (s))",
  ]);
  // Without a baseline: no before, no ratio, no notice about one.
  const alone = figuresTable(FIGURES, { baseline: false }).split("\n");
  assertEquals(alone[0].split(/\s{2,}/), ["figure", "new", "target", "floor"]);
  assertEquals(alone.slice(5), ["new: x has no --workers (eval (s))"]);
});

Deno.test("figuresJson() gives every figure as {value, before, ratio, target, met, floor} with its reasons", () => {
  const json = figuresJson(FIGURES);
  assertEquals(Object.keys(json), ["store_us", "report_s", "eval_s", "floor_us"]);
  assertEquals(json.store_us, {
    label: "store (µs)",
    value: 50,
    before: 200,
    ratio: 0.25,
    target: { op: "<=", bound: 60 },
    met: true,
    floor: 20,
  });
  assertEquals([json.report_s.met, json.report_s.before, json.report_s.before_reason], [
    false,
    null,
    "/old has no report/mod.ts",
  ]);
  assertEquals([json.eval_s.value, json.eval_s.reason, json.eval_s.before_note], [
    null,
    "x has no --workers",
    "1 worker",
  ]);
  assertEquals([json.floor_us.before_reason, json.floor_us.ratio], ["a floor", null]);
  assertEquals(figuresJson([{ ...FIGURES[0], before: null }]).store_us.before_reason, "no --baseline given");
  // Only a figure of this checkout stopped by an error counts as failed.
  assertEquals(failedFigures([...FIGURES, { ...FIGURES[0], now: { reason: "boom", failed: true } }]).length, 1);
});

Deno.test("deno task bench may start processes: its eval figures run each deno task eval in a fresh one", () => {
  const config = JSON.parse(Deno.readTextFileSync(new URL("../deno.json", import.meta.url)));
  const flags = String(config.tasks.bench).split(/\s+/);
  assert(flags.some((f) => f === "--allow-run" || f.startsWith("--allow-run=")), config.tasks.bench);
});
