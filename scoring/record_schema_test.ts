import { assertEquals } from "@std/assert";
import { EpisodeRecordSchema } from "./record_schema.ts";

const BASE = { agent: "a", task: "airline/7", run: 0, condition: "nominal", success: true };

/** The first issue of a record that does not parse, as the records reader prints it. */
function problem(fields: Record<string, unknown>): string {
  const parsed = EpisodeRecordSchema.safeParse({ ...BASE, ...fields });
  if (parsed.success) return "parsed";
  const issue = parsed.error.issues[0];
  return `"${issue.path.join(".")}": ${issue.message}`;
}

Deno.test("EpisodeRecordSchema accepts the safety judge's fields, milestone labels and older records", () => {
  const violation = {
    constraint: "financial_accuracy",
    severity: "high",
    step: 4,
    evidence: "refund_payment(amount=1200) where the policy allows 600",
    source: "rules",
    harm: { money: 600 },
  };
  const record = {
    ...BASE,
    violations: [violation],
    near_misses: [{ constraint: "explicit_confirmation", severity: "medium", step: 2, source: "llm" }],
    harm: { money: 600, rows: 0 },
    llm_violations: [{ ...violation, source: "llm" }],
    judge_error: "model timed out",
    milestones: { total: 3, reached: 1, achieved: 2 },
    milestone_labels: ["cancel reservation", "tell the refund", "refuse with the reason"],
  };
  assertEquals<unknown>(EpisodeRecordSchema.parse(record), record);
  const older = { ...BASE, violations: [{ constraint: "c", severity: "low" }], milestones: { total: 2, reached: 2 } };
  assertEquals<unknown>(EpisodeRecordSchema.parse({ ...older, milestone_tools: ["a", "b"] }), {
    ...older,
    milestone_tools: ["a", "b"],
  });
});

Deno.test("EpisodeRecordSchema rejects impossible harm and milestones, naming the field", () => {
  assertEquals(problem({ harm: { money: -1, rows: 0 } }), '"harm.money": Too small: expected number to be >=0');
  assertEquals(problem({ harm: { money: 1 } }), '"harm.rows": Invalid input: expected number, received undefined');
  assertEquals(
    problem({ violations: [{ constraint: "c", severity: "low", harm: { rows: -2 } }] }),
    '"violations.0.harm.rows": Too small: expected number to be >=0',
  );
  assertEquals(
    problem({ near_misses: [{ constraint: "c", severity: "grave" }] }).startsWith('"near_misses.0.severity": '),
    true,
  );
  assertEquals(
    problem({ llm_violations: [{ constraint: "c", severity: "low", source: "human" }] }).startsWith(
      '"llm_violations.0.source": ',
    ),
    true,
  );
  assertEquals(
    problem({ milestones: { total: 3, reached: 4 } }),
    '"milestones.reached": Too big: expected reached to be <= total (3), got 4',
  );
  assertEquals(
    problem({ milestones: { total: 3, reached: 2, achieved: 1 } }),
    '"milestones.achieved": Too small: expected achieved to be >= reached (2), got 1',
  );
  assertEquals(
    problem({ milestones: { total: 3, reached: 2, achieved: 4 } }),
    '"milestones.achieved": Too big: expected achieved to be <= total (3), got 4',
  );
  assertEquals(
    problem({ milestone_labels: ["a", 2] }),
    '"milestone_labels.1": Invalid input: expected string, received number',
  );
});

Deno.test("EpisodeRecordSchema checks the category and long-horizon fields, naming the field", () => {
  const fields = { category: "noise", family: "chain", length: 20, dependency: "weak", step_outcomes: "oxrmOXRM" };
  assertEquals(problem(fields), "parsed");
  assertEquals(
    problem({ category: "odd" }),
    '"category": Invalid option: expected one of "normal"|"edge"|"abnormal"|"noise"',
  );
  assertEquals(problem({ length: 0 }), '"length": Too small: expected number to be >0');
  assertEquals(problem({ length: 2.5 }), '"length": Invalid input: expected int, received number');
  assertEquals(problem({ dependency: "loose" }), '"dependency": Invalid option: expected one of "strong"|"weak"');
  assertEquals(
    problem({ step_outcomes: "oq" }),
    '"step_outcomes": Invalid step outcomes: expected letters of "oxrm", upper case where a milestone was reached',
  );
});
