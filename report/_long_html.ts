// The report's long-horizon section (docs/metrics.md "Long horizon"), shown when the records carry ark's
// long-horizon fields: runs per length class (the longest tasks may run fewer times), per agent the
// decay curves R(t) of every length class side by side for strong and for weak dependency, per
// length × dependency its tasks, completion share, meltdown, R∞, α and β with intervals (and a note
// when the classes are a small sample), and R_len per family. Private to
// report/.
import type { DecayGroup, DecayProfile } from "../scoring/mod.ts";
import { escapeHtml, figureCell, fixed, NULL_MARK } from "./format.ts";
import { figure, lineChart, PALETTE } from "./_svg.ts";
import type { AgentReport, Report } from "./json.ts";
import { DEFAULT_LONG_TASKS } from "../eval/config.ts";
import { DEPENDENCIES } from "../vocabulary/mod.ts";

const KINDS = DEPENDENCIES;

const times = (n: number) => `${n} time${n === 1 ? "" : "s"}`;

// The profile whose curves are drawn: nominal records' when there are some, as the decay chart does.
function drawn(report: Report, a: AgentReport): DecayProfile {
  return (report.experiment.conditions.includes("nominal") ? a.conditions.nominal ?? a.overall : a.overall).decay;
}

/** The section, or "" when no agent's records carry the long-horizon fields. */
export function longHorizonSection(report: Report): string {
  const agents = Object.entries(report.agents).filter(([, a]) => a.overall.decay.runs_by_length !== undefined);
  if (agents.length === 0) return "";
  return `<section id="long-horizon"><h2>Long horizon</h2>
<p>Curves over ${
    report.experiment.conditions.includes("nominal") ? "nominal" : "all"
  } runs, one per length class (milestones), drawn against t / length so the classes compare; bands: 95% bootstrap over tasks. Completion share = mean achieved / total over the long tasks; α and β: the fit V<sub>t+1</sub> = (1 + α)·V<sub>t</sub> + β of the variance of the milestones missed across a task’s runs (≈ 0 for independent errors, &gt; 0 when they cascade); R∞ only for one class of at least 20 milestones; an episode melts down at step s when from s on it makes at least 3 tool calls in a row that fail or repeat the previous call, and reaches no milestone after s (onset: median s / steps). R_len = min(Acc_longest / Acc_shortest, 1) within one family.</p>
${runsTable(agents)}
${agents.map(([agent, a]) => agentPart(agent, drawn(report, a))).join("\n")}
</section>`;
}

// Runs per length class and agent, with a sentence when some class ran fewer times than the others.
function runsTable(agents: [string, AgentReport][]): string {
  const notes: string[] = [];
  const rows = agents.flatMap(([agent, a]) => {
    const byLength = Object.entries(a.overall.decay.runs_by_length ?? {});
    const most = Math.max(0, ...byLength.map(([, r]) => r.runs.max));
    for (const [l, r] of byLength) {
      if (r.runs.max < most) {
        notes.push(`${agent}: the ${l}-milestone tasks ran at most ${times(r.runs.max)}, others ${times(most)}`);
      }
    }
    return byLength.map(([l, r]) =>
      `<tr><th scope="row">${escapeHtml(agent)}</th><td>${
        escapeHtml(l)
      }</td><td>${r.episodes}</td><td>${r.tasks}</td>` +
      `<td>${r.runs.min === r.runs.max ? r.runs.max : `${r.runs.min}–${r.runs.max}`}</td></tr>`
    );
  });
  const head = ["agent", "length (milestones)", "episodes", "tasks", "runs per task"];
  return `<h3>Runs per length class</h3>${
    notes.length > 0 ? `<p class="note">Fewer runs: ${escapeHtml(notes.join("; "))}.</p>` : ""
  }<table class="long-runs"><thead><tr>${head.map((h) => `<th>${escapeHtml(h)}</th>`).join("")}</tr></thead>` +
    `<tbody>${rows.join("")}</tbody></table>`;
}

function agentPart(agent: string, decay: DecayProfile): string {
  const groups = decay.by_length_dependency ?? {};
  const charts = KINDS.map((kind) => kindChart(agent, kind, groups)).join("\n");
  return `<h3>${escapeHtml(agent)}</h3><div class="grid">\n${charts}\n</div>\n${figuresTable(groups)}${
    rLenTable(decay)
  }`;
}

