// Inline SVG charts drawn from plain data: grouped bars with whiskers, lines with bands, a heat
// table, and the <figure> that wraps each with its title and data attributes. Every data mark
// carries class "mark" and a <title>; `points` counts them. Coordinates have one decimal, so the
// same data always gives the same bytes. Private to report/.
import { escapeHtml, fixed, interval } from "./format.ts";

/** A drawn chart: its name (`data-chart`), the number of data marks and the SVG ("" when empty). */
export interface Chart {
  name: string;
  title: string;
  points: number;
  svg: string;
}

/** One series: a legend entry and a colour. */
export interface Series {
  name: string;
  color: string;
}

/** A bar's value with its interval; `null` draws the null mark with the reason as tooltip. */
export type BarValue = { value: number; ci?: readonly [number, number] | null } | { value: null; reason: string };

/** Colour-blind-safe colours (Okabe–Ito), by series index. */
export const PALETTE: readonly string[] = [
  "#0072B2",
  "#E69F00",
  "#009E73",
  "#CC79A7",
  "#56B4E9",
  "#D55E00",
  "#999933",
  "#000000",
];

const W = 560, ML = 56, MR = 16, MB = 52, PLOT_H = 200;
const c = (x: number) => String(Math.round(x * 10) / 10);
const text = (x: number, y: number, s: string, attrs = "") =>
  `<text x="${c(x)}" y="${c(y)}"${attrs ? " " + attrs : ""}>${escapeHtml(s)}</text>`;

/** Lays the legend out in rows; returns its SVG and the height it takes. */
function legend(items: readonly { name: string; color: string; dashed?: boolean }[], width: number) {
  const parts: string[] = [];
  let x = ML, y = 16;
  for (const item of items) {
    const w = 22 + 7 * [...item.name].length + 14;
    if (x + w > width - MR && x > ML) {
      x = ML;
      y += 16;
    }
    const swatch = item.dashed
      ? `<line x1="${c(x)}" y1="${c(y - 4)}" x2="${c(x + 14)}" y2="${
        c(y - 4)
      }" stroke="${item.color}" stroke-dasharray="3 2"/>`
      : `<rect x="${c(x)}" y="${c(y - 9)}" width="14" height="10" fill="${item.color}"/>`;
    parts.push(`<g class="legend-item">${swatch}${text(x + 20, y, item.name)}</g>`);
    x += w;
  }
  return { svg: `<g class="legend">${parts.join("")}</g>`, height: y + 12 };
}

function frame(chart: { title: string; height: number; width?: number }, body: string): string {
  const width = chart.width ?? W;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${c(width)} ${c(chart.height)}" role="img" ` +
    `aria-label="${escapeHtml(chart.title)}"><title>${escapeHtml(chart.title)}</title>${body}</svg>`;
}

/** The y axis of a [0, yMax] scale: gridlines, ticks and the label. */
function yAxis(top: number, label: string, width = W, yMax = 1): string {
  const parts: string[] = [];
  for (let i = 0; i <= 4; i++) {
    const v = (yMax * i) / 4, y = top + PLOT_H * (1 - i / 4);
    parts.push(`<line class="grid" x1="${ML}" y1="${c(y)}" x2="${c(width - MR)}" y2="${c(y)}"/>`);
    parts.push(text(ML - 6, y + 4, yMax === 1 ? v.toFixed(2) : c(v), 'text-anchor="end"'));
  }
  const mid = top + PLOT_H / 2;
  parts.push(text(14, mid, label, `class="axis-label" text-anchor="middle" transform="rotate(-90 14 ${c(mid)})"`));
  parts.push(`<line class="axis" x1="${ML}" y1="${c(top + PLOT_H)}" x2="${c(width - MR)}" y2="${c(top + PLOT_H)}"/>`);
  return parts.join("");
}

function xLabel(top: number, label: string, width = W): string {
  return text((ML + width - MR) / 2, top + PLOT_H + 47, label, 'class="axis-label" text-anchor="middle"');
}

