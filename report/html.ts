/**
 * `report.html`: one self-contained page (inline CSS and SVG, no script, no
 * network) with the profile table (and one row per agent and domain when there
 * are several, and per agent and task category when the records carry categories), the weaknesses, six charts (the four
 * dimensions, pass^k, decay, calibration, violations, accuracy per condition),
 * a long-horizon section when the records carry ark's long-horizon fields (runs per length class,
 * per agent R(t) of each length class for strong and weak dependency, completion share, meltdown,
 * R_len), an abstention section when some agent has scenario records (SR, UR and IRR overall and
 * per gap, the safety–usability chart, the scenarios got wrong linked to their trajectories), every
 * metric with its interval or the reason it is null, the least reliable
 * tasks and, linked from them, their trajectories. All text is escaped.
 *
 * @module
 */
import type { EpisodeRecord } from "../scoring/mod.ts";
import { escapeHtml, figureCell, fixed, NULL_MARK } from "./format.ts";
import {
  calibrationChart,
  conditionsChart,
  decayChart,
  dimensionsChart,
  exceedanceChart,
  passHatChart,
  violationsChart,
} from "./_charts.ts";
import { type EventSource, tasksSection, trajectoriesSection } from "./_trajectory.ts";
import { METRIC_KEYS, type Report } from "./json.ts";
import { describeWeaknesses, TERMINAL_SCORES } from "./terminal.ts";
import { STYLE } from "./_style.ts";
import { importHtml } from "./_import_html.ts";
import { longHorizonSection } from "./_long_html.ts";
import { abstentionSection } from "./_abstention_html.ts";

export type { EventSource } from "./_trajectory.ts";

/** Options of `renderHtml()`. */
export interface HtmlOptions {
  /** The records the report was built from (for the trajectories' headers). */
  records: readonly EpisodeRecord[];
  /**
   * Where the trajectories' events come from.
   * @default {none: trajectories list their runs without events}
   */
  events?: EventSource;
}

/** A figure with its interval, or the null mark with the reason as tooltip. */
function profileTable(report: Report): string {
  const K = Math.max(0, ...Object.values(report.agents).map((a) => Object.keys(a.overall.pass_hat_k).length));
  const head = [...TERMINAL_SCORES, "accuracy (nominal)", ...(K > 0 ? [`pass^${K}`] : [])];
  const rows = Object.entries(report.agents).map(([agent, { overall: p }]) => {
    const cells = [...TERMINAL_SCORES, "accuracy" as const].map((k) =>
      figureCell(p[k], { ci: p.ci[k], reason: p.reasons[k] })
    );
    if (K > 0) {
      const v = p.pass_hat_k[K] ?? null;
      cells.push(figureCell(v, { ci: p.ci.pass_hat_k[K], reason: `fewer than ${K} nominal runs per task` }));
    }
    return `<tr><th scope="row">${escapeHtml(agent)}</th>${cells.join("")}</tr>`;
  });
  return `<table class="profile"><thead><tr><th>agent</th>${head.map((h) => `<th>${h}</th>`).join("")}</tr></thead>` +
    `<tbody>${rows.join("")}</tbody></table>`;
}

// One row per agent and domain, when the experiment has several domains.
function domainTable(report: Report): string {
  if (report.experiment.domains.length < 2) return "";
  const head = ["agent", "domain", "episodes", ...TERMINAL_SCORES, "accuracy (nominal)"];
  const rows = Object.entries(report.agents).flatMap(([agent, a]) =>
    Object.entries(a.domains ?? {}).map(([domain, p]) =>
      `<tr><th scope="row">${escapeHtml(agent)}</th><td>${escapeHtml(domain)}</td><td>${p.n.records}</td>${
        [...TERMINAL_SCORES, "accuracy" as const].map((k) => figureCell(p[k], { ci: p.ci[k], reason: p.reasons[k] }))
          .join("")
      }</tr>`
    )
  );
  return `\n<h3>By domain</h3><p>Each domain's records scored alone, every condition included.</p>` +
    `<table class="domains"><thead><tr>${head.map((x) => `<th>${escapeHtml(x)}</th>`).join("")}</tr></thead>` +
    `<tbody>${rows.join("")}</tbody></table>`;
}

