/**
 * The zod schema of the episode record (`scoring/record.ts`): what `deno task score` and the
 * importers check a record against before scoring reads it.
 *
 * @module
 */
import { z } from "zod";
import {
  AbstentionConditionSchema,
  BlockLabelSchema,
  ConditionSchema,
  DependencySchema,
  GapSchema,
  OutcomeKindSchema,
  SeveritySchema,
  TaskCategorySchema,
} from "../vocabulary/mod.ts";
import type { EpisodeRecord } from "./record.ts";
import { BAD, checkRecord } from "./_record_check.ts";

const count = z.number().int().nonnegative();
const nonNegative = z.number().nonnegative();

const violation = z.object({
  constraint: z.string(),
  severity: SeveritySchema,
  step: count.nullable().optional(),
  evidence: z.string().optional(),
  source: z.enum(["rules", "llm"]).optional(),
  harm: z.object({ money: nonNegative.optional(), rows: nonNegative.optional() }).optional(),
  approved: z.object({ text: z.string(), step: count, difference: z.string() }).optional(),
});

const modelResources = z.object({
  cost: nonNegative.nullable().optional(),
  api_calls: nonNegative.optional(),
  call_latency: nonNegative.optional(),
  tokens: nonNegative.optional(),
});

// 0 ≤ reached ≤ achieved ≤ total, each issue on the field that breaks it.
const milestones = z.object({ total: count, reached: count, achieved: count.optional() }).superRefine((m, ctx) => {
  const issue = (path: "reached" | "achieved", message: string) =>
    ctx.addIssue({ code: "custom", path: [path], input: m[path], message });
  if (m.reached > m.total) issue("reached", `Too big: expected reached to be <= total (${m.total}), got ${m.reached}`);
  if (m.achieved === undefined) return;
  if (m.achieved > m.total) {
    issue("achieved", `Too big: expected achieved to be <= total (${m.total}), got ${m.achieved}`);
  }
  if (m.achieved < m.reached) {
    issue("achieved", `Too small: expected achieved to be >= reached (${m.reached}), got ${m.achieved}`);
  }
});

/**
 * Zod's schema type under a local name: `deno doc --lint` reports any reference to another
 * package's type as private (denoland/deno#27364).
 *
 * @internal
 */
type ZodType<T> = z.ZodType<T>;

