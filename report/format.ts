// Text helpers shared by the report writers and the dashboard: escaping, fixed-digit numbers, truncation.
import { CONDITIONS } from "../eval/config.ts";

/** The mark of a figure that cannot be computed. */
export const NULL_MARK = "–";

const ENTITIES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

/** A number with fixed digits, or the null mark. */
export function fixed(x: number | null | undefined, digits = 3): string {
  return x === null || x === undefined || !Number.isFinite(x) ? NULL_MARK : x.toFixed(digits);
}

/** A 95% interval as `[lo, hi]`, or "" when there is none. */
export function interval(ci: readonly [number, number] | null | undefined, digits = 3): string {
  return ci ? `[${ci[0].toFixed(digits)}, ${ci[1].toFixed(digits)}]` : "";
}

/** A table cell of a figure with its interval, or the null mark with the reason as its tooltip. */
export function figureCell(
  value: number | null | undefined,
  options: { ci?: readonly [number, number] | null; reason?: string } = {},
): string {
  if (value === null || value === undefined) {
    return `<td class="na" title="${escapeHtml(options.reason ?? "not computable")}">${NULL_MARK}</td>`;
  }
  const ci = interval(options.ci);
  return `<td>${fixed(value)}${ci ? `<span class="ci">${ci}</span>` : ""}</td>`;
}

/** A share as a whole percentage. */
export function percent(x: number): string {
  return `${(x * 100).toFixed(0)}%`;
}

/** Cuts text to at most `max` code points, ending with "…" when cut. */
export function truncate(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : chars.slice(0, max - 1).join("") + "…";
}

/** Compact JSON of any value, truncated; `undefined` gives "". */
export function jsonText(value: unknown, max: number): string {
  if (value === undefined) return "";
  return truncate(JSON.stringify(value) ?? String(value), max);
}

/** Code-unit string order (locale-free, so the same everywhere). */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Orders condition names canonically, unknown ones last by name. */
export function compareConditions(a: string, b: string): number {
  const ia = (CONDITIONS as readonly string[]).indexOf(a), ib = (CONDITIONS as readonly string[]).indexOf(b);
  return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib) || compareText(a, b);
}