// One row per agent and task category, when the records carry categories.
function categoryTable(report: Report): string {
  const rows = Object.entries(report.agents).flatMap(([agent, a]) =>
    Object.entries(a.categories ?? {}).map(([category, c]) =>
      `<tr><th scope="row">${escapeHtml(agent)}</th><td>${escapeHtml(category)}</td><td>${c.episodes}</td>${
        [
          figureCell(c.accuracy, { ci: c.ci.accuracy, reason: c.reasons.accuracy }),
          figureCell(c.R_saf, { ci: c.ci.R_saf, reason: c.reasons.R_saf }),
          figureCell(c.tool_call_accuracy, { reason: c.reasons.tool_call_accuracy }),
          figureCell(c.critical_step_success, { reason: c.reasons.critical_step_success }),
        ].join("")
      }</tr>`
    )
  );
  if (rows.length === 0) return "";
  const head = [
    "agent",
    "category",
    "episodes",
    "accuracy (nominal)",
    "R_saf",
    "tool_call_accuracy",
    "critical_step_success",
  ];
  return `\n<h3>By category</h3><p>Each task category's records: accuracy (nominal) and R_saf with 95% intervals over ` +
    `its tasks; tool_call_accuracy = calls that passed argument validation / all calls; critical_step_success = ` +
    `successful writes / attempted ones.</p>` +
    `<table class="categories"><thead><tr>${head.map((x) => `<th>${escapeHtml(x)}</th>`).join("")}</tr></thead>` +
    `<tbody>${rows.join("")}</tbody></table>`;
}

function weaknessList(report: Report): string {
  const items = Object.entries(report.agents).map(([agent, { weaknesses }]) =>
    `<li><strong>${escapeHtml(agent)}</strong><ol>${
      describeWeaknesses(weaknesses).map((line) => `<li>${escapeHtml(line)}</li>`).join("")
    }</ol></li>`
  );
  return `<ul class="weaknesses">${items.join("")}</ul>`;
}

function robustnessTable(report: Report): string {
  const { conditions } = report.experiment;
  const keys = ["R_fault", "R_env", "R_prompt", "R_rob"] as const;
  const rows = Object.entries(report.agents).map(([agent, a]) => {
    const acc = conditions.map((c) => {
      const p = a.conditions[c];
      return p
        ? figureCell(p.accuracy, { ci: p.ci.accuracy, reason: p.reasons.accuracy })
        : figureCell(null, { reason: `no ${c} records` });
    });
    const ratios = keys.map((k) => figureCell(a.overall[k], { ci: a.overall.ci[k], reason: a.overall.reasons[k] }));
    return `<tr><th scope="row">${escapeHtml(agent)}</th>${acc.join("")}${ratios.join("")}</tr>`;
  });
  const head = [...conditions.map((c) => `accuracy ${c}`), ...keys];
  return `<table class="robustness"><thead><tr><th>agent</th>${
    head.map((h) => `<th>${escapeHtml(h)}</th>`).join("")
  }</tr></thead><tbody>${rows.join("")}</tbody></table>`;
}

// P_cal and P_brier under each condition (scored on that condition's records alone): the headline
// figures are nominal, as the definition has them, and say nothing of confidence under change.
function predictabilityTable(report: Report): string {
  const { conditions } = report.experiment;
  if (conditions.length < 2) return "";
  const keys = ["P_cal", "P_brier"] as const;
  const rows = Object.entries(report.agents).map(([agent, a]) => {
    const cells = conditions.flatMap((c) =>
      keys.map((k) => {
        const p = a.conditions[c];
        return p
          ? figureCell(p[k], { ci: p.ci[k], reason: p.reasons[k] })
          : figureCell(null, { reason: `no ${c} records` });
      })
    );
    return `<tr><th scope="row">${escapeHtml(agent)}</th>${cells.join("")}</tr>`;
  });
  const head = conditions.flatMap((c) => keys.map((k) => `${k} ${c}`));
  return `<h3>Predictability per condition</h3><p>The profile's P_cal, P_auroc, P_brier and R_pred use nominal records ` +
    `only, as docs/metrics.md defines them; here each condition's records are scored alone, so an agent that stays ` +
    `confident while failing under faults or a changed interface shows it.</p><table class="predictability"><thead>` +
    `<tr><th>agent</th>${head.map((h) => `<th>${escapeHtml(h)}</th>`).join("")}</tr></thead><tbody>${
      rows.join("")
    }</tbody></table>`;
}

function variantsTable(report: Report): string {
  const columns: [string, string][] = [];
  for (const a of Object.values(report.agents)) {
    for (const [c, byVariant] of Object.entries(a.variants)) {
      for (const v of Object.keys(byVariant)) if (!columns.some(([x, y]) => x === c && y === v)) columns.push([c, v]);
    }
  }
  if (columns.length === 0) return "";
  const rows = Object.entries(report.agents).map(([agent, a]) =>
    `<tr><th scope="row">${escapeHtml(agent)}</th>${
      columns.map(([c, v]) => {
        const n = a.variants[c]?.[v];
        return n
          ? `<td>${fixed(n.accuracy)}<span class="ci">${n.successes}/${n.runs}</span></td>`
          : `<td class="na">${NULL_MARK}</td>`;
      }).join("")
    }</tr>`
  );
  return `<h3>Accuracy per variant</h3><table class="variants"><thead><tr><th>agent</th>${
    columns.map(([c, v]) => `<th>${escapeHtml(c)}<br>${escapeHtml(v)}</th>`).join("")
  }</tr></thead><tbody>${rows.join("")}</tbody></table>`;
}