// R(t) of each length class under one dependency kind.
function kindChart(agent: string, kind: string, groups: Record<string, DecayGroup>): string {
  const mine = Object.entries(groups).filter(([k]) => k.endsWith(`/${kind}`));
  const series = mine.map(([key, g], i) => {
    const length = Number(key.slice(0, key.indexOf("/")));
    return {
      name: `${length} milestones`,
      color: PALETTE[i % PALETTE.length],
      points: g.curve.map((c) => ({ x: c.t / length, y: c.R, lo: c.lo, hi: c.hi, note: `t = ${c.t}` })),
    };
  });
  const chart = lineChart({
    name: `long-${kind}`,
    title: `${agent}: R(t) per length class, ${kind} dependency`,
    xLabel: "t / length (share of the task's milestones)",
    yLabel: "R(t)",
    series,
    x: { min: 0, max: 1 },
  });
  return figure(chart, { empty: `no task with ${kind} dependency` });
}

function figuresTable(groups: Record<string, DecayGroup>): string {
  const head = [
    "length/dependency",
    "tasks",
    "episodes",
    "completion share",
    "meltdown rate",
    "meltdown onset",
    "per-step reliability",
    "R∞",
    "mean path length",
    "α",
    "β",
  ];
  const entries = Object.entries(groups);
  const rows = entries.map(([key, g]) =>
    `<tr><th scope="row">${escapeHtml(key)}</th><td>${g.tasks}</td><td>${g.n}</td>${
      figureCell(g.completion_share, { ci: g.ci.completion_share, reason: g.reasons.completion_share })
    }${figureCell(g.meltdown_rate, { ci: g.ci.meltdown_rate, reason: g.reasons.meltdown_rate })}${
      figureCell(g.meltdown_onset, { ci: g.ci.meltdown_onset, reason: g.reasons.meltdown_onset })
    }${figureCell(g.per_step_reliability, { ci: g.ci.per_step_reliability, reason: g.reasons.per_step_reliability })}${
      figureCell(g.r_inf?.value, { ci: g.ci.r_inf, reason: g.reasons.r_inf })
    }${figureCell(g.mean_path_length, { ci: g.ci.mean_path_length, reason: g.reasons.mean_path_length })}${
      figureCell(g.alpha, { ci: g.ci.alpha, reason: g.reasons.alpha })
    }${figureCell(g.beta, { ci: g.ci.beta, reason: g.reasons.beta })}</tr>`
  );
  if (rows.length === 0) return "";
  const fewest = Math.min(...entries.map(([, g]) => g.tasks));
  const sample = fewest < DEFAULT_LONG_TASKS
    ? `<p class="note">A small sample: ${fewest} task${fewest === 1 ? "" : "s"} per class, so an interval over tasks ` +
      `says little; <code>deno task eval --suite long</code> runs ${DEFAULT_LONG_TASKS} per class.</p>`
    : "";
  const notes = entries.flatMap(([key, g]) => g.notes?.lambda ? [`${key}: ${g.notes.lambda}`] : []);
  const lambda = notes.length > 0 ? `<p class="note">λ: ${escapeHtml(notes.join("; "))}.</p>` : "";
  return `${sample}${lambda}<table class="long-figures"><thead><tr>${
    head.map((h) => `<th>${escapeHtml(h)}</th>`).join("")
  }</tr></thead>` +
    `<tbody>${rows.join("")}</tbody></table>`;
}

function rLenTable(decay: DecayProfile): string {
  if (decay.r_len === undefined) return "";
  if (decay.r_len === null) return `<p class="note">R_len: ${escapeHtml(decay.reasons.r_len ?? "not computable")}</p>`;
  const rows = Object.entries(decay.r_len).flatMap(([family, byKind]) =>
    Object.entries(byKind).map(([kind, r]) =>
      `<tr><th scope="row">${escapeHtml(family)}</th><td>${escapeHtml(kind)}</td>${
        figureCell(r.value, { ci: r.ci, reason: r.reason })
      }<td>${
        escapeHtml(
          Object.entries(r.accuracy).map(([l, acc]) => `${l}: ${acc === null ? NULL_MARK : fixed(acc)}`).join(", "),
        )
      }</td></tr>`
    )
  );
  const head = ["family", "dependency", "R_len", "nominal accuracy by length"];
  return `<table class="long-rlen"><thead><tr>${head.map((h) => `<th>${escapeHtml(h)}</th>`).join("")}</tr></thead>` +
    `<tbody>${rows.join("")}</tbody></table>`;
}
