// inspect_ai logs imported with `deno task import --from inspect`: every shared log imported or
// refused in one line, its samples × epochs and tool calls counted as the raw JSON says; the .json
// and .eval versions of one log give the same records; attachments and pooled messages resolved;
// a multi-epoch log made here gives the consistency and pass^k worked out by hand; bad input refused.
import { assert, assertEquals, assertRejects, assertStringIncludes, assertThrows } from "@std/assert";
import { unzipSync, zipSync } from "fflate";
import { crc32, zstdCompressSync } from "node:zlib";
import { chatTranscript, ImportError, readInspectLogs, runImport } from "../interop/mod.ts";
import { MemoryResults, resolveConfig, runExperiment } from "../eval/mod.ts";
import { main, parseImportArgs } from "../cli/import.ts";
import { inspectLogTests } from "./fixtures/inspect_logs.ts";

const logs = inspectLogTests();
const enc = new TextEncoder(), dec = new TextDecoder();

type Raw = Record<string, unknown>;
interface RawMessage {
  role: string;
  content?: unknown;
  tool_calls?: { id?: string }[] | null;
  tool_call_id?: string | null;
}

// A log's header and samples straight from its bytes: a zip's header.json and samples/*.json, or the JSON.
function rawLog(bytes: Uint8Array): { header: Raw; samples: Raw[] } {
  if (bytes[0] === 0x50 && bytes[1] === 0x4b) {
    const files = unzipSync(bytes);
    const samples = Object.keys(files).filter((n) => n.startsWith("samples/")).map((n) =>
      JSON.parse(dec.decode(files[n]))
    );
    return { header: JSON.parse(dec.decode(files["header.json"])), samples };
  }
  const log = JSON.parse(dec.decode(bytes));
  return { header: log, samples: log.samples ?? [] };
}

// Tool calls as the import counts them: each assistant call, and each tool result answering none.
function rawToolCalls(sample: Raw): number {
  const messages = (sample.messages ?? []) as RawMessage[];
  const ids = new Set(messages.flatMap((m) => (m.tool_calls ?? []).map((c) => c.id)));
  const calls = messages.reduce((n, m) => n + (m.tool_calls?.length ?? 0), 0);
  return calls + messages.filter((m) => m.role === "tool" && !ids.has(m.tool_call_id ?? undefined)).length;
}

const firstScorer = (header: Raw, samples: Raw[]) =>
  ((header.eval as Raw).scorers as { name: string }[] | undefined)?.[0]?.name ??
    ((header.results as Raw | undefined)?.scores as { name: string }[] | undefined)?.[0]?.name ??
    Object.keys((samples[0]?.scores ?? {}) as Raw)[0];

logs.test("readInspectLogs() imports every shared log or refuses it in one line, counts as the raw JSON says", async () => {
  const names = [...Deno.readDirSync(logs.root)].map((e) => e.name).filter((n) => /\.(json|eval)$/.test(n)).sort();
  assert(names.length >= 8, `expected the shared logs, found ${names.length}`);
  for (const name of names) {
    const bytes = await Deno.readFile(`${logs.root}/${name}`);
    const { header, samples } = rawLog(bytes);
    const scorer = firstScorer(header, samples);
    // Imported: a sample with the scorer's value, or one its error halted before it was scored.
    const scored = samples.filter((s) => (s.scores as Raw | undefined)?.[scorer] !== undefined || s.error).length;
    const toolCalls = samples.reduce((n, s) => n + rawToolCalls(s), 0);
    let line: string;
    try {
      const read = readInspectLogs([{ name, bytes }]);
      const log = read.inspect.logs[0];
      assertEquals([log.episodes, log.imported, log.tool_calls, log.refused], [
        samples.length,
        scored,
        toolCalls,
        null,
      ]);
      assertEquals(read.episodes.length, scored);
      const events = read.episodes.reduce((n, e) => n + e.events.filter((v) => v.kind === "tool").length, 0);
      assertEquals(events, toolCalls, `${name}: tool events`);
      line = `${name}: ${read.episodes.length} records of ${samples.length} samples × epochs, ${toolCalls} tool calls`;
    } catch (err) {
      if (!(err instanceof Error) || err.name !== "InspectLogError") throw err;
      assertEquals(scored, 0, `${name} was refused though ${scored} samples have a "${scorer}" score: ${err.message}`);
      assert(!err.message.includes("\n"), err.message);
      assertStringIncludes(err.message, name);
      line = `${name}: refused: ${err.message}`;
    }
    console.log(`  ${line}`);
  }
});