// R_saf, S_comp, S_harm with intervals, violating episodes, near misses per 100, and harm per agent.
function safetyTable(report: Report): string {
  const rows = Object.entries(report.agents).map(([agent, { overall: p }]) => {
    const s = p.safety;
    const figures = (["R_saf", "S_comp", "S_harm", "near_misses"] as const).map((k) =>
      figureCell(p[k], { ci: p.ci[k], reason: p.reasons[k] })
    );
    const harm = s.analysed === 0
      ? `<td class="na">${NULL_MARK}</td><td class="na">${NULL_MARK}</td>`
      : `<td>${fixed(s.harm.money, 2)}<span class="ci">${
        fixed(s.expected_harm?.money ?? null, 2)
      } per episode</span></td>` +
        `<td>${s.harm.rows}<span class="ci">${fixed(s.expected_harm?.rows ?? null, 3)} per episode</span></td>`;
    // An episode the LLM judge failed on is counted where the judged ones are, never among the clean.
    const unjudged = s.unjudged > 0 ? `<span class="ci">${s.unjudged} unjudged by the LLM judge</span>` : "";
    return `<tr><th scope="row">${escapeHtml(agent)}</th><td>${s.analysed}${unjudged}</td><td>${s.violating}</td>${
      figures.join("")
    }<td>${s.near_misses}</td>${harm}</tr>`;
  });
  const head = [
    "agent",
    "episodes judged",
    "with violations",
    "R_saf",
    "S_comp",
    "S_harm",
    "near misses per 100",
    "near misses",
    "money moved wrongly",
    "rows changed wrongly",
  ];
  return `<table class="safety"><thead><tr>${head.map((h) => `<th>${escapeHtml(h)}</th>`).join("")}</tr></thead>` +
    `<tbody>${rows.join("")}</tbody></table>`;
}

// Precision, recall and Cohen's κ of the LLM judge against the rules, per constraint.
function agreementTable(report: Report): string {
  const a = report.judge_agreement;
  if (a === null) {
    return `<p class="empty">judge agreement: ${escapeHtml(report.judge_agreement_reason ?? "no LLM judge")}` +
      ` (configure one with --judge llm:PROVIDER:MODEL)</p>`;
  }
  const rows = Object.entries(a).map(([constraint, x]) =>
    `<tr><th scope="row"><code>${escapeHtml(constraint)}</code></th><td>${x.n}</td><td>${x.tp}</td><td>${x.fp}</td>` +
    `<td>${x.fn}</td><td>${fixed(x.precision)}</td><td>${fixed(x.recall)}</td><td>${fixed(x.kappa)}</td></tr>`
  );
  return `<h3>Judge agreement (LLM judge against the rules)</h3><table class="agreement"><thead><tr><th>constraint</th>` +
    `<th>episodes</th><th>both</th><th>LLM only</th><th>rules only</th><th>precision</th><th>recall</th><th>κ</th>` +
    `</tr></thead><tbody>${rows.join("")}</tbody></table>`;
}

function metricsTable(report: Report): string {
  const agents = Object.entries(report.agents);
  const rows = [...METRIC_KEYS, "accuracy" as const, "near_misses" as const].map((key) => {
    const cells = agents.map(([, { overall: p }]) =>
      p[key] === null
        ? `<td class="na">${NULL_MARK}<span class="reason">${
          escapeHtml(p.reasons[key] ?? "not computable")
        }</span></td>`
        : figureCell(p[key], { ci: p.ci[key] })
    );
    const label = key === "near_misses"
      ? "<code>near_misses</code> per 100 episodes, lower is better"
      : `<code>${key}</code>`;
    return `<tr><th scope="row">${label}</th>${cells.join("")}</tr>`;
  });
  return `<table class="metrics"><thead><tr><th>metric</th>${
    agents.map(([a]) => `<th>${escapeHtml(a)}</th>`).join("")
  }</tr></thead><tbody>${rows.join("")}</tbody></table>`;
}

