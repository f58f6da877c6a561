import { assert, assertEquals, assertStringIncludes } from "@std/assert";
import type { EpisodeEvent } from "../envs/mod.ts";
import type { EpisodeRecord } from "../scoring/mod.ts";
import type { CellKey } from "../eval/plan.ts";
import { buildReport, formatTerminal, renderHtml } from "./mod.ts";

const EVIL = `<script>alert("x")</script><img src=x onerror=alert(1)>`;

function records(): EpisodeRecord[] {
  const out: EpisodeRecord[] = [];
  for (const agent of ["good", `bad${EVIL}`]) {
    for (let task = 0; task < 3; task++) {
      for (let run = 0; run < 2; run++) {
        const success = agent === "good" || run === 0;
        out.push({
          agent,
          task: `toy/${task}`,
          run,
          condition: "nominal",
          variant: null,
          success,
          confidence: success ? 0.9 : 0.6,
          milestones: { total: 2, reached: success ? 2 : 1 },
          steps: 3,
        });
      }
    }
  }
  return out;
}

const events = (cell: CellKey): EpisodeEvent[] => [
  { step: 0, actor: "user", kind: "message", text: `Please ${EVIL}`, latency_ms: 0 },
  { step: 1, actor: "tool", kind: "tool", tool: "lookup", args: { id: EVIL }, result: { note: EVIL }, latency_ms: 0 },
  {
    step: 2,
    actor: "tool",
    kind: "tool",
    tool: "pay",
    args: {},
    error: { code: "fault", message: "timed out" },
    fault: "timeout",
    latency_ms: 0,
  },
  { step: 3, actor: "agent", kind: "message", text: `run ${cell.run} done`, latency_ms: 0 },
];

