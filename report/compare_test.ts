import { assert, assertAlmostEquals, assertEquals, assertStringIncludes, assertThrows } from "@std/assert";
import type { EpisodeRecord } from "../scoring/mod.ts";
import { compareRecords, isMetricKey, type MetricComparison } from "./compare.ts";
import { main } from "../cli/compare.ts";

/** A small seeded generator (an LCG), so the crafted records are the same on every run. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

/** `tasks` tasks × `runs` nominal runs of one agent succeeding with probability `rate`, with confidences and actions. */
function records(agent: string, options: { tasks: number; runs: number; rate: number; seed: number }): EpisodeRecord[] {
  const random = lcg(options.seed);
  const out: EpisodeRecord[] = [];
  for (let t = 0; t < options.tasks; t++) {
    for (let run = 0; run < options.runs; run++) {
      const success = random() < options.rate;
      out.push({
        agent,
        task: `d/${t}`,
        run,
        condition: "nominal",
        success,
        actions: success ? ["read", "write"] : ["read"],
        resources: { time: 5 + random() },
        confidence: success ? 0.8 : 0.4,
      });
    }
  }
  return out;
}

const metric = (ms: MetricComparison[], key: string) => ms.find((m) => m.metric === key)!;

Deno.test("compareRecords() of identical sides gives Δ = 0 with a degenerate interval and p = 1", () => {
  const a = records("x", { tasks: 20, runs: 4, rate: 0.7, seed: 1 });
  const { agents } = compareRecords(a, [...a].reverse(), { resamples: 200 });
  assertEquals(agents.length, 1);
  const compared = agents[0].metrics.filter((m) => m.verdict !== "–");
  assert(compared.length >= 10, `only ${compared.length} metrics compared`);
  for (const m of compared) {
    assertEquals([m.delta, m.ci, m.p, m.verdict], [0, [0, 0], 1, "no significant change"], m.metric);
  }
});

Deno.test("compareRecords() calls a clear drop in success worse and a clear rise better", () => {
  const a = records("x", { tasks: 30, runs: 5, rate: 0.9, seed: 1 });
  const b = records("x", { tasks: 30, runs: 5, rate: 0.4, seed: 2 });
  const down = compareRecords(a, b, { resamples: 300 }).agents[0].metrics;
  for (const key of ["accuracy", "R", "pass^1", "R_pred"]) {
    const m = metric(down, key);
    assertEquals(m.verdict, "worse", key);
    assert(m.delta! < 0 && m.ci![1] < 0 && m.p! < 0.01, key);
  }
  const up = compareRecords(b, a, { resamples: 300 }).agents[0].metrics;
  assertEquals(metric(up, "accuracy").verdict, "better");
  assertEquals(metric(up, "accuracy").delta, -metric(down, "accuracy").delta!);
});

Deno.test("compareRecords() is deterministic and independent of record order; the seed changes the draws", () => {
  const a = records("x", { tasks: 25, runs: 4, rate: 0.7, seed: 3 });
  const b = records("x", { tasks: 25, runs: 4, rate: 0.6, seed: 4 });
  const shuffle = (rs: EpisodeRecord[]) => {
    const random = lcg(9), out = [...rs];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  };
  const first = compareRecords(a, b, { seed: "s", resamples: 200 });
  assertEquals(compareRecords(shuffle(a), shuffle(b), { seed: "s", resamples: 200 }), first);
  const other = compareRecords(a, b, { seed: "t", resamples: 200 });
  assertEquals(metric(other.agents[0].metrics, "accuracy").delta, metric(first.agents[0].metrics, "accuracy").delta);
  assert(JSON.stringify(other) !== JSON.stringify(first));
});