logs.test("readInspectLogs() reads log_formats.json and log_formats.eval as the same records and events", async () => {
  const read = async (name: string) => readInspectLogs([{ name, bytes: await Deno.readFile(`${logs.root}/${name}`) }]);
  const json = await read("log_formats.json"), zip = await read("log_formats.eval");
  assertEquals(json.episodes.length, 1);
  assertEquals(
    json.episodes.map((e) => [e.record.task, e.record.success, e.events]),
    zip.episodes.map((e) => [e.record.task, e.record.success, e.events]),
  );
});

logs.test("readInspectLogs() reads the tool calls and results of log_message_deduplication.eval as its messages hold them", async () => {
  const bytes = await Deno.readFile(`${logs.root}/log_message_deduplication.eval`);
  const { samples } = rawLog(bytes);
  const messages = samples[0].messages as { role: string; content: string }[];
  const [episode] = readInspectLogs([{ name: "dedup.eval", bytes }]).episodes;
  const results = episode.events.filter((e) => e.kind === "tool").map((e) => e.result);
  assertEquals(results, messages.filter((m) => m.role === "tool").map((m) => m.content));
  assertEquals(
    episode.record.resources?.api_calls,
    (samples[0].events as { event: string }[]).filter((e) => e.event === "model").length,
  );
});

// A log made here: `messages` empty, so the transcript is the last model call's input, pooled, with
// an attachment, and its output.
function pooledSample(pool: "events_data" | "message_pool"): Raw {
  const messages = [
    { role: "system", content: "Be brief" },
    { role: "user", content: "attachment://abc123" },
    { role: "assistant", content: "", tool_calls: [{ id: "t1", function: "lookup", arguments: { q: "x" } }] },
    { role: "tool", tool_call_id: "t1", function: "lookup", content: "attachment://def456", error: null },
  ];
  return {
    id: "s1",
    epoch: 1,
    messages: [],
    scores: { match: { value: "C" } },
    events: [{
      event: "model",
      input: [],
      input_refs: [[0, 4]],
      output: { choices: [{ message: { role: "assistant", content: "Done" } }] },
    }],
    attachments: { abc123: "Please look up the order of Ada Lovelace", def456: '{"order": 17}' },
    ...(pool === "events_data" ? { events_data: { messages, calls: [] } } : { message_pool: messages }),
  };
}

Deno.test("readInspectLogs() resolves attachments and input_refs into the pooled messages", () => {
  for (const pool of ["events_data", "message_pool"] as const) {
    const log = { version: 2, status: "success", eval: { task: "t", model: "m" }, samples: [pooledSample(pool)] };
    const [episode] = readInspectLogs([{ name: "pooled.json", bytes: enc.encode(JSON.stringify(log)) }]).episodes;
    assertEquals(episode.events.map((e) => [e.kind, e.text ?? e.tool, e.result]), [
      ["message", "Please look up the order of Ada Lovelace", undefined],
      ["tool", "lookup", { order: 17 }],
      ["message", "Done", undefined],
    ], pool);
  }
});

// 3 samples × 4 epochs, success by the pattern: a CCCC, b CICI, c IIIC.
const PATTERN: Record<string, string> = { a: "CCCC", b: "CICI", c: "IIIC" };
const header = {
  version: 2,
  status: "success",
  eval: { task: "quiz", model: "test/model", scorers: [{ name: "match" }], config: { epochs: 4 } },
};
const sampleOf = (id: string, epoch: number) => ({
  id,
  epoch,
  messages: [
    { role: "user", content: `question ${id}` },
    { role: "assistant", content: "", tool_calls: [{ id: "c", function: "calc", arguments: { x: 1 } }] },
    { role: "tool", tool_call_id: "c", function: "calc", content: "2" },
    { role: "assistant", content: "answer" },
  ],
  scores: { match: { value: PATTERN[id][epoch - 1] } },
  model_usage: { "test/model": { input_tokens: 10, output_tokens: 5, total_tokens: 15 } },
});
const samples = Object.keys(PATTERN).flatMap((id) => [1, 2, 3, 4].map((epoch) => sampleOf(id, epoch)));

