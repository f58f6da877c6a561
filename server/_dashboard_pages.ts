// The dashboard's pages over a results folder: the experiment list, one experiment (live progress,
// headline, report, episodes) and the comparison of two. Private to server/.
import { compareCells, type EpisodeRecord } from "../eval/mod.ts";
import type { Comparison } from "../report/mod.ts";
import type { BrokenExperiment, ExperimentView, Headline, ProgressView } from "./_dashboard_data.ts";
import { bar, duration, episodePath, experimentPath, page, table, when } from "./_dashboard_html.ts";
import { escapeHtml, fixed } from "../report/mod.ts";

/** Whether a listed experiment could be read. */
export function isView(x: ExperimentView | BrokenExperiment): x is ExperimentView {
  return !("problem" in x);
}

// "finished", "running" (changed in the last minute) or "incomplete" (stopped before its plan's end).
function state(v: ExperimentView, now: number): string {
  if (v.total === null) return `<span class="muted">no plan</span>`;
  if (v.done >= v.total) return `<span class="ok">finished</span>`;
  return v.modified !== null && now - v.modified < 60_000
    ? `<span class="warn">running</span>`
    : `<span class="bad">incomplete</span>`;
}

function headlineText(h: Headline): string {
  return `<div><b>${escapeHtml(h.agent)}</b> R ${fixed(h.R)} · R_saf ${fixed(h.R_saf)} · accuracy ${
    fixed(h.accuracy)
  }</div>`;
}

/** The experiment list, with a form to compare two of them. */
export function indexPage(results: string, list: readonly (ExperimentView | BrokenExperiment)[], now: number): string {
  if (list.length === 0) {
    let why = "no subfolder holds a results.sqlite yet";
    try {
      Deno.statSync(results);
    } catch {
      why = "the folder does not exist";
    }
    return page(
      "Experiments",
      `<p class="message" id="message">No experiments under "${escapeHtml(results)}": ${why}</p>`,
    );
  }
  const rows = list.map((x) => {
    const link = `<a href="${escapeHtml(experimentPath(x.name))}">${escapeHtml(x.name)}</a>`;
    if (!isView(x)) {
      return `<tr class="broken"><td>${link}</td><td colspan="5" class="bad">${escapeHtml(x.problem)}</td></tr>`;
    }
    const planned = x.total === null ? "?" : String(x.total);
    return `<tr data-experiment="${escapeHtml(x.name)}"><td>${link}${
      x.experiment === x.name ? "" : `<div class="muted">${escapeHtml(x.experiment)}</div>`
    }</td>` +
      `<td>${state(x, now)}</td><td class="n">${bar(x.done, x.total)}${x.done} / ${planned}</td>` +
      `<td>${escapeHtml(x.agents.join(", "))}</td><td>${x.headline.map(headlineText).join("")}` +
      `<div class="muted">from ${x.source}</div></td><td>${when(x.modified)}</td></tr>`;
  });
  const body = table(
    ["experiment", "state", "episodes done / planned", "agents", "headline", "last modified"],
    rows,
    ` id="experiments"`,
  ) +
    compareForm(list.map((x) => x.name), null, null);
  return page("Experiments", body);
}

/** The form that picks two experiments to compare. */
export function compareForm(names: readonly string[], a: string | null, b: string | null): string {
  if (names.length < 2) return "";
  const select = (field: string, chosen: string | null, fallback: number) =>
    `<label>${field.toUpperCase()} <select name="${field}">${
      names.map((n) =>
        `<option value="${escapeHtml(n)}"${(chosen ?? names[fallback]) === n ? " selected" : ""}>${
          escapeHtml(n)
        }</option>`
      ).join("")
    }</select></label>`;
  return `<h2>Compare two experiments</h2><form class="pick" method="get" action="/compare">${select("a", a, 0)}` +
    `${select("b", b, 1)}<button type="submit">compare</button></form>`;
}

// The live part of a running experiment's page: filled at once, then refreshed from progress.json.
function liveSection(name: string, p: ProgressView): string {
  const span = (field: string, text: string) => `<span data-field="${field}">${escapeHtml(text)}</span>`;
  return `<section class="live" id="progress" data-url="${escapeHtml(experimentPath(name, "/progress.json"))}">` +
    `<div class="big">${span("done", String(p.done))} / ${span("total", p.total === null ? "?" : String(p.total))} ` +
    `episodes <span data-field="bar">${bar(p.done, p.total)}</span></div><div class="facts">` +
    `<span>rate <b>${span("rate", p.rate === null ? "measuring…" : `${fixed(p.rate, 2)} episodes/s`)}</b></span>` +
    `<span>ETA <b>${span("eta_s", duration(p.eta_s))}</b></span>` +
    `<span>failed so far <b>${span("failures", String(p.failures))}</b></span>` +
    `<span>agent errors <b>${span("agent_errors", String(p.agent_errors))}</b></span>` +
    `<span class="muted">state ${span("state", p.state)} · refreshed every 2 s</span></div></section>`;
}