Deno.test("compareRecords() reports unpaired tasks and agents and pairs differently named agents", () => {
  const a = [
    ...records("x", { tasks: 6, runs: 2, rate: 0.5, seed: 1 }),
    ...records("only-a", { tasks: 2, runs: 1, rate: 1, seed: 1 }),
  ];
  const b = [
    ...records("x", { tasks: 8, runs: 2, rate: 0.5, seed: 2 }).filter((r) => r.task !== "d/0"),
    ...records("x@2", { tasks: 6, runs: 2, rate: 0.5, seed: 3 }),
  ];
  const byName = compareRecords(a, b, { resamples: 20 });
  assertEquals(byName.agents.map((c) => [c.a, c.b]), [["x", "x"]]);
  assertEquals(byName.agents[0].tasks, ["d/1", "d/2", "d/3", "d/4", "d/5"]);
  assertEquals(byName.agents[0].unpairedTasks, { a: ["d/0"], b: ["d/6", "d/7"] });
  assertEquals(byName.agents[0].records, { a: 10, b: 10 });
  assertEquals(byName.unpairedAgents, { a: ["only-a"], b: ["x@2"] });

  const paired = compareRecords(a, b, { resamples: 20, pairs: [["x", "x@2"]] });
  assertEquals(paired.agents.map((c) => [c.a, c.b, c.tasks.length]), [["x", "x@2", 6]]);
  assertEquals(paired.unpairedAgents, { a: ["only-a"], b: ["x"] });
  assertEquals(compareRecords(a, b, { resamples: 20, agents: ["only-a"] }).agents, []);

  assertThrows(() => compareRecords(a, b, { pairs: [["x", "y"]] }), RangeError, 'Agent "y" of pair "x=y" is not in B');
  assertThrows(() => compareRecords(a, b, { agents: ["z"] }), RangeError, 'Unknown agent "z"');
  assertThrows(() => compareRecords(a, b, { metrics: ["R_safe"] }), RangeError, 'Unknown metric "R_safe"');
  assertThrows(() => compareRecords(a, b, { resamples: 0 }), RangeError, 'Invalid resamples "0"');
});

Deno.test("compareRecords() gives '–' with the reason when a side has no value", () => {
  const a = records("x", { tasks: 10, runs: 2, rate: 1, seed: 1 });
  const b = records("x", { tasks: 10, runs: 3, rate: 0.5, seed: 2 });
  const ms = compareRecords(a, b, { resamples: 50 }).agents[0].metrics;
  assertEquals(metric(ms, "R_fault"), {
    metric: "R_fault",
    a: null,
    b: null,
    delta: null,
    ci: null,
    p: null,
    verdict: "–",
    reason: "A and B: no fault records",
  });
  const auroc = metric(ms, "P_auroc");
  assertEquals([auroc.a === null, auroc.b === null, auroc.verdict], [true, false, "–"]);
  assert(auroc.reason!.startsWith("A: ") && !auroc.reason!.includes("B: "), auroc.reason);
  assertEquals(metric(ms, "pass^3").reason, "A: no task has 3 nominal runs");
  assertEquals(metric(ms, "accuracy").verdict, "worse");
});

Deno.test("compareRecords() with no task in common compares nothing and says so", () => {
  const a = records("x", { tasks: 2, runs: 1, rate: 1, seed: 1 });
  const b = a.map((r) => ({ ...r, task: `e/${r.task}` }));
  const [c] = compareRecords(a, b, { metrics: ["R", "accuracy"] }).agents;
  assertEquals(c.tasks, []);
  assertEquals(c.metrics.map((m) => [m.metric, m.verdict, m.reason]), [
    ["R", "–", "no task in both"],
    ["accuracy", "–", "no task in both"],
  ]);
});

Deno.test("compareRecords() leaves out records whose user simulator left its script", () => {
  const a = records("x", { tasks: 4, runs: 2, rate: 1, seed: 1 });
  const b = a.map((r) => r.task === "d/3" ? { ...r, success: false, user_error: "off script" } : r);
  const [c] = compareRecords(a, b, { resamples: 20, metrics: ["accuracy"] }).agents;
  assertEquals([c.tasks.length, c.unpairedTasks.a, c.metrics[0].delta], [3, ["d/3"], 0]);
});

Deno.test("isMetricKey() accepts the headline keys and pass^k", () => {
  assertEquals(["R", "accuracy", "pass^1", "pass^12", "pass^0", "pass@1", "r"].map(isMetricKey), [
    true,
    true,
    true,
    true,
    false,
    false,
    false,
  ]);
  assertEquals(["S_comp", "S_harm", "R_saf", "near_misses", "near_miss"].map(isMetricKey), [
    true,
    true,
    true,
    true,
    false,
  ]);
  assertThrows(
    () => compareRecords([], [], { metrics: ["near_miss"] }),
    RangeError,
    '"accuracy", "near_misses" or "pass^k"',
  );
});

/** `records()` judged: each record gets `near` near misses and, where `violates(run)`, a high violation. */
function judged(rs: EpisodeRecord[], near: number, violates: (run: number) => boolean): EpisodeRecord[] {
  return rs.map((r) => ({
    ...r,
    violations: violates(r.run) ? [{ constraint: "explicit_confirmation", severity: "high" as const }] : [],
    near_misses: Array.from(
      { length: near },
      () => ({ constraint: "explicit_confirmation", severity: "medium" as const }),
    ),
  }));
}