function evalZip(): Uint8Array {
  const files: Record<string, Uint8Array> = { "header.json": enc.encode(JSON.stringify(header)) };
  for (const s of samples) files[`samples/${s.id}_epoch_${s.epoch}.json`] = enc.encode(JSON.stringify(s));
  return zipSync(files);
}

// A zip whose members are Zstandard-packed (method 93), as inspect_ai writes .eval logs since 2026-04.
function zstdZip(files: Record<string, Uint8Array>): Uint8Array {
  const locals: Uint8Array[] = [], centrals: Uint8Array[] = [];
  let offset = 0;
  const header = (size: number, fill: (v: DataView) => void) => {
    const b = new Uint8Array(size);
    fill(new DataView(b.buffer));
    return b;
  };
  for (const [name, data] of Object.entries(files)) {
    const n = enc.encode(name), packed = new Uint8Array(zstdCompressSync(data)), crc = crc32(data);
    const common = (v: DataView, at: number) => {
      v.setUint16(at, 63, true), v.setUint16(at + 4, 93, true), v.setUint32(at + 10, crc, true);
      v.setUint32(at + 14, packed.length, true), v.setUint32(at + 18, data.length, true);
      v.setUint16(at + 22, n.length, true);
    };
    const local = header(30, (v) => (v.setUint32(0, 0x04034b50, true), common(v, 4)));
    centrals.push(
      header(
        46,
        (
          v,
        ) => (v.setUint32(0, 0x02014b50, true), v.setUint16(4, 63, true), common(v, 6), v.setUint32(42, offset, true)),
      ),
      n,
    );
    locals.push(local, n, packed);
    offset += 30 + n.length + packed.length;
  }
  const size = centrals.reduce((a, b) => a + b.length, 0);
  const end = header(22, (v) => {
    v.setUint32(0, 0x06054b50, true), v.setUint16(8, centrals.length / 2, true);
    v.setUint16(10, centrals.length / 2, true), v.setUint32(12, size, true), v.setUint32(16, offset, true);
  });
  const parts = [...locals, ...centrals, end];
  const out = new Uint8Array(parts.reduce((a, b) => a + b.length, 0));
  parts.reduce((at, p) => (out.set(p, at), at + p.length), 0);
  return out;
}

Deno.test("readInspectLogs() reads a Zstandard-packed .eval (zip method 93) as its deflate twin", () => {
  const files: Record<string, Uint8Array> = { "header.json": enc.encode(JSON.stringify(header)) };
  for (const s of samples) files[`samples/${s.id}_epoch_${s.epoch}.json`] = enc.encode(JSON.stringify(s));
  const zstd = zstdZip(files);
  assertEquals(new DataView(zstd.buffer).getUint16(8, true), 93);
  const deflated = readInspectLogs([{ name: "quiz.eval", bytes: evalZip() }]);
  const packed = readInspectLogs([{ name: "quiz.eval", bytes: zstd }]);
  assertEquals(packed.episodes.length, 12);
  assertEquals(packed.episodes.map((e) => e.record), deflated.episodes.map((e) => e.record));
});

