// The report's charts, each as a <figure>, from the report's data. Private to report/.
import { SEVERITY_WEIGHTS } from "../scoring/mod.ts";
import { compareText, fixed } from "./format.ts";
import { barChart, type BarValue, figure, heatTable, lineChart, PALETTE, type Series } from "./_svg.ts";
import type { Report } from "./json.ts";

/** Legend entries of the agents, coloured in order. */
export function agentSeries(report: Report): Series[] {
  return report.experiment.agents.map((name, i) => ({ name, color: PALETTE[i % PALETTE.length] }));
}

const DIMENSIONS = [
  ["Consistency\nR_con", "R_con"],
  ["Robustness\nR_rob", "R_rob"],
  ["Predictability\nR_pred", "R_pred"],
  ["Safety\nR_saf", "R_saf"],
] as const;

/** (a) The four dimensions per agent, side by side. */
export function dimensionsChart(report: Report): string {
  const agents = Object.values(report.agents);
  const chart = barChart({
    name: "dimensions",
    title: "Reliability dimensions per agent (95% intervals)",
    xLabel: "dimension",
    yLabel: "score",
    groups: DIMENSIONS.map(([label]) => label),
    series: agentSeries(report),
    values: DIMENSIONS.map(([, key]) =>
      agents.map(({ overall: p }): BarValue =>
        p[key] === null
          ? { value: null, reason: p.reasons[key] ?? "not computable" }
          : { value: p[key]!, ci: p.ci[key] }
      )
    ),
  });
  return figure(chart, {
    empty: "no dimension could be computed for any agent",
    note:
      "A dash marks a dimension that cannot be computed (hover for the reason). Safety is reported beside R, never averaged into it.",
  });
}

/** (b) pass^k for k = 1..K per agent. */
export function passHatChart(report: Report): string {
  const series = agentSeries(report).map((s, i) => {
    const p = Object.values(report.agents)[i].overall;
    const points = Object.entries(p.pass_hat_k).flatMap(([k, y]) => {
      const ci = p.ci.pass_hat_k[k];
      return y === null ? [] : [{ x: Number(k), y, lo: ci?.[0] ?? null, hi: ci?.[1] ?? null }];
    });
    return { ...s, points };
  });
  const K = Math.max(1, ...series.flatMap((s) => s.points.map((p) => p.x)));
  const chart = lineChart({
    name: "pass-hat-k",
    title: "pass^k: chance that k runs of a task all succeed (95% intervals)",
    xLabel: "k (runs that must all succeed)",
    yLabel: "pass^k",
    series,
    x: { min: 1, max: K, integer: true },
    interval: "whisker",
  });
  return figure(chart, { empty: "no nominal record: pass^k is computed over nominal runs" });
}

/** (c) The decay curves R(t) with their bootstrap bands, over nominal runs (all runs without nominal ones). */
export function decayChart(report: Report): string {
  const nominal = report.experiment.conditions.includes("nominal");
  const profiles = Object.values(report.agents).map((a) =>
    (nominal ? a.conditions.nominal ?? a.overall : a.overall).decay
  );
  const series = agentSeries(report).map((s, i) => ({
    ...s,
    points: profiles[i].curve.map((c) => ({ x: c.t, y: c.R, lo: c.lo, hi: c.hi })),
  }));
  const max = Math.max(0, ...series.flatMap((s) => s.points.map((p) => p.x)));
  const chart = lineChart({
    name: "decay",
    title: `Decay: share of ${nominal ? "nominal " : ""}episodes that reached milestone t, R(t) (95% bootstrap bands)`,
    xLabel: "milestone t",
    yLabel: "R(t)",
    series,
    x: { min: 0, max, integer: true },
  });
  return figure(chart, {
    empty: `no decay curve: ${profiles[0]?.reasons.curve ?? "no record has milestones"}`,
    note: "Every condition's curve, and the hazard and fragile step, are in report.json (decay, conditions.<c>.decay).",
  });
}