/** Options of `barChart()`: `values[group][series]`. */
export interface BarChartOptions {
  name: string;
  title: string;
  xLabel: string;
  yLabel: string;
  /** Group labels; "\n" splits a label over two lines. */
  groups: readonly string[];
  series: readonly Series[];
  values: readonly (readonly BarValue[])[];
}

/** Grouped bars in [0, 1] with 95% interval whiskers; one mark per non-null bar. */
export function barChart(options: BarChartOptions): Chart {
  const { groups, series, values } = options;
  const lg = legend(series, W);
  const top = lg.height + 8, base = top + PLOT_H;
  const groupW = (W - ML - MR) / Math.max(1, groups.length);
  const barW = Math.min(36, (groupW - 16) / Math.max(1, series.length));
  const parts = [lg.svg, yAxis(top, options.yLabel)];
  let points = 0;
  groups.forEach((group, g) => {
    const x0 = ML + g * groupW + (groupW - barW * series.length) / 2;
    group.split("\n").forEach((line, i) =>
      parts.push(text(ML + (g + 0.5) * groupW, base + 16 + 13 * i, line, 'text-anchor="middle"'))
    );
    if (series.length > 0 && series.every((_, i) => (values[g]?.[i]?.value ?? null) === null)) {
      parts.push(text(ML + (g + 0.5) * groupW, base - 24, "not computable", 'class="na-group" text-anchor="middle"'));
    }
    series.forEach((s, i) => {
      const v = values[g]?.[i] ?? { value: null, reason: "no data" };
      const x = x0 + i * barW, mid = x + barW / 2;
      if (v.value === null) {
        parts.push(
          `<text class="na" x="${c(mid)}" y="${c(base - 4)}" text-anchor="middle"><title>${
            escapeHtml(`${s.name} · ${group.replace("\n", " ")}: ${v.reason}`)
          }</title>–</text>`,
        );
        return;
      }
      points++;
      // A zero still shows as a thin bar: it is a value, not a missing one.
      const y = Math.min(base - 2, top + PLOT_H * (1 - Math.min(1, Math.max(0, v.value))));
      const tip = `${s.name} · ${group.replace("\n", " ")}: ${fixed(v.value)} ${interval(v.ci)}`.trimEnd();
      parts.push(
        `<rect class="mark" x="${c(x + 1)}" y="${c(y)}" width="${c(barW - 2)}" height="${
          c(base - y)
        }" fill="${s.color}">` +
          `<title>${escapeHtml(tip)}</title></rect>`,
      );
      if (v.ci) {
        const [lo, hi] = v.ci.map((b) => top + PLOT_H * (1 - Math.min(1, Math.max(0, b))));
        parts.push(
          `<path class="whisker" d="M${c(mid)} ${c(lo)}V${c(hi)}M${c(mid - 4)} ${c(lo)}H${c(mid + 4)}M${c(mid - 4)} ${
            c(hi)
          }H${c(mid + 4)}"/>`,
        );
      }
    });
  });
  return finish(options, { parts, points, top, height: base + MB });
}

/** A point of a line: `lo`/`hi` draw the band or whisker, `r` the marker's radius. */
export interface LinePoint {
  x: number;
  y: number;
  lo?: number | null;
  hi?: number | null;
  r?: number;
  /** Tooltip text after the series name. */
  note?: string;
}

/** Options of `lineChart()`. */
export interface LineChartOptions {
  name: string;
  title: string;
  xLabel: string;
  yLabel: string;
  series: readonly (Series & { points: readonly LinePoint[] })[];
  /** The x range; integer ticks are drawn when `integerX`. */
  x: { min: number; max: number; integer?: boolean };
  /**
   * How `lo`/`hi` are drawn.
   * @default {"band"}
   */
  interval?: "band" | "whisker";
  /**
   * Draws the dashed diagonal y = x (a calibration diagram), with this legend label.
   * @default {none}
   */
  diagonal?: string;
}

