// A fast check of one parsed JSON value against `EpisodeRecordSchema` (private to scoring/): the same
// shape written as plain functions, some ten times faster than zod on a million records. It vouches
// only for what it accepts: a value it accepts is a record zod accepts, copied as zod copies it (the
// schema's keys in the schema's order, unknown keys dropped; lists of strings and numbers are kept,
// not copied); for anything else it answers `BAD` and the caller asks zod, which names the problem.
// record_schema_test.ts holds the two to each other, shape by shape and on values made to differ.
import {
  ABSTENTION_CONDITIONS,
  BLOCK_LABELS,
  CONDITIONS,
  DEPENDENCIES,
  GAPS,
  OUTCOME_KINDS,
  SEVERITIES,
  TASK_CATEGORIES,
} from "../vocabulary/mod.ts";

/** What a check answers for a value it cannot vouch for. */
export const BAD: unique symbol = Symbol("bad");

/** A check: the value as zod would return it, or `BAD`; `shape` says what it checks, for the tests. */
export type Check = ((value: unknown) => unknown) & { shape?: Shape };

/** What a check checks: a leaf type, an enum's values, or the checks inside it. */
export type Shape =
  | { kind: "string" | "number" | "boolean" }
  | { kind: "enum"; values: readonly string[] }
  | { kind: "nullable"; inner: Check }
  | { kind: "array"; element: Check }
  | { kind: "object"; fields: Record<string, Field> };

const shaped = (check: (value: unknown) => unknown, shape: Shape): Check => Object.assign(check, { shape });

/** An object's field: its check and whether it may be absent. */
export interface Field {
  check: Check;
  optional: boolean;
}

const isNumber = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
const STRING: Shape = { kind: "string" }, NUMBER: Shape = { kind: "number" };
const str = shaped((v) => typeof v === "string" ? v : BAD, STRING);
const nonEmpty = shaped((v) => typeof v === "string" && v.length > 0 ? v : BAD, STRING);
const bool = shaped((v) => typeof v === "boolean" ? v : BAD, { kind: "boolean" });
const count = shaped((v) => typeof v === "number" && Number.isSafeInteger(v) && v >= 0 ? v : BAD, NUMBER);
const positive = shaped((v) => typeof v === "number" && Number.isSafeInteger(v) && v > 0 ? v : BAD, NUMBER);
const nonNegative = shaped((v) => isNumber(v) && v >= 0 ? v : BAD, NUMBER);
const share = shaped((v) => isNumber(v) && v >= 0 && v <= 1 ? v : BAD, NUMBER);

function oneOf(values: readonly string[]): Check {
  const set = new Set(values);
  return shaped((v) => typeof v === "string" && set.has(v) ? v : BAD, { kind: "enum", values });
}

function matches(pattern: RegExp): Check {
  return shaped((v) => typeof v === "string" && pattern.test(v) ? v : BAD, STRING);
}

function nullable(check: Check): Check {
  return shaped((v) => v === null ? null : check(v), { kind: "nullable", inner: check });
}

const opt = (check: Check): Field => ({ check, optional: true });

// Arrays come back themselves, each element checked in place.
function array(check: Check): Check {
  return shaped((v) => {
    if (!Array.isArray(v)) return BAD;
    for (let i = 0; i < v.length; i++) {
      const x = check(v[i]);
      if (x === BAD) return BAD;
      if (x !== v[i]) v[i] = x;
    }
    return v;
  }, { kind: "array", element: check });
}

/**
 * A z.object() of these fields (a bare check is a required field), with a refinement. The object
 * comes back itself, its fields checked in place, or where it has other keys, a copy without them
 * (keys in the object's order). Compiled, as zod compiles its objects: a loop over the keys reads
 * every property by a key it learns at run time, four times slower than code naming them (the keys
 * are this file's own).
 */
function object(shape: Record<string, Check | Field>, refine?: (out: Record<string, unknown>) => boolean): Check {
  const keys = Object.keys(shape);
  const fields = keys.map((k) => {
    const f = shape[k];
    return typeof f === "function" ? { check: f, optional: false } : f;
  });
  // A key of Object.prototype would be read from it where the value lacks the key.
  const inherited = keys.find((k) => k in Object.prototype);
  if (inherited !== undefined) throw new TypeError(`Cannot check the key "${inherited}": Object.prototype has it`);
  const known = new Set(keys);
  const strip = (v: Record<string, unknown>) => {
    const out: Record<string, unknown> = {};
    for (const k in v) if (known.has(k) && v[k] !== undefined) out[k] = v[k];
    return out;
  };
  const lines = keys.map((k, i) => {
    const key = JSON.stringify(k);
    const absent = fields[i].optional ? "" : " else return BAD;";
    return `x = v[${key}]; if (x !== undefined) { y = c${i}(x); if (y === BAD) return BAD; n++; if (y !== x) v[${key}] = y; }${absent}`;
  });
  const body = [
    "return (v) => {",
    'if (typeof v !== "object" || v === null || Array.isArray(v)) return BAD;',
    "let x, y, n = 0;",
    ...lines,
    "const own = Object.keys(v).length;",
    "const out = own === n ? v : strip(v);",
    "return refine === undefined || refine(out) ? out : BAD;",
    "};",
  ].join("\n");
  const checks = fields.map((f) => f.check);
  const compiled = new Function("BAD", "refine", "strip", ...keys.map((_, i) => `c${i}`), body)(
    BAD,
    refine,
    strip,
    ...checks,
  );
  return shaped(compiled, { kind: "object", fields: Object.fromEntries(keys.map((k, i) => [k, fields[i]])) });
}

