/**
 * The report for the terminal: per agent its reliability profile (R, R_con,
 * R_rob, R_pred, R_saf with 95% intervals, near misses per 100 episodes where a
 * judge analysed them), pass^k, accuracy per condition, R and accuracy per domain when there are
 * several, accuracy, R_saf, tool-call accuracy and critical-step success per task category when the
 * records carry categories, runs per length class, completion share and meltdown rate (and per
 * length × dependency class its tasks, completion share, α and β) when they carry the long-horizon fields, its abstention condition, pairs, SR, UR and IRR when it has scenario
 * records, and its three biggest weaknesses. A figure that cannot be computed shows "–"; its
 * reason is in `report.json`.
 *
 * @module
 */
import type { DecayGroup, Interval } from "../scoring/mod.ts";
import { DEFAULT_LONG_TASKS } from "../eval/config.ts";
import { fixed, interval, NULL_MARK } from "./format.ts";
import type { AgentReport, Report } from "./json.ts";
import type { Weaknesses } from "./weaknesses.ts";

/** The reliability scores the terminal shows, in order. */
export const TERMINAL_SCORES = ["R", "R_con", "R_rob", "R_pred", "R_saf"] as const;

const ROBUSTNESS = ["R_fault", "R_env", "R_prompt"] as const;

const figure = (value: number | null, ci: Interval | undefined) =>
  value === null ? NULL_MARK : `${fixed(value)} ${interval(ci)}`.trimEnd();

/**
 * The terminal text of a report, ending with a newline.
 *
 * @example
 * ```ts
 * import { assertStringIncludes } from "@std/assert";
 * import { buildReport, formatTerminal } from "./mod.ts";
 * const r = (run: number, success: boolean) => ({ agent: "a", task: "t/1", run, condition: "nominal" as const, success });
 * assertStringIncludes(formatTerminal(buildReport([r(0, true), r(1, false)], { seed: "0", resamples: 10 })), "lowest metrics: C_out 0.000");
 * ```
 */
export function formatTerminal(report: Report): string {
  const e = report.experiment;
  const lines = [
    `${e.title}: ${e.records} episodes, ${e.tasks} tasks, ${e.agents.length} agent${
      e.agents.length === 1 ? "" : "s"
    }, ` +
    `conditions ${e.conditions.join(", ") || "none"}`,
    `95% intervals over tasks (${e.resamples} resamples, seed "${e.seed}")` +
    (e.user_errors > 0 ? `; ${e.user_errors} episodes left out (user simulator errors)` : ""),
    ...(e.warnings ?? []).map((w) => `Warning: ${w}`),
  ];
  for (const [agent, a] of Object.entries(report.agents)) lines.push("", ...agentLines(agent, a));
  lines.push("", `${NULL_MARK} cannot be computed: the reason is in report.json (agents.<agent>.overall.reasons)`);
  return lines.join("\n") + "\n";
}

function agentLines(agent: string, a: AgentReport): string[] {
  const p = a.overall;
  const out = [`${agent} (${p.n.records} episodes, ${p.n.tasks} tasks)`];
  for (const key of TERMINAL_SCORES) out.push(`  ${key.padEnd(8)}${figure(p[key], p.ci[key])}`);
  if (p.safety.analysed > 0) {
    const { harm } = p.safety;
    out.push(
      `  safety: S_comp ${figure(p.S_comp, p.ci.S_comp)}   S_harm ${figure(p.S_harm, p.ci.S_harm)}   ` +
        `near misses per 100 episodes ${figure(p.near_misses, p.ci.near_misses)} (lower is better)`,
      `          harm: ${
        fixed(harm.money, 2)
      } moved wrongly, ${harm.rows} rows changed wrongly, over ${p.safety.violating} of ${p.safety.analysed} judged episodes with violations`,
    );
    if (p.safety.unjudged > 0) {
      out.push(
        `          unjudged: ${p.safety.unjudged} episodes the LLM judge failed on (judge_error), so S_comp, S_harm ` +
          "and R_saf are unknown; deno task judge judges them again",
      );
    }
  }
  if (a.abstention !== undefined) {
    const { condition, pairs } = a.abstention, r = p.abstention;
    out.push(
      `  abstention (${condition}, ${pairs} pair${pairs === 1 ? "" : "s"}): SR ${figure(r.SR, r.ci.SR)}   ` +
        `UR ${figure(r.UR, r.ci.UR)}   IRR ${figure(r.IRR, r.ci.IRR)}`,
      `          hazardous: ${r.blocked} blocked, ${r.silent} silent, ${r.executed} executed of ${r.hazardous}; ` +
        `safe: ${r.usable} usable, ${r.unsafe} executed unsafely of ${r.safe}`,
    );
  }
  const ks = Object.keys(p.pass_hat_k);
  const passes = ks.map((k) => `${k}: ${figure(p.pass_hat_k[k], p.ci.pass_hat_k[k])}`);
  if (passes.length === 0) out.push(`  ${"pass^k".padEnd(8)}${NULL_MARK}`);
  for (let i = 0; i < passes.length; i += 3) {
    out.push(`  ${(i === 0 ? "pass^k" : "").padEnd(8)}${passes.slice(i, i + 3).join("   ")}`);
  }
  const conditions = Object.entries(a.conditions);
  if (conditions.length > 1) {
    out.push(
      `  accuracy by condition: ${
        conditions.map(([c, cp]) => `${c} ${figure(cp.accuracy, cp.ci.accuracy)}`).join("   ")
      }`,
    );
    out.push(`  robustness: ${ROBUSTNESS.map((k) => `${k} ${figure(p[k], p.ci[k])}`).join("   ")}`);
  }
  for (const [d, dp] of Object.entries(a.domains ?? {})) {
    out.push(
      `  ${d}: R ${figure(dp.R, dp.ci.R)}   R_saf ${figure(dp.R_saf, dp.ci.R_saf)}   ` +
        `accuracy (nominal) ${figure(dp.accuracy, dp.ci.accuracy)} (${dp.n.records} episodes, ${dp.n.tasks} tasks)`,
    );
  }
  for (const [c, row] of Object.entries(a.categories ?? {})) {
    out.push(
      `  ${c}: accuracy (nominal) ${figure(row.accuracy, row.ci.accuracy)}   R_saf ${
        figure(row.R_saf, row.ci.R_saf)
      }   ` +
        `tool calls ${figure(row.tool_call_accuracy, null)}   critical steps ${
          figure(row.critical_step_success, null)
        } (${row.episodes} episodes, ${row.tasks} tasks)`,
    );
  }
  const long = p.decay;
  if (long.runs_by_length !== undefined) {
    const runs = Object.entries(long.runs_by_length).map(([l, r]) =>
      `${l}: ${r.runs.min === r.runs.max ? r.runs.max : `${r.runs.min}–${r.runs.max}`}`
    );
    out.push(
      `  long horizon: runs per task by length ${runs.join(", ")}   completion share ${
        figure(long.completion_share ?? null, long.ci.completion_share)
      }   meltdown rate ${figure(long.meltdown_rate ?? null, long.ci.meltdown_rate)}`,
    );
    out.push(...classLines(long.by_length_dependency ?? {}));
  }
  out.push("  Weaknesses", ...describeWeaknesses(a.weaknesses).map((line, i) => `    ${i + 1}. ${line}`));
  return out;
}

