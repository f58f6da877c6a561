// The fragile step (docs/metrics.md "Long horizon"): the milestone with the highest hazard among those
// at least `MIN_AT_RISK` episodes attempted, under one condition, never pooled across conditions,
// with the label its records agree on. Private to scoring/; `decay.ts` re-exports `MIN_AT_RISK`.
import type { FragileStep, HazardPoint } from "./_decay_types.ts";
import { CONDITIONS } from "../vocabulary/mod.ts";
import type { Cell, Group } from "./_decay_cells.ts";
import { survival } from "./_decay_curve.ts";
import { hazards } from "./_decay_hazard.ts";

/** A fragile step needs at least this many episodes to have attempted it. */
export const MIN_AT_RISK = 10;

/** A group's fragile step, or why it has none. */
export interface Fragile {
  step: FragileStep | null;
  /** `fragile_step` and `fragile_step.label` when null. */
  reasons: Record<string, string>;
}

/** A group's fragile step, under one condition: its nominal cells', else its only condition's, else none. */
export function fragileOf(group: Group, acc: Float64Array): Fragile {
  const present = CONDITIONS.filter((c) => group.cells.some((cell) => cell.condition === c));
  const condition = present.includes("nominal") ? "nominal" : present.length === 1 ? present[0] : null;
  if (condition === null) {
    const where = present.map((c) => `by_condition.${c}.fragile_step`).join(", ");
    return {
      step: null,
      reasons: { fragile_step: `per condition, never pooled, and this group has no nominal records: see ${where}` },
    };
  }
  const cells = group.cells.filter((c) => c.condition === condition);
  const maxT = Math.max(...cells.map((c) => c.total));
  const survivors = new Float64Array(maxT + 1), completed = new Float64Array(maxT + 1);
  survival(cells, acc, survivors, completed);
  return fragileStep(cells, hazards(survivors, completed), condition);
}

// The highest hazard at a milestone enough episodes attempted, with its label.
function fragileStep(
  cells: readonly Cell[],
  hazard: readonly HazardPoint[],
  condition: FragileStep["condition"],
): Fragile {
  let best: HazardPoint | null = null;
  for (const p of hazard) {
    if (p.h !== null && p.h > 0 && p.at_risk >= MIN_AT_RISK && (best === null || p.h > best.h!)) best = p;
  }
  if (best === null) {
    const fragile_step = hazard.length === 0
      ? "no task has milestones"
      : hazard.every((p) => p.at_risk < MIN_AT_RISK)
      ? `no milestone was attempted by at least ${MIN_AT_RISK} ${condition} episodes`
      : `no milestone attempted by at least ${MIN_AT_RISK} ${condition} episodes was ever missed`;
    return { step: null, reasons: { fragile_step } };
  }
  const label = agreedLabel(cells, best.t - 1);
  return {
    step: { t: best.t, label, hazard: best.h!, ci: best.ci, at_risk: best.at_risk, condition },
    reasons: label === null ? { "fragile_step.label": "the records do not name one label for this milestone" } : {},
  };
}

// The label every record naming milestones (`milestone_labels`, else `milestone_tools`) gives at
// `index`; null if they disagree or none does.
function agreedLabel(cells: readonly Cell[], index: number): string | null {
  let label: string | undefined;
  for (const cell of cells) {
    const mine = cellLabel(cell, index);
    if (mine === null || (label !== undefined && mine !== undefined && mine !== label)) return null;
    label ??= mine;
  }
  return label ?? null;
}

// The one label a cell's records give at `index` (remembered): null if they disagree, undefined if none does.
function cellLabel(cell: Cell, index: number): string | null | undefined {
  if (cell.labels.has(index)) return cell.labels.get(index);
  let mine: string | null | undefined;
  for (const r of cell.records) {
    const name = (r.milestone_labels ?? r.milestone_tools)?.[index];
    if (name === undefined || name === mine) continue;
    if (mine !== undefined) {
      mine = null;
      break;
    }
    mine = name;
  }
  cell.labels.set(index, mine);
  return mine;
}
