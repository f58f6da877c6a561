import { assert, assertEquals, assertNotEquals } from "@std/assert";
import type { EpisodeRecord } from "../scoring/mod.ts";
import { buildReport, METRIC_KEYS, reportJson } from "./json.ts";
import { writeReports } from "./mod.ts";

type Condition = EpisodeRecord["condition"];

function record(agent: string, task: number, run: number, options: Partial<EpisodeRecord> = {}): EpisodeRecord {
  const success = options.success ?? (task + run) % 3 !== 0;
  return {
    agent,
    task: `toy/${task}`,
    run,
    condition: "nominal",
    variant: null,
    success,
    actions: success ? ["look", "act"] : ["look"],
    resources: { time: 10 + task + run, api_calls: 2, num_actions: 2 },
    confidence: success ? 0.8 : 0.4,
    milestones: { total: 2, reached: success ? 2 : 1 },
    milestone_tools: ["look", "act"],
    steps: 4,
    ...options,
  };
}

/** Two agents, four tasks, three runs; `conditions` adds a copy of run 0 under each, failing more. */
function experiment(conditions: Condition[] = [], judged = false): EpisodeRecord[] {
  const out: EpisodeRecord[] = [];
  for (const agent of ["careful", "sloppy"]) {
    for (let task = 0; task < 4; task++) {
      for (let run = 0; run < 3; run++) {
        const success = agent === "careful" || (task + run) % 2 === 0;
        const violations = judged
          ? (agent === "sloppy" && !success ? [{ constraint: "confirm", severity: "high" as const }] : [])
          : undefined;
        out.push(record(agent, task, run, { success, ...(violations ? { violations } : {}) }));
        for (const condition of conditions) {
          if (run > 0) continue;
          out.push(
            record(agent, task, run, {
              condition,
              variant: `${condition}-1`,
              success: success && task % 2 === 0,
              faults: 1,
            }),
          );
        }
      }
    }
  }
  return out;
}

Deno.test("buildReport() gives every docs/metrics.md key of every agent a value or null with a reason, with intervals", () => {
  for (const records of [experiment(), experiment(["fault", "prompt"], true)]) {
    const report = buildReport(records, { seed: "7", resamples: 50 });
    assertEquals(Object.keys(report.agents), ["careful", "sloppy"]);
    for (const [agent, a] of Object.entries(report.agents)) {
      for (const [where, p] of [["overall", a.overall], ...Object.entries(a.conditions)] as const) {
        for (const key of METRIC_KEYS) {
          assert(key in p && key in p.ci, `${agent} ${where} lacks ${key}`);
          if (p[key] === null) {
            assertEquals(p.ci[key], null);
            assert(
              typeof p.reasons[key] === "string" && p.reasons[key] !== "",
              `${agent} ${where} ${key} has no reason`,
            );
          }
        }
        if (p.R_con !== null) assert(Array.isArray(p.ci.R_con), `${agent} ${where} R_con has no interval`);
      }
    }
  }
});

Deno.test("buildReport() scores each condition alone and takes its robustness ratio from overall", () => {
  const report = buildReport(experiment(["fault"]), { seed: "0", resamples: 50 });
  assertEquals(report.experiment.conditions, ["nominal", "fault"]);
  assertEquals(report.experiment.variants, { fault: ["fault-1"] });
  const sloppy = report.agents.sloppy;
  assertEquals(Object.keys(sloppy.conditions), ["nominal", "fault"]);
  // Under fault only tasks 0 and 2 can succeed, and sloppy's run 0 succeeds on even tasks: 2 of 4.
  assertEquals(sloppy.conditions.fault.accuracy, 0.5);
  assertEquals(sloppy.conditions.fault.R_fault, sloppy.overall.R_fault);
  assertEquals(sloppy.conditions.fault.ci.R_fault, sloppy.overall.ci.R_fault);
  assertEquals([sloppy.conditions.fault.R_env, sloppy.conditions.fault.R_rob], [null, null]);
  assertEquals(sloppy.conditions.nominal.R_fault, null);
  assert(sloppy.conditions.nominal.reasons.R_fault.includes("baseline"));
  // One fault run per task measures no consistency: R under the condition is its R_pred there.
  const f = sloppy.conditions.fault;
  assertEquals([f.R_con, f.reasons.C_out], [null, "one run per task: consistency needs at least two"]);
  assertEquals(f.R, f.R_pred);
  assertEquals(Object.keys(f.decay.by_condition), ["fault"]);
  assertEquals(sloppy.variants, { fault: { "fault-1": { runs: 4, successes: 2, accuracy: 0.5 } } });
});

Deno.test("reportJson() is byte-identical for the same records and seed, in any order, and changes with the seed", async () => {
  const records = experiment(["fault"], true);
  const a = reportJson(buildReport(records, { seed: "1", resamples: 100 }));
  const b = reportJson(buildReport([...records].reverse(), { seed: "1", resamples: 100 }));
  assertEquals(a, b);
  assertNotEquals(a, reportJson(buildReport(records, { seed: "2", resamples: 100 })));
  const dir = await Deno.makeTempDir();
  try {
    const files = async () => [
      await Deno.readTextFile(`${dir}/report.json`),
      await Deno.readTextFile(`${dir}/report.html`),
    ];
    await writeReports(dir, { records, seed: "1", resamples: 100 });
    const first = await files();
    const text = await writeReports(dir, { records: [...records].reverse(), seed: "1", resamples: 100 });
    assertEquals(await files(), first);
    assertEquals(first[0], a);
    assert(text.includes("careful") && text.includes("pass^k"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("buildReport() bins nominal confidences by docs/metrics.md's rule and lists the least reliable tasks with runs to show", () => {
  const report = buildReport(experiment(["fault"]), { seed: "0", resamples: 20 });
  const { calibration, least_reliable_tasks: tasks } = report.agents.sloppy;
  // 0.4 falls in bin 4, 0.8 in bin 8 (edges i * 0.1 in floating point).
  assertEquals(calibration.map((b) => [b.bin, b.n, b.success]), [[4, 6, 0], [8, 6, 1]]);
  assertEquals(tasks[0].task, "toy/1");
  assertEquals([tasks[0].successes, tasks[0].runs], [1, 4]);
  // Failures from each condition in turn, then one success to compare with.
  assertEquals(tasks[0].shown.map((r) => [r.condition, r.run, r.success]), [
    ["nominal", 0, false],
    ["fault", 0, false],
    ["nominal", 1, true],
  ]);
  assertEquals(report.agents.careful.least_reliable_tasks.map((t) => t.task), ["toy/1", "toy/3"]);
});

Deno.test("buildReport() scores each domain alone when the experiment has several, and only then", () => {
  const one = experiment();
  assertEquals(buildReport(one, { seed: "0", resamples: 20 }).agents.careful.domains, undefined);
  // The same records again on a second domain where sloppy always fails.
  const other = one.map((r) => ({ ...r, task: r.task.replace("toy/", "shop/"), success: r.agent === "careful" }));
  const report = buildReport([...one, ...other], { seed: "0", resamples: 20 });
  assertEquals(report.experiment.domains, ["shop", "toy"]);
  const sloppy = report.agents.sloppy.domains!;
  assertEquals(Object.keys(sloppy), ["shop", "toy"]);
  assertEquals([sloppy.shop.accuracy, sloppy.toy.accuracy], [0, 0.5]);
  assertEquals([sloppy.shop.n.records, sloppy.toy.n.records], [12, 12]);
  assertEquals(report.agents.sloppy.overall.accuracy, 0.25);
});