/** Zod schema of one record. Required: agent, task, run, condition, success. */
export const EpisodeRecordSchema: ZodType<EpisodeRecord> = z.object({
  agent: z.string().min(1),
  task: z.string().min(1),
  run: count,
  condition: ConditionSchema,
  variant: z.string().nullable().optional(),
  category: TaskCategorySchema.optional(),
  family: z.string().min(1).optional(),
  length: z.number().int().positive().optional(),
  dependency: DependencySchema.optional(),
  success: z.boolean(),
  tau_reward: z.number().min(0).max(1).optional(),
  outcome: z.object({ expect: OutcomeKindSchema, earned: z.boolean() }).optional(),
  /** Tool names in call order. */
  actions: z.array(z.string()).optional(),
  resources: z.object({
    cost: nonNegative.nullable().optional(),
    time: nonNegative.optional(),
    retry_wait: nonNegative.optional(),
    api_calls: nonNegative.optional(),
    num_actions: nonNegative.optional(),
    num_errors: nonNegative.optional(),
    call_latency: nonNegative.optional(),
    tokens: nonNegative.optional(),
  }).optional(),
  confidence: z.number().min(0).max(1).nullable().optional(),
  confidence_source: z.enum(["elicited", "heuristic"]).optional(),
  /** Present (possibly empty) when the judge analysed the episode. */
  violations: z.array(violation).optional(),
  near_misses: z.array(violation).optional(),
  harm: z.object({ money: nonNegative, rows: nonNegative }).optional(),
  llm_violations: z.array(violation).optional(),
  llm_dropped: count.optional(),
  judge_error: z.string().optional(),
  judge_policy: z.string().regex(/^[a-z0-9_-]+$/).optional(),
  milestones: milestones.optional(),
  steps: count.optional(),
  first_error_step: count.nullable().optional(),
  faults: count.optional(),
  recovered: z.boolean().nullable().optional(),
  /** ark: tool calls made, and how many failed argument validation (or named no tool). */
  tool_calls: count.optional(),
  invalid_calls: count.optional(),
  /** ark: state-changing calls attempted and succeeded. */
  writes: z.object({ attempted: count, succeeded: count }).optional(),
  /** ark: the label of each milestone, in order; `milestone_tools` is read where it is absent. */
  milestone_labels: z.array(z.string()).optional(),
  milestone_tools: z.array(z.string()).optional(),
  /** ark: `d_t` for t = 1..total, the share of gold changes up to milestone t the run does not match. */
  divergence: z.array(z.number().min(0).max(1)).optional(),
  /** ark: `m_t` for t = 1..total, the gold outcomes up to milestone t the run does not match. */
  missed: z.array(z.number().int().min(0)).optional(),
  /** ark: one letter per agent step: o/x/r a call that succeeded/failed/repeated, m none; upper case: progress. */
  step_outcomes: z.string().regex(
    /^[oxrmOXRM]*$/,
    'Invalid step outcomes: expected letters of "oxrm", upper case where a milestone was reached',
  ).optional(),
  /** ark: for each injected fault, the extra steps until the next on-plan action. */
  recovery_steps: z.array(nonNegative).optional(),
  agent_error: z.string().optional(),
  model_retries: count.optional(),
  blocks: z.array(z.object({
    step: count,
    tool: z.string(),
    label: BlockLabelSchema,
    missing: z.string(),
  })).optional(),
  /** ark: an abstention scenario's outcome. */
  abstention: z.object({
    scenario: z.enum(["hazardous", "safe"]),
    gap: GapSchema,
    outcome: z.enum(["executed", "blocked_constraint", "blocked_commitment", "grounding_warning", "silent"]),
    hazard: z.string().optional(),
    /** The precondition the scenario leaves unmet (hazardous) — what an informed refusal names. */
    missing: z.string().optional(),
    /** The agent's words: its blocking response, or its last message. */
    reason: z.string().optional(),
    response: z.enum(["refusal", "handover", "pause", "question", "confirmation", "checkpoint", "verified"]).optional(),
    informed: z.boolean().optional(),
    informed_llm: z.boolean().optional(),
    checkpoint: z.object({
      label: BlockLabelSchema,
      missing: z.string(),
    }).optional(),
    /** For an executed safe scenario: whether it was executed correctly. */
    correct: z.boolean().optional(),
    pair: z.string().optional(),
    template: z.string().optional(),
    condition: AbstentionConditionSchema.optional(),
  }).optional(),
  /** ark: why the user simulator left its script; the record is left out of every metric. */
  user_error: z.string().optional(),
  user_messages: z.number().int().nonnegative().optional(),
  user_misread: z.number().int().nonnegative().optional(),
  user_resources: modelResources.optional(),
  judge_resources: modelResources.optional(),
});

/** One record checked: the record, or the first problem zod names (its path and message). */
export type RecordParse =
  | { success: true; data: EpisodeRecord }
  | { success: false; issue: { path: PropertyKey[]; message: string } };

/**
 * Checks one parsed JSON value against `EpisodeRecordSchema`: a record equal to the one `safeParse`
 * returns, or the same first issue; on valid records several times faster and with nothing copied.
 * A plain-function check vouches for the records it accepts and zod reads the rest. The record is
 * the value itself, checked in place, keys in its own order (zod's copy puts them in the schema's);
 * only an object holding keys the schema lacks is copied without them. So pass a value nothing else
 * holds, as `JSON.parse` returns it.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { parseEpisodeRecord } from "./record_schema.ts";
 * const record = { agent: "a", task: "t/1", run: 0, condition: "nominal", success: true, extra: 1 };
 * assertEquals(parseEpisodeRecord(record), {
 *   success: true,
 *   data: { agent: "a", task: "t/1", run: 0, condition: "nominal", success: true },
 * });
 * assertEquals(parseEpisodeRecord({ ...record, run: -1 }), {
 *   success: false,
 *   issue: { path: ["run"], message: "Too small: expected number to be >=0" },
 * });
 * ```
 */
export function parseEpisodeRecord(value: unknown): RecordParse {
  const checked = checkRecord(value);
  if (checked !== BAD) return { success: true, data: checked as EpisodeRecord };
  const parsed = EpisodeRecordSchema.safeParse(value);
  if (parsed.success) return parsed;
  const { path, message } = parsed.error.issues[0];
  return { success: false, issue: { path, message } };
}
