// End to end: `deno task eval` killed, stopped by a signal and replayed from a results folder.
import { assert, assertEquals, assertGreater, assertLess, assertMatch, assertStringIncludes } from "@std/assert";
import { type RecordedRequest, startFakeProvider } from "./fixtures/fake_provider.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const EVAL = new URL("../cli/eval.ts", import.meta.url).pathname;
const SCORE = new URL("../cli/score.ts", import.meta.url).pathname;
// Big enough to be stopped mid-run (400 episodes, a few seconds); every flag names its domain and suite.
const LONG = ["--domains", "airline", "--suite", "tasks", "--tasks", "10", "--runs", "3", "--agents", "oracle,noisy"];
const LONG_TOTAL = 2 * 10 * (3 + 3 + 3 * 3 + 5);
const SMALL = [
  "--domains",
  "airline",
  "--suite",
  "tasks",
  "--tasks",
  "3",
  "--runs",
  "2",
  "--conditions",
  "nominal,fault",
];

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

function command(script: string, args: string[]): Deno.Command {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", script, ...args],
    cwd: ROOT,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    // The child never sees the developer's own keys or endpoints.
    env: { NO_COLOR: "1", OPENAI_API_KEY: "", ANTHROPIC_API_KEY: "", OPENAI_BASE_URL: "", ANTHROPIC_BASE_URL: "" },
  });
}

async function outcome(child: Deno.ChildProcess): Promise<Outcome> {
  const { code, stdout, stderr } = await child.output();
  const text = new TextDecoder();
  return { code, stdout: text.decode(stdout), stderr: text.decode(stderr) };
}

const cli = (script: string, args: string[]) => outcome(command(script, args).spawn());

function lineCount(path: string): number {
  try {
    return Deno.readTextFileSync(path).split("\n").length - 1;
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return 0;
    throw err;
  }
}

// Starts an eval and sends `signal` once records.jsonl has `lines` whole lines.
async function interrupted(args: string[], signal: Deno.Signal, lines = 5): Promise<Outcome> {
  const out = args[args.indexOf("--out") + 1];
  const child = command(EVAL, args).spawn();
  let ended = false;
  const result = outcome(child).finally(() => ended = true);
  while (!ended && lineCount(`${out}/records.jsonl`) < lines) await new Promise((r) => setTimeout(r, 10));
  assert(!ended, "the run ended before the signal: make it bigger");
  child.kill(signal);
  return await result;
}

// Every line of a records file is a whole JSON record, and the file ends with a newline.
function wholeLines(path: string): string[] {
  const text = Deno.readTextFileSync(path);
  assert(text.endsWith("\n"), "the file ends with a whole line");
  const lines = text.split("\n").slice(0, -1);
  for (const line of lines) assertEquals(typeof JSON.parse(line).agent, "string");
  return lines;
}

Deno.test("eval killed with SIGKILL leaves a records.jsonl of whole lines that score reads, and resumes", async () => {
  const dir = await Deno.makeTempDir();
  const [killed, whole] = await Promise.all([
    interrupted([...LONG, "--out", `${dir}/killed`], "SIGKILL"),
    cli(EVAL, [...LONG, "--out", `${dir}/whole`]),
  ]);
  assertEquals(whole.code, 0, whole.stderr);
  assertEquals(killed.code, 137);
  const kept = wholeLines(`${dir}/killed/records.jsonl`);
  assertGreater(kept.length, 4);
  assertLess(kept.length, LONG_TOTAL, "killed mid-run");
  const score = await cli(SCORE, ["--records", `${dir}/killed/records.jsonl`, "--json"]);
  assertEquals(score.code, 0, score.stderr);
  assertEquals(typeof JSON.parse(score.stdout), "object");

  const resumed = await cli(EVAL, [...LONG, "--out", `${dir}/killed`]);
  assertEquals(resumed.code, 0, resumed.stderr);
  assertStringIncludes(resumed.stdout, "resumed");
  assertEquals(
    Deno.readTextFileSync(`${dir}/killed/records.jsonl`),
    Deno.readTextFileSync(`${dir}/whole/records.jsonl`),
  );
  await Deno.remove(dir, { recursive: true });
});

Deno.test("eval on SIGINT or SIGTERM keeps what finished, says so in one line, exits 130 and resumes", async () => {
  const dir = await Deno.makeTempDir();
  const [int, term, whole] = await Promise.all([
    interrupted([...LONG, "--out", `${dir}/int`], "SIGINT"),
    interrupted([...LONG, "--out", `${dir}/term`], "SIGTERM"),
    cli(EVAL, [...LONG, "--out", `${dir}/whole`]),
  ]);
  assertEquals(whole.code, 0, whole.stderr);
  const expected = Deno.readTextFileSync(`${dir}/whole/records.jsonl`).split("\n").slice(0, -1);
  for (const [name, stopped] of [["int", int], ["term", term]] as const) {
    assertEquals(stopped.code, 130, stopped.stderr);
    const line = stopped.stderr.trimEnd().split("\n").at(-1)!;
    const match = line.match(/^Stopped: (\d+) of (\d+) episodes kept in (.+); run the same command again to resume$/);
    assert(match !== null, stopped.stderr);
    assertEquals([match[2], match[3]], [String(LONG_TOTAL), `${dir}/${name}`]);
    const kept = wholeLines(`${dir}/${name}/records.jsonl`);
    assertEquals(kept.length, Number(match[1]));
    assertLess(kept.length, LONG_TOTAL);
    // Canonical order, each line as an uninterrupted run writes it, and the reports of what finished.
    assertEquals(kept, expected.filter((l) => kept.includes(l)));
    assertEquals(JSON.parse(Deno.readTextFileSync(`${dir}/${name}/report.json`)) !== null, true);
    const resumed = await cli(EVAL, [...LONG, "--out", `${dir}/${name}`]);
    assertEquals(resumed.code, 0, resumed.stderr);
    assertEquals(Deno.readTextFileSync(`${dir}/${name}/records.jsonl`), expected.join("\n") + "\n");
  }
  await Deno.remove(dir, { recursive: true });
});

