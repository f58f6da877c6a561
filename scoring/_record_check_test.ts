// The fast record check (`_record_check.ts`) held to zod's `EpisodeRecordSchema`: the same shape, key by
// key, and on values made to differ from a record with every field, the same verdict and the same record.
import { assert, assertEquals } from "@std/assert";
import { BAD, type Check, checkRecord } from "./_record_check.ts";
import { EpisodeRecordSchema, parseEpisodeRecord } from "./record_schema.ts";

// zod's own description of a schema (v4's `_zod.def`), as far as the comparison reads it.
interface ZodDef {
  type: string;
  shape?: Record<string, { _zod: { def: ZodDef } }>;
  innerType?: { _zod: { def: ZodDef } };
  element?: { _zod: { def: ZodDef } };
  entries?: Record<string, string>;
}
const defOf = (schema: unknown): ZodDef => (schema as { _zod: { def: ZodDef } })._zod.def;

// The differences between a zod schema and a check, by path; empty when they have the same shape.
function differences(def: ZodDef, check: Check, path: string): string[] {
  const shape = check.shape;
  if (shape === undefined) return [`${path}: the check has no shape`];
  if (def.type === "nullable") {
    return shape.kind === "nullable" ? differences(defOf(def.innerType), shape.inner, path) : [`${path}: not nullable`];
  }
  if (def.type === "object") {
    if (shape.kind !== "object") return [`${path}: zod has an object, the check a ${shape.kind}`];
    const zodKeys = Object.keys(def.shape!), keys = Object.keys(shape.fields);
    if (zodKeys.join() !== keys.join()) return [`${path}: keys ${zodKeys.join()} in zod, ${keys.join()} checked`];
    return zodKeys.flatMap((k) => {
      let inner = defOf(def.shape![k]);
      const optional = inner.type === "optional";
      if (optional) inner = defOf(inner.innerType);
      const field = shape.fields[k];
      const here = `${path}.${k}`;
      if (field.optional !== optional) return [`${here}: optional in ${optional ? "zod" : "the check"} only`];
      return differences(inner, field.check, here);
    });
  }
  if (def.type === "array") {
    return shape.kind === "array" ? differences(defOf(def.element), shape.element, `${path}[]`) : [`${path}: no array`];
  }
  if (def.type === "enum") {
    const values = Object.values(def.entries!);
    return shape.kind === "enum" && values.join() === shape.values.join() ? [] : [`${path}: other enum values`];
  }
  return def.type === shape.kind ? [] : [`${path}: ${def.type} in zod, ${shape.kind} checked`];
}

Deno.test("checkRecord has EpisodeRecordSchema's shape: keys, order, optional and nullable fields, enums", () => {
  assertEquals(differences(defOf(EpisodeRecordSchema), checkRecord, "record"), []);
});

const violation = {
  constraint: "financial_accuracy",
  severity: "high",
  step: 4,
  evidence: "refund_payment(amount=1200)",
  source: "rules",
  harm: { money: 600, rows: 1 },
  approved: { text: "refund 600", step: 3, difference: "amount" },
};
const resources = { cost: 0.01, api_calls: 3, call_latency: 0.2, tokens: 100 };
// A record with every field of the schema set.
const FULL = {
  agent: "a",
  task: "airline/7",
  run: 2,
  condition: "fault",
  variant: "fault-1",
  category: "edge",
  family: "chain",
  length: 20,
  dependency: "weak",
  success: false,
  tau_reward: 0.5,
  outcome: { expect: "act", earned: false },
  actions: ["get_user_details", "cancel_reservation"],
  resources: { ...resources, time: 4.5, retry_wait: 1, num_actions: 2, num_errors: 1 },
  confidence: 0.7,
  confidence_source: "elicited",
  violations: [violation],
  near_misses: [{ constraint: "explicit_confirmation", severity: "medium", step: null }],
  harm: { money: 600, rows: 0 },
  llm_violations: [{ ...violation, source: "llm" }],
  llm_dropped: 1,
  judge_error: "model timed out",
  judge_policy: "retail_v2",
  milestones: { total: 3, reached: 1, achieved: 2 },
  steps: 9,
  first_error_step: 4,
  faults: 1,
  recovered: null,
  tool_calls: 5,
  invalid_calls: 1,
  writes: { attempted: 2, succeeded: 1 },
  milestone_labels: ["cancel", "tell", "refuse"],
  milestone_tools: ["cancel_reservation", "respond", "respond"],
  divergence: [0, 0.5, 1],
  missed: [0, 1, 2],
  step_outcomes: "oxRm",
  recovery_steps: [2, 0.5],
  agent_error: "context window exceeded",
  model_retries: 2,
  blocks: [{ step: 3, tool: "cancel_reservation", label: "blocked_constraint", missing: "confirmation" }],
  abstention: {
    scenario: "hazardous",
    gap: "verification",
    outcome: "blocked_commitment",
    hazard: "missing_fact",
    missing: "reservation_id",
    reason: "I need your reservation id",
    response: "question",
    informed: true,
    informed_llm: false,
    checkpoint: { label: "grounding_warning", missing: "reservation_id" },
    correct: false,
    pair: "airline:cancel#0",
    template: "cancel",
    condition: "checkpoint",
  },
  user_error: "user gave an empty reply",
  user_messages: 4,
  user_misread: 1,
  user_resources: resources,
  judge_resources: { cost: null },
};

