// `deno task import --from ark`: another harness's transcripts (here ark's own runs, written as chat
// transcripts) replayed in ark's worlds give the records ark gave them; bad lines are named and
// skipped while the rest are imported; the README's example imports as it says.
import { assert, assertEquals, assertStringIncludes } from "@std/assert";
import { domains } from "../envs/mod.ts";
import { MemoryResults, resolveConfig, runExperiment } from "../eval/mod.ts";
import { runImport } from "../interop/mod.ts";
import { main } from "../cli/import.ts";
import { chatTranscript } from "./fixtures/chat_export.ts";

const readRecords = async (dir: string) =>
  (await Deno.readTextFile(`${dir}/records.jsonl`)).trim().split("\n").filter((l) => l !== "").map((l) =>
    JSON.parse(l)
  );

// Runs `main` with console output captured.
async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [], err: string[] = [];
  const { log, error } = console;
  console.log = (...a: unknown[]) => out.push(a.join(" "));
  console.error = (...a: unknown[]) => err.push(a.join(" "));
  try {
    return { code: await main(args), out: out.join("\n"), err: err.join("\n") };
  } finally {
    console.log = log;
    console.error = error;
  }
}

// A small ark experiment of every scripted agent, its episodes written as chat transcripts.
async function arkTranscripts(): Promise<{ records: ReturnType<MemoryResults["records"]>; lines: string[] }> {
  const config = resolveConfig({
    suite: "tasks",
    domains: ["airline"],
    tasks: 12,
    runs: 1,
    agents: ["oracle", "noisy", "reckless", "literal"],
    conditions: { fault: false, env: false, prompt: false },
  });
  const sink = new MemoryResults();
  await runExperiment(config, { sink });
  const records = sink.records();
  const lines = records.map((r) =>
    JSON.stringify({ agent: r.agent, task: r.task, run: r.run, messages: chatTranscript(sink.events(r)) })
  );
  return { records, lines };
}