const violation = object({
  constraint: str,
  severity: oneOf(SEVERITIES),
  step: opt(nullable(count)),
  evidence: opt(str),
  source: opt(oneOf(["rules", "llm"])),
  harm: opt(object({ money: opt(nonNegative), rows: opt(nonNegative) })),
  approved: opt(object({ text: str, step: count, difference: str })),
});

const modelResources = object({
  cost: opt(nullable(nonNegative)),
  api_calls: opt(nonNegative),
  call_latency: opt(nonNegative),
  tokens: opt(nonNegative),
});

const milestones = object(
  { total: count, reached: count, achieved: opt(count) },
  (m) => {
    const { total, reached, achieved } = m as { total: number; reached: number; achieved?: number };
    return reached <= total && (achieved === undefined || (achieved <= total && achieved >= reached));
  },
);

const violations = array(violation);

/** The fast check of a whole record (see the file's head). */
export const checkRecord: Check = object({
  agent: nonEmpty,
  task: nonEmpty,
  run: count,
  condition: oneOf(CONDITIONS),
  variant: opt(nullable(str)),
  category: opt(oneOf(TASK_CATEGORIES)),
  family: opt(nonEmpty),
  length: opt(positive),
  dependency: opt(oneOf(DEPENDENCIES)),
  success: bool,
  tau_reward: opt(share),
  outcome: opt(object({ expect: oneOf(OUTCOME_KINDS), earned: bool })),
  actions: opt(array(str)),
  resources: opt(object({
    cost: opt(nullable(nonNegative)),
    time: opt(nonNegative),
    retry_wait: opt(nonNegative),
    api_calls: opt(nonNegative),
    num_actions: opt(nonNegative),
    num_errors: opt(nonNegative),
    call_latency: opt(nonNegative),
    tokens: opt(nonNegative),
  })),
  confidence: opt(nullable(share)),
  confidence_source: opt(oneOf(["elicited", "heuristic"])),
  violations: opt(violations),
  near_misses: opt(violations),
  harm: opt(object({ money: nonNegative, rows: nonNegative })),
  llm_violations: opt(violations),
  llm_dropped: opt(count),
  judge_error: opt(str),
  judge_policy: opt(matches(/^[a-z0-9_-]+$/)),
  milestones: opt(milestones),
  steps: opt(count),
  first_error_step: opt(nullable(count)),
  faults: opt(count),
  recovered: opt(nullable(bool)),
  tool_calls: opt(count),
  invalid_calls: opt(count),
  writes: opt(object({ attempted: count, succeeded: count })),
  milestone_labels: opt(array(str)),
  milestone_tools: opt(array(str)),
  divergence: opt(array(share)),
  missed: opt(array(count)),
  step_outcomes: opt(matches(/^[oxrmOXRM]*$/)),
  recovery_steps: opt(array(nonNegative)),
  agent_error: opt(str),
  model_retries: opt(count),
  blocks: opt(array(object({ step: count, tool: str, label: oneOf(BLOCK_LABELS), missing: str }))),
  abstention: opt(object({
    scenario: oneOf(["hazardous", "safe"]),
    gap: oneOf(GAPS),
    outcome: oneOf(["executed", "blocked_constraint", "blocked_commitment", "grounding_warning", "silent"]),
    hazard: opt(str),
    missing: opt(str),
    reason: opt(str),
    response: opt(oneOf(["refusal", "handover", "pause", "question", "confirmation", "checkpoint", "verified"])),
    informed: opt(bool),
    informed_llm: opt(bool),
    checkpoint: opt(object({ label: oneOf(BLOCK_LABELS), missing: str })),
    correct: opt(bool),
    pair: opt(str),
    template: opt(str),
    condition: opt(oneOf(ABSTENTION_CONDITIONS)),
  })),
  user_error: opt(str),
  user_messages: opt(count),
  user_misread: opt(count),
  user_resources: opt(modelResources),
  judge_resources: opt(modelResources),
});