/**
 * The HTML page of a report.
 *
 * @example
 * ```ts
 * import { assertStringIncludes } from "@std/assert";
 * import { buildReport, renderHtml } from "./mod.ts";
 * const records = [{ agent: "a<b>", task: "t/1", run: 0, condition: "nominal" as const, success: true }];
 * assertStringIncludes(renderHtml(buildReport(records, { seed: "0", resamples: 10 }), { records }), "a&lt;b&gt;");
 * ```
 */
export function renderHtml(report: Report, options: HtmlOptions): string {
  const e = report.experiment;
  const variants = Object.entries(e.variants).map(([c, v]) => `${c}: ${v.join(", ")}`).join("; ");
  const facts = [
    `${e.records} episodes`,
    `${e.agents.length} agents`,
    `${e.tasks} tasks (${e.domains.join(", ")})`,
    `up to ${e.runs} runs per task`,
    `conditions ${e.conditions.join(", ") || "none"}${variants ? ` (${variants})` : ""}`,
    `seed "${e.seed}"`,
    `${e.resamples} bootstrap resamples over tasks`,
    ...(e.user_errors > 0 ? [`${e.user_errors} episodes left out (user simulator errors)`] : []),
  ];
  const warnings = (e.warnings ?? []).map((w) => `<p class="warning"><strong>Warning:</strong> ${escapeHtml(w)}</p>`);
  const long = longHorizonSection(report), abstention = abstentionSection(report);
  const nav = [
    ["profile", "Profile"],
    ...(report.import === undefined ? [] : [["import", "Import"]]),
    ["charts", "Charts"],
    ...(long === "" ? [] : [["long-horizon", "Long horizon"]]),
    ...(abstention === "" ? [] : [["abstention", "Abstention"]]),
    ["robustness", "Robustness"],
    ["safety", "Safety"],
    ["metrics", "All metrics"],
    ["tasks", "Least reliable tasks"],
    ["trajectories", "Trajectories"],
  ].map(([id, label]) => `<a href="#${id}">${label}</a>`).join("");
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(e.title)}</title>
<style>${STYLE}</style>
</head>
<body>
<header><h1>${escapeHtml(e.title)}</h1><p class="facts">${escapeHtml(facts.join(" · "))}</p><nav>${nav}</nav></header>
<main>
${warnings.join("\n")}
<section id="profile"><h2>Reliability profile</h2>
<p>R = mean of R_con, R_rob and R_pred; safety (R_saf) is reported beside it. Which records each figure uses: R_con, the predictability figures (P_cal, P_auroc, P_brier, R_pred) and accuracy use nominal records only (per condition under Robustness); R_rob compares each condition's accuracy with nominal; safety uses every judged record. Brackets: 95% intervals over tasks. ${NULL_MARK}: cannot be computed (hover for the reason).</p>
${profileTable(report)}${domainTable(report)}${categoryTable(report)}
<h3>Biggest weaknesses</h3>
${weaknessList(report)}
</section>
${importHtml(report.import)}
<section id="charts"><h2>Charts</h2><div class="grid">
${dimensionsChart(report)}
${passHatChart(report)}
${decayChart(report)}
${calibrationChart(report)}
${violationsChart(report)}
${exceedanceChart(report)}
${conditionsChart(report)}
</div></section>
${long === "" ? "" : `${long}\n`}${
    abstention === "" ? "" : `${abstention}\n`
  }<section id="robustness"><h2>Robustness per condition</h2>
<p>${escapeHtml(e.robustness_rule)}.</p>
${robustnessTable(report)}
${predictabilityTable(report)}
${variantsTable(report)}
</section>
<section id="safety"><h2>Safety</h2>
<p>Every episode is judged (README, "Verdicts"): S_comp is the share of episodes without a violation, S_harm one minus the mean worst severity weight of the violating ones, R_saf = 1 − (1 − S_comp)(1 − S_harm). Near misses (attempts the world refused or a fault stopped) do not count in them. Each task's violations, with evidence, are listed under the least reliable tasks.</p>
${safetyTable(report)}
${agreementTable(report)}
</section>
<section id="metrics"><h2>All metrics</h2>
${metricsTable(report)}
</section>
<section id="tasks"><h2>Least reliable tasks</h2>
<p>Per agent, the tasks with the lowest success rate over every condition (ties: the highest variance), then the tasks it always passed while breaking rules (most violations first); a task links to the trajectories of up to three of its runs: failures from each condition in turn, and one success to compare with (for a task always passed, runs with violations).</p>
${tasksSection(report)}
</section>
<section id="trajectories"><h2>Trajectories</h2>
${trajectoriesSection(report, options)}
</section>
</main>
<footer>ark ${escapeHtml(e.ark_version)} · every figure, interval and reason is in report.json</footer>
</body>
</html>
`;
}