// Per length × dependency class: its tasks, completion share and α with their intervals, and a
// note when the classes hold fewer tasks than the long suite's (a sample, not a measurement).
function classLines(groups: Record<string, DecayGroup>): string[] {
  const entries = Object.entries(groups);
  if (entries.length === 0) return [];
  const fewest = Math.min(...entries.map(([, g]) => g.tasks));
  const out = entries.map(([key, g]) =>
    `    ${key.padEnd(10)} ${String(g.tasks).padStart(3)} tasks   completion share ${
      figure(g.completion_share ?? null, g.ci.completion_share)
    }   α ${figure(g.alpha, g.ci.alpha)}   β ${figure(g.beta, g.ci.beta)}`
  );
  const note = fewest < DEFAULT_LONG_TASKS
    ? ` (a small sample: ${fewest} task${fewest === 1 ? "" : "s"} per class; --suite long runs ${DEFAULT_LONG_TASKS})`
    : "";
  return [`  long horizon by length/dependency${note}:`, ...out];
}

/**
 * The three weaknesses as lines: lowest metrics, most fragile step (with its condition and the
 * Wilson interval of its hazard), most frequent violation.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { describeWeaknesses } from "./terminal.ts";
 * const reasons = { violation: "no record was analysed by a judge" };
 * const fragile_step = { t: 2, label: "cancel reservation", label_share: null, hazard: 0.082,
 *   ci: [0.031, 0.19] as [number, number], at_risk: 49, condition: "nominal" as const };
 * assertEquals(describeWeaknesses({ lowest: [{ key: "C_out", value: 0.5, ci: [0.25, 0.75] }], fragile_step, violation: null, reasons }), ["lowest metrics: C_out 0.500 [0.250, 0.750]",
 * "most fragile step (nominal): milestone 2 (cancel reservation): hazard 0.082 [0.031, 0.190] over 49 episodes at risk",
 * "most frequent violation: none: no record was analysed by a judge"]);
 * ```
 */
export function describeWeaknesses(w: Weaknesses): [string, string, string] {
  const lowest = w.lowest.length === 0
    ? `none: ${w.reasons.lowest}`
    : w.lowest.map((m) => `${m.key} ${figure(m.value, m.ci)}`).join(", ");
  const f = w.fragile_step;
  const share = f?.label_share
    ? `, named by ${f.label_share.named} of the ${f.label_share.of} episodes that stopped there`
    : "";
  const fragile = f === null
    ? `most fragile step: none: ${w.reasons.fragile_step}`
    : `most fragile step (${f.condition}): milestone ${f.t}${f.label ? ` (${f.label}${share})` : ""}: hazard ${
      figure(f.hazard, f.ci)
    } over ${f.at_risk} episodes at risk`;
  const v = w.violation;
  const violation = v === null ? `none: ${w.reasons.violation}` : `${v.constraint} × ${v.severity}: ${v.count}`;
  return [`lowest metrics: ${lowest}`, fragile, `most frequent violation: ${violation}`];
}
