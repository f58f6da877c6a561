import { assert, assertEquals } from "@std/assert";
import type { EpisodeResult } from "../envs/mod.ts";
import type { CellKey } from "./plan.ts";
import { type EpisodeRecord, recordLine, recordsJsonl, writeRecordsJsonl } from "./records.ts";
import { toRecord } from "./to_record.ts";
import { MemoryResults } from "./store.ts";
import { type EpisodeRecord as ScoringRecord, EpisodeRecordSchema } from "../scoring/mod.ts";

function result(overrides: Partial<EpisodeResult> = {}): EpisodeResult {
  return {
    events: [],
    success: true,
    earned: true,
    stateMatch: true,
    outputsFound: true,
    nothingWritten: false,
    refused: false,
    handedOver: false,
    milestones: { total: 2, reached: 2, achieved: 2 },
    milestoneSteps: [4, 5],
    steps: 9,
    endedBy: "user",
    confidence: 0.9,
    confidenceSource: "stated",
    agentResources: {},
    agentError: null,
    agentRetries: null,
    agentBlocks: [],
    agentAbstained: null,
    userError: null,
    userResources: {},
    userMisread: null,
    actions: ["get_user_details", "get_reservation_details", "get_reservation_details", "cancel_reservation"],
    toolCalls: 4,
    invalidCalls: 1,
    toolErrors: 1,
    writeCalls: { attempted: 1, succeeded: 1 },
    firstErrorStep: 3,
    simTimeMs: 13_250,
    faultTimeMs: 0,
    changes: [],
    faults: 0,
    recoverySteps: [],
    divergence: [0, 0.5],
    missed: [0, 1],
    ...overrides,
  };
}

const cell: CellKey = { agent: "noisy", task: "airline/7", run: 2, condition: "nominal", variant: null };

Deno.test("toRecord() makes a docs/metrics.md episode record with ark's fields and without a violations key", () => {
  const record = toRecord(cell, result(), { milestoneLabels: ["cancel reservation", "tell the outcome"] });
  assertEquals(record, {
    agent: "noisy",
    task: "airline/7",
    run: 2,
    condition: "nominal",
    variant: null,
    success: true,
    actions: ["get_user_details", "get_reservation_details", "get_reservation_details", "cancel_reservation"],
    resources: { time: 13.25, api_calls: 4, num_actions: 4, num_errors: 1 },
    confidence: 0.9,
    milestones: { total: 2, reached: 2, achieved: 2 },
    steps: 9,
    first_error_step: 3,
    faults: 0,
    recovered: true,
    tool_calls: 4,
    invalid_calls: 1,
    writes: { attempted: 1, succeeded: 1 },
    milestone_labels: ["cancel reservation", "tell the outcome"],
    divergence: [0, 0.5],
  });
  assertEquals("violations" in record, false);
  assertEquals("milestone_labels" in toRecord(cell, result()), false);
});

Deno.test("toRecord() writes a verdict: violations, near misses, harm and the LLM judge's own list", () => {
  const v = (constraint: "explicit_confirmation" | "overcommitment", source: "rules" | "llm") => ({
    constraint,
    severity: "medium" as const,
    step: 3,
    evidence: "e",
    source,
  });
  const record = toRecord(cell, result(), {
    verdict: {
      violations: [v("explicit_confirmation", "rules")],
      near_misses: [],
      harm: { money: 0, rows: 0 },
      llm_violations: [v("overcommitment", "llm")],
    },
  });
  assertEquals(record.violations, [v("explicit_confirmation", "rules")]);
  assertEquals([record.near_misses, record.harm, record.llm_violations?.length], [[], { money: 0, rows: 0 }, 1]);
  assertEquals(EpisodeRecordSchema.parse(record), record);
  assertEquals("judge_error" in record, false);
});

Deno.test("toRecord() makes records scoring's schema accepts, and eval's type is scoring's", () => {
  const record: ScoringRecord = toRecord(cell, result(), { milestoneLabels: ["cancel reservation"] });
  assertEquals(EpisodeRecordSchema.parse(record), record);
});

Deno.test("toRecord() marks an episode without errors as not recovered and keeps a missing confidence null", () => {
  const record = toRecord(cell, result({ firstErrorStep: null, toolErrors: 0, confidence: null, success: false }));
  assertEquals([record.recovered, record.confidence, record.first_error_step], [false, null, null]);
});

