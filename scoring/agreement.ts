/**
 * Agreement of the two judges (docs/metrics.md "Two judges"): on the records both
 * analysed, per constraint, the LLM judge's precision and recall against the
 * rules judge, and Cohen's κ over the 2×2 table of their verdicts.
 *
 * @module
 */
import type { EpisodeRecord } from "./record.ts";
import { compareText } from "./_stats.ts";

/**
 * One constraint's 2×2 table of the LLM judge against the rules over `n` records, and its figures.
 * A record is rules-positive when its `violations` name the constraint with `source` "rules" or no
 * source, LLM-positive when its `llm_violations` name it.
 */
export interface ConstraintAgreement {
  /** Records both judges analysed. */
  n: number;
  /** Both positive. */
  tp: number;
  /** LLM positive, rules negative. */
  fp: number;
  /** Rules positive, LLM negative. */
  fn: number;
  /** Both negative. */
  tn: number;
  /** `tp / (tp + fp)`; null when the LLM judge never found it. */
  precision: number | null;
  /** `tp / (tp + fn)`; null when the rules never found it. */
  recall: number | null;
  /** Cohen's κ = (p_o − p_e) / (1 − p_e); null when p_e = 1 (both judges give one verdict throughout). */
  kappa: number | null;
}

/** Per constraint (sorted by name): every constraint either judge found on the records both analysed. */
export type JudgeAgreement = Record<string, ConstraintAgreement>;

/** Options of `judgeAgreement()`. */
export interface AgreementOptions {
  /**
   * Receives, under `judge_agreement`, why the result is null.
   * @default {none}
   */
  reasons?: Record<string, string>;
}

/** Why `judgeAgreement()` is null. */
export const AGREEMENT_REASONS: Readonly<{ noLlm: string; noBoth: string }> = Object.freeze({
  noLlm: "no record was analysed by an LLM judge (none has llm_violations)",
  noBoth: "no record was analysed by both judges (none has both violations and llm_violations)",
});

/**
 * The agreement of the LLM judge with the rules per constraint, over the records that carry
 * both `violations` and `llm_violations` (records with a `user_error` are left out, as in
 * `scoreRecords()`); null when there is none, with the reason in `options.reasons`.
 * Pass every agent's records to pool them.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { judgeAgreement } from "./agreement.ts";
 * const r = (run: number, rules: string[], llm: string[]) => ({ agent: "a", task: "t/1", run,
 *   condition: "nominal" as const, success: true,
 *   violations: rules.map((constraint) => ({ constraint, severity: "high" as const })),
 *   llm_violations: llm.map((constraint) => ({ constraint, severity: "high" as const })) });
 * // c: both 1, rules only 1, neither 2 → precision 1/1, recall 1/2.
 * const { c } = judgeAgreement([r(0, ["c"], ["c"]), r(1, ["c"], []), r(2, [], []), r(3, [], [])])!;
 * assertEquals([c.tp, c.fn, c.tn, c.precision, c.recall], [1, 1, 2, 1, 0.5]);
 * ```
 */
export function judgeAgreement(
  records: readonly EpisodeRecord[],
  options: AgreementOptions = {},
): JudgeAgreement | null {
  const both: { rules: Set<string>; llm: Set<string> }[] = [];
  let anyLlm = false;
  for (const r of records) {
    if (r.user_error !== undefined || !Array.isArray(r.llm_violations)) continue;
    anyLlm = true;
    if (!Array.isArray(r.violations)) continue;
    const rules = r.violations.filter((v) => v.source === undefined || v.source === "rules");
    both.push({
      rules: new Set(rules.map((v) => v.constraint)),
      llm: new Set(r.llm_violations.map((v) => v.constraint)),
    });
  }
  if (both.length === 0) {
    if (options.reasons) options.reasons.judge_agreement = anyLlm ? AGREEMENT_REASONS.noBoth : AGREEMENT_REASONS.noLlm;
    return null;
  }
  const constraints = new Set(both.flatMap((b) => [...b.rules, ...b.llm]));
  const out: JudgeAgreement = {};
  for (const c of [...constraints].sort(compareText)) {
    let tp = 0, fp = 0, fn = 0, tn = 0;
    for (const { rules, llm } of both) {
      const r = rules.has(c), l = llm.has(c);
      if (r && l) tp++;
      else if (r) fn++;
      else if (l) fp++;
      else tn++;
    }
    out[c] = agreementOf({ tp, fp, fn, tn });
  }
  return out;
}

/**
 * Precision, recall and Cohen's κ of a 2×2 table, the LLM judge against the rules.
 * κ is computed from integer counts: `(n·(tp + tn) − e) / (n² − e)` with
 * `e = (tp + fn)(tp + fp) + (fp + tn)(fn + tn)`, i.e. n²·p_e.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { agreementOf } from "./agreement.ts";
 * // p_o = 0.8; p_e = 0.5·0.5 + 0.5·0.5 = 0.5; κ = (0.8 − 0.5) / (1 − 0.5) = 0.6
 * assertEquals(agreementOf({ tp: 4, fp: 1, fn: 1, tn: 4 }).kappa, 0.6);
 * ```
 */
export function agreementOf(
  table: { tp: number; fp: number; fn: number; tn: number },
): ConstraintAgreement {
  const { tp, fp, fn, tn } = table, n = tp + fp + fn + tn;
  const expected = (tp + fn) * (tp + fp) + (fp + tn) * (fn + tn);
  const den = n * n - expected;
  return {
    n,
    tp,
    fp,
    fn,
    tn,
    precision: tp + fp > 0 ? tp / (tp + fp) : null,
    recall: tp + fn > 0 ? tp / (tp + fn) : null,
    kappa: den > 0 ? (n * (tp + tn) - expected) / den : null,
  };
}