Deno.test("runImport() of a 3 × 4-epoch log gives consistency and pass^k as worked out by hand, .eval and .json alike", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ark-inspect-" });
  try {
    await Deno.writeFile(`${dir}/quiz.eval`, evalZip());
    await Deno.writeTextFile(`${dir}/quiz.json`, JSON.stringify({ ...header, samples }));
    // By hand: p = 1, 1/2, 1/4. C_out = mean (2p − 1)² = (1 + 0 + 1/4) / 3.
    // pass^k = mean C(c, k) / C(4, k): k=1 (1 + 1/2 + 1/4)/3; k=2 (1 + 1/6 + 0)/3; k=3 and 4: 1/3.
    const expected = { C_out: 1.25 / 3, pass: [1.75 / 3, (7 / 6) / 3, 1 / 3, 1 / 3] };
    for (const file of ["quiz.eval", "quiz.json"]) {
      const out = `${dir}/out-${file}`;
      const { summary } = await runImport({ from: "inspect", file: `${dir}/${file}`, out });
      assertEquals([summary.episodes.imported, summary.inspect?.logs[0].tool_calls], [12, 12]);
      const report = JSON.parse(await Deno.readTextFile(`${out}/report.json`));
      const overall = report.agents["test/model"].overall;
      const close = (a: number, b: number) => Math.abs(a - b) < 1e-12;
      assert(close(overall.C_out, expected.C_out), `${file}: C_out ${overall.C_out}`);
      expected.pass.forEach((p, i) => assert(close(overall.pass_hat_k[String(i + 1)], p), `${file}: pass^${i + 1}`));
      const lines = (await Deno.readTextFile(`${out}/records.jsonl`)).trim().split("\n").map((l) => JSON.parse(l));
      assertEquals(lines.filter((r) => r.task === "inspect:quiz/b").map((r) => [r.run, r.success]), [
        [0, true],
        [1, false],
        [2, true],
        [3, false],
      ]);
      assertEquals(lines[0].milestones, undefined);
      assertEquals(
        report.import.inspect.null_figures.map((n: { figure: string }) => n.figure).includes(
          "safety (violations, harm)",
        ),
        true,
      );
      const html = await Deno.readTextFile(`${out}/report.html`);
      for (
        const says of [
          "<h3>inspect_ai logs</h3>",
          "Null: these figures need an ark world",
          "&quot;C&quot; × 7, &quot;I&quot; × 5",
        ]
      ) {
        assertStringIncludes(html, says);
      }
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("runImport() refuses what is not an inspect_ai log in one line", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ark-inspect-" });
  try {
    await Deno.writeTextFile(`${dir}/notes.json`, '{"hello": 1}');
    await Deno.writeFile(`${dir}/bare.eval`, zipSync({ "samples/1_epoch_1.json": enc.encode("{}") }));
    await Deno.writeFile(`${dir}/quiz.eval`, evalZip());
    await Deno.writeTextFile(`${dir}/empty.json`, JSON.stringify({ ...header, status: "cancelled", samples: [] }));
    const cases: [string, Record<string, string>, string][] = [
      ["notes.json", {}, 'without an "eval" header'],
      ["bare.eval", {}, "no header.json"],
      ["quiz.eval", { scorer: "nope" }, 'Unknown scorer "nope" in "quiz.eval": expected one of "match"'],
      ["empty.json", {}, 'holds no samples (status "cancelled"'],
    ];
    for (const [file, flags, says] of cases) {
      const err = await assertRejects(
        () => runImport({ from: "inspect", file: `${dir}/${file}`, out: `${dir}/o`, ...flags }),
        ImportError,
      );
      assertStringIncludes(err.message, says);
      assert(!err.message.includes("\n"));
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readInspectLogs() skips and names a sample whose value is an object unless a key is named", () => {
  const log = {
    ...header,
    samples: [{ ...sampleOf("a", 1), scores: { match: { value: { accuracy: 1, style: 0.5 } } } }, sampleOf("b", 1)],
  };
  const bytes = enc.encode(JSON.stringify(log));
  const read = readInspectLogs([{ name: "obj.json", bytes }]);
  assertEquals(read.episodes.length, 1);
  assertStringIncludes(read.skipped[0].reason, "name one with --score-key");
  const keyed = readInspectLogs([{ name: "obj.json", bytes }], { key: "accuracy" });
  assertEquals(keyed.skipped, []);
  assertEquals(keyed.episodes.find((e) => e.record.task === "inspect:quiz/a")?.record.success, true);
});

Deno.test("runImport() with --domain replays an inspect_ai log of ark's own episodes: rewards and tool results equal", async () => {
  const config = resolveConfig({
    agents: ["reckless"],
    domains: ["airline"],
    tasks: 5,
    runs: 2,
    suite: "tasks",
    conditions: { fault: false, env: false, prompt: false },
  });
  const sink = new MemoryResults();
  await runExperiment(config, { sink });
  const records = sink.records().filter((r) => r.condition === "nominal");
  // The episodes as inspect writes them: calls with `function` and object arguments, results by id.
  const samplesOf = records.map((r) => ({
    id: Number(r.task.split("/")[1]),
    epoch: r.run + 1,
    messages: chatTranscript(sink.events(r)).map((m) =>
      m.role === "tool"
        ? { role: "tool", tool_call_id: m.tool_call_id, function: m.name, content: m.content, error: null }
        : m.tool_calls
        ? {
          role: "assistant",
          content: "",
          tool_calls: m.tool_calls.map((c) => ({
            id: c.id,
            function: c.function.name,
            arguments: JSON.parse(c.function.arguments as string),
          })),
        }
        : m
    ),
    scores: { match: { value: r.success ? "C" : "I" } },
  }));
  const calls = records.reduce((n, r) => n + sink.events(r).filter((e) => e.kind === "tool").length, 0);
  const dir = await Deno.makeTempDir({ prefix: "ark-inspect-" });
  try {
    const log = { version: 2, status: "success", eval: { task: "airline", model: "reckless" }, samples: samplesOf };
    await Deno.writeTextFile(`${dir}/ark.json`, JSON.stringify(log));
    const { summary } = await runImport({
      from: "inspect",
      file: `${dir}/ark.json`,
      out: `${dir}/out`,
      domain: "airline",
    });
    assertEquals(summary.episodes.imported, records.length);
    assertEquals([summary.tool_results.compared, summary.tool_results.equal], [calls, calls]);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/out/report.json`));
    assertEquals(report.import.reward.equal, records.length);
    assertEquals(report.import.inspect.world, "airline");
    // The file's pass^k beside ark's: the scorer's values are ark's own grades here, so they agree.
    const pass = report.import.pass_hat_k as { k: number; tau_reward: number; ark: number }[];
    assertEquals(pass.map((p) => p.k), [1, 2]);
    for (const p of pass) assertEquals(p.tau_reward, p.ark);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("parseImportArgs() takes --scorer and --domain with --from inspect and refuses flags it does not use", () => {
  const args = parseImportArgs(["--from", "inspect", "logs/", "--out", "r", "--scorer", "match", "--domain", "retail"]);
  assert(args !== "help");
  assertEquals([args.from, args.scorer, args.domain], ["inspect", "match", "retail"]);
  for (
    const [bad, says] of [
      [["--from", "inspect", "l", "--out", "r", "--data", "d"], "Unexpected --data with --from inspect"],
      [
        ["--from", "inspect", "l", "--out", "r", "--tasks", "5"],
        "Unexpected --tasks with --from inspect without --domain",
      ],
      [["--from", "inspect", "l", "--out", "r", "--domain", "nowhere"], 'Invalid value "nowhere" for --domain'],
      [["--from", "ark", "l", "--out", "r", "--scorer", "x"], "Unexpected --scorer with --from ark"],
    ] as const
  ) assertThrows(() => parseImportArgs(bad), TypeError, says);
});

Deno.test("readInspectLogs() imports a sample its error halted before scoring as a failure with the agent's error", () => {
  const halted = {
    ...sampleOf("c", 1),
    scores: undefined,
    error: { message: "Model API\nrate limit", traceback: "..." },
  };
  const log = { ...header, samples: [sampleOf("a", 1), halted] };
  const read = readInspectLogs([{ name: "err.json", bytes: enc.encode(JSON.stringify(log)) }]);
  const record = read.episodes.find((e) => e.record.task === "inspect:quiz/c")!.record;
  assertEquals([record.success, record.agent_error], [false, "Model API rate limit"]);
  assertEquals(read.inspect.logs[0].values, [{ value: '"C"', count: 1 }, { value: "(error)", count: 1 }]);
});

Deno.test("readInspectLogs() reads a confidence the scorer recorded in its metadata, and none otherwise", () => {
  const sure = { ...sampleOf("a", 1), scores: { match: { value: "C", metadata: { confidence: 0.75 } } } };
  const log = { ...header, samples: [sure, sampleOf("b", 1)] };
  const read = readInspectLogs([{ name: "conf.json", bytes: enc.encode(JSON.stringify(log)) }]);
  assertEquals(read.episodes.map((e) => e.record.confidence), [0.75, null]);
});

Deno.test("readInspectLogs() reads chunked samples (shell, message sequence, attachments by index) as monolith ones", () => {
  const files: Record<string, Uint8Array> = { "header.json": enc.encode(JSON.stringify(header)) };
  for (const s of samples) {
    const { messages, ...shell } = s;
    const at = `samples/${s.id}_epoch_${s.epoch}`;
    // Split in two chunks, the user's question as attachment 0.
    const pooled = messages.map((m, i) => i === 0 ? { ...m, content: "attachment://0" } : m);
    files[`${at}/sample.json`] = enc.encode(JSON.stringify({ ...shell, message_refs: [[0, messages.length]] }));
    files[`${at}/messages/0.json`] = enc.encode(JSON.stringify(pooled.slice(0, 2)));
    files[`${at}/messages/2.json`] = enc.encode(JSON.stringify(pooled.slice(2)));
    files[`${at}/events/0.json`] = enc.encode("[]");
    files[`${at}/attachments/0.json`] = enc.encode(JSON.stringify([messages[0].content]));
  }
  const chunked = readInspectLogs([{ name: "chunked.eval", bytes: zipSync(files) }]);
  const monolith = readInspectLogs([{ name: "quiz.eval", bytes: evalZip() }]);
  const show = (r: typeof chunked) =>
    r.episodes.map((e) => [e.record.task, e.record.run, e.record.success, e.events]).sort((a, b) =>
      JSON.stringify(a) < JSON.stringify(b) ? -1 : 1
    );
  assertEquals(chunked.episodes.length, 12);
  assertEquals(show(chunked), show(monolith));
  assertEquals(chunked.episodes[0].events[0].text?.startsWith("question "), true);
});

Deno.test("readInspectLogs() reads .eval samples whose ids hold a slash (inspect names their members unescaped)", () => {
  const files: Record<string, Uint8Array> = { "header.json": enc.encode(JSON.stringify(header)) };
  for (const s of samples) {
    const id = `set/${s.id}`;
    files[`samples/${id}_epoch_${s.epoch}.json`] = enc.encode(JSON.stringify({ ...s, id }));
  }
  const read = readInspectLogs([{ name: "slash.eval", bytes: zipSync(files) }]);
  assertEquals(read.episodes.length, 12);
  assertEquals(read.episodes.filter((e) => e.record.task === "inspect:quiz/set/b").length, 4);
});

Deno.test("deno task import --from inspect exits 1 when a log of the folder is refused, the others imported", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ark-inspect-" });
  const { log, error } = console, err: string[] = [];
  try {
    await Deno.mkdir(`${dir}/logs`);
    await Deno.writeTextFile(`${dir}/logs/quiz.json`, JSON.stringify({ ...header, samples }));
    await Deno.writeFile(`${dir}/logs/bare.eval`, zipSync({ "samples/1_epoch_1.json": enc.encode("{}") }));
    console.log = () => {};
    console.error = (...a: unknown[]) => err.push(a.join(" "));
    const code = await main(["--from", "inspect", `${dir}/logs`, "--out", `${dir}/out`]);
    console.log = log, console.error = error;
    assertEquals(code, 1, err.join("\n"));
    assertStringIncludes(err.join("\n"), "1 logs were refused");
    assertEquals((await Deno.readTextFile(`${dir}/out/records.jsonl`)).trim().split("\n").length, 12);
  } finally {
    console.log = log, console.error = error;
    await Deno.remove(dir, { recursive: true });
  }
});

// A model event with its usage and its conversation (input, then the output's message).
const modelEvent = (span: string, tokens: number, said: string) => ({
  event: "model",
  span_id: span,
  input: [{ role: "user", content: "What is 2 + 2?" }],
  output: {
    choices: [{ message: { role: "assistant", content: said } }],
    usage: { input_tokens: tokens - 1, output_tokens: 1, total_tokens: tokens },
  },
});

Deno.test("readInspectLogs() leaves the scorer's own model calls out of the agent's calls, tokens and transcript", () => {
  const graded = {
    ...sampleOf("a", 1),
    messages: [],
    model_usage: { "test/model": { input_tokens: 600, output_tokens: 29, total_tokens: 629 } },
    events: [
      { event: "span_begin", id: "s1", type: "solver", name: "generate" },
      modelEvent("s1", 78, "4"),
      { event: "span_end", id: "s1" },
      { event: "span_begin", id: "g", type: "scorer", name: "model_graded_fact" },
      { event: "span_begin", id: "g2", parent_id: "g", type: "custom", name: "inner" },
      modelEvent("g2", 551, "GRADE: C"),
      { event: "span_end", id: "g2" },
      { event: "span_end", id: "g" },
    ],
  };
  const read = readInspectLogs([{
    name: "graded.json",
    bytes: enc.encode(JSON.stringify({ ...header, samples: [graded] })),
  }]);
  const [episode] = read.episodes;
  assertEquals([episode.record.resources?.api_calls, episode.record.resources?.tokens], [1, 78]);
  assertEquals(episode.messages.at(-1), { role: "assistant", content: "4" });
});

logs.test("readInspectLogs() counts security-guide's first sample as the agent's one call of 78 tokens (not the grader's)", async () => {
  const name = "2025-05-12T20-28-26-04-00_security-guide.json";
  const read = readInspectLogs([{ name, bytes: await Deno.readFile(`${logs.root}/${name}`) }]);
  const first = read.episodes.find((e) => e.record.run === 0)!;
  assertEquals([first.record.resources?.api_calls, first.record.resources?.tokens], [1, 78]);
});

Deno.test("readInspectLogs() reads an older log's single score under its results' scorer name, as inspect does", () => {
  const old = {
    ...header,
    eval: { task: "quiz", model: "test/model" },
    results: { scores: [{ name: "match" }] },
    samples: samples.map(({ scores, ...s }) => ({ ...s, score: scores.match })),
  };
  const read = readInspectLogs([{ name: "old.json", bytes: enc.encode(JSON.stringify(old)) }]);
  assertEquals([read.inspect.logs[0].scorer, read.episodes.length], ["match", 12]);
  assertEquals(read.episodes.filter((e) => e.record.success).length, 7);
});

Deno.test("readInspectLogs() keeps what the agent said beside its tool calls, before the calls", () => {
  const s = sampleOf("a", 1);
  s.messages[1] = { ...s.messages[1], content: "Let me compute." };
  const read = readInspectLogs([{ name: "said.json", bytes: enc.encode(JSON.stringify({ ...header, samples: [s] })) }]);
  const [episode] = read.episodes;
  assertEquals(episode.events.map((e) => [e.step, e.actor, e.text ?? e.tool]), [
    [0, "user", "question a"],
    [1, "agent", "Let me compute."],
    [1, "tool", "calc"],
    [2, "agent", "answer"],
  ]);
  assertEquals(episode.record.resources?.api_calls, 2);
});

Deno.test("runImport() with --domain gives a sample its error halted before scoring no file reward", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ark-inspect-" });
  try {
    const halted = { id: 1, epoch: 1, messages: [{ role: "user", content: "hi" }], error: { message: "boom" } };
    const scored = { id: 2, epoch: 1, messages: [{ role: "user", content: "hi" }], scores: { match: { value: "I" } } };
    const log = { version: 2, status: "error", eval: { task: "airline", model: "m", scorers: [{ name: "match" }] } };
    await Deno.writeTextFile(`${dir}/e.json`, JSON.stringify({ ...log, samples: [halted, scored] }));
    await runImport({ from: "inspect", file: `${dir}/e.json`, out: `${dir}/out`, domain: "airline" });
    const lines = (await Deno.readTextFile(`${dir}/out/records.jsonl`)).trim().split("\n").map((l) => JSON.parse(l));
    const reward = (task: string) => lines.find((r) => r.task === task)?.tau_reward;
    assertEquals([reward("airline/1"), reward("airline/2")], [undefined, 0]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("deno task import of a one-epoch log measures no consistency (null, with the reason) and prints accuracy", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ark-inspect-" });
  const { log, error } = console, out: string[] = [];
  try {
    const wrong = samples.filter((s) => s.epoch === 1).map((s) => ({ ...s, scores: { match: { value: "I" } } }));
    await Deno.writeTextFile(`${dir}/one.json`, JSON.stringify({ ...header, samples: wrong }));
    console.log = (...a: unknown[]) => out.push(a.join(" "));
    console.error = () => {};
    const code = await main(["--from", "inspect", `${dir}/one.json`, "--out", `${dir}/out`]);
    console.log = log, console.error = error;
    assertEquals(code, 0);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/out/report.json`));
    const overall = report.agents["test/model"].overall;
    const why = "one run per task: consistency needs at least two";
    assertEquals([overall.C_out, overall.R_con, overall.R, overall.reasons.C_out], [null, null, null, why]);
    assertEquals(report.import.inspect.null_figures.at(-1), {
      figure: "consistency (C_out, R_con) of test/model",
      reason: why,
    });
    assertStringIncludes(out.join("\n"), "Accuracy (pass^1): test/model 0.000");
  } finally {
    console.log = log, console.error = error;
    await Deno.remove(dir, { recursive: true });
  }
});
