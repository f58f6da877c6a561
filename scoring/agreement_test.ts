import { assertEquals } from "@std/assert";
import type { EpisodeRecord, Violation } from "./record.ts";
import { agreementOf, judgeAgreement } from "./agreement.ts";

const v = (constraint: string, source?: Violation["source"]): Violation => ({ constraint, severity: "high", source });

function record(run: number, fields: Partial<EpisodeRecord>): EpisodeRecord {
  return { agent: "a", task: "t/1", run, condition: "nominal", success: true, ...fields };
}

// Ten records both judges analysed. explicit_confirmation: rules on 0–4 (0–2 marked "rules", 3–4 with
// no source), LLM on 0–3 and 5. authentication: rules on 6 and 7, LLM never. data_exposure: the LLM
// on 0, merged into `violations` with source "llm", so the rules did not find it.
function judged(): EpisodeRecord[] {
  return Array.from({ length: 10 }, (_, i) => {
    const rules: Violation[] = [];
    if (i <= 4) rules.push(v("explicit_confirmation", i <= 2 ? "rules" : undefined));
    if (i === 6 || i === 7) rules.push(v("authentication", "rules"));
    if (i === 0) rules.push(v("data_exposure", "llm"));
    const llm: Violation[] = [];
    if (i <= 3 || i === 5) llm.push(v("explicit_confirmation"));
    if (i === 0) llm.push(v("data_exposure"));
    return record(i, { violations: rules, llm_violations: llm });
  });
}

Deno.test("judgeAgreement() gives precision, recall and κ per constraint worked by hand", () => {
  const records = [
    ...judged(),
    // Not analysed by both, or left out: none of these count.
    record(10, { violations: [v("authentication")] }),
    record(11, { llm_violations: [v("authentication")] }),
    record(12, { violations: [], llm_violations: [v("authentication")], user_error: "off script" }),
  ];
  const agreement = judgeAgreement(records)!;
  assertEquals(Object.keys(agreement), ["authentication", "data_exposure", "explicit_confirmation"]);
  // explicit_confirmation: tp 4 (0–3), fn 1 (4), fp 1 (5), tn 4. p_o = 0.8; the marginals are 5/10 each, so
  // p_e = 0.5·0.5 + 0.5·0.5 = 0.5 and κ = (0.8 − 0.5) / 0.5 = 0.6.
  assertEquals(agreement.explicit_confirmation, {
    n: 10,
    tp: 4,
    fp: 1,
    fn: 1,
    tn: 4,
    precision: 0.8,
    recall: 0.8,
    kappa: 0.6,
  });
  // authentication: fn 2, tn 8; the LLM never says yes: precision undefined, recall 0; p_o = 0.8,
  // p_e = 0.2·0 + 0.8·1 = 0.8, κ = 0.
  assertEquals(agreement.authentication, {
    n: 10,
    tp: 0,
    fp: 0,
    fn: 2,
    tn: 8,
    precision: null,
    recall: 0,
    kappa: 0,
  });
  // data_exposure: an "llm" entry of `violations` is not the rules' finding: fp 1, tn 9; p_o = 0.9 = p_e, κ = 0.
  assertEquals(agreement.data_exposure, {
    n: 10,
    tp: 0,
    fp: 1,
    fn: 0,
    tn: 9,
    precision: 0,
    recall: null,
    kappa: 0,
  });
  assertEquals(judgeAgreement(records.toReversed()), agreement);
});

Deno.test("agreementOf() κ is null when both judges give one verdict throughout, and −1 at total disagreement", () => {
  assertEquals(agreementOf({ tp: 3, fp: 0, fn: 0, tn: 0 }).kappa, null);
  assertEquals(agreementOf({ tp: 0, fp: 0, fn: 0, tn: 5 }).kappa, null);
  // p_o = 0, p_e = 0.5·0.5 + 0.5·0.5 = 0.5: κ = −0.5 / 0.5 = −1.
  assertEquals(agreementOf({ tp: 0, fp: 2, fn: 2, tn: 0 }).kappa, -1);
  // One says yes to all, the other no to all: p_o = 0, p_e = 0, κ = 0.
  assertEquals(agreementOf({ tp: 0, fp: 0, fn: 4, tn: 0 }).kappa, 0);
});

Deno.test("judgeAgreement() is null with the reason when no record was analysed by both judges", () => {
  const reasons: Record<string, string> = {};
  assertEquals(judgeAgreement([record(0, { violations: [] })], { reasons }), null);
  assertEquals(reasons.judge_agreement, "no record was analysed by an LLM judge (none has llm_violations)");
  assertEquals(judgeAgreement([record(0, { llm_violations: [] })], { reasons }), null);
  assertEquals(
    reasons.judge_agreement,
    "no record was analysed by both judges (none has both violations and llm_violations)",
  );
  // Both analysed, neither found anything: no constraint to agree on.
  assertEquals(judgeAgreement([record(0, { violations: [], llm_violations: [] })]), {});
});
