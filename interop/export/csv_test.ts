import { assert, assertEquals } from "@std/assert";
import { csvField, RECORD_COLUMNS, recordColumns, recordsCsv } from "./csv.ts";
import type { AnyRecord } from "./csv.ts";
import { parseCsv } from "../../tests/fixtures/csv_reader.ts";

const base = (over: Partial<AnyRecord> = {}): AnyRecord => ({
  agent: "oracle",
  task: "t/1",
  run: 0,
  condition: "nominal",
  variant: null,
  success: true,
  ...over,
});

// Rows as objects keyed by the header.
function table(text: string): Record<string, string>[] {
  const [header, ...rows] = parseCsv(text);
  for (const row of rows) assertEquals(row.length, header.length);
  return rows.map((row) => Object.fromEntries(header.map((h, i) => [h, row[i]])));
}

Deno.test("recordsCsv() quotes commas, quotes and line breaks so that an RFC 4180 reader gets the text back", () => {
  const tricky = 'Model said "no", then\r\nleft;\nagain';
  const [row] = table(recordsCsv([base({ agent_error: tricky, judge_error: "plain text" })]));
  assertEquals(row.agent_error, tricky);
  assertEquals(row.judge_error, "plain text");
  assertEquals(csvField('a"b'), '"a""b"');
  assertEquals(csvField("a,b"), '"a,b"');
  assertEquals(csvField("ab"), "ab");
});

Deno.test("recordsCsv() writes numbers as JSON does, booleans as true/false and null or absent as empty", () => {
  const [row] = table(recordsCsv([base({
    confidence: 0.1 + 0.2,
    resources: { time: 1e-7, api_calls: 3 },
    first_error_step: null,
    success: false,
    recovered: true,
  })]));
  assertEquals(row.confidence, "0.30000000000000004");
  assertEquals(row["resources.time"], "1e-7");
  assertEquals(row["resources.api_calls"], "3");
  assertEquals(row["resources.cost"], "");
  assertEquals([row.variant, row.first_error_step, row.category], ["", "", ""]);
  assertEquals([row.success, row.recovered], ["false", "true"]);
});

Deno.test("recordsCsv() counts violations with the worst severity, and leaves both empty when not judged", () => {
  const judged = base({
    task: "t/2",
    violations: [
      { constraint: "a", severity: "medium" },
      { constraint: "b", severity: "critical" },
      { constraint: "c", severity: "low" },
    ],
    near_misses: [{ constraint: "d", severity: "high" }],
    actions: ["look", "change"],
    abstention: { scenario: "hazardous", gap: "authority", outcome: "blocked_constraint" },
  });
  const [unjudged, row] = table(recordsCsv([judged, base()]));
  assertEquals([row.violations, row["violations.worst_severity"], row.near_misses], ["3", "critical", "1"]);
  assertEquals([unjudged.violations, unjudged["violations.worst_severity"]], ["", ""]);
  assertEquals(row["abstention.outcome"], "blocked_constraint");
  assertEquals(row.actions, "look change");
  assertEquals(table(recordsCsv([base({ violations: [] })]))[0].violations, "0");
});

Deno.test("recordColumns() puts the fixed columns first and any other scalar field after them, sorted", () => {
  const extra = {
    ...base(),
    resources: { time: 1, gpu_seconds: 2.5 },
    zeta: "z",
    alpha: { inner: true, list: [1, 2] },
    divergence: [0.5],
  } as AnyRecord;
  const columns = recordColumns([extra, { ...base(), resources: { gpu_seconds: 1 } } as AnyRecord]);
  assertEquals(columns.slice(0, RECORD_COLUMNS.length).map((c) => c.name), [...RECORD_COLUMNS]);
  assertEquals(columns.slice(RECORD_COLUMNS.length), [
    { name: "alpha.inner", type: "bool" },
    { name: "resources.gpu_seconds", type: "double" },
    { name: "zeta", type: "string" },
  ]);
  assertEquals(RECORD_COLUMNS.slice(0, 6), ["agent", "task", "run", "condition", "variant", "category"]);
  assert(RECORD_COLUMNS.includes("milestones.reached") && RECORD_COLUMNS.includes("abstention.outcome"));
  assertEquals(new Set(RECORD_COLUMNS).size, RECORD_COLUMNS.length);
});

Deno.test("recordsCsv() gives the same text whatever the records' order, sorted as records.jsonl is", () => {
  const records = [
    base({ agent: "b", task: "t/10" }),
    base({ agent: "a", task: "t/10" }),
    base({ agent: "a", task: "t/2", run: 1 }),
    base({ agent: "a", task: "t/2", condition: "fault", variant: "p0.2" }),
    base({ agent: "a", task: "t/2" }),
  ];
  const text = recordsCsv(records);
  assertEquals(recordsCsv([...records].reverse()), text);
  const keys = table(text).map((r) => `${r.agent} ${r.task} ${r.run} ${r.condition}`);
  assertEquals(keys, ["a t/2 0 fault", "a t/2 0 nominal", "a t/2 1 nominal", "a t/10 0 nominal", "b t/10 0 nominal"]);
  assert(text.endsWith("\r\n"));
  assertEquals(recordsCsv([]), RECORD_COLUMNS.join(",") + "\r\n");
});