/** Lines over y in [0, 1] with bands or whiskers; one mark per point. */
export function lineChart(options: LineChartOptions): Chart {
  const legendItems = [
    ...options.series,
    ...(options.diagonal ? [{ name: options.diagonal, color: "#777", dashed: true }] : []),
  ];
  const lg = legend(legendItems, W);
  const top = lg.height + 8, base = top + PLOT_H;
  let { min, max } = options.x;
  if (max <= min) [min, max] = [min - 0.5, max + 0.5];
  const sx = (x: number) => ML + 12 + ((W - ML - MR - 24) * (x - min)) / (max - min);
  const sy = (y: number) => top + PLOT_H * (1 - Math.min(1, Math.max(0, y)));
  const parts = [lg.svg, yAxis(top, options.yLabel)];
  const ticks: number[] = [];
  if (options.x.integer) {
    const step = Math.max(1, Math.ceil((max - min) / 10));
    for (let t = Math.ceil(min); t <= max; t += step) ticks.push(t);
  } else for (let i = 0; i <= 5; i++) ticks.push(min + ((max - min) * i) / 5);
  for (const t of ticks) {
    parts.push(text(sx(t), base + 16, options.x.integer ? String(t) : t.toFixed(1), 'text-anchor="middle"'));
  }
  if (options.diagonal) {
    parts.push(`<line class="diagonal" x1="${c(sx(0))}" y1="${c(sy(0))}" x2="${c(sx(1))}" y2="${c(sy(1))}"/>`);
  }
  let points = 0;
  for (const s of options.series) {
    const pts = [...s.points].sort((a, b) => a.x - b.x);
    const banded = pts.filter((p) => p.lo !== null && p.lo !== undefined && p.hi !== null && p.hi !== undefined);
    if ((options.interval ?? "band") === "band" && banded.length > 1) {
      const edge = [
        ...banded.map((p) => `${c(sx(p.x))},${c(sy(p.hi!))}`),
        ...banded.reverse().map((p) => `${c(sx(p.x))},${c(sy(p.lo!))}`),
      ];
      parts.push(`<polygon class="band" points="${edge.join(" ")}" fill="${s.color}"/>`);
    }
    if (pts.length > 1) {
      parts.push(
        `<polyline class="line" points="${
          pts.map((p) => `${c(sx(p.x))},${c(sy(p.y))}`).join(" ")
        }" stroke="${s.color}"/>`,
      );
    }
    for (const p of pts) {
      points++;
      if (
        options.interval === "whisker" && p.lo !== null && p.lo !== undefined && p.hi !== null && p.hi !== undefined
      ) {
        parts.push(
          `<path class="series-whisker" d="M${c(sx(p.x))} ${c(sy(p.lo))}V${c(sy(p.hi))}" stroke="${s.color}"/>`,
        );
      }
      const ci = p.lo !== null && p.lo !== undefined && p.hi !== null && p.hi !== undefined
        ? interval([p.lo, p.hi])
        : "";
      const tip = `${s.name}: ${options.xLabel} ${c(p.x)}, ${fixed(p.y)} ${ci}${p.note ? ` (${p.note})` : ""}`;
      parts.push(
        `<circle class="mark" cx="${c(sx(p.x))}" cy="${c(sy(p.y))}" r="${c(p.r ?? 3)}" fill="${s.color}">` +
          `<title>${escapeHtml(tip.replace(/ +/g, " ").trim())}</title></circle>`,
      );
    }
  }
  return finish(options, { parts, points, top, height: base + MB });
}

/** Options of `heatTable()`: `counts[row][column]`. */
export interface HeatTableOptions {
  name: string;
  title: string;
  xLabel: string;
  yLabel: string;
  columns: readonly string[];
  rows: readonly string[];
  counts: readonly (readonly number[])[];
}