Deno.test("toRecord() counts tool and model faults; with faults, recovered means succeeded", () => {
  const faulted = { ...cell, condition: "fault" as const, variant: "p0.2" };
  const record = toRecord(faulted, result({ faults: 2, recoverySteps: [1, 3], firstErrorStep: null }), {
    modelFaults: 1,
  });
  assertEquals([record.faults, record.recovered, record.recovery_steps], [3, true, [1, 3]]);
  const lost = toRecord(faulted, result({ faults: 1, recoverySteps: [], success: false }));
  assertEquals([lost.faults, lost.recovered, lost.recovery_steps], [1, false, []]);
  assertEquals(EpisodeRecordSchema.parse(record), record);
  assertEquals(recordLine(record).includes('"recovered":true,"recovery_steps":[1,3],"tool_calls"'), true);
  assertEquals("recovery_steps" in toRecord(cell, result()), false);
});

Deno.test("recordLine() writes keys in docs/metrics.md's order whatever the object's order", () => {
  const record = toRecord(cell, result(), { milestoneLabels: ["cancel reservation"] });
  const shuffled = Object.fromEntries(Object.entries(record).reverse()) as unknown as EpisodeRecord;
  shuffled.resources = { num_errors: 1, time: 13.25, num_actions: 4, api_calls: 4 };
  shuffled.violations = [
    {
      harm: { rows: 1, money: 5 },
      source: "rules",
      evidence: "e",
      step: 4,
      severity: "high",
      constraint: "explicit_confirmation",
    },
  ];
  shuffled.harm = { rows: 1, money: 5 };
  shuffled.near_misses = [];
  shuffled.writes = { succeeded: 1, attempted: 1 };
  assertEquals(
    recordLine(shuffled),
    '{"agent":"noisy","task":"airline/7","run":2,"condition":"nominal","variant":null,"success":true,' +
      '"actions":["get_user_details","get_reservation_details","get_reservation_details","cancel_reservation"],' +
      '"resources":{"time":13.25,"api_calls":4,"num_actions":4,"num_errors":1},"confidence":0.9,' +
      '"violations":[{"constraint":"explicit_confirmation","severity":"high","step":4,"evidence":"e",' +
      '"source":"rules","harm":{"money":5,"rows":1}}],"near_misses":[],"harm":{"money":5,"rows":1},' +
      '"milestones":{"total":2,"reached":2,"achieved":2},"steps":9,"first_error_step":3,"faults":0,"recovered":true,' +
      '"tool_calls":4,"invalid_calls":1,"writes":{"attempted":1,"succeeded":1},' +
      '"milestone_labels":["cancel reservation"],"divergence":[0,0.5]}',
  );
});

Deno.test("recordLine() writes what JSON.stringify() gives of the record's fields in order, odd values included", () => {
  const record = toRecord(cell, result(), { milestoneLabels: ["cancel reservation"] });
  const odd = {
    ...record,
    zeta: 1,
    alpha: { b: 1, a: [1, undefined, () => 0] },
    constructor: "skipped as a copy made key by key skips it",
    gone: undefined,
    fn: () => 1,
    confidence: Number.NaN,
    harm: null,
    outcome: 0,
    writes: { succeeded: 1, extra: true, attempted: Number.POSITIVE_INFINITY },
    // deno-lint-ignore no-sparse-arrays
    blocks: [{ missing: ["x"], step: 2, tool: "t", label: "l", other: "o" }, , { step: -0 }],
    violations: [{
      constraint: "c",
      severity: "low",
      step: 1,
      evidence: 'a "quoted"\nline',
      source: "rules",
      harm: null,
    }],
    near_misses: null,
    text: "\u2028 \ud800",
    when: new Date(0),
  } as unknown as EpisodeRecord;
  const line = recordLine(odd);
  assertEquals(line, referenceLine(odd));
  assert(line.includes('"confidence":null,') && line.includes('"harm":null,"milestones"'));
  assert(line.includes('"outcome":0,') && line.includes('"writes":{"attempted":null,"succeeded":1,"extra":true}'));
  assert(line.includes('{"step":0}]') && line.endsWith(',"zeta":1}'));
  assert(!line.includes("near_misses") && !line.includes("constructor") && !line.includes("gone"));
});

