// `deno task export`: a small experiment's store exported as CSV parses back into one row per record
// of records.jsonl, and as OTLP/JSON into one trace per episode with a span per tool call; the same
// store gives the same bytes; bad arguments and paths get one-line errors.
import { assert, assertEquals, assertStringIncludes } from "@std/assert";
import { resolveConfig, ResultsStore, runExperiment, writeRecordsJsonl } from "../eval/mod.ts";
import { RECORD_COLUMNS, type TraceRequest } from "../interop/export/mod.ts";
import { main } from "../cli/export.ts";
import { parseCsv } from "./fixtures/csv_reader.ts";

// Runs `main` with console output captured.
function cli(args: string[]): { code: number; out: string; err: string } {
  const out: string[] = [], err: string[] = [];
  const { log, error } = console;
  console.log = (...a: unknown[]) => out.push(a.join(" "));
  console.error = (...a: unknown[]) => err.push(a.join(" "));
  try {
    return { code: main(args), out: out.join("\n"), err: err.join("\n") };
  } finally {
    console.log = log;
    console.error = error;
  }
}

// A small experiment (every scripted agent, nominal and fault) in a temp folder, as `deno task eval` leaves it.
async function experiment(): Promise<string> {
  const dir = await Deno.makeTempDir();
  const config = resolveConfig({
    suite: "tasks",
    domains: ["airline"],
    tasks: 3,
    runs: 2,
    conditions: { env: false, prompt: false },
    out: dir,
  });
  using store = ResultsStore.open(`${dir}/results.sqlite`, { config });
  await runExperiment(config, { sink: store });
  await writeRecordsJsonl(store, `${dir}/records.jsonl`);
  return dir;
}

const dir = await experiment();
globalThis.addEventListener("unload", () => Deno.removeSync(dir, { recursive: true }));
const jsonl = (await Deno.readTextFile(`${dir}/records.jsonl`)).trim().split("\n").map((l) => JSON.parse(l));

Deno.test("export --format csv writes a header and one row per record of records.jsonl, in its order", async () => {
  assertEquals(cli([dir, "--format", "csv", "--out", `${dir}/records.csv`]).code, 0);
  const [header, ...rows] = parseCsv(await Deno.readTextFile(`${dir}/records.csv`));
  assertEquals(header.slice(0, RECORD_COLUMNS.length), [...RECORD_COLUMNS]);
  assertEquals(header.slice(0, 5), ["agent", "task", "run", "condition", "variant"]);
  assertEquals(rows.length, jsonl.length);
  assert(jsonl.length > 20, `${jsonl.length} records`);
  const col = (name: string) => header.indexOf(name);
  rows.forEach((row, i) => {
    const r = jsonl[i];
    assertEquals(row.length, header.length);
    assertEquals(
      [row[col("agent")], row[col("task")], row[col("run")], row[col("condition")], row[col("variant")]],
      [r.agent, r.task, String(r.run), r.condition, r.variant ?? ""],
    );
    assertEquals(row[col("success")], String(r.success));
    assertEquals(row[col("resources.time")], JSON.stringify(r.resources.time));
    assertEquals(row[col("milestones.reached")], String(r.milestones.reached));
    assertEquals(row[col("violations")], String(r.violations.length));
    assertEquals(row[col("first_error_step")], r.first_error_step === null ? "" : String(r.first_error_step));
  });
  // Some episodes broke a rule: the worst severity is there exactly when there is a violation.
  assert(jsonl.some((r) => r.violations.length > 0));
  rows.forEach((row, i) => assertEquals(row[col("violations.worst_severity")] !== "", jsonl[i].violations.length > 0));
});

Deno.test("export --format csv from records.jsonl alone gives the bytes it gives from the store", async () => {
  const bare = await Deno.makeTempDir();
  await Deno.copyFile(`${dir}/records.jsonl`, `${bare}/records.jsonl`);
  assertEquals(cli([dir, "--format=csv", "--out", `${dir}/a.csv`]).code, 0);
  assertEquals(cli([bare, "--format=csv", "--out", `${bare}/b.csv`]).code, 0);
  assertEquals(await Deno.readFile(`${bare}/b.csv`), await Deno.readFile(`${dir}/a.csv`));
  const noStore = cli([bare, "--format", "otlp", "--out", `${bare}/t.jsonl`]);
  assertEquals(noStore.code, 1);
  assertStringIncludes(noStore.err, "has no results store");
  await Deno.remove(bare, { recursive: true });
});