/** A table of counts shaded by size; one mark per non-zero cell. */
export function heatTable(options: HeatTableOptions): Chart {
  const { rows, columns, counts } = options;
  const max = Math.max(1, ...counts.flat());
  const left = Math.min(300, 24 + 6.6 * Math.max(4, ...rows.map((r) => [...r].length)));
  const cellW = Math.max(64, Math.min(120, (W - left - MR) / Math.max(1, columns.length)));
  const cellH = 22, top = 64, width = Math.max(W, left + cellW * columns.length + MR);
  const parts: string[] = [];
  // Legend: the colour scale from 1 to the largest count.
  for (let i = 0; i < 5; i++) {
    parts.push(`<rect x="${c(left + i * 22)}" y="8" width="22" height="10" fill="${shade((i + 1) / 5)}"/>`);
  }
  parts.push(text(left - 4, 17, "1", 'text-anchor="end"'), text(left + 114, 17, `${max} violations`));
  parts.push(text(left + (cellW * columns.length) / 2, 38, options.xLabel, 'class="axis-label" text-anchor="middle"'));
  parts.push(text(left - 6, top - 8, options.yLabel, 'class="axis-label" text-anchor="end"'));
  columns.forEach((col, j) => parts.push(text(left + (j + 0.5) * cellW, top - 8, col, 'text-anchor="middle"')));
  let points = 0;
  rows.forEach((row, i) => {
    const y = top + i * cellH;
    parts.push(text(left - 6, y + 15, row, 'text-anchor="end"'));
    columns.forEach((col, j) => {
      const n = counts[i]?.[j] ?? 0, x = left + j * cellW;
      if (n === 0) {
        parts.push(
          `<rect class="empty-cell" x="${c(x + 1)}" y="${c(y + 1)}" width="${c(cellW - 2)}" height="${cellH - 2}"/>`,
        );
        parts.push(text(x + cellW / 2, y + 15, "0", 'class="zero" text-anchor="middle"'));
        return;
      }
      points++;
      parts.push(
        `<rect class="mark" x="${c(x + 1)}" y="${c(y + 1)}" width="${c(cellW - 2)}" height="${cellH - 2}" fill="${
          shade(n / max)
        }"><title>${escapeHtml(`${col} · ${row}: ${n}`)}</title></rect>`,
      );
      parts.push(
        text(x + cellW / 2, y + 15, String(n), `text-anchor="middle" style="fill: ${n / max > 0.5 ? "#fff" : "#222"}"`),
      );
    });
  });
  const height = top + rows.length * cellH + 12;
  return {
    name: options.name,
    title: options.title,
    points,
    svg: frame({ title: options.title, height, width }, parts.join("")),
  };
}

/** A red of intensity in (0, 1]. */
function shade(intensity: number): string {
  return `hsl(8, 72%, ${c(92 - 50 * Math.min(1, Math.max(0, intensity)))}%)`;
}

/**
 * The `<figure>` of a chart: title, `data-chart`, `data-points`, an optional note, and the SVG
 * or, with no data mark, a paragraph saying why.
 */
export function figure(chart: Chart, options: { empty: string; note?: string }): string {
  const body = chart.points > 0 ? chart.svg : `<p class="empty">${escapeHtml(options.empty)}</p>`;
  const note = options.note ? `<p class="note">${escapeHtml(options.note)}</p>` : "";
  return `<figure class="chart" data-chart="${escapeHtml(chart.name)}" data-points="${chart.points}">` +
    `<figcaption>${escapeHtml(chart.title)}</figcaption>${body}${note}</figure>`;
}

// The x-axis label, then the frame around the drawn parts.
function finish(
  options: { name: string; title: string; xLabel: string; width?: number },
  drawn: { parts: string[]; points: number; top: number; height: number },
): Chart {
  drawn.parts.push(xLabel(drawn.top, options.xLabel));
  return {
    name: options.name,
    title: options.title,
    points: drawn.points,
    svg: frame({ ...options, height: drawn.height }, drawn.parts.join("")),
  };
}