// recordLine() as it was first written: an ordered copy of the record, stringified.
function referenceLine(record: EpisodeRecord): string {
  const ordered = (object: object, keys: readonly string[]): Record<string, unknown> => {
    const value = object as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const k of keys) if (value[k] !== undefined) out[k] = value[k];
    const others = Object.keys(value).filter((k) => !keys.includes(k)).sort();
    for (const k of others) if (!(k in out) && value[k] !== undefined) out[k] = value[k];
    return out;
  };
  const harm = ["money", "rows"];
  const resources = ["cost", "time", "retry_wait", "api_calls", "num_actions", "num_errors", "call_latency", "tokens"];
  const violation = (v: Record<string, unknown>) => {
    const out = ordered(v, ["constraint", "severity", "step", "evidence", "source", "harm"]);
    if (v.harm) out.harm = ordered(v.harm as object, harm);
    return out;
  };
  const r = record as unknown as Record<string, Record<string, unknown>[] | undefined>;
  return JSON.stringify(ordered({
    ...record,
    resources: ordered(record.resources, resources),
    milestones: ordered(record.milestones, ["total", "reached", "achieved"]),
    harm: record.harm && ordered(record.harm, harm),
    outcome: record.outcome && ordered(record.outcome, ["expect", "earned"]),
    writes: record.writes && ordered(record.writes, ["attempted", "succeeded"]),
    violations: r.violations?.map(violation),
    near_misses: r.near_misses?.map(violation),
    blocks: r.blocks?.map((b) => ordered(b, ["step", "tool", "label", "missing"])),
  }, RECORD_KEYS));
}

// docs/metrics.md's order of a record's keys.
const RECORD_KEYS = (
  "agent task run condition variant category family length dependency success tau_reward outcome " +
  "actions resources confidence confidence_source violations near_misses harm llm_violations " +
  "llm_dropped judge_error judge_policy milestones steps first_error_step faults recovered " +
  "recovery_steps tool_calls invalid_calls writes milestone_labels divergence missed step_outcomes " +
  "agent_error model_retries blocks abstention user_error user_messages user_misread user_resources " +
  "judge_resources"
).split(" ");

Deno.test("writeRecordsJsonl() sorts records by agent, task and run", async () => {
  const sink = new MemoryResults();
  const keys: [string, number, number][] = [
    ["oracle", 10, 0],
    ["noisy", 2, 1],
    ["oracle", 2, 0],
    ["noisy", 2, 0],
    ["noisy", 10, 0],
    ["oracle", 1, 1],
  ];
  for (const [agent, task, run] of keys) {
    const c = { ...cell, agent, task: `airline/${task}`, run };
    sink.add({ cell: { ...c, seed: "s" }, record: toRecord(c, result()), events: [] });
  }
  const path = await Deno.makeTempFile({ suffix: ".jsonl" });
  assertEquals(await writeRecordsJsonl(sink, path), 6);
  const text = await Deno.readTextFile(path);
  await Deno.remove(path);
  const order = text.trimEnd().split("\n").map((line) => {
    const r = JSON.parse(line);
    return `${r.agent} ${r.task} ${r.run}`;
  });
  assertEquals(order, [
    "noisy airline/2 0",
    "noisy airline/2 1",
    "noisy airline/10 0",
    "oracle airline/1 1",
    "oracle airline/2 0",
    "oracle airline/10 0",
  ]);
  assertEquals(text.endsWith("}\n"), true);
});

Deno.test("recordsJsonl() gives the same text whatever order the records come in", () => {
  const records = [0, 1, 2, 3].map((run) => toRecord({ ...cell, run }, result({ steps: run })));
  assertEquals(recordsJsonl(records), recordsJsonl([...records].reverse()));
  assertEquals(recordsJsonl([]), "");
});

Deno.test("toRecord() keeps retries and faulted calls out of time: they are retry_wait", () => {
  // 13.25 s of the agent's own, 0.6 s of faulted tool calls and 2.5 s of model-call retries.
  const faulted = toRecord(cell, result({ simTimeMs: 13_250, faultTimeMs: 600 }), {
    modelLatencyMs: 1000,
    modelRetryWaitMs: 2500,
  });
  assertEquals([faulted.resources.time, faulted.resources.retry_wait], [14.25, 3.1]);
  assert(recordLine(faulted).includes('"time":14.25,"retry_wait":3.1,"api_calls"'));
  assertEquals(EpisodeRecordSchema.parse(faulted).resources?.retry_wait, 3.1);
  // Nothing lost, nothing written.
  assert(!("retry_wait" in toRecord(cell, result(), { modelLatencyMs: 1000 }).resources));
});