/** (d) The calibration diagram: confidence bins against observed success. */
export function calibrationChart(report: Report): string {
  const series = agentSeries(report).map((s, i) => ({
    ...s,
    points: Object.values(report.agents)[i].calibration.map((b) => ({
      x: b.confidence,
      y: b.success,
      r: 2.5 + Math.min(5, Math.sqrt(b.n)),
      note: `bin ${fixed(b.lo, 1)}–${fixed(b.hi, 1)}, ${b.n} episodes`,
    })),
  }));
  const chart = lineChart({
    name: "calibration",
    title: "Calibration: mean confidence against observed success, per confidence bin (nominal runs)",
    xLabel: "mean confidence in the bin",
    yLabel: "observed success",
    series,
    x: { min: 0, max: 1 },
    diagonal: "perfect calibration",
  });
  return figure(chart, {
    empty: "no nominal record has a confidence",
    note: "Ten equal-width bins of confidence; a marker's size grows with the episodes in its bin.",
  });
}

/** (e) Violations by constraint × severity per agent. */
export function violationsChart(report: Report): string {
  const agents = report.experiment.agents;
  const counts = agents.map((a) => report.agents[a].overall.operational.violation_count);
  const keys = new Map<string, [string, string]>();
  for (const byConstraint of counts) {
    for (const [constraint, bySeverity] of Object.entries(byConstraint ?? {})) {
      for (const severity of Object.keys(bySeverity)) keys.set(`${constraint} × ${severity}`, [constraint, severity]);
    }
  }
  const weight = (s: string) => SEVERITY_WEIGHTS[s as keyof typeof SEVERITY_WEIGHTS] ?? 0;
  const rows = [...keys].sort(([, a], [, b]) =>
    compareText(a[0], b[0]) || weight(b[1]) - weight(a[1]) || compareText(a[1], b[1])
  );
  const chart = heatTable({
    name: "violations",
    title: "Violations by constraint × severity",
    xLabel: "agent",
    yLabel: "constraint × severity",
    columns: agents,
    rows: rows.map(([label]) => label),
    counts: rows.map(([, [c, s]]) => counts.map((byConstraint) => byConstraint?.[c]?.[s] ?? 0)),
  });
  const analysed = counts.some((c) => c !== null);
  return figure(chart, {
    empty: analysed ? "violations analysed: none found" : "no violations analysed (no record has a violations array)",
  });
}

/** (g) The loss-exceedance curve per agent: P(money harm ≥ x) over the analysed episodes (docs/metrics.md "Risk curve"). */
export function exceedanceChart(report: Report): string {
  const series = agentSeries(report).map((s, i) => {
    const points = Object.values(report.agents)[i].overall.safety.exceedance.map((e) => ({
      x: e.money,
      y: e.p,
      note: `P(harm ≥ ${fixed(e.money, 2)}) = ${fixed(e.p)}`,
    }));
    return { ...s, points };
  }).filter((s) => s.points.length > 0);
  const max = Math.max(0, ...series.flatMap((s) => s.points.map((p) => p.x)));
  const chart = lineChart({
    name: "exceedance",
    title: "Loss exceedance: share of episodes whose money moved wrongly is at least x",
    xLabel: "money moved wrongly in an episode (x)",
    yLabel: "P(harm ≥ x)",
    series,
    x: { min: 0, max },
  });
  const analysed = Object.values(report.agents).some((a) => a.overall.safety.analysed > 0);
  return figure(chart, {
    empty: analysed ? "no episode moved money wrongly" : "no violations analysed (no record has a violations array)",
    note: "Money harm comes from financial_accuracy violations; expected harm per episode is in the safety table.",
  });
}

/** (f) Accuracy per condition per agent. */
export function conditionsChart(report: Report): string {
  const { conditions } = report.experiment;
  const agents = Object.values(report.agents);
  const chart = barChart({
    name: "conditions",
    title: "Robustness: accuracy per condition (95% intervals)",
    xLabel: "condition",
    yLabel: "accuracy",
    groups: conditions,
    series: agentSeries(report),
    values: conditions.map((c) =>
      agents.map((a): BarValue => {
        const p = a.conditions[c];
        if (p === undefined) return { value: null, reason: `no ${c} records` };
        return p.accuracy === null
          ? { value: null, reason: p.reasons.accuracy ?? "not computable" }
          : { value: p.accuracy, ci: p.ci.accuracy };
      })
    ),
  });
  const others = conditions.filter((c) => c !== "nominal");
  return figure(chart, {
    empty: "no records",
    note: others.length === 0
      ? "No fault, env or prompt condition in this experiment: only the nominal baseline is shown, and R_rob cannot be computed."
      : "R_fault, R_env and R_prompt = min(accuracy under the condition / nominal accuracy, 1); see the table below.",
  });
}
