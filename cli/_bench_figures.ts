// The figures of `deno task bench` as one list: each with its value on this checkout, the same figure
// on the `--baseline` checkout when there is one, their ratio, the target and the floor (what
// SQLite alone takes), or why a value is missing; printed as a table or as JSON. Private to cli/.

/** A target a figure should meet: `value op bound`. */
export interface Target {
  op: "<=" | ">=" | "<";
  bound: number;
}

/**
 * What a measurement gave: a value, or why there is none (one line); `failed` when an error stopped
 * it (a module or export missing, or thrown), not a limit the figure reports (e.g. a world too slow to build).
 */
export type Measured = { value: number } | { reason: string; failed?: true };

/** One figure of the bench. */
export interface Figure {
  /** Its key in the JSON output, e.g. `"store_us_per_episode"`. */
  key: string;
  /** Its name in the table, unit included, e.g. `"store µs per episode"`. */
  label: string;
  /** On this checkout. */
  now: Measured;
  /** On the `--baseline` checkout; `null` without `--baseline`, or when not measured there (`noBefore` says why). */
  before: Measured | null;
  /** Why `before` is `null` though a baseline was given, e.g. a floor. @default {"no --baseline given"} */
  noBefore?: string;
  /** The target, when it sets one. */
  target?: Target;
  /** The floor: the same work done by SQLite alone (or the figure of the floor's own line). */
  floor?: number;
  /** What the `before` value is of when it is not the same setting, e.g. `"1 worker"`. */
  beforeNote?: string;
  /** Digits after the point in the table. @default {2} */
  digits?: number;
}

/** A figure's value, or `null`. */
export function valueOf(m: Measured | null): number | null {
  return m !== null && "value" in m ? m.value : null;
}

/** `new / before`, when both are there and `before` is not 0. */
export function ratioOf(figure: Figure): number | null {
  const now = valueOf(figure.now), before = valueOf(figure.before);
  return now === null || before === null || before === 0 ? null : now / before;
}

/** Whether the value meets the target; `null` without either. */
export function meets(figure: Figure): boolean | null {
  const v = valueOf(figure.now), t = figure.target;
  if (v === null || t === undefined) return null;
  return t.op === "<=" ? v <= t.bound : t.op === ">=" ? v >= t.bound : v < t.bound;
}

const number = (v: number, digits: number) =>
  Math.abs(v) >= 1000 ? Math.round(v).toLocaleString("en-US") : v.toFixed(digits);

/** A target as the table shows it, e.g. `≤ 60`. */
export function targetText(t: Target | undefined): string {
  if (t === undefined) return "";
  const op = t.op === "<=" ? "≤" : t.op === ">=" ? "≥" : "<";
  return `${op} ${number(t.bound, Number.isInteger(t.bound) ? 0 : 2)}`;
}

/**
 * The figures as an aligned table: figure, new, (before, ratio when a baseline was given), target,
 * floor; then one line per reason a value is missing, naming the figures it applies to.
 */
export function figuresTable(figures: readonly Figure[], options: { baseline: boolean }): string {
  const { baseline } = options;
  const header = ["figure", "new", ...(baseline ? ["before", "new/before"] : []), "target", "floor"];
  const rows = figures.map((f) => {
    const digits = f.digits ?? 2;
    const cell = (m: Measured | null) => m !== null && "value" in m ? number(m.value, digits) : "—";
    const ratio = ratioOf(f);
    const met = meets(f);
    const before = baseline
      ? [cell(f.before) + (f.beforeNote ? ` (${f.beforeNote})` : ""), ratio === null ? "" : `${ratio.toFixed(2)}`]
      : [];
    return [
      f.label,
      cell(f.now) + (met === false ? " !" : ""),
      ...before,
      targetText(f.target),
      f.floor === undefined ? "" : number(f.floor, digits),
    ];
  });
  const table = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...table.map((r) => r[i].length)));
  const lines = table.map((r) =>
    r.map((c, i) => i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i])).join("  ").trimEnd()
  );
  return [...lines, ...notices(figures, baseline)].join("\n");
}

// One line per distinct reason, with the figures it holds for.
function notices(figures: readonly Figure[], baseline: boolean): string[] {
  const byReason = new Map<string, string[]>();
  const note = (reason: string, label: string) => {
    const list = byReason.get(reason) ?? [];
    list.push(label);
    byReason.set(reason, list);
  };
  for (const f of figures) {
    if ("reason" in f.now) note(`new: ${f.now.reason}`, f.label);
    if (baseline && f.before !== null && "reason" in f.before) note(`before: ${f.before.reason}`, f.label);
  }
  return [...byReason].map(([reason, labels]) => `${reason} (${labels.join(", ")})`);
}

/** A figure as JSON: `{value, before, ratio, target, met, floor}`, with `reason`/`before_reason` for a missing value. */
export interface FigureJson {
  label: string;
  value: number | null;
  before: number | null;
  ratio: number | null;
  target: Target | null;
  met: boolean | null;
  floor: number | null;
  reason?: string;
  before_reason?: string;
  before_note?: string;
}

const rounded = (v: number | null) => v === null ? null : Math.round(v * 1000) / 1000;

/** Every figure by key, as JSON. */
export function figuresJson(figures: readonly Figure[]): Record<string, FigureJson> {
  return Object.fromEntries(figures.map((f) => {
    const out: FigureJson = {
      label: f.label,
      value: rounded(valueOf(f.now)),
      before: rounded(valueOf(f.before)),
      ratio: rounded(ratioOf(f)),
      target: f.target ?? null,
      met: meets(f),
      floor: rounded(f.floor ?? null),
    };
    if ("reason" in f.now) out.reason = f.now.reason;
    if (f.before === null) out.before_reason = f.noBefore ?? "no --baseline given";
    else if ("reason" in f.before) out.before_reason = f.before.reason;
    if (f.beforeNote !== undefined && valueOf(f.before) !== null) out.before_note = f.beforeNote;
    return [f.key, out];
  }));
}