// Values a field may be changed to: every JSON type, and the edges of zod's number and string checks.
const ODD: unknown[] = [
  undefined,
  null,
  true,
  "",
  "x",
  "oxrm",
  "Q",
  "nominal",
  "high",
  0,
  -0,
  1,
  2,
  3,
  4,
  -1,
  0.5,
  1.5,
  2 ** 53 - 1,
  2 ** 53,
  1e300,
  [],
  ["x"],
  [1],
  [null],
  {},
  { extra: 1 },
];

// Every path to a value in `value`, with the path's parent and key.
function* paths(value: unknown, path: PropertyKey[] = []): Generator<PropertyKey[]> {
  if (value === null || typeof value !== "object") return;
  for (const key of Object.keys(value)) {
    const k = Array.isArray(value) ? Number(key) : key;
    yield [...path, k];
    yield* paths((value as Record<string, unknown>)[key], [...path, k]);
  }
}

function changed(base: object, path: PropertyKey[], to: unknown): unknown {
  const copy = structuredClone(base) as Record<PropertyKey, unknown>;
  let at = copy;
  for (const k of path.slice(0, -1)) at = at[k] as Record<PropertyKey, unknown>;
  const last = path[path.length - 1];
  if (to === undefined) delete at[last];
  else at[last] = to;
  return copy;
}

Deno.test("checkRecord accepts what zod accepts, as zod returns it, and nothing zod rejects", () => {
  let cases = 0, accepted = 0;
  const disagree: string[] = [];
  // And a record with few fields, whose milestones have no `achieved` to hide a wrong `reached`.
  const lean = {
    agent: "a",
    task: "t/1",
    run: 0,
    condition: "nominal",
    success: true,
    milestones: { total: 3, reached: 1 },
  };
  const values: unknown[] = [FULL, { ...FULL, unknown_field: 1, resources: { ...FULL.resources, other: 2 } }];
  for (const base of [FULL, lean]) {
    for (const path of paths(base)) for (const to of ODD) values.push(changed(base, path, to));
  }
  for (const value of values) {
    cases++;
    const zod = EpisodeRecordSchema.safeParse(structuredClone(value));
    const fast = checkRecord(structuredClone(value));
    if (fast !== BAD) accepted++;
    if ((fast !== BAD) !== zod.success) {
      disagree.push(`${JSON.stringify(value).slice(0, 80)}…: zod ${zod.success ? "accepts" : "rejects"}`);
    } else if (fast !== BAD) assertEquals(fast, zod.data);
  }
  assertEquals(disagree, []);
  assert(cases > 2000 && accepted > 200, `${cases} cases, ${accepted} accepted`);
});

Deno.test("parseEpisodeRecord() keeps the record's own key order and drops unknown keys, nested ones too", () => {
  const value = {
    success: true,
    task: "t/1",
    agent: "a",
    run: 0,
    condition: "nominal",
    x: 1,
    harm: { rows: 1, money: 0, y: 2 },
  };
  const parsed = parseEpisodeRecord(value);
  assert(parsed.success);
  assertEquals(
    JSON.stringify(parsed.data),
    '{"success":true,"task":"t/1","agent":"a","run":0,"condition":"nominal","harm":{"rows":1,"money":0}}',
  );
});

Deno.test("parseEpisodeRecord() names zod's first issue for a record the fast check refuses", () => {
  const parsed = parseEpisodeRecord({ ...FULL, milestones: { total: 1, reached: 2 } });
  assertEquals(parsed, {
    success: false,
    issue: { path: ["milestones", "reached"], message: "Too big: expected reached to be <= total (1), got 2" },
  });
});
