// End-to-end tests of `deno task eval`: the CLI runs as a child process on small experiments.
import { assert, assertEquals, assertMatch, assertNotEquals, assertStringIncludes } from "@std/assert";
import { Store } from "../envs/mod.ts";
import { BATCH } from "../eval/store.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const CLI = new URL("../cli/eval.ts", import.meta.url).pathname;
// Every experiment names its domain, so registering another changes none of these counts.
const AIRLINE = ["--domains", "airline"];
const SMALL = [...AIRLINE, "--suite", "tasks", "--tasks", "6", "--runs", "2"];

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

function command(args: string[]): Deno.Command {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", CLI, ...args],
    cwd: ROOT,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  });
}

async function evalCli(args: string[]): Promise<Outcome> {
  const { code, stdout, stderr } = await command(args).output();
  const text = new TextDecoder();
  return { code, stdout: text.decode(stdout), stderr: text.decode(stderr) };
}

function episodes(path: string): { count: number; distinct: number; events: number } {
  using db = Store.open(undefined, { path });
  db.exec("PRAGMA busy_timeout = 5000");
  const n = (sql: string) => Number(db.get<{ n: number }>(sql)!.n);
  return {
    count: n("SELECT count(*) AS n FROM episodes"),
    distinct: n("SELECT count(*) AS n FROM (SELECT DISTINCT agent, task, run, condition, variant FROM episodes)"),
    events: n("SELECT count(*) AS n FROM events"),
  };
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

Deno.test("eval CLI writes the store and records.jsonl, and the same seed gives a byte-identical file", async () => {
  const dir = await Deno.makeTempDir();
  // The same bytes whatever the worker threads: episodes reach the store in the cells' order.
  const [a, b, four, other] = await Promise.all([
    evalCli([...SMALL, "--workers", "1", "--out", `${dir}/a`]),
    evalCli([...SMALL, "--workers", "2", "--out", `${dir}/b`]),
    evalCli([...SMALL, "--workers", "4", "--out", `${dir}/d`]),
    evalCli([...SMALL, "--seed", "1", "--out", `${dir}/c`]),
  ]);
  assertEquals([a.code, b.code, four.code, other.code], [0, 0, 0, 0], a.stderr + b.stderr + four.stderr + other.stderr);
  assertEquals(a.stderr, "");
  // The whole protocol per agent and task: nominal 2, fault 2, env 3 presets × 2, prompt 5.
  const perAgent = 6 * (2 + 2 + 3 * 2 + 5);
  for (const agent of ["oracle", "noisy", "reckless", "literal"]) {
    assertMatch(a.stdout, new RegExp(`^${agent} \\(${perAgent} episodes`, "m"));
  }
  assertStringIncludes(a.stdout, "pass^k");
  const total = 4 * perAgent;
  const records = await Deno.readTextFile(`${dir}/a/records.jsonl`);
  const lines = records.trimEnd().split("\n").map((l) => JSON.parse(l));
  assertEquals(lines.length, total);
  assertEquals(lines[0].agent, "literal");
  assertEquals(new Set(lines.map((r) => `${r.condition}/${r.variant}`)).size, 1 + 1 + 3 + 5);
  // Reports are as reproducible as the records.
  for (const out of ["b", "d"]) {
    for (const file of ["records.jsonl", "report.json", "report.html"]) {
      assertEquals(await Deno.readTextFile(`${dir}/${out}/${file}`), await Deno.readTextFile(`${dir}/a/${file}`), file);
    }
  }
  assertNotEquals(await Deno.readTextFile(`${dir}/c/records.jsonl`), records);
  assertEquals(episodes(`${dir}/a/results.sqlite`).count, total);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("eval CLI resumes after being killed: finished episodes kept once, records as if uninterrupted", async () => {
  const dir = await Deno.makeTempDir();
  // Big enough that a loaded machine cannot finish it before the kill; every condition, and the
  // abstention scenarios (the airline's 35 templates × 2 pairs × 2 twins, one run each: 26 of the
  // three gaps' first kinds, 2 wrong-record, 3 policy-only, 2 no-success-signal, 1 some-not-allowed and
  // 1 implicit-delegation).
  const sizes = [...AIRLINE, "--tasks", "50", "--runs", "3"];
  const total = 4 * (50 * (3 + 3 + 3 * 3 + 5) + 35 * 2 * 2);
  const killed = `${dir}/killed`;
  const child = command([...sizes, "--out", killed]).spawn();
  const uninterrupted = evalCli([...sizes, "--out", `${dir}/whole`]);
  // Wait until some episodes are committed, then kill without warning.
  let before = 0;
  for (let i = 0; i < 600 && before < 5; i++) {
    await new Promise((r) => setTimeout(r, 25));
    try {
      if (await exists(`${killed}/results.sqlite`)) before = episodes(`${killed}/results.sqlite`).count;
    } catch {
      // the store's tables are not created yet
    }
  }
  child.kill("SIGKILL");
  const status = await child.status;
  await Promise.all([child.stdout.cancel(), child.stderr.cancel()]);
  assertEquals(status.signal, "SIGKILL", "the run finished before it could be killed: make it bigger");
  const kept = episodes(`${killed}/results.sqlite`);
  assert(kept.count >= before && kept.count < total, `${kept.count} episodes after the kill`);
  // records.jsonl holds whole lines of stored episodes: all of them, or all but the last batch's
  // (committed, its lines not written yet when the kill came), never one the store lacks.
  const lines = (await Deno.readTextFile(`${killed}/records.jsonl`)).split("\n");
  assertEquals(lines.pop(), "", "records.jsonl ends with a whole line");
  lines.forEach((line) => JSON.parse(line));
  assert(
    lines.length <= kept.count && lines.length >= kept.count - BATCH,
    `${lines.length} lines, ${kept.count} stored`,
  );

  const resumed = await evalCli([...sizes, "--out", killed]);
  assertEquals(resumed.code, 0, resumed.stderr);
  assertStringIncludes(resumed.stdout, `${kept.count} resumed`);
  const whole = await uninterrupted;
  assertEquals(whole.code, 0, whole.stderr);
  const after = episodes(`${killed}/results.sqlite`);
  assertEquals(after, episodes(`${dir}/whole/results.sqlite`));
  assertEquals([after.count, after.distinct], [total, total]);
  assertEquals(
    await Deno.readTextFile(`${killed}/records.jsonl`),
    await Deno.readTextFile(`${dir}/whole/records.jsonl`),
  );
  // Once more: nothing left to run, nothing duplicated.
  assertEquals((await evalCli([...sizes, "--out", killed])).code, 0);
  assertEquals(episodes(`${killed}/results.sqlite`).count, total);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("eval CLI rejects bad flags, domains and agents with exit code 2 and one line", async () => {
  const cases: [string[], string][] = [
    [["--colour", "red"], '"--colour"'],
    [["--tasks", "abc"], '"abc" for --tasks'],
    [["--tasks", "1.5"], '"1.5" for --tasks'],
    [["--runs", "0"], '"0" for --runs'],
    [["--tasks", "-3"], "--tasks"],
    [["--domain", "bakery"], '"bakery"'],
    [["--conditions", "nominal,chaos"], '"chaos"'],
    [["--env-presets", "extreme"], '"extreme"'],
    [["--p-fault", "2"], "--p-fault"],
    [["--config", "/nonexistent/exp.json"], '"/nonexistent/exp.json"'],
    [["--agents", "oracle,genius"], '"genius"'],
    [["--seed"], "--seed"],
  ];
  const outcomes = await Promise.all(cases.map(([args]) => evalCli(args)));
  outcomes.forEach((o, i) => {
    const [args, expected] = cases[i];
    assertEquals(o.code, 2, `${args.join(" ")}: ${o.stderr}`);
    assertEquals(o.stderr.trimEnd().split("\n").length, 1, o.stderr);
    assertStringIncludes(o.stderr, expected);
    assert(!/^\s+at /m.test(o.stderr), `a stack trace for ${args.join(" ")}`);
    assertEquals(o.stdout, "");
  });
});

Deno.test("eval CLI prints usage for --help and refuses another experiment's store in one line", async () => {
  const help = await evalCli(["--help"]);
  assertEquals(help.code, 0);
  assertStringIncludes(help.stdout, "Usage: deno task eval");
  assertStringIncludes(help.stdout, "--agents");

  const dir = await Deno.makeTempDir();
  const first = await evalCli([...AIRLINE, "--tasks", "2", "--runs", "1", "--agents", "oracle", "--out", dir]);
  assertEquals(first.code, 0, first.stderr);
  const clash = await evalCli([...AIRLINE, "--tasks", "3", "--runs", "1", "--agents", "oracle", "--out", dir]);
  assertEquals(clash.code, 1);
  assertEquals(clash.stderr.trimEnd().split("\n").length, 1, clash.stderr);
  assertStringIncludes(clash.stderr, `"${dir}/results.sqlite"`);
  assertStringIncludes(clash.stderr, '"tasks"');

  await Deno.writeTextFile(`${dir}/results.sqlite`, "not a database ".repeat(100));
  for (const suffix of ["-wal", "-shm"]) await Deno.remove(`${dir}/results.sqlite${suffix}`).catch(() => {});
  const corrupt = await evalCli([...AIRLINE, "--tasks", "2", "--runs", "1", "--agents", "oracle", "--out", dir]);
  assertEquals(corrupt.code, 1);
  assertEquals(corrupt.stderr.trimEnd().split("\n").length, 1, corrupt.stderr);
  assertStringIncludes(corrupt.stderr, `"${dir}/results.sqlite"`);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("eval CLI takes a config file under its flags, and names every bad field of a bad one", async () => {
  const dir = await Deno.makeTempDir();
  const config = `${dir}/exp.json`;
  await Deno.writeTextFile(
    config,
    JSON.stringify({
      domains: ["airline"],
      suite: "tasks",
      agents: ["oracle", "literal"],
      tasks: 3,
      runs: 3,
      conditions: { fault: { p_fault: 0.5 }, env: { presets: ["high"], runs: 1 }, prompt: false },
    }),
  );
  const [a, b] = await Promise.all([
    evalCli(["--config", config, "--runs", "2", "--out", `${dir}/a`]),
    evalCli(["--config", config, "--runs", "2", "--out", `${dir}/b`]),
  ]);
  assertEquals([a.code, b.code], [0, 0], a.stderr + b.stderr);
  const records = await Deno.readTextFile(`${dir}/a/records.jsonl`);
  assertEquals(await Deno.readTextFile(`${dir}/b/records.jsonl`), records);
  // The flag's runs over the file's: nominal 2, fault 2, env high 1 (its own), no prompt.
  assertEquals(records.trimEnd().split("\n").length, 2 * 3 * (2 + 2 + 1));

  const bad = `${dir}/bad.json`;
  await Deno.writeTextFile(
    bad,
    JSON.stringify({ tasks: 0, agents: ["genius"], conditions: { env: { presets: ["x"] } } }),
  );
  const invalid = await evalCli(["--config", bad, "--out", `${dir}/c`]);
  assertEquals(invalid.code, 2);
  const lines = invalid.stderr.trimEnd().split("\n");
  assertEquals(lines[0], `Invalid config file "${bad}":`);
  for (const field of ['"tasks"', '"agents[0]"', '"conditions.env.presets[0]"']) {
    assert(lines.some((l) => l.trimStart().startsWith(field)), `${field} in ${invalid.stderr}`);
  }
  assert(!/^\s+at /m.test(invalid.stderr), "a stack trace");

  await Deno.writeTextFile(bad, '{"tasks": 3,,}');
  const broken = await evalCli(["--config", bad]);
  assertEquals(broken.code, 2);
  assertStringIncludes(broken.stderr, `"${bad}"`);
  assertStringIncludes(broken.stderr, "at line 1, column 13");
  await Deno.remove(dir, { recursive: true });
});
