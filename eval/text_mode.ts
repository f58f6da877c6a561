/**
 * How closely agents in text mode (`AGENT@text`) get the verdicts they get in intents: for each
 * agent with both forms in the records, the cells whose verdict (success, the constraints violated,
 * the milestones achieved) is the same in words as in intents, and the others, each named. The
 * text-mode test and `deno task bench` read it.
 *
 * @module
 */
import { textModeOf } from "../agents/mod.ts";
import type { EpisodeRecord } from "../scoring/mod.ts";

/** One agent's agreement between its two forms. */
export interface TextModeAgreement {
  /** Cells with a record in both forms. */
  episodes: number;
  /** Of those, the cells whose verdicts are equal. */
  agree: number;
  /** The others: the cell, the verdict in intents, the verdict in words. */
  disagreements: string[];
}

/** What `textModeAgreement()` reads of a record: its cell and its verdict. */
export type Verdictful = Pick<
  EpisodeRecord,
  "agent" | "task" | "run" | "condition" | "variant" | "success" | "violations" | "milestones"
>;

/**
 * The agreement of each agent with its text mode, by the intent form's name.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { textModeAgreement } from "./text_mode.ts";
 * const r = (agent: string, success: boolean) => ({
 *   agent, task: "d/1", run: 0, condition: "nominal" as const, variant: null, success, violations: [],
 *   milestones: { total: 1, reached: 1, achieved: 1 },
 * });
 * assertEquals(textModeAgreement([r("oracle", true), r("oracle@text", true)]).oracle, { episodes: 1, agree: 1, disagreements: [] });
 * ```
 */
export function textModeAgreement(records: readonly Verdictful[]): Record<string, TextModeAgreement> {
  const cells = new Map<string, { intent?: Verdictful; text?: Verdictful }>();
  for (const r of records) {
    const inner = textModeOf(r.agent);
    const text = inner !== null;
    const agent = inner ?? r.agent;
    const key = JSON.stringify([agent, r.task, r.run, r.condition, r.variant ?? null]);
    const cell = cells.get(key) ?? {};
    cell[text ? "text" : "intent"] = r;
    cells.set(key, cell);
  }
  const out: Record<string, TextModeAgreement> = {};
  for (const [key, { intent, text }] of cells) {
    if (intent === undefined || text === undefined) continue;
    const a = out[intent.agent] ??= { episodes: 0, agree: 0, disagreements: [] };
    a.episodes++;
    const [v, w] = [verdict(intent), verdict(text)];
    if (v === w) a.agree++;
    else a.disagreements.push(`${JSON.parse(key).slice(1).join(" ")}: in intents ${v}; in words ${w}`);
  }
  return out;
}

function verdict(r: Verdictful): string {
  const broken = [...new Set((r.violations ?? []).map((v) => v.constraint))].sort();
  return `success ${r.success}, violated [${broken.join(", ")}], milestones ${r.milestones?.achieved ?? 0}`;
}
