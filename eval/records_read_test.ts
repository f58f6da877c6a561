import { assert, assertEquals } from "@std/assert";
import { EpisodeRecordSchema } from "../scoring/mod.ts";
import { readRecords, repeatedLists } from "./records_read.ts";
import { cellKey } from "./cell.ts";
import { splitDuplicates } from "./records.ts";

const record = (run: number, extra: Record<string, unknown> = {}) => ({
  agent: "agent-é",
  task: "airline/1",
  run,
  condition: "nominal",
  success: run % 2 === 0,
  actions: ["get_user_details", "cancel_reservation"],
  milestone_labels: ["cancel", "tell"],
  ...extra,
});

// The text cut into pieces of `size` bytes, so lines and characters fall across pieces.
function pieces(text: string, size: number): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.slice(i, i + size));
  return ReadableStream.from(out);
}

Deno.test("readRecords() reads lines cut anywhere between chunks, CRLF, blank lines and a last line without newline", async () => {
  const lines = [record(0), record(1, { resources: { time: 2.5 } }), record(2)].map((r) => JSON.stringify(r));
  const text = `${lines[0]}\r\n\n${lines[1]}\n   \n${lines[2]}`;
  for (const size of [1, 2, 3, 7, 64, 1 << 20]) {
    const { records, bad } = await readRecords(pieces(text, size));
    assertEquals(bad, []);
    assertEquals<unknown>(
      records,
      [record(0), record(1, { resources: { time: 2.5 } }), record(2)],
      `pieces of ${size}`,
    );
  }
});

Deno.test("readRecords() numbers bad lines as the file does, blank lines counted, and names the field", async () => {
  const text = [JSON.stringify(record(0)), "", "{not json", JSON.stringify(record(1, { run: -1 })), "[1]"].join("\n");
  const { records, bad } = await readRecords(pieces(text, 5));
  assertEquals(records.length, 1);
  assertEquals(bad.map((b) => b.line), [3, 4, 5]);
  assert(bad[0].problem.startsWith("not JSON"), bad[0].problem);
  assertEquals(bad[1].problem, '"run": Too small: expected number to be >=0');
  assertEquals(bad[2].problem, "the record: Invalid input: expected object, received array");
});

Deno.test("readRecords() reads a file as its byte stream in large chunks, the same records as zod parses", async () => {
  const rows = Array.from({ length: 3000 }, (_, i) =>
    record(i, {
      task: `retail/${i % 7}`,
      variant: i % 3 === 0 ? null : `fault-${i % 3}`,
      condition: i % 3 === 0 ? "nominal" : "fault",
      violations: i % 5 === 0 ? [{ constraint: "c", severity: "low", step: 2, unknown: true }] : [],
      milestones: { total: 2, reached: i % 3 },
    }));
  const path = await Deno.makeTempFile({ suffix: ".jsonl" });
  try {
    await Deno.writeTextFile(path, rows.map((r) => JSON.stringify(r) + "\n").join(""));
    using file = await Deno.open(path);
    const { records, bad } = await readRecords(file.readable);
    assertEquals(bad, []);
    assertEquals(records, rows.map((r) => EpisodeRecordSchema.parse(r)));
    // Equal names, lists and counts are one value, shared; so are empty violation lists.
    assert(records[0].actions === records[2999].actions && records[0].agent === records[1].agent);
    assert(records[0].milestones === records[3].milestones && records[1].violations === records[2].violations);
    assert(records[0].milestones !== records[1].milestones);
  } finally {
    await Deno.remove(path);
  }
});

Deno.test("readRecords() counts a line too long once, skips its end, and reads the next line", async () => {
  const text = [JSON.stringify(record(0)), "x".repeat(1024 * 1024 + 10), JSON.stringify(record(1))].join("\n");
  for (const size of [1000, 1 << 20]) {
    const { records, bad } = await readRecords(pieces(text, size));
    assertEquals(bad, [{ line: 2, problem: "longer than 1048576 characters" }]);
    assertEquals(records.map((r) => r.run), [0, 1]);
  }
});

Deno.test("splitDuplicates() keeps the first record of each cell, in order, hashes that meet included", () => {
  const rows = Array.from({ length: 1200 }, (_, i) => ({
    agent: `a${i % 3}`,
    task: `t/${i % 7}`,
    run: i % 5,
    condition: (["nominal", "fault"] as const)[i % 2],
    variant: [null, undefined, "", "v"][i % 4],
    success: i % 3 === 0,
  }));
  // The split by a set of whole keys.
  const seen = new Set<string>(), expected = { kept: [] as typeof rows, dropped: [] as typeof rows };
  for (const r of rows) {
    const key = cellKey({ ...r, variant: r.variant ?? null });
    (seen.has(key) ? expected.dropped : expected.kept).push(r);
    seen.add(key);
  }
  assert(expected.dropped.length > 300 && expected.kept.length > 50, `${expected.kept.length} kept`);
  // A hash of few values makes most keys meet another; a hash of one value makes all of them.
  for (const hash of [undefined, (key: string) => key.length % 3, () => 0]) {
    const { kept, dropped } = splitDuplicates(rows, { hash });
    assert(kept.every((r, i) => r === expected.kept[i]) && kept.length === expected.kept.length);
    assert(dropped.every((r, i) => r === expected.dropped[i]) && dropped.length === expected.dropped.length);
  }
});

Deno.test("repeatedLists() parses every line as JSON.parse() does, lists cut out or not", () => {
  const labels = ["a", "b]", 'c"'];
  const line = (o: unknown) => JSON.stringify(o);
  const lines = [
    line({ task: "t/1", milestone_labels: labels, run: 0 }),
    line({ task: "t/1", milestone_labels: labels, run: 1 }), // cut
    line({ task: "t/1", milestone_labels: ["a"], run: 2 }), // another list
    line({ task: "t/1", milestone_labels: ["a"], milestone_tools: ["x"] }),
    '{"milestone_labels":["a"],"milestone_labels":0}', // the last key wins
    '{"milestone_labels":["a"],"milestone_labels":["b"]}',
    line({ nested: { milestone_labels: ["a"] } }), // not the record's own
    line({ nested: { milestone_labels: ["a"] }, milestone_labels: 0 }),
    line({ milestone_labels: ["a"], milestone_tools: [{ milestone_labels: ["a"] }] }),
    line({ milestone_tools: [{ milestone_labels: ["a"] }], milestone_labels: ["a"] }),
    '{ "milestone_labels": ["a"] }', // not as JSON.stringify() writes it
    line([{ milestone_labels: ["a"] }]),
    line({ milestone_labels: ["a"], run: 3 }),
  ];
  const parse = repeatedLists();
  for (const text of lines) assertEquals(parse(text), JSON.parse(text), text);
  // A line that does not parse once cut is parsed whole, for its own error.
  const broken = '{"milestone_labels":["a"],"run":}';
  let message = "";
  try {
    JSON.parse(broken);
  } catch (err) {
    message = (err as Error).message;
  }
  let got = "";
  try {
    parse(broken);
  } catch (err) {
    got = (err as Error).message;
  }
  assertEquals([got !== "", got], [true, message]);
});

Deno.test("repeatedLists() shares a list a line repeats with the line it repeats", () => {
  const parse = repeatedLists();
  const a = parse('{"milestone_labels":["x","y"],"run":0}') as { milestone_labels: string[] };
  const b = parse('{"milestone_labels":["x","y"],"run":1}') as { milestone_labels: string[] };
  assert(a.milestone_labels === b.milestone_labels);
});
