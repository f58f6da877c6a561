// Remote agents end to end: `--agents http://…` through the runner and the CLI, with a fake agent
// server and with the Python example agent (examples/remote_agent.py) when python3 exists.
import { assert, assertEquals, assertMatch, assertRejects, assertStringIncludes } from "@std/assert";
import { MemoryResults, resolveConfig, runExperiment } from "../eval/mod.ts";
import { ModelError } from "../agents/model/mod.ts";
import { hasPython, ignoreWithout, requireTool } from "./fixtures/ci.ts";

const ROOT = new URL("..", import.meta.url).pathname;

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

const python = hasPython();

async function deno(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = await new Deno.Command(Deno.execPath(), { args, cwd: ROOT, stdout: "piped", stderr: "piped" }).output();
  const text = new TextDecoder();
  return { code: out.code, stdout: text.decode(out.stdout), stderr: text.decode(out.stderr) };
}

// Starts an example agent and waits for its one "listening" line.
async function startExample(
  port: number,
  script = "remote_agent.py",
): Promise<{ child: Deno.ChildProcess; lines: ReadableStreamDefaultReader<string>; url: string }> {
  const child = new Deno.Command("python3", {
    args: [`${ROOT}examples/${script}`, "--port", String(port)],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  while (!seen.includes("\n")) {
    const { value, done } = await lines.read();
    if (done) break;
    seen += value;
  }
  return { child, lines, url: /listening on (\S+)/.exec(seen)?.[1] ?? `no listening line in "${seen}"` };
}

Deno.test("an experiment names a remote agent by its URL under a path-safe experiment name", () => {
  const url = "http://127.0.0.1:8765/agent?team=a&b=c";
  const config = resolveConfig({ agents: [url] });
  assertEquals(config.agents, [url]);
  assertMatch(config.experiment, /^[A-Za-z0-9_.+-]+$/);
  assertEquals(config.out, `results/${config.experiment}`);
  assert(config.experiment !== resolveConfig({ agents: ["http://127.0.0.1:8766/agent"] }).experiment);
});

Deno.test("runExperiment() records a malformed remote action as the agent's error and stops when the server is gone", async () => {
  const actions = [{ type: "message", text: "Hello" }, { type: "end", confidence: "high" }];
  let steps = 0;
  await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    const body = await request.json();
    return Response.json(body.type === "step" ? actions[steps++ % 2] : {});
  });
  const url = `http://127.0.0.1:${server.addr.port}/agent`;
  const sink = new MemoryResults();
  const config = { agents: [url], domains: ["airline"], suite: "tasks" as const, tasks: 1, runs: 1 };
  await runExperiment(resolveConfig({ ...config, conditions: { env: false, prompt: false, fault: false } }), { sink });
  const [record] = sink.records();
  assertEquals([record.agent, record.success], [url, false]);
  assertEquals(
    record.agent_error,
    `Agent server "${url}" gave a malformed answer to "step" at step 1: "confidence": Invalid input: expected number, received string`,
  );

  const down = `http://127.0.0.1:${freePort()}/agent`;
  const err = await assertRejects(
    () => runExperiment(resolveConfig({ ...config, agents: [down] }), { sink: new MemoryResults() }),
    ModelError,
  );
  assertEquals(err.code, "unreachable");
  assertStringIncludes(err.message, `Cannot reach agent server "${down}" on airline/0 run 0: connection refused`);
});

Deno.test({
  name: "deno task eval --agents URL runs the Python example agent, scores its records, resumes and repeats them",
  ignore: ignoreWithout("python3", python, "remote_agent_test"),
}, async () => {
  requireTool("python3", python, "apt-get install -y python3");
  const out = await Deno.makeTempDir({ prefix: "ark_remote_" });
  const { child, lines: output, url } = await startExample(freePort());
  try {
    assertMatch(url, /^http:\/\/127\.0\.0\.1:\d+\/agent$/);
    const args = ["run", "-A", "cli/eval.ts", "--domains", "airline", "--suite", "tasks", "--agents", url];
    const evalArgs = [...args, "--tasks", "2", "--runs", "1", "--conditions", "nominal", "--out", out];
    const first = await deno(evalArgs);
    assertEquals(first.code, 0, first.stderr);
    const records = await Deno.readTextFile(`${out}/records.jsonl`);
    const lines = records.trim().split("\n").map((line) => JSON.parse(line));
    assertEquals(lines.map((r) => [r.agent, r.task]), [[url, "airline/0"], [url, "airline/1"]]);
    // The example looks the opening's user and reservation up, and never changes anything.
    assert(lines.every((r) => r.agent_error === undefined && r.confidence === 0.5), records);
    await Deno.stat(`${out}/report.json`);

    const score = await deno(["run", "-A", "cli/score.ts", "--records", `${out}/records.jsonl`, "--json"]);
    assertEquals(score.code, 0, score.stderr);
    assert(Object.keys(JSON.parse(score.stdout)).length > 0);

    const again = await deno(evalArgs);
    assertEquals(again.code, 0, again.stderr);
    assertStringIncludes(again.stdout, "(2 episodes, 2 resumed)");
    assertEquals(await Deno.readTextFile(`${out}/records.jsonl`), records);

    // A fresh run of the same experiment sends the same episode ids and gets the same records.
    const fresh = await deno([...evalArgs.slice(0, -1), `${out}/fresh`]);
    assertEquals(fresh.code, 0, fresh.stderr);
    assertEquals(await Deno.readTextFile(`${out}/fresh/records.jsonl`), records);

    // report rewrites its pages from the store, and compare reads both folders (no change: exit 0).
    const report = await deno(["run", "-A", "cli/report.ts", out]);
    assertEquals(report.code, 0, report.stderr);
    assertStringIncludes(await Deno.readTextFile(`${out}/report.html`), url);
    const compare = await deno(["run", "-A", "cli/compare.ts", out, `${out}/fresh`, "--fail-on", "accuracy"]);
    assertEquals(compare.code, 0, compare.stderr + compare.stdout);
    assertStringIncludes(compare.stdout, url);
  } finally {
    child.kill("SIGTERM");
    await output.cancel();
    await child.status;
    await Deno.remove(out, { recursive: true });
  }
});

