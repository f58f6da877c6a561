// The dashboard's page shell and text helpers: times, links to experiments and episodes (escaping
// and numbers are the report's `escapeHtml()` and `fixed()`). Every page is one self-contained
// document (inline style, small inline scripts, no network but its own server). Private to server/.
import type { CellKey } from "../eval/mod.ts";
import { escapeHtml } from "../report/mod.ts";

/** A time as UTC `YYYY-MM-DD HH:MM:SS`, or "–". */
export function when(ms: number | null): string {
  return ms === null ? "–" : new Date(ms).toISOString().slice(0, 19).replace("T", " ") + " UTC";
}

/** A duration in seconds as `1h 02m`, `3m 05s` or `12s`; "–" when unknown. */
export function duration(s: number | null): string {
  if (s === null || !Number.isFinite(s)) return "–";
  const t = Math.round(s), h = Math.floor(t / 3600), m = Math.floor((t % 3600) / 60), sec = t % 60;
  const two = (n: number) => String(n).padStart(2, "0");
  return h > 0 ? `${h}h ${two(m)}m` : m > 0 ? `${m}m ${two(sec)}s` : `${sec}s`;
}

/** The path of an experiment's page (or of one of its parts). */
export function experimentPath(name: string, part = ""): string {
  return `/experiments/${encodeURIComponent(name)}${part}`;
}

/** The path of an episode's trajectory; each segment URL-encoded (task ids hold "/" and ":"). */
export function episodePath(name: string, cell: CellKey): string {
  const parts = [
    cell.agent,
    cell.task,
    String(cell.run),
    cell.condition,
    ...(cell.variant === null ? [] : [cell.variant]),
  ];
  return experimentPath(name, `/episodes/${parts.map(encodeURIComponent).join("/")}`);
}

const STYLE = `
:root { color-scheme: light; --fg: #1d232b; --muted: #5d6773; --line: #d9dee4; --ok: #1f7a3a; --bad: #b3261e;
  --warn: #9a6700; --bg2: #f5f7f9; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); }
header { display: flex; gap: 1.5rem; align-items: baseline; padding: .6rem 1.5rem; border-bottom: 1px solid var(--line);
  background: var(--bg2); }
header a { color: var(--fg); text-decoration: none; font-weight: 600; }
main { padding: 1rem 1.5rem 3rem; max-width: 1400px; }
h1 { font-size: 1.4rem; margin: .2rem 0 .8rem; } h2 { font-size: 1.1rem; margin: 1.6rem 0 .5rem; }
table { border-collapse: collapse; margin: .4rem 0; }
th, td { border-bottom: 1px solid var(--line); padding: .25rem .6rem; text-align: left; vertical-align: top; }
th { font-weight: 600; background: var(--bg2); } td.n { text-align: right; font-variant-numeric: tabular-nums; }
.ok { color: var(--ok); } .bad { color: var(--bad); } .warn { color: var(--warn); } .muted { color: var(--muted); }
.bar { display: inline-block; width: 120px; height: .6rem; background: var(--line); border-radius: 3px;
  vertical-align: middle; margin-right: .4rem; overflow: hidden; }
.bar > span { display: block; height: 100%; background: var(--ok); }
.facts { display: flex; flex-wrap: wrap; gap: .4rem 1.4rem; margin: .4rem 0; }
.facts b { font-weight: 600; }
.live { border: 1px solid var(--line); border-radius: 6px; padding: .6rem 1rem; background: var(--bg2); }
.live .big { font-size: 1.3rem; font-weight: 600; }
iframe { width: 100%; height: 1100px; border: 1px solid var(--line); border-radius: 6px; }
ol.events { list-style: none; padding: 0; } ol.events > li { border-left: 3px solid var(--line); margin: .5rem 0;
  padding: .3rem .8rem; } li.user { border-color: #6b8fd6; } li.agent { border-color: #7a5cc7; }
li.tool { border-color: #4a9a8a; } li.error { border-color: var(--bad); } li.faulted { background: #fff6e5; }
li.violated { background: #fdecea; }
.who { font-weight: 600; margin-right: .5rem; } .step { color: var(--muted); margin-right: .5rem; }
pre { white-space: pre-wrap; word-break: break-word; background: var(--bg2); padding: .4rem .6rem; margin: .3rem 0;
  border-radius: 4px; max-height: 24rem; overflow: auto; }
.text { white-space: pre-wrap; } code { font-family: ui-monospace, monospace; font-size: 13px; }
.sev { font-weight: 600; } .sev-critical, .sev-high { color: var(--bad); } .sev-medium { color: var(--warn); }
form.pick { display: flex; gap: .6rem; align-items: center; margin: .6rem 0; }
.message { font-size: 1.05rem; margin: 2rem 0; }
`;

/** A whole page: the navigation, the title and the body; `script` runs after the body. */
export function page(title: string, body: string, options: { script?: string } = {}): string {
  const script = options.script === undefined ? "" : `<script>${options.script}</script>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)} · ark</title>` +
    `<style>${STYLE}</style></head><body><header><a href="/">ark dashboard</a><a href="/">experiments</a>` +
    `<a href="/compare">compare</a></header><main><h1>${escapeHtml(title)}</h1>${body}</main>${script}</body></html>`;
}

/** The page of a missing thing or a refused request: its one-line message. */
export function messagePage(title: string, message: string): string {
  return page(
    title,
    `<p class="message" id="message">${escapeHtml(message)}</p><p><a href="/">back to the experiments</a></p>`,
  );
}

/** An HTML table from a header row and body rows of ready cells (`<td>`s). */
export function table(head: readonly string[], rows: readonly string[], attrs = ""): string {
  return `<table${attrs}><thead><tr>${head.map((h) => `<th>${escapeHtml(h)}</th>`).join("")}</tr></thead>` +
    `<tbody>${rows.join("")}</tbody></table>`;
}

/** A progress bar of `done` out of `total`. */
export function bar(done: number, total: number | null): string {
  const share = total === null || total === 0 ? 0 : Math.min(1, done / total);
  return `<span class="bar"><span style="width:${(share * 100).toFixed(1)}%"></span></span>`;
}
