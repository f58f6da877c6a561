// The least reliable tasks per agent and, linked from them, the trajectories of a few of their
// runs read from the results store: messages, tool calls with arguments and results, faults and
// violations; after them the scenarios each agent got wrong (linked from the abstention section).
// Everything is escaped and truncated. Private to report/.
import type { EpisodeEvent } from "../envs/mod.ts";
import type { EpisodeRecord } from "../scoring/mod.ts";
import type { CellKey } from "../eval/plan.ts";
import type { ResultsSink } from "../eval/store.ts";
import { escapeHtml, fixed, jsonText, percent, truncate } from "./format.ts";
import type { Report, ShownRun } from "./json.ts";
import { scenarioAnchor } from "./_abstention_html.ts";
import { sortRecords } from "./_tasks.ts";

/** Where the events of an episode come from: a results store, or a function of its cell. */
export type EventSource = Pick<ResultsSink, "events"> | ((cell: CellKey) => readonly EpisodeEvent[]);

const MAX_EVENTS = 60, MAX_TEXT = 480, MAX_JSON = 280;

const anchor = (agent: number, task: number) => `task-${agent}-${task}`;
const cellOf = (agent: string, task: string, run: ShownRun): CellKey => ({
  agent,
  task,
  run: run.run,
  condition: run.condition,
  variant: run.variant,
});
const keyOf = (c: CellKey) => JSON.stringify([c.agent, c.task, c.run, c.condition, c.variant ?? null]);

/** The table of least reliable tasks per agent; each row links to its trajectories. */
export function tasksSection(report: Report): string {
  const parts: string[] = [];
  Object.entries(report.agents).forEach(([agent, a], ai) => {
    parts.push(`<h3>${escapeHtml(agent)}</h3>`);
    if (a.least_reliable_tasks.length === 0) {
      parts.push(
        a.abstention === undefined
          ? `<p class="empty">every task succeeded in every run</p>`
          : `<p class="empty">every task succeeded in every run (abstention scenarios aside: see ` +
            `<a href="#abstention">Abstention</a>)</p>`,
      );
      return;
    }
    const rows = a.least_reliable_tasks.map((t, ti) => {
      const conditions = Object.entries(t.by_condition).map(([c, n]) => `${c} ${n.successes}/${n.runs}`).join(", ");
      const listed = t.violation_list.map((v) =>
        `<li><span class="sev sev-${escapeHtml(v.severity)}">${escapeHtml(v.constraint)} × ${
          escapeHtml(v.severity)
        }</span> run ${v.run} ${escapeHtml(v.variant === null ? v.condition : `${v.condition} (${v.variant})`)}${
          v.step === null ? "" : `, step ${v.step}`
        }${v.evidence ? `: ${escapeHtml(truncate(v.evidence, 200))}` : ""}</li>`
      ).join("");
      const evidence = listed === ""
        ? ""
        : `<tr class="evidence"><td colspan="8"><ul class="violations">${listed}${
          (t.violations ?? 0) > t.violation_list.length
            ? `<li class="more">… ${(t.violations ?? 0) - t.violation_list.length} more in records.jsonl</li>`
            : ""
        }</ul></td></tr>`;
      return `<tr><td><a href="#${anchor(ai, ti)}">${escapeHtml(t.task)}</a></td><td>${t.successes}/${t.runs}</td>` +
        `<td>${percent(t.success_rate)}</td><td>${fixed(t.variance)}</td><td>${escapeHtml(conditions)}</td>` +
        `<td>${fixed(t.mean_steps, 1)}</td><td>${t.violations ?? "–"}</td><td>${t.near_misses ?? "–"}</td></tr>` +
        evidence;
    });
    parts.push(
      `<table class="tasks"><thead><tr><th>task</th><th>successes</th><th>success rate</th><th>variance p(1−p)</th>` +
        `<th>by condition</th><th>mean steps</th><th>violations</th><th>near misses</th></tr></thead><tbody>${
          rows.join("")
        }</tbody></table>`,
    );
  });
  return parts.join("\n");
}

/** The trajectories of the runs each listed task shows, under the anchors `tasksSection()` links to. */
export function trajectoriesSection(
  report: Report,
  options: { records: readonly EpisodeRecord[]; events?: EventSource },
): string {
  const byKey = new Map(options.records.map((r) => [keyOf({ ...r, variant: r.variant ?? null }), r]));
  const read = options.events === undefined
    ? null
    : typeof options.events === "function"
    ? options.events
    : options.events.events.bind(options.events);
  // A wrong scenario names its task and run: its record is the first of them in report order.
  const scenarios = new Map<string, EpisodeRecord>();
  for (
    const r of sortRecords(options.records.filter((r) => r.abstention !== undefined && r.user_error === undefined))
  ) {
    const key = JSON.stringify([r.agent, r.task, r.run]);
    if (!scenarios.has(key)) scenarios.set(key, r);
  }
  const parts: string[] = [];
  Object.entries(report.agents).forEach(([agent, a], ai) => {
    a.least_reliable_tasks.forEach((t, ti) => {
      parts.push(`<section class="task" id="${anchor(ai, ti)}"><h3>${escapeHtml(agent)} · ${escapeHtml(t.task)}</h3>`);
      t.shown.forEach((run, i) => {
        const cell = cellOf(agent, t.task, run);
        const record = byKey.get(keyOf(cell));
        const events = read === null ? null : read(cell);
        parts.push(runBlock({ run, record, events, open: i === 0 }));
      });
      parts.push(`<p class="back"><a href="#tasks">back to the tasks</a></p></section>`);
    });
    a.abstention?.wrong.forEach((w, i) => {
      parts.push(
        `<section class="task" id="${scenarioAnchor(ai, i)}"><h3>${escapeHtml(agent)} · ${escapeHtml(w.task)}</h3>` +
          `<p class="why">${escapeHtml(w.why)}</p>`,
      );
      const record = scenarios.get(JSON.stringify([agent, w.task, w.run]));
      if (record === undefined) parts.push(`<p class="empty">run ${w.run}: record not given</p>`);
      else {
        const run = {
          run: record.run,
          condition: record.condition,
          variant: record.variant ?? null,
          success: record.success,
        };
        const cell = cellOf(agent, w.task, run);
        parts.push(runBlock({ run, record, events: read === null ? null : read(cell), open: true }));
      }
      parts.push(`<p class="back"><a href="#abstention">back to the abstention scenarios</a></p></section>`);
    });
  });
  return parts.length === 0 ? `<p class="empty">no task failed: no trajectory to show</p>` : parts.join("\n");
}

