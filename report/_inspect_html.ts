// The inspect_ai part of the report's import section: each log read (or refused, and why), the
// scorer and its values, how success was read, what was taken, recomputed, and null. Private to report/.
import { escapeHtml } from "./format.ts";
import type { InspectImport } from "./imported.ts";

const td = (text: string | number) =>
  typeof text === "number" ? `<td class="n">${text}</td>` : `<td>${escapeHtml(text)}</td>`;
const list = (items: readonly string[]) => `<ul>${items.map((i) => `<li>${escapeHtml(i)}</li>`).join("")}</ul>`;

/** The inspect_ai logs' part of the import section. */
export function inspectHtml(inspect: InspectImport): string {
  const rows = inspect.logs.map((l) =>
    `<tr>${td(l.file)}${td(l.task ?? "")}${td(l.model ?? "")}${td(l.status ?? "")}${td(l.scorer ?? "")}${
      td(l.values.map((v) => `${v.value} × ${v.count}`).join(", "))
    }${td(l.episodes)}${td(l.imported)}${td(l.tool_calls)}${td(l.refused ?? "")}</tr>`
  );
  return [
    `<h3>inspect_ai logs</h3>`,
    `<table class="import"><thead><tr>${
      [
        "log",
        "task",
        "model",
        "status",
        "scorer",
        "its values",
        "samples × epochs",
        "imported",
        "tool calls",
        "refused",
      ]
        .map((h) => `<th>${h}</th>`).join("")
    }</tr></thead><tbody>${rows.join("")}</tbody></table>`,
    `<p>${escapeHtml(`Success: ${inspect.success_rule}`)}${
      inspect.score_key === null ? "" : escapeHtml(`; the key "${inspect.score_key}" of object values`)
    }.</p>`,
    `<h4>Taken from the logs</h4>`,
    list(inspect.taken),
    `<h4>Recomputed by ark</h4>`,
    list(inspect.recomputed),
    `<h4>Null: these figures need an ark world</h4>`,
    list(inspect.null_figures.map((n) => `${n.figure}: ${n.reason}`)),
  ].join("\n");
}