// Polls progress.json every 2 s; reloads the page once every planned episode is stored.
const LIVE_SCRIPT = `(() => {
  const box = document.getElementById("progress");
  if (!box) return;
  const set = (f, t) => { const el = box.querySelector('[data-field="' + f + '"]'); if (el) el.textContent = t; };
  const dur = (s) => { if (s === null) return "–"; s = Math.round(s); const h = Math.floor(s / 3600), m = Math.floor(s % 3600 / 60), x = s % 60;
    const two = (n) => String(n).padStart(2, "0"); return h > 0 ? h + "h " + two(m) + "m" : m > 0 ? m + "m " + two(x) + "s" : x + "s"; };
  const poll = async () => {
    try {
      const r = await fetch(box.dataset.url, { cache: "no-store" });
      if (!r.ok) return;
      const p = await r.json();
      set("done", String(p.done)); set("total", p.total === null ? "?" : String(p.total));
      set("rate", p.rate === null ? "measuring…" : p.rate.toFixed(2) + " episodes/s");
      set("eta_s", dur(p.eta_s)); set("failures", String(p.failures)); set("agent_errors", String(p.agent_errors));
      set("state", p.state);
      const fill = box.querySelector(".bar > span");
      if (fill && p.total) fill.style.width = Math.min(100, 100 * p.done / p.total).toFixed(1) + "%";
      if (p.state === "finished") location.reload();
    } catch (_) { /* the server is away for a moment: try again at the next tick */ }
  };
  setInterval(poll, 2000);
  poll();
})();`;

const MAX_EPISODES = 2000;

/** One experiment: live progress while it runs, the headline, its report in a frame, and its episodes. */
export function experimentPage(
  view: ExperimentView,
  options: { progress: ProgressView; records: readonly EpisodeRecord[]; now: number },
): string {
  const { progress, records } = options;
  const running = progress.state !== "finished" && view.total !== null;
  const parts: string[] = [
    `<div class="facts"><span>experiment <b>${escapeHtml(view.experiment)}</b></span><span>seed <b>${
      escapeHtml(view.seed)
    }</b></span>` +
    `<span>state <b>${state(view, options.now)}</b></span><span>agents <b>${
      escapeHtml(view.agents.join(", "))
    }</b></span>` +
    `<span>last modified <b>${when(view.modified)}</b></span></div>`,
  ];
  if (running) parts.push(liveSection(view.name, progress));
  else parts.push(`<p id="done">${view.done} episodes, ${view.failures} failed, ${view.agentErrors} agent errors</p>`);
  const heads = view.headline.map((h) =>
    `<tr><th scope="row">${escapeHtml(h.agent)}</th><td class="n">${fixed(h.R)}</td><td class="n">${
      fixed(h.R_saf)
    }</td>` +
    `<td class="n">${fixed(h.accuracy)}</td></tr>`
  );
  parts.push(
    `<h2>Headline</h2>${table(["agent", "R", "R_saf", "accuracy"], heads, ` id="headline"`)}` +
      `<p class="muted">from ${view.source}${running ? " (so far)" : ""}</p>`,
  );
  const report = experimentPath(view.name, "/report");
  parts.push(
    `<h2>Report</h2><p><a id="report-link" href="${escapeHtml(report)}">open the report on its own</a></p>` +
      `<iframe title="report" src="${escapeHtml(report)}" loading="lazy"></iframe>`,
  );
  parts.push(`<h2>Episodes</h2>${episodesTable(view.name, records)}`);
  return page(view.name, parts.join("\n"), running ? { script: LIVE_SCRIPT } : {});
}

