import { assert, assertEquals, assertStringIncludes } from "@std/assert";
import type { EpisodeRecord } from "../scoring/mod.ts";
import { buildReport, formatTerminal, renderHtml, reportJson } from "./mod.ts";

// Agent "a": four categorised tasks, and one long-horizon family at 5 and 20 milestones under both
// dependency kinds; the 20-milestone tasks ran twice, the others three times.
function records(): EpisodeRecord[] {
  const out: EpisodeRecord[] = [];
  const base = { agent: "a", condition: "nominal" as const, variant: null };
  ["normal", "edge", "abnormal", "noise"].forEach((category, i) => {
    for (let run = 0; run < 3; run++) {
      out.push({
        ...base,
        task: `w/${i}`,
        run,
        category: category as EpisodeRecord["category"],
        success: run < 3 - i % 3,
        tool_calls: 4,
        invalid_calls: i === 1 ? 1 : 0,
        writes: { attempted: 1, succeeded: i === 2 ? 0 : 1 },
        violations: [],
      });
    }
  });
  let index = 10;
  for (const dependency of ["strong", "weak"] as const) {
    for (const length of [5, 20]) {
      const runs = length === 20 ? 2 : 3, task = `w/${index++}`;
      for (let run = 0; run < runs; run++) {
        const reached = run === 0 ? length : Math.floor(length / 2);
        out.push({
          ...base,
          task,
          run,
          success: reached === length,
          family: "chain",
          length,
          dependency,
          milestones: { total: length, reached, achieved: dependency === "weak" ? length - 1 : reached },
          steps: 6,
          step_outcomes: run === 1 ? "Ooxxxm" : "oOoOom",
        });
      }
    }
  }
  return out;
}

Deno.test("buildReport() gives the category table and the long-horizon figures; formatTerminal() and renderHtml() show them", () => {
  const recs = records();
  const report = buildReport(recs, { seed: "1", resamples: 50 });
  const a = report.agents.a;
  assertEquals(Object.keys(a.categories!), ["normal", "edge", "abnormal", "noise"]);
  // edge: 2 of 3 succeed, 9 of 12 calls valid (one invalid per run); abnormal: 1 of 3, no write succeeded.
  assertEquals([a.categories!.edge.accuracy, a.categories!.edge.tool_call_accuracy], [2 / 3, 0.75]);
  assertEquals([a.categories!.abnormal.accuracy, a.categories!.abnormal.critical_step_success], [1 / 3, 0]);
  const decay = a.overall.decay;
  assertEquals(Object.keys(decay.by_length_dependency!), ["5/strong", "5/weak", "20/strong", "20/weak"]);
  assertEquals(decay.runs_by_length!["20"].runs, { min: 2, max: 2 });
  assertEquals(decay.runs_by_length!["5"].runs, { min: 3, max: 3 });
  // One run of each long task melts down: "Ooxxxm" from step 3 of 6 (three failed calls, no progress after).
  assertEquals([decay.meltdown_rate, decay.meltdown_onset], [4 / 10, 0.5]);
  // Acc_5 = 1/3, Acc_20 = 1/2: R_len = min(1.5, 1) = 1.
  assertEquals(decay.r_len!.chain.strong.value, 1);
  assertEquals(
    a.conditions.nominal.decay.by_length_dependency!["5/weak"].fragile_step?.condition ?? "nominal",
    "nominal",
  );

  const terminal = formatTerminal(report);
  assertStringIncludes(terminal, "  edge: accuracy (nominal) 0.667");
  assertStringIncludes(terminal, "tool calls 0.750");
  assertStringIncludes(terminal, "  long horizon: runs per task by length 5: 3, 20: 2   completion share");
  // Per class: its tasks (one each here: the small-sample note) and completion share with its interval.
  assertStringIncludes(
    terminal,
    "  long horizon by length/dependency (a small sample: 1 task per class; --suite long runs 20):",
  );
  assertStringIncludes(terminal, "    20/weak      1 tasks   completion share 0.950 [0.950, 0.950]");

  const html = renderHtml(report, { records: recs });
  assertStringIncludes(html, "<h3>By category</h3>");
  assertStringIncludes(html, '<section id="long-horizon">');
  assertStringIncludes(html, 'href="#long-horizon"');
  assertStringIncludes(html, 'data-chart="long-strong"');
  assertStringIncludes(html, 'data-chart="long-weak"');
  assertStringIncludes(html, "a: the 20-milestone tasks ran at most 2 times, others 3 times");
  assertStringIncludes(html, '<th scope="row">20/weak</th>');
  // Each length × dependency row has its tasks, and the mean path length, α and β beside the decay figures.
  assertStringIncludes(html, "<th>length/dependency</th><th>tasks</th><th>episodes</th>");
  assertStringIncludes(html, "<th>R∞</th><th>mean path length</th><th>α</th><th>β</th></tr>");
  assertStringIncludes(html, "A small sample: 1 task per class");
});

Deno.test("buildReport() without categories or long-horizon fields has no such keys, and renderHtml() no such parts", () => {
  const recs = records().map(({ category: _c, family: _f, length: _l, dependency: _d, step_outcomes: _s, ...r }) => r);
  const report = buildReport(recs, { seed: "1", resamples: 20 });
  const a = report.agents.a;
  assertEquals("categories" in a, false);
  for (const key of ["by_length_dependency", "runs_by_length", "r_len", "meltdown_rate", "completion_share"]) {
    assertEquals(key in a.overall.decay, false, key);
  }
  const html = renderHtml(report, { records: recs });
  assert(!html.includes("By category") && !html.includes("long-horizon"));
  assert(!formatTerminal(report).includes("  edge:"));
});

Deno.test("reportJson() and renderHtml() of categorised long-horizon records are byte-identical in any record order", () => {
  const recs = records();
  const one = buildReport(recs, { seed: "7", resamples: 30 });
  const two = buildReport([...recs].reverse(), { seed: "7", resamples: 30 });
  assertEquals(reportJson(one), reportJson(two));
  assertEquals(renderHtml(one, { records: recs }), renderHtml(two, { records: [...recs].reverse() }));
});