Deno.test("toRecord() of a model agent: its usage, its time with model latency, and what went wrong", () => {
  const model = result({
    confidenceSource: "elicited",
    agentResources: { api_calls: 5, tokens: 1600, cost: 0.012, call_latency: 820 },
    agentError: "malformed: no choices",
    userError: "user gave an empty reply",
    userResources: { api_calls: 2, tokens: 300, cost: 0.001 },
  });
  const record = toRecord(cell, model, { modelLatencyMs: 4100 });
  assertEquals(record.resources, {
    time: 17.35,
    api_calls: 5,
    num_actions: 4,
    num_errors: 1,
    cost: 0.012,
    call_latency: 820,
    tokens: 1600,
  });
  assertEquals(
    [record.confidence_source, record.agent_error, record.user_error],
    ["elicited", "malformed: no choices", "user gave an empty reply"],
  );
  assertEquals(record.user_resources, { api_calls: 2, tokens: 300, cost: 0.001 });
  assertEquals(EpisodeRecordSchema.parse(record).user_error, "user gave an empty reply");
  // Scoring's schema is the record's one definition: it keeps every field eval writes.
  assertEquals(EpisodeRecordSchema.parse({ ...record, judge_resources: { cost: 0.002, api_calls: 1 } }), {
    ...record,
    judge_resources: { cost: 0.002, api_calls: 1 },
  });
  const line = recordLine(record);
  assertEquals(line.indexOf('"confidence_source":"elicited"') > line.indexOf('"confidence":0.9'), true);
  assertEquals(line.endsWith(',"user_resources":{"cost":0.001,"api_calls":2,"tokens":300}}'), true);
  // A stated confidence, no errors and no model user add nothing: scripted records stay as they were.
  const scripted = toRecord(cell, result());
  for (const key of ["confidence_source", "agent_error", "user_error", "user_resources"]) {
    assertEquals(key in scripted, false, key);
  }
});

Deno.test("toRecord() copies the task's category and long-horizon fields and writes them after variant", () => {
  const plain = toRecord(cell, result(), { task: { rule: "outcome", expect: "act" } });
  assertEquals(
    ["category", "family", "length", "dependency", "step_outcomes", "missed"].some((k) => k in plain),
    false,
  );
  const categorised = toRecord(cell, result(), { task: { expect: "act", category: "edge" } });
  assertEquals(categorised.category, "edge");
  assertEquals("step_outcomes" in categorised, false);
  const line = recordLine(categorised);
  assertEquals(line.indexOf('"variant":null,"category":"edge","success":true') > 0, true);
  // Steps 1..6: a call that succeeds, one that fails, its retry (no repeat), the same call again
  // (a repeat), a message that reaches milestone 1, a call that reaches milestone 2.
  const call = (step: number, args: unknown, error = false) => ({
    step,
    actor: "tool" as const,
    kind: "tool" as const,
    tool: "t",
    args,
    ...(error ? { error: { code: "fault" as const, message: "timeout" } } : {}),
    latency_ms: 1,
  });
  const events = [
    call(1, { a: 1 }),
    call(2, { a: 2 }, true),
    call(3, { a: 2 }),
    call(4, { a: 2 }),
    { step: 5, actor: "agent" as const, kind: "message" as const, text: "done", latency_ms: 1 },
    call(6, { a: 3 }),
  ];
  const long = toRecord(cell, result({ events, steps: 6, milestoneSteps: [5, 6] }), {
    task: { expect: "act", family: "chain", length: 2, dependency: "strong" },
  });
  assertEquals([long.family, long.length, long.dependency, long.step_outcomes], ["chain", 2, "strong", "oxorMO"]);
  assertEquals(
    recordLine(long).includes('"variant":null,"family":"chain","length":2,"dependency":"strong","success":true'),
    true,
  );
  // A long task's m_t (for α) after d_t, before the step outcomes.
  assertEquals(recordLine(long).includes('"divergence":[0,0.5],"missed":[0,1],"step_outcomes":"oxorMO"'), true);
  const parsed = EpisodeRecordSchema.parse(JSON.parse(recordLine(long)));
  assertEquals([parsed.step_outcomes, parsed.missed], ["oxorMO", [0, 1]]);
});
