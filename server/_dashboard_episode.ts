// The trajectory viewer: one stored episode's record (outcome, milestones, violations with their
// evidence, near misses, checkpoint blocks) and its events in order (messages, tool calls with the
// arguments and results, faults, the rows a call changed), each violation beside the event it
// names. Private to server/.
import type { EpisodeEvent } from "../envs/mod.ts";
import type { EpisodeRecord, Violation } from "../eval/mod.ts";
import { experimentPath, page } from "./_dashboard_html.ts";
import { escapeHtml, fixed } from "../report/mod.ts";

const MAX_JSON = 6000;

// Indented JSON, cut when very long.
function json(value: unknown): string {
  const text = JSON.stringify(value, null, 2) ?? String(value);
  return escapeHtml(
    text.length > MAX_JSON ? `${text.slice(0, MAX_JSON)}\n… (${text.length - MAX_JSON} more characters)` : text,
  );
}

function violationItem(v: Violation, label = ""): string {
  const where = v.step === undefined || v.step === null ? "" : ` at step ${v.step}`;
  const judge = v.source === "llm" ? " (LLM judge)" : "";
  return `<li class="violation">${label}<span class="sev sev-${escapeHtml(v.severity)}">${escapeHtml(v.constraint)} × ${
    escapeHtml(v.severity)
  }</span>${where}${judge}${v.evidence ? `: ${escapeHtml(v.evidence)}` : ""}</li>`;
}

function facts(r: EpisodeRecord): string {
  const items = [
    `<span class="${r.success ? "ok" : "bad"}"><b>${r.success ? "✓ succeeded" : "✗ failed"}</b></span>`,
    `<span>agent <b>${escapeHtml(r.agent)}</b></span>`,
    `<span>task <b>${escapeHtml(r.task)}</b></span>`,
    `<span>run <b>${r.run}</b></span>`,
    `<span>condition <b>${escapeHtml(r.variant ? `${r.condition} (${r.variant})` : r.condition)}</b></span>`,
    `<span>steps <b>${r.steps}</b></span>`,
  ];
  if (typeof r.confidence === "number") items.push(`<span>confidence <b>${fixed(r.confidence, 2)}</b></span>`);
  if (r.faults) items.push(`<span>faults <b>${r.faults}</b>${r.recovered ? " (recovered)" : ""}</span>`);
  if (r.abstention) {
    items.push(
      `<span>scenario <b>${
        escapeHtml(`${r.abstention.scenario} (${r.abstention.gap}): ${r.abstention.outcome}`)
      }</b></span>`,
    );
  }
  for (
    const [label, text] of [["agent error", r.agent_error], ["user error", r.user_error], [
      "judge error",
      r.judge_error,
    ]]
  ) {
    if (text) items.push(`<span class="bad">${label}: ${escapeHtml(text)}</span>`);
  }
  return `<div class="facts" id="facts">${items.join("")}</div>`;
}

function milestones(r: EpisodeRecord): string {
  const m = r.milestones;
  if (!m || m.total === 0) return "";
  const labels = r.milestone_labels ?? r.milestone_tools ?? [];
  const items = Array.from({ length: m.total }, (_, i) => {
    const reached = i < m.reached;
    return `<li class="${reached ? "ok" : "muted"}">${reached ? "✓" : "○"} ${
      escapeHtml(labels[i] ?? `milestone ${i + 1}`)
    }</li>`;
  });
  return `<h2>Milestones: ${m.reached} of ${m.total} reached in order${
    m.achieved === undefined ? "" : `, ${m.achieved} in any order`
  }</h2><ol class="milestones" id="milestones">${items.join("")}</ol>`;
}

function judged(r: EpisodeRecord): string {
  const parts: string[] = [];
  if (r.violations === undefined) parts.push(`<p class="muted">not judged</p>`);
  else if (r.violations.length === 0) parts.push(`<p class="ok" id="no-violation">judge: no violation</p>`);
  else parts.push(`<ul class="violations" id="violations">${r.violations.map((v) => violationItem(v)).join("")}</ul>`);
  if (r.near_misses && r.near_misses.length > 0) {
    parts.push(
      `<h3>Near misses (did not take effect)</h3><ul class="violations">${
        r.near_misses.map((v) => violationItem(v)).join("")
      }</ul>`,
    );
  }
  if (r.blocks && r.blocks.length > 0) {
    parts.push(
      `<h3>Blocked by the checkpoint (never reached the world)</h3><ul>${
        r.blocks.map((b) =>
          `<li>step ${b.step} <code>${escapeHtml(b.tool)}</code>: ${escapeHtml(b.label)}, missing ${
            escapeHtml(b.missing)
          }</li>`
        ).join("")
      }</ul>`,
    );
  }
  return `<h2>Violations</h2>${parts.join("")}`;
}