Deno.test("export --format otlp writes one trace per episode with an execute_tool span per tool call", async () => {
  assertEquals(cli([dir, "--format", "otlp", "--out", `${dir}/traces.jsonl`]).code, 0);
  const text = await Deno.readTextFile(`${dir}/traces.jsonl`);
  const traces: TraceRequest[] = text.trimEnd().split("\n").map((l) => JSON.parse(l));
  assertEquals(traces.length, jsonl.length);
  using store = ResultsStore.read(`${dir}/results.sqlite`);
  const traceIds = new Set<string>(), spanIds = new Set<string>();
  traces.forEach((trace, i) => {
    const record = jsonl[i];
    const spans = trace.resourceSpans[0].scopeSpans[0].spans;
    const [root, ...children] = spans;
    const attr = (span: typeof root, key: string) => span.attributes.find((a) => a.key === key)?.value;
    assertEquals(root.name, `invoke_agent ${record.agent}`);
    assertEquals(attr(root, "gen_ai.operation.name"), { stringValue: "invoke_agent" });
    assertEquals(attr(root, "gen_ai.agent.name"), { stringValue: record.agent });
    assertEquals(attr(root, "ark.task"), { stringValue: record.task });
    assertEquals(attr(root, "ark.run"), { intValue: String(record.run) });
    assertEquals(attr(root, "ark.condition"), { stringValue: record.condition });
    assertEquals(attr(root, "ark.success"), { boolValue: record.success });
    const tools = store.events(record).filter((e) => e.kind === "tool");
    assertEquals(children.length, tools.length, `${record.agent} ${record.task} ${record.run}`);
    assertEquals(children.length, record.tool_calls);
    children.forEach((span, j) => {
      assertEquals(span.name, `execute_tool ${tools[j].tool}`);
      assertEquals(attr(span, "gen_ai.operation.name"), { stringValue: "execute_tool" });
      assertEquals(attr(span, "gen_ai.tool.name"), { stringValue: tools[j].tool! });
      assertEquals(attr(span, "gen_ai.tool.call.arguments"), { stringValue: JSON.stringify(tools[j].args) });
      assertEquals(span.status.code, tools[j].error === undefined ? undefined : 2);
      assertEquals([span.traceId, span.parentSpanId], [root.traceId, root.spanId]);
      assert(span.startTimeUnixNano >= root.startTimeUnixNano && span.endTimeUnixNano <= root.endTimeUnixNano);
    });
    assertEquals(root.parentSpanId, undefined);
    traceIds.add(root.traceId);
    for (const s of spans) spanIds.add(s.spanId);
    // A scripted agent's episode lasts its simulated time (no model calls to add).
    if (record.condition === "nominal") {
      const ms = Number(BigInt(root.endTimeUnixNano) - BigInt(root.startTimeUnixNano)) / 1e6;
      assertEquals(Math.round(ms), Math.round(record.resources.time * 1000));
    }
  });
  assertEquals(traceIds.size, traces.length);
  assertEquals(spanIds.size, traces.reduce((n, t) => n + t.resourceSpans[0].scopeSpans[0].spans.length, 0));
  assert(traces.some((t) => t.resourceSpans[0].scopeSpans[0].spans.some((s) => s.status.code === 2)));
  // Exported again: the same bytes.
  assertEquals(cli([dir, "--format", "otlp", "--out", `${dir}/again.jsonl`]).code, 0);
  assertEquals(await Deno.readTextFile(`${dir}/again.jsonl`), text);
});

Deno.test("export writes to stdout without --out, the same bytes as to a file", async () => {
  assertEquals(cli([dir, "--format", "csv", "--out", `${dir}/file.csv`]).code, 0);
  const run = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-read",
      "--allow-write",
      new URL("../cli/export.ts", import.meta.url).pathname,
      dir,
      "--format",
      "csv",
    ],
    cwd: new URL("..", import.meta.url).pathname,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assertEquals(run.code, 0, new TextDecoder().decode(run.stderr));
  assertEquals(run.stdout, await Deno.readFile(`${dir}/file.csv`));
});

Deno.test("export says in one line what is wrong with a folder, a format or an output", () => {
  const cases: [string[], number, string][] = [
    [[`${dir}/nope`, "--format", "csv"], 1, `Cannot read "${dir}/nope": no such file or folder`],
    [[`${dir}/records.jsonl`, "--format", "csv"], 1, "it is not a folder"],
    [[dir, "--format", "xml"], 2, 'Unknown format "xml": expected one of csv, otlp'],
    [[dir], 2, "Missing --format: expected one of csv, otlp"],
    [[dir, "--format", "csv", "--out", `${dir}/no/such/dir/x.csv`], 1, `Cannot write "${dir}/no/such/dir/x.csv"`],
    [[dir, "--format", "csv", "--out", dir], 1, `Cannot write "${dir}"`],
    [[dir, "--format", "csv", "--seed", "1"], 2, 'Unknown flag "--seed"'],
  ];
  for (const [args, code, message] of cases) {
    const result = cli(args);
    assertEquals(result.code, code, args.join(" "));
    assertStringIncludes(result.err, message);
    assertEquals(result.err.split("\n").length, 1, result.err);
  }
  assertEquals(cli(["--help"]).code, 0);
});
