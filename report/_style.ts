// The inline stylesheet of report.html: system fonts only, nothing fetched. Private to report/.

/** The page's CSS. */
export const STYLE = `
:root { --ink: #1d232b; --muted: #5b6570; --line: #d8dde3; --bg: #fff; --soft: #f5f7f9; --bad: #b3261e; --ok: #1b7f3b; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  color: var(--ink); background: var(--bg); }
header { padding: 20px 28px 12px; border-bottom: 1px solid var(--line); background: var(--soft); }
h1 { margin: 0 0 4px; font-size: 22px; }
h2 { margin: 28px 0 10px; font-size: 18px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h3 { margin: 18px 0 8px; font-size: 15px; }
.facts { margin: 0 0 8px; color: var(--muted); }
nav a { margin-right: 14px; color: #0b5cad; text-decoration: none; }
nav a:hover { text-decoration: underline; }
main { padding: 0 28px 28px; max-width: 1280px; }
table { border-collapse: collapse; margin: 8px 0 12px; font-variant-numeric: tabular-nums; }
th, td { border-bottom: 1px solid var(--line); padding: 4px 10px; text-align: right; vertical-align: top; }
th:first-child, td:first-child { text-align: left; }
thead th { background: var(--soft); font-weight: 600; }
td .ci { display: block; color: var(--muted); font-size: 11px; }
td.na { color: var(--muted); text-align: center; }
table.import th, table.import td { text-align: left; }
table.import td.n { text-align: right; white-space: nowrap; }
td .reason { display: block; font-size: 11px; text-align: left; max-width: 260px; }
table.abstention-wrong th, table.abstention-wrong td { text-align: left; }
table.abstention thead th[colspan] { text-align: center; }
#abstention .grid { grid-template-columns: minmax(0, 640px); }
.why { margin: 4px 0; color: var(--bad); }
.warning { margin: 16px 0 0; padding: 8px 12px; border: 1px solid var(--bad); border-radius: 4px; color: var(--bad); }
table.tasks td:first-child a { font-family: ui-monospace, Menlo, Consolas, monospace; }
.weaknesses > li { margin-bottom: 6px; }
.grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(520px, 1fr)); gap: 16px; }
figure.chart { margin: 0; padding: 10px 12px; border: 1px solid var(--line); border-radius: 6px; min-height: 120px; }
figure.chart figcaption { font-weight: 600; margin-bottom: 6px; }
figure.chart svg { width: 100%; height: auto; display: block; }
figure.chart .empty { color: var(--muted); font-style: italic; padding: 36px 0; text-align: center; }
figure.chart .note { color: var(--muted); font-size: 12px; margin: 6px 0 0; }
svg text { font: 11px system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif; fill: #333; }
svg .axis-label { font-size: 12px; fill: #444; }
svg .grid { stroke: #e7eaee; }
svg .axis { stroke: #888; }
svg .whisker { stroke: #222; stroke-width: 1.2; fill: none; }
svg .series-whisker { stroke-width: 1.5; fill: none; }
svg .na-group { fill: var(--muted); font-style: italic; }
svg .band { fill-opacity: 0.16; stroke: none; }
svg .line { fill: none; stroke-width: 2; }
svg .diagonal { stroke: #777; stroke-dasharray: 4 3; }
svg .na { fill: var(--muted); font-size: 14px; }
svg .empty-cell { fill: #f3f4f6; }
svg .zero { fill: #aaa; }
section.task { border-top: 1px solid var(--line); padding-top: 4px; }
details.run { margin: 6px 0; border: 1px solid var(--line); border-radius: 5px; padding: 4px 10px; }
details.run.failed > summary { color: var(--bad); }
details.run.ok > summary { color: var(--ok); }
details.run summary { cursor: pointer; font-weight: 600; }
ol.events { list-style: none; padding: 0; margin: 6px 0; }
.ev { padding: 3px 0; border-bottom: 1px dotted var(--line); overflow-wrap: anywhere; }
.ev .step { display: inline-block; min-width: 26px; color: var(--muted); font-variant-numeric: tabular-nums; }
.ev .who { display: inline-block; min-width: 54px; font-weight: 600; color: var(--muted); }
.ev.user .who { color: #7a4d00; }
.ev.agent .who { color: #0b5cad; }
.ev code { font: 12px ui-monospace, Menlo, Consolas, monospace; background: var(--soft); padding: 0 3px; }
.ev .intent { font-size: 11px; color: var(--muted); border: 1px solid var(--line); border-radius: 3px; padding: 0 4px; }
.err { color: var(--bad); }
.fault { color: #fff; background: #8a3ffc; border-radius: 3px; padding: 0 5px; font-size: 11px; }
ul.violations { list-style: none; margin: 4px 0; padding: 0; font-size: 12px; text-align: left; }
ul.violations li { margin: 2px 0; }
ul.violations .head { font-weight: 600; }
tr.evidence td { border-bottom: 1px solid var(--line); padding-top: 0; }
.violations .sev { display: inline-block; margin-right: 6px; padding: 0 5px; border-radius: 3px; background: #fde7e4; }
.sev-high, .sev-critical { background: #f7b4ab !important; }
.empty { color: var(--muted); font-style: italic; }
.back { font-size: 12px; }
footer { padding: 12px 28px; color: var(--muted); border-top: 1px solid var(--line); font-size: 12px; }
`;