Deno.test("renderHtml() escapes every text from records and events", () => {
  const rs = records();
  const html = renderHtml(buildReport(rs, { seed: "0", resamples: 20, title: `T ${EVIL}` }), { records: rs, events });
  assert(!html.includes("<script"), "a script tag got through");
  assert(!html.includes("<img"), "an img tag got through");
  assertStringIncludes(html, "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
  assertStringIncludes(html, `class="fault">fault: timeout</span>`);
});

Deno.test("renderHtml() is one self-contained file whose charts' data-points count their marks", () => {
  const rs = records();
  const html = renderHtml(buildReport(rs, { seed: "0", resamples: 20 }), { records: rs, events });
  assert(!/(src|href)="(https?:)?\/\//.test(html), "an external resource");
  assert(!/@import|url\(/.test(html), "an external stylesheet resource");
  const figures = [
    ...html.matchAll(/<figure class="chart" data-chart="([^"]+)" data-points="(\d+)">([\s\S]*?)<\/figure>/g),
  ];
  assertEquals(figures.map((f) => f[1]), [
    "dimensions",
    "pass-hat-k",
    "decay",
    "calibration",
    "violations",
    "exceedance",
    "conditions",
  ]);
  for (const [, name, points, body] of figures) {
    assertEquals(body.match(/class="mark"/g)?.length ?? 0, Number(points), `${name}`);
  }
  const byName = Object.fromEntries(figures.map(([, name, points]) => [name, Number(points)]));
  // 2 agents × R_con and R_pred (robustness and safety cannot be computed); pass^1, pass^2; R(0..2).
  assertEquals([byName.dimensions, byName["pass-hat-k"], byName.decay, byName.violations, byName.exceedance], [
    4,
    4,
    6,
    0,
    0,
  ]);
  assertStringIncludes(html, "no violations analysed (no record has a violations array)");
  assertStringIncludes(html, "No fault, env or prompt condition in this experiment");
  for (const [, id] of html.matchAll(/href="#([^"]+)"/g)) assertStringIncludes(html, `id="${id}"`);
});

Deno.test("renderHtml() links the least reliable tasks to up to three runs' trajectories, failures first", () => {
  const rs = records();
  const html = renderHtml(buildReport(rs, { seed: "0", resamples: 20 }), { records: rs, events });
  assertEquals(html.match(/<section class="task"/g)?.length, 3);
  assertEquals(html.match(/<details class="run/g)?.length, 6);
  assertStringIncludes(html, "run 1 · nominal · ✗ failed · 3 steps · milestones 1/2 · confidence 0.60");
  assertStringIncludes(html, 'good</h3>\n<p class="empty">every task succeeded in every run</p>');
  const noStore = renderHtml(buildReport(rs, { seed: "0", resamples: 20 }), { records: rs });
  assertStringIncludes(noStore, "no results store given: events not shown");
});

Deno.test("formatTerminal() shows the profile with intervals, pass^k and a dash for what cannot be computed", () => {
  const text = formatTerminal(buildReport(records(), { seed: "0", resamples: 20 }));
  const good = text.slice(text.indexOf("\ngood"));
  assertStringIncludes(good, "  R_con   1.000 [1.000, 1.000]\n");
  assertStringIncludes(good, "  R_rob   –\n");
  assertStringIncludes(good, "  pass^k  1: 1.000 [1.000, 1.000]   2: 1.000 [1.000, 1.000]\n");
  assertStringIncludes(good, "    3. most frequent violation: none: no record was analysed by a judge");
  assert(text.endsWith("the reason is in report.json (agents.<agent>.overall.reasons)\n"));
});

Deno.test("the terminal and HTML reports count the episodes the LLM judge failed on, with no safety score for them", () => {
  const judged = records().map((r, i) => ({
    ...r,
    violations: [],
    ...(r.agent === "good" && i === 0 ? { judge_error: "LLM judge failed: server" } : {}),
  }));
  const report = buildReport(judged, { seed: "0", resamples: 20 });
  const text = formatTerminal(report);
  const good = text.slice(text.indexOf("\ngood"));
  assertStringIncludes(good, "safety: S_comp –");
  assertStringIncludes(good, "unjudged: 1 episodes the LLM judge failed on (judge_error)");
  assertEquals(text.slice(text.indexOf("\nbad"), text.indexOf("\ngood")).includes("unjudged"), false);
  assertStringIncludes(
    renderHtml(report, { records: judged, events }),
    '<td>6<span class="ci">1 unjudged by the LLM judge</span></td>',
  );
});

Deno.test("the HTML and terminal reports show each domain's figures only when there are several", () => {
  const one = records();
  const single = buildReport(one, { seed: "0", resamples: 20 });
  assert(!renderHtml(single, { records: one }).includes("By domain"));
  assert(!formatTerminal(single).includes("  toy: R "));
  const both = [...one, ...one.map((r) => ({ ...r, task: r.task.replace("toy/", "shop/") }))];
  const report = buildReport(both, { seed: "0", resamples: 20 });
  const html = renderHtml(report, { records: both });
  assertStringIncludes(html, "<h3>By domain</h3>");
  assertStringIncludes(html, `<tr><th scope="row">good</th><td>shop</td><td>6</td>`);
  const good = formatTerminal(report).split("\n\n").find((b) => b.startsWith("good"))!;
  assertStringIncludes(good, "\n  shop: R ");
  assertStringIncludes(good, "accuracy (nominal) 1.000 [1.000, 1.000] (6 episodes, 3 tasks)\n");
});

Deno.test("a trajectory lists the calls the checkpoint blocked, with their label and what was missing", () => {
  const rs = records().map((r) =>
    r.success ? r : { ...r, blocks: [{ step: 2, tool: "pay", label: "blocked_commitment" as const, missing: "pay" }] }
  );
  const html = renderHtml(buildReport(rs, { seed: "0", resamples: 20 }), { records: rs, events });
  assertStringIncludes(html, "blocked by the checkpoint (never reached the world)");
  assertStringIncludes(html, '<li>step 2 <code class="call">pay</code>: blocked_commitment, missing pay</li>');
});

Deno.test("the report gives P_cal and P_brier per condition, and says which records each figure uses", () => {
  // Always confident: calibrated where it succeeds (nominal), badly calibrated where it fails (env).
  const rs: EpisodeRecord[] = [];
  for (let task = 0; task < 4; task++) {
    for (const condition of ["nominal", "env"] as const) {
      rs.push({
        agent: "sure",
        task: `toy/${task}`,
        run: 0,
        condition,
        success: condition === "nominal",
        confidence: 1,
      });
    }
  }
  const report = buildReport(rs, { seed: "0", resamples: 20 });
  assertEquals([report.agents.sure.conditions.nominal.P_cal, report.agents.sure.conditions.env.P_cal], [1, 0]);
  assertEquals(report.agents.sure.overall.P_cal, 1);
  const html = renderHtml(report, { records: rs });
  assertStringIncludes(html, "<h3>Predictability per condition</h3>");
  assertStringIncludes(html, "<th>P_cal env</th>");
  assertStringIncludes(
    html,
    "the predictability figures (P_cal, P_auroc, P_brier, R_pred) and accuracy use nominal records only",
  );
  assertStringIncludes(html, "<th>accuracy (nominal)</th>");
  // One condition: no per-condition table.
  const nominal = rs.filter((r) => r.condition === "nominal");
  assertEquals(
    renderHtml(buildReport(nominal, { seed: "0", resamples: 20 }), { records: nominal }).includes(
      "Predictability per condition",
    ),
    false,
  );
});
