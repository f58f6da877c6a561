// The HTML of the report's import section: how faithfully ark reproduced the imported file, what
// the other harness's reward misses, and the judge's findings with their evidence. Private to report/.
import { escapeHtml, fixed, jsonText, NULL_MARK, truncate } from "./format.ts";
import type { ImportReport } from "./imported.ts";
import { inspectHtml } from "./_inspect_html.ts";

const FORMATS: Record<string, string> = {
  "tau-bench": "τ-bench results",
  "tau2-bench": "τ²-bench results",
  ark: "ark transcripts",
  inspect: "inspect_ai logs",
};

function table(head: readonly string[], rows: readonly string[], className = "import"): string {
  return `<table class="${className}"><thead><tr>${
    head.map((h) => `<th>${escapeHtml(h)}</th>`).join("")
  }</tr></thead>` +
    `<tbody>${rows.join("")}</tbody></table>`;
}

const td = (text: string | number) =>
  typeof text === "number" ? `<td class="n">${text}</td>` : `<td>${escapeHtml(text)}</td>`;
const empty = (text: string) => `<p class="empty">${escapeHtml(text)}</p>`;

/** The import section, or "" for an experiment ark ran. */
export function importHtml(imported: ImportReport | undefined): string {
  if (imported === undefined) return "";
  const t = imported.tool_results, e = imported.episodes;
  const facts = [
    `${e.imported} of ${e.read} episodes imported from ${imported.file} (${FORMATS[imported.from]})` +
    (e.skipped > 0 ? `; ${e.skipped} skipped` : ""),
    imported.reward === null
      ? "the file holds no rewards"
      : `ark's recomputed reward equals the file's on ${imported.reward.equal} of ${imported.reward.compared} episodes`,
    imported.inspect !== undefined
      ? "transcripts alone: replayed in no ark world"
      : t.compared === 0
      ? "the file records no tool results"
      : `tool results: ${t.equal} of ${t.compared} calls (${
        fixed(t.share === null ? null : 100 * t.share, 1)
      }%) equal ` +
        `the recorded ones, ${t.exact} exactly`,
  ];
  const parts = [`<section id="import"><h2>Import</h2>`, `<p>${escapeHtml(facts.join(" · "))}.</p>`];
  if (imported.skipped.length > 0) {
    parts.push(
      `<h3>Skipped episodes</h3><ul>${
        imported.skipped.map((s) => `<li>${escapeHtml(s.where)}: ${escapeHtml(s.reason)}</li>`).join("")
      }</ul>`,
    );
  }
  // Transcripts alone: no rewards recomputed, no replay, no judge; what was read and what is null instead.
  if (imported.inspect !== undefined) parts.push(inspectHtml(imported.inspect));
  if (imported.inspect?.world === null) return [...parts, `</section>`].join("\n");
  if (imported.reward !== null && imported.reward.mismatches.length > 0) {
    parts.push(
      `<h3>Rewards ark recomputes otherwise</h3>`,
      table(
        ["task", "run", "the file's reward", "ark's"],
        imported.reward.mismatches.map((m) =>
          `<tr>${td(m.task)}${td(m.run)}${td(m.tau_reward)}${td(m.success ? 1 : 0)}</tr>`
        ),
      ),
    );
  }
  if (imported.rewards !== undefined) parts.push(rewardsHtml(imported.rewards));
  parts.push(`<h3>Tool results that differ</h3>`);
  parts.push(
    t.differences.length === 0
      ? empty(t.mismatches.length === 0 ? "none: every recorded result is ark's" : "no known difference explains them")
      : table(
        ["known difference", "calls", "same meaning", "why"],
        t.differences.map((d) =>
          `<tr><td><code>${escapeHtml(d.name)}</code></td>${td(d.calls)}${td(d.equivalent ? "yes" : "no")}${
            td(d.reason)
          }</tr>`
        ),
      ),
  );
  if (t.mismatches.length > 0) {
    parts.push(
      `<details><summary>${t.mismatches.length} calls not exactly equal, with where they first differ</summary>`,
      table(
        ["task", "run", "call", "tool", "arguments", "first difference", "explained by"],
        t.mismatches.map((m) =>
          `<tr>${td(m.task)}${td(m.run)}${td(m.call)}<td><code>${escapeHtml(m.tool)}</code></td>${
            td(jsonText(m.args, 80))
          }${td(truncate(m.at, 160))}${td(m.explained_by ?? "unexplained")}</tr>`
        ),
      ),
      `</details>`,
    );
  }
  if (imported.pass_hat_k.length > 0) {
    parts.push(
      `<h3>pass^k</h3>`,
      table(
        ["k", "from the file's rewards", "from ark's recomputed success"],
        imported.pass_hat_k.map((p) => `<tr>${td(p.k)}${td(fixed(p.tau_reward))}${td(fixed(p.ark))}</tr>`),
      ),
    );
  }
  parts.push(
    `<h3>Lenient passes</h3><p>Episodes the file rewards whose expected outcome (act, refuse, transfer, inform) ` +
      `ark's grading does not find.</p>`,
    imported.lenient_passes.length === 0 ? empty("none") : table(
      ["task", "run", "expected", "why ark does not count it"],
      imported.lenient_passes.map((l) => `<tr>${td(l.task)}${td(l.run)}${td(l.expect)}${td(l.why)}</tr>`),
    ),
  );
  parts.push(
    `<h3>Violations found by the judge</h3>`,
    imported.judge_policy === null
      ? ""
      : `<p class="policy">Writes judged under <b>${escapeHtml(policyName(imported.judge_policy.name))}</b>: ${
        escapeHtml(imported.judge_policy.summary)
      }.</p>`,
    imported.violations.length === 0 ? empty("none") : table(
      ["constraint", "severity", "episodes", "of them rewarded"],
      imported.violations.map((v) =>
        `<tr><td><code>${escapeHtml(v.constraint)}</code></td>${td(v.severity)}${td(v.episodes)}${td(v.rewarded)}</tr>`
      ),
    ),
    `<h3>Writes that differ from what the user approved</h3>`,
    imported.differing_writes.length === 0 ? empty("none") : table(
      ["task", "run", "step", "approved (at step)", "difference"],
      imported.differing_writes.map((d) =>
        `<tr>${td(d.task)}${td(d.run)}${td(d.step ?? NULL_MARK)}${td(`${d.approved} (step ${d.at})`)}${
          td(d.difference)
        }</tr>`
      ),
    ),
    `<h3>Rewarded episodes that break the policy</h3>`,
    imported.rewarded_violations.length === 0 ? empty("none") : table(
      ["task", "run", "constraint", "severity", "step", "evidence"],
      imported.rewarded_violations.flatMap((r) =>
        r.violations.map((v) =>
          `<tr>${td(r.task)}${td(r.run)}<td><code>${escapeHtml(v.constraint)}</code></td>${td(v.severity)}${
            td(v.step ?? NULL_MARK)
          }${td(v.evidence)}</tr>`
        )
      ),
    ),
    `</section>`,
  );
  return parts.join("\n");
}

// A policy's name as the report says it.
function policyName(name: string): string {
  return `the "${name}" policy`;
}

// What ark recomputed of the file's own reward, what it took from the file, and every disagreement.
function rewardsHtml(r: NonNullable<ImportReport["rewards"]>): string {
  const differ = r.episodes.filter((e) => e.why !== null);
  return [
    `<h3>Rewards recomputed under the file's rule</h3><p>${escapeHtml(r.rule)}.</p>`,
    table(
      ["component", "recomputed by ark", "differs from the file's", "taken from the file"],
      r.components.map((c) => `<tr>${td(c.name)}${td(c.recomputed)}${td(c.disagreed)}${td(c.taken)}</tr>`),
    ),
    differ.length === 0
      ? empty("ark's reward and every recomputed component equal the file's on every episode")
      : table(
        ["task", "run", "the file's reward", "ark's", "why"],
        differ.map((e) => `<tr>${td(e.task)}${td(e.run)}${td(e.file ?? "none")}${td(e.ark)}${td(e.why ?? "")}</tr>`),
      ),
  ].join("");
}