function runBlock(options: {
  run: ShownRun;
  record: EpisodeRecord | undefined;
  events: readonly EpisodeEvent[] | null;
  open: boolean;
}): string {
  const { run, record: r, events } = options;
  const facts = [
    `run ${run.run}`,
    run.variant === null ? run.condition : `${run.condition} (${run.variant})`,
    run.success ? "✓ succeeded" : "✗ failed",
  ];
  if (r?.abstention !== undefined) {
    facts.push(`${r.abstention.scenario} scenario (${r.abstention.gap}): ${r.abstention.outcome}`);
  }
  if (r?.steps !== undefined) facts.push(`${r.steps} steps`);
  if (r?.milestones) facts.push(`milestones ${r.milestones.reached}/${r.milestones.total}`);
  if (r?.first_error_step !== undefined && r.first_error_step !== null) {
    facts.push(`first error at step ${r.first_error_step}`);
  }
  if (r?.faults) facts.push(`${r.faults} fault${r.faults === 1 ? "" : "s"}`);
  if (r?.recovered) facts.push("recovered");
  if (typeof r?.confidence === "number") facts.push(`confidence ${fixed(r.confidence, 2)}`);
  const body: string[] = [];
  if (r?.violations !== undefined) {
    const list = (label: string, vs: NonNullable<EpisodeRecord["violations"]>) =>
      `<ul class="violations"><li class="head">${label}</li>${
        vs.map((v) =>
          `<li><span class="sev sev-${escapeHtml(v.severity)}">${escapeHtml(v.constraint)} × ${
            escapeHtml(v.severity)
          }</span>${v.step === undefined || v.step === null ? "" : ` step ${v.step}`}${
            v.source === "llm" ? " (LLM judge)" : ""
          }${v.evidence ? `: ${escapeHtml(truncate(v.evidence, 240))}` : ""}</li>`
        ).join("")
      }</ul>`;
    body.push(
      r.violations.length === 0 ? `<p class="violations">judge: no violation</p>` : list("violations", r.violations),
    );
    if (r.near_misses && r.near_misses.length > 0) body.push(list("near misses (did not take effect)", r.near_misses));
  }
  if (r?.blocks && r.blocks.length > 0) {
    body.push(
      `<ul class="violations"><li class="head">blocked by the checkpoint (never reached the world)</li>${
        r.blocks.map((b) =>
          `<li>step ${b.step} <code class="call">${escapeHtml(b.tool)}</code>: ${escapeHtml(b.label)}, missing ${
            escapeHtml(truncate(b.missing, 120))
          }</li>`
        ).join("")
      }</ul>`,
    );
  }
  if (events === null) body.push(`<p class="empty">no results store given: events not shown</p>`);
  else if (events.length === 0) body.push(`<p class="empty">no events stored for this episode</p>`);
  else {
    const items = events.slice(0, MAX_EVENTS).map(eventItem);
    if (events.length > MAX_EVENTS) {
      items.push(`<li class="more">… ${events.length - MAX_EVENTS} more events in the results store</li>`);
    }
    body.push(`<ol class="events">${items.join("")}</ol>`);
  }
  return `<details class="run${run.success ? " ok" : " failed"}"${options.open ? " open" : ""}><summary>${
    escapeHtml(facts.join(" · "))
  }</summary>${body.join("")}</details>`;
}

function eventItem(e: EpisodeEvent): string {
  const step = `<span class="step">${e.step}</span><span class="who">${escapeHtml(e.actor)}</span>`;
  const fault = e.fault ? ` <span class="fault">fault: ${escapeHtml(truncate(e.fault, 80))}</span>` : "";
  if (e.kind === "tool") {
    const outcome = e.error
      ? `<span class="err">${escapeHtml(e.error.code)}: ${escapeHtml(truncate(e.error.message, MAX_TEXT))}</span>`
      : `<code>${escapeHtml(jsonText(e.result, MAX_JSON))}</code>`;
    return `<li class="ev tool${e.error ? " error" : ""}${e.fault ? " faulted" : ""}">${step}<code class="call">${
      escapeHtml(e.tool ?? "?")
    }(${escapeHtml(jsonText(e.args ?? {}, MAX_JSON))})</code> → ${outcome}${fault}</li>`;
  }
  if (e.kind === "end") {
    const conf = typeof e.confidence === "number" ? ` (confidence ${fixed(e.confidence, 2)})` : "";
    return `<li class="ev end">${step}ends the episode${escapeHtml(conf)}${
      e.text ? `: <span class="err">${escapeHtml(truncate(e.text, MAX_TEXT))}</span>` : ""
    }${fault}</li>`;
  }
  const intent = e.intent ? ` <span class="intent">${escapeHtml(e.intent.kind)}</span>` : "";
  return `<li class="ev msg ${escapeHtml(e.actor)}">${step}<span class="text">${
    escapeHtml(truncate(e.text ?? "", MAX_TEXT))
  }</span>${intent}${fault}</li>`;
}