function episodesTable(name: string, records: readonly EpisodeRecord[]): string {
  if (records.length === 0) return `<p class="muted">no episode stored yet</p>`;
  const sorted = [...records].sort((x, y) =>
    compareCells({ ...x, variant: x.variant ?? null }, { ...y, variant: y.variant ?? null })
  );
  const rows = sorted.slice(0, MAX_EPISODES).map((r) => {
    const cell = { agent: r.agent, task: r.task, run: r.run, condition: r.condition, variant: r.variant ?? null };
    const problems = [r.agent_error && "agent error", r.user_error && "user error", r.judge_error && "judge error"]
      .filter(Boolean).join(", ");
    return `<tr><td>${escapeHtml(r.agent)}</td><td><a class="episode" href="${escapeHtml(episodePath(name, cell))}">${
      escapeHtml(r.task)
    }</a></td>` +
      `<td class="n">${r.run}</td><td>${escapeHtml(r.condition)}</td><td>${escapeHtml(r.variant ?? "")}</td>` +
      `<td class="${r.success ? "ok" : "bad"}">${r.success ? "✓" : "✗"}</td><td class="n">${r.steps ?? "–"}</td>` +
      `<td class="n">${r.violations?.length ?? "–"}</td><td class="n">${r.faults ?? 0}</td><td>${
        escapeHtml(problems)
      }</td></tr>`;
  });
  const more = records.length > MAX_EPISODES
    ? `<p class="muted">… ${records.length - MAX_EPISODES} more episodes in records.jsonl</p>`
    : "";
  return table(
    ["agent", "task", "run", "condition", "variant", "success", "steps", "violations", "faults", "errors"],
    rows,
    ` id="episodes"`,
  ) + more;
}

const signed = (x: number | null) => x === null ? "–" : `${x >= 0 ? "+" : ""}${x.toFixed(3)}`;
const pValue = (p: number | null) => p === null ? "–" : p < 0.001 ? "<0.001" : p.toFixed(3);
const names = (xs: readonly string[]) => xs.map((x) => `"${x}"`).join(", ");

/** The table `deno task compare A B` prints, per agent: metric, A, B, Δ, its 95% interval, p and the verdict. */
export function comparisonBody(a: string, b: string, comparison: Comparison): string {
  const parts: string[] = [
    `<p class="facts"><span>A <a href="${escapeHtml(experimentPath(a))}">${escapeHtml(a)}</a></span>` +
    `<span>B <a href="${escapeHtml(experimentPath(b))}">${escapeHtml(b)}</a></span></p>`,
  ];
  if (comparison.agents.length === 0) {
    parts.push(`<p class="message" id="message">No agent to compare: A and B have no agent name in common</p>`);
  }
  for (const c of comparison.agents) {
    const who = c.a === c.b ? `"${c.a}"` : `"${c.a}" (A) vs "${c.b}" (B)`;
    parts.push(
      `<h2>${escapeHtml(who)}: ${c.tasks.length} paired tasks, ${c.records.a} records in A, ${c.records.b} in B</h2>`,
    );
    const rows = c.metrics.map((m) => {
      const ci = m.ci === null ? "–" : `[${signed(m.ci[0])}, ${signed(m.ci[1])}]`;
      const verdict = m.verdict === "–" ? `– (${m.reason})` : m.verdict;
      const cls = m.verdict === "better" ? "ok" : m.verdict === "worse" ? "bad" : "muted";
      return `<tr><th scope="row">${escapeHtml(m.metric)}</th><td class="n">${fixed(m.a)}</td><td class="n">${
        fixed(m.b)
      }</td>` +
        `<td class="n">${signed(m.delta)}</td><td class="n">${ci}</td><td class="n">${pValue(m.p)}</td>` +
        `<td class="${cls}">${escapeHtml(verdict)}</td></tr>`;
    });
    parts.push(table(["metric", "A", "B", "Δ", "95% CI of Δ", "p", "verdict"], rows, ` class="comparison"`));
    if (c.unpairedTasks.a.length > 0) {
      parts.push(`<p>Tasks only in A, left out: ${escapeHtml(names(c.unpairedTasks.a))}</p>`);
    }
    if (c.unpairedTasks.b.length > 0) {
      parts.push(`<p>Tasks only in B, left out: ${escapeHtml(names(c.unpairedTasks.b))}</p>`);
    }
  }
  const { a: onlyA, b: onlyB } = comparison.unpairedAgents;
  if (onlyA.length > 0) parts.push(`<p>Agents only in A, not compared: ${escapeHtml(names(onlyA))}</p>`);
  if (onlyB.length > 0) parts.push(`<p>Agents only in B, not compared: ${escapeHtml(names(onlyB))}</p>`);
  parts.push(
    `<p class="muted">Paired bootstrap: ${comparison.resamples} resamples of tasks, seed "${
      escapeHtml(comparison.seed)
    }". ` +
      `"better" or "worse" when the 95% interval of B − A excludes 0 (near_misses is lower-is-better).</p>`,
  );
  return parts.join("\n");
}