Deno.test("eval --replay DIR --out NEW alone runs DIR's scripted experiment again, byte for byte", async () => {
  const dir = await Deno.makeTempDir();
  const first = await cli(EVAL, [...SMALL, "--seed", "4", "--out", `${dir}/first`]);
  assertEquals(first.code, 0, first.stderr);
  const [again, refused, config] = await Promise.all([
    cli(EVAL, ["--replay", `${dir}/first`, "--out", `${dir}/again`]),
    cli(EVAL, ["--replay", `${dir}/first`, "--out", `${dir}/refused`, "--tasks", "4"]),
    cli(EVAL, ["--replay", `${dir}/first`, "--config", `${dir}/x.json`]),
  ]);
  assertEquals(again.code, 0, again.stderr);
  for (const file of ["records.jsonl", "report.json", "report.html"]) {
    assertEquals(Deno.readTextFileSync(`${dir}/again/${file}`), Deno.readTextFileSync(`${dir}/first/${file}`), file);
  }
  assertEquals([refused.code, refused.stderr.trimEnd().split("\n").length], [2, 1], refused.stderr);
  assertMatch(refused.stderr, /^Cannot use --tasks with --replay ".*": it would change the experiment stored there/);
  assertEquals(lineCount(`${dir}/refused/records.jsonl`), 0, "nothing ran");
  assertEquals(config.code, 2, config.stderr);
  assertStringIncludes(config.stderr, "Cannot use --config with --replay");
  await Deno.remove(dir, { recursive: true });
});

// A model that says it is done at once, and 90% sure when asked.
function script(request: RecordedRequest) {
  const asked = JSON.stringify(request.body).includes("How confident");
  return { text: asked ? "90" : "Done.", usage: { inputTokens: 100, outputTokens: 20 } };
}

Deno.test("eval --replay DIR --out NEW alone replays a model run byte for byte with the server gone", async () => {
  const dir = await Deno.makeTempDir();
  const prices = `${dir}/prices.json`;
  await Deno.writeTextFile(prices, JSON.stringify({ "openai:fake-model": { input: 1, output: 2 } }));
  const provider = startFakeProvider(script);
  const model = ["--agents", "openai:fake-model", "--base-url", provider.openaiBaseUrl, "--prices", prices];
  const [live, small] = await Promise.all([
    cli(EVAL, [...model, ...SMALL, "--max-steps", "4", "--out", `${dir}/live`]),
    cli(EVAL, [
      ...model,
      ...SMALL.with(SMALL.indexOf("--tasks") + 1, "2"),
      "--max-steps",
      "4",
      "--out",
      `${dir}/small`,
    ]),
  ]);
  await provider.close();
  assertEquals([live.code, small.code], [0, 0], live.stderr + small.stderr);
  const calls = provider.requests.filter((r) => r.method === "POST").length;

  const replay = await cli(EVAL, ["--replay", `${dir}/live`, "--out", `${dir}/replay`]);
  assertEquals(replay.code, 0, replay.stderr);
  assertEquals(
    Deno.readTextFileSync(`${dir}/replay/records.jsonl`),
    Deno.readTextFileSync(`${dir}/live/records.jsonl`),
  );
  assertEquals(provider.requests.filter((r) => r.method === "POST").length, calls, "no endpoint contacted");

  // The stored experiment of the 3-task run beside the cache of the 2-task one: a miss names the request.
  await Deno.mkdir(`${dir}/mixed`);
  await Deno.copyFile(`${dir}/live/results.sqlite`, `${dir}/mixed/results.sqlite`);
  await Deno.copyFile(`${dir}/small/model_cache.sqlite`, `${dir}/mixed/model_cache.sqlite`);
  const miss = await cli(EVAL, ["--replay", `${dir}/mixed`, "--out", `${dir}/miss`]);
  assertEquals([miss.code, miss.stderr.trimEnd().split("\n").length], [1, 1], miss.stderr);
  assertMatch(
    miss.stderr,
    /^Cannot run "openai:fake-model" on airline\/2 run \d: No cached answer for model "fake-model"/,
  );
  assertMatch(miss.stderr, /key "[0-9a-f]{12}…"/);
  await Deno.remove(dir, { recursive: true });
});