Deno.test("ark's own runs imported as chat transcripts get back their grades, milestones and violations", async () => {
  const { records, lines } = await arkTranscripts();
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/runs.jsonl`, lines.join("\n") + "\n");
  const { summary } = await runImport({ from: "ark", file: `${dir}/runs.jsonl`, out: `${dir}/out` });
  assertEquals(summary.episodes, { read: records.length, imported: records.length, skipped: 0 });
  // Every tool result the transcripts recorded is the one the world gives again.
  assert(summary.tool_results.compared > 0);
  assertEquals(summary.tool_results.exact, summary.tool_results.compared);
  const back = new Map((await readRecords(`${dir}/out`)).map((r) => [`${r.agent} ${r.task} ${r.run}`, r]));
  const verdict = (r: { violations?: { constraint: string; severity: string }[] }) =>
    (r.violations ?? []).map((v) => `${v.constraint} ${v.severity}`).sort();
  const differ: string[] = [];
  for (const r of records) {
    const b = back.get(`${r.agent} ${r.task} ${r.run}`);
    const same = b !== undefined && b.success === r.success &&
      JSON.stringify(b.actions) === JSON.stringify(r.actions) &&
      JSON.stringify(b.milestones) === JSON.stringify(r.milestones) &&
      JSON.stringify(verdict(b)) === JSON.stringify(verdict(r));
    if (!same) differ.push(`${r.agent} ${r.task}`);
  }
  assertEquals(differ, []);
  // The runs are not all alike: some failed and some broke rules, so the comparison could have failed.
  assert(records.some((r) => !r.success) && records.some((r) => (r.violations?.length ?? 0) > 0));
  // A transcript has no simulated time: none is invented.
  assert([...back.values()].every((r) => r.resources.time === undefined && r.confidence === null));
  // The report says what the import did: no rewards in the file, every tool result reproduced.
  const report = JSON.parse(await Deno.readTextFile(`${dir}/out/report.json`));
  assertEquals([report.import.from, report.import.reward, report.import.tool_results.share], ["ark", null, 1]);
  const html = await Deno.readTextFile(`${dir}/out/report.html`);
  assertStringIncludes(html, '<section id="import"><h2>Import</h2>');
  assertStringIncludes(
    html,
    `${records.length} of ${records.length} episodes imported from runs.jsonl (ark transcripts)`,
  );
});

Deno.test("deno task import names each bad episode, imports the rest and exits 1 with the count", async () => {
  const { lines } = await arkTranscripts();
  const good = JSON.parse(lines[0]);
  const call = (name: string, args: string) => ({
    role: "assistant",
    content: null,
    tool_calls: [{ id: "c1", function: { name, arguments: args } }],
  });
  const bad = [
    JSON.stringify({ ...good, run: 1, messages: [{ role: "user", content: "Hi" }, call("teleport", "{}")] }),
    JSON.stringify({ ...good, run: 2, messages: [call("get_user_details", '{"user_id": ')] }),
    JSON.stringify({ ...good, run: 3, task: "airline/50" }),
    "{not json",
    JSON.stringify({ ...good, run: 4, messages: "hello" }),
    JSON.stringify({ ...good, run: 5, task: "bakery/1" }),
  ];
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/runs.jsonl`, [lines[0], ...bad, lines[1]].join("\n") + "\n");
  const { code, out, err } = await cli(["--from", "ark", `${dir}/runs.jsonl`, "--out", `${dir}/out`]);
  assertEquals(code, 1);
  assertStringIncludes(err, "6 episodes were skipped");
  assertStringIncludes(out, 'line 2: message 2 calls tool "teleport", which the airline world does not have');
  assertStringIncludes(out, 'line 3: message 1: the arguments of "get_user_details" are not JSON');
  assertStringIncludes(out, 'line 4: task "airline/50" is not one of the 50 tasks');
  assertStringIncludes(out, "line 5: not JSON");
  assertStringIncludes(out, "line 6: messages:");
  assertStringIncludes(
    out,
    `line 7: task "bakery/1": no such domain (expected one of ${Object.keys(domains).join(", ")})`,
  );
  // The good episodes around them are imported.
  assertEquals((await readRecords(`${dir}/out`)).length, 2);
});

Deno.test("deno task import refuses a file that is not τ-bench's results array, and bad flags", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/runs.json`, '{"task_id": 0}');
  const notArray = await cli(["--from", "tau-bench", `${dir}/runs.json`, "--out", `${dir}/out`]);
  assertEquals(notArray.code, 1);
  assertStringIncludes(notArray.err, "it is JSON but not an array; expected τ-bench's results array");
  const missing = await cli(["--from", "tau-bench", `${dir}/nothing.json`, "--out", `${dir}/out`]);
  assertEquals([missing.code, missing.err], [1, `Cannot import "${dir}/nothing.json": no such file or folder`]);
  assertEquals((await cli(["--from", "langsmith", "x.json", "--out", dir])).code, 2);
  assertEquals(
    (await cli(["--from", "ark", "x.jsonl"])).err,
    "Missing --out: the results folder to write, e.g. --out results/gpt-4o",
  );
  assertEquals((await cli(["--from", "ark", "x.jsonl", "--agent", "a", "--out", dir])).code, 2);
});

Deno.test("the README's example transcript imports: one episode, graded and judged", async () => {
  const readme = await Deno.readTextFile(new URL("../README.md", import.meta.url));
  const section = readme.slice(readme.indexOf("## Importing runs"));
  const example = /```jsonl\n([\s\S]*?)```/.exec(section)?.[1];
  assert(example !== undefined, "the README's import section has a ```jsonl example");
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/example.jsonl`, example);
  const { summary } = await runImport({ from: "ark", file: `${dir}/example.jsonl`, out: `${dir}/out` });
  assertEquals(summary.episodes, { read: 1, imported: 1, skipped: 0 });
  const [record] = await readRecords(`${dir}/out`);
  assertEquals([record.agent, record.task, record.success, record.violations], ["my-agent", "airline/1", true, []]);
});