Deno.test({
  name: "the text-only example agent (examples/text_agent.py) succeeds on default airline tasks, read by the user",
  ignore: ignoreWithout("python3", python, "remote_agent_test"),
}, async () => {
  requireTool("python3", python, "apt-get install -y python3");
  const out = await Deno.makeTempDir({ prefix: "ark_text_agent_" });
  const { child, lines: output, url } = await startExample(freePort(), "text_agent.py");
  try {
    const run = await deno([
      "run",
      "-A",
      "cli/eval.ts",
      "--domains",
      "airline",
      "--suite",
      "tasks",
      "--agents",
      url,
      "--runs",
      "1",
      "--conditions",
      "nominal",
      "--out",
      out,
    ]);
    assertEquals(run.code, 0, run.stderr);
    const records = (await Deno.readTextFile(`${out}/records.jsonl`)).trim().split("\n").map((l) => JSON.parse(l));
    assertEquals(records.length, 50);
    const passed = records.filter((r) => r.success).length;
    assert(passed > 0, "the text agent passed no task");
    // It speaks in words only, and the simulated user read every one of them.
    const read = records.reduce((n, r) => n + (r.user_messages ?? 0), 0);
    const unread = records.reduce((n, r) => n + (r.user_misread ?? 0), 0);
    assert(read >= 25, `the user read only ${read} messages as text`);
    assertEquals(unread, 0);
    assert(!run.stdout.includes("Warning:"), run.stdout);
  } finally {
    child.kill("SIGTERM");
    await output.cancel();
    await child.status;
    await Deno.remove(out, { recursive: true });
  }
});

Deno.test("an agent whose words the user cannot read gets the misread warning, and compare --fail-on exits 2", async () => {
  const gibberish = ["Blorf quix zanth wibble?", "Snorp glavin trepp.", "Mizzle vorp qualt."];
  const steps = new Map<string, number>();
  await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    const body = await request.json();
    if (body.type !== "step") return Response.json({});
    const n = steps.get(body.episode) ?? 0;
    steps.set(body.episode, n + 1);
    return Response.json(n < 2 ? { type: "message", text: gibberish[(n + body.episode.length) % 3] } : { type: "end" });
  });
  const url = `http://127.0.0.1:${server.addr.port}/agent`;
  const root = await Deno.makeTempDir({ prefix: "ark_gibberish_" });
  try {
    const base = ["run", "-A", "cli/eval.ts", "--domains", "airline", "--suite", "tasks", "--agents", url];
    const args = [...base, "--tasks", "4", "--runs", "2", "--conditions", "nominal"];
    const a = await deno([...args, "--out", `${root}/a`]);
    assertEquals(a.code, 0, a.stderr);
    assertStringIncludes(a.stdout, `Warning: the simulated user could not read 100% of ${url}'s messages`);
    const report = JSON.parse(await Deno.readTextFile(`${root}/a/report.json`));
    assertEquals(report.experiment.warnings.length, 1);
    assertStringIncludes(await Deno.readTextFile(`${root}/a/report.html`), "could not read 100%");
    const b = await deno([...args, "--seed", "1", "--out", `${root}/b`]);
    assertEquals(b.code, 0, b.stderr);
    const compare = await deno(["run", "-A", "cli/compare.ts", `${root}/a`, `${root}/b`, "--fail-on", "R"]);
    assertEquals(compare.code, 2, compare.stdout + compare.stderr);
    assertStringIncludes(
      compare.stderr,
      `Cannot check --fail-on R for "${url}": in A, the simulated user could not read`,
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