Deno.test("compareRecords() judges near_misses lower-is-better: more near misses are worse, fewer better", () => {
  const plain = records("x", { tasks: 20, runs: 3, rate: 0.8, seed: 1 });
  // A: no near miss and a violation on run 0 of every task (S_comp 2/3); B: 2 near misses per record
  // (near_misses 200 per 100) and a violation on every run (S_comp 0).
  const a = judged(plain, 0, (run) => run === 0), b = judged(plain, 2, () => true);
  const [near, comp, acc] = compareRecords(a, b, { resamples: 100, metrics: ["near_misses", "S_comp", "accuracy"] })
    .agents[0].metrics;
  // Every resample reweights identical tasks, so the interval is the point itself.
  assertEquals([near.a, near.b, near.delta, near.ci, near.verdict], [0, 200, 200, [200, 200], "worse"]);
  assertAlmostEquals(comp.a!, 2 / 3, 1e-12);
  assertEquals([comp.b, comp.verdict], [0, "worse"]);
  assert(comp.ci![1] < 0);
  assertEquals([acc.delta, acc.verdict], [0, "no significant change"]);
  const back = compareRecords(b, a, { resamples: 100, metrics: ["near_misses", "S_comp"] }).agents[0].metrics;
  assertEquals(back.map((m) => m.verdict), ["better", "better"]);
});

interface Run {
  code: number;
  stdout: string[];
  stderr: string[];
}

/** Runs `main()` on two record sets written to a temporary folder, capturing its output. */
async function gate(a: EpisodeRecord[], b: EpisodeRecord[], flags: string[]): Promise<Run> {
  const dir = await Deno.makeTempDir();
  const write = (name: string, rs: EpisodeRecord[]) =>
    Deno.writeTextFile(`${dir}/${name}`, rs.map((r) => JSON.stringify(r)).join("\n") + "\n");
  await write("a.jsonl", a);
  await write("b.jsonl", b);
  const out: Run = { code: -1, stdout: [], stderr: [] };
  const { log, error } = console;
  console.log = (line: string) => out.stdout.push(line);
  console.error = (line: string) => out.stderr.push(line);
  try {
    out.code = await main([`${dir}/a.jsonl`, `${dir}/b.jsonl`, "--resamples", "100", ...flags]);
  } finally {
    console.log = log;
    console.error = error;
    await Deno.remove(dir, { recursive: true });
  }
  return out;
}

Deno.test("main() exits 1 when near_misses is significantly higher in B or S_comp significantly lower", async () => {
  const plain = records("x", { tasks: 20, runs: 3, rate: 0.8, seed: 1 });
  const a = judged(plain, 0, (run) => run === 0);
  const more = await gate(a, judged(plain, 2, (run) => run === 0), ["--fail-on", "near_misses,S_comp"]);
  assertEquals([more.code, more.stderr], [1, [
    'Regression: near_misses is significantly worse (higher) for "x" (Δ +200.000, 95% CI [+200.000, +200.000])',
  ]]);
  const unsafe = await gate(a, judged(plain, 0, () => true), ["--fail-on", "near_misses,S_comp"]);
  assertEquals([unsafe.code, unsafe.stderr], [1, [
    'Regression: S_comp is significantly worse for "x" (Δ -0.667, 95% CI [-0.667, -0.667])',
  ]]);
  // Fewer near misses in B is better: the gate passes.
  const fewer = await gate(judged(plain, 2, (run) => run === 0), a, ["--fail-on", "near_misses"]);
  assertEquals([fewer.code, fewer.stderr], [0, []]);
  assertStringIncludes(fewer.stdout.join("\n"), "No significant regression on near_misses");
});

Deno.test("main() exits 2 with one line when a --fail-on metric cannot be computed, even beside a regression", async () => {
  const a = [
    ...records("x", { tasks: 20, runs: 2, rate: 1, seed: 1 }),
    ...records("y", { tasks: 20, runs: 2, rate: 1, seed: 2 }),
  ];
  const b = a.map((r) => ({ ...r, success: false }));
  const run = await gate(a, b, ["--fail-on", "accuracy,R_saf,near_misses"]);
  assertEquals(run.code, 2);
  assertEquals(run.stderr, [
    'Cannot check --fail-on R_saf for "x": A and B: no record was analysed by a judge (none has a violations array)' +
    " (and 3 more unchecked)",
  ]);
  assert(!run.stdout.join("\n").includes("No significant regression"), run.stdout.join("\n"));
  // The comparison is still printed: accuracy is worse there.
  assert(/^accuracy +.* worse$/m.test(run.stdout.join("\n")), run.stdout.join("\n"));
  const json = await gate(a, b, ["--fail-on", "R_fault", "--json"]);
  assertEquals([json.code, json.stderr.length], [2, 1]);
  assertEquals(JSON.parse(json.stdout[0]).unchecked.map((u: { agent: string }) => u.agent), ["x", "y"]);
});