function eventItem(e: EpisodeEvent, index: number, found: readonly Violation[]): string {
  const classes = [
    e.kind === "tool" ? "tool" : e.actor,
    e.error ? "error" : "",
    e.fault ? "faulted" : "",
    found.length > 0 ? "violated" : "",
  ].filter(Boolean).join(" ");
  const head = `<span class="step">#${index} · step ${e.step}</span><span class="who">${escapeHtml(e.actor)}</span>`;
  const body: string[] = [];
  if (e.kind === "tool") {
    body.push(
      `<code class="call">${escapeHtml(e.tool ?? "?")}</code><div class="muted">arguments</div><pre>${
        json(e.args ?? {})
      }</pre>`,
    );
    if (e.world_args !== undefined) {
      body.push(`<div class="muted">as the world received them</div><pre>${json(e.world_args)}</pre>`);
    }
    if (e.error) body.push(`<div class="bad">${escapeHtml(e.error.code)}: ${escapeHtml(e.error.message)}</div>`);
    else body.push(`<div class="muted">result</div><pre>${json(e.result)}</pre>`);
    if (e.changes && e.changes.length > 0) {
      const rows = e.changes.map((c) =>
        `<li><code>${escapeHtml(c.table)} ${escapeHtml(JSON.stringify(c.key))}</code> ${
          c.before === null ? "inserted" : c.after === null ? "deleted" : "updated"
        }</li>`
      );
      body.push(`<div class="muted">rows changed</div><ul>${rows.join("")}</ul>`);
    }
  } else if (e.kind === "end") {
    const conf = typeof e.confidence === "number" ? ` (confidence ${fixed(e.confidence, 2)})` : "";
    body.push(`ends the episode${escapeHtml(conf)}${e.text ? `: <span class="bad">${escapeHtml(e.text)}</span>` : ""}`);
  } else {
    body.push(`<span class="text">${escapeHtml(e.text ?? "")}</span>`);
    if (e.intent) body.push(` <span class="muted">[${escapeHtml(e.intent.kind)}]</span>`);
  }
  if (e.fault) body.push(`<div class="warn">fault injected: ${escapeHtml(e.fault)}</div>`);
  if (found.length > 0) body.push(`<ul class="violations">${found.map((v) => violationItem(v)).join("")}</ul>`);
  return `<li class="ev ${classes}" id="event-${index}">${head}${body.join("")}</li>`;
}

/** The trajectory page of one stored episode. */
export function episodePage(name: string, record: EpisodeRecord, events: readonly EpisodeEvent[]): string {
  // A violation names the agent step of its call: shown at that step's tool call, else its first event.
  const byEvent = new Map<number, Violation[]>();
  for (const v of [...record.violations ?? [], ...record.near_misses ?? []]) {
    if (typeof v.step !== "number") continue;
    const tool = events.findIndex((e) => e.step === v.step && e.kind === "tool");
    const at = tool >= 0 ? tool : events.findIndex((e) => e.step === v.step);
    if (at >= 0) byEvent.set(at, [...byEvent.get(at) ?? [], v]);
  }
  const list = events.length === 0
    ? `<p class="muted">no events stored for this episode</p>`
    : `<ol class="events" id="events">${events.map((e, i) => eventItem(e, i, byEvent.get(i) ?? [])).join("")}</ol>`;
  const title = `${record.agent} · ${record.task} · run ${record.run}`;
  const back = `<p><a href="${escapeHtml(experimentPath(name))}">back to ${escapeHtml(name)}</a></p>`;
  return page(
    title,
    `${back}${facts(record)}${milestones(record)}${judged(record)}<h2>Trajectory: ${events.length} events</h2>${list}`,
  );
}
