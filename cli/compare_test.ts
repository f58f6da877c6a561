import { assertEquals, assertStringIncludes, assertThrows } from "@std/assert";
import { formatComparison, main, parseCompareArgs, regressions } from "./compare.ts";
import { compareRecords } from "../report/compare.ts";
import type { EpisodeRecord } from "../scoring/mod.ts";

Deno.test("parseCompareArgs() reads two sources and the flags, in any order", () => {
  assertEquals(
    parseCompareArgs([
      "--json",
      "old",
      "--fail-on",
      "R,accuracy",
      "new",
      "--pair=noisy=noisy@2x,a=b",
      "--pair",
      "c=d",
      "--seed=7",
      "--resamples",
      "50",
      "--agents",
      "noisy",
      "--metrics",
      "R,pass^2",
    ]),
    {
      a: "old",
      b: "new",
      failOn: ["R", "accuracy"],
      metrics: ["R", "pass^2"],
      agents: ["noisy"],
      pairs: [["noisy", "noisy@2x"], ["a", "b"], ["c", "d"]],
      seed: "7",
      resamples: 50,
      json: true,
    },
  );
  assertEquals(parseCompareArgs(["a", "--help"]), "help");
});

Deno.test("parseCompareArgs() refuses bad usage, saying what is accepted", () => {
  assertThrows(
    () => parseCompareArgs(["a"]),
    TypeError,
    'Expected two record sources A and B (results folders or .jsonl files), got "a"',
  );
  assertThrows(() => parseCompareArgs(["a", "b", "c"]), TypeError, "Expected two record sources");
  assertThrows(() => parseCompareArgs(["a", "b", "--fail"]), TypeError, 'Unknown flag "--fail"');
  assertThrows(
    () => parseCompareArgs(["a", "b", "--fail-on", "R,Rsaf"]),
    RangeError,
    'Unknown metric "Rsaf" in --fail-on',
  );
  assertThrows(() => parseCompareArgs(["a", "b", "--pair", "noisy"]), TypeError, "expected A_NAME=B_NAME");
  assertThrows(() => parseCompareArgs(["a", "b", "--resamples", "0"]), RangeError, "at least 1");
  assertThrows(() => parseCompareArgs(["a", "b", "--seed"]), TypeError, "Missing value for --seed");
  assertThrows(() => parseCompareArgs(["a", "b", "--json=1"]), TypeError, "it takes none");
});

const record = (agent: string, task: string, success: boolean): EpisodeRecord => ({
  agent,
  task,
  run: 0,
  condition: "nominal",
  success,
});

Deno.test("formatComparison() prints a table per agent and what was left out; regressions() finds the worse ones", () => {
  const a = [...Array(20).keys()].map((i) => record("x", `d/${i}`, true));
  const b = [...a.slice(1).map((r) => ({ ...r, success: false })), record("y", "d/0", true)];
  const comparison = compareRecords(a, b, { resamples: 50, metrics: ["accuracy", "R_fault"] });
  const text = formatComparison(comparison);
  assertStringIncludes(text, '"x": 19 paired tasks, 19 records in A, 19 in B');
  assertStringIncludes(text, "accuracy  1.000  0.000  -1.000  [-1.000, -1.000]  <0.001  worse");
  assertStringIncludes(text, "– (A and B: no fault records)");
  assertStringIncludes(text, 'Tasks only in A, left out: "d/0"');
  assertStringIncludes(text, 'Agents only in B, not compared: "y"');
  const { failed, unchecked } = regressions(comparison, ["accuracy", "R_fault"]);
  assertEquals(failed, [{ agent: "x", metric: "accuracy", delta: -1, ci: [-1, -1] }]);
  assertEquals(unchecked, [{ agent: "x", metric: "R_fault", reason: "A and B: no fault records" }]);
});

Deno.test("main() exits 2 on records it cannot read or that are malformed", async () => {
  const dir = await Deno.makeTempDir();
  const good = `${dir}/good.jsonl`, bad = `${dir}/bad.jsonl`;
  await Deno.writeTextFile(good, JSON.stringify(record("x", "d/1", true)) + "\n");
  await Deno.writeTextFile(bad, JSON.stringify(record("x", "d/1", true)) + '\n{"agent": "x"}\n');
  const quiet = console.error;
  const errors: string[] = [];
  console.error = (line: string) => errors.push(line);
  try {
    assertEquals(await main([good, `${dir}/missing`]), 2);
    assertEquals(await main([good, bad]), 2);
    assertEquals(await main([dir, good]), 2);
  } finally {
    console.error = quiet;
    await Deno.remove(dir, { recursive: true });
  }
  assertEquals(errors, [
    `Cannot read records of B "${dir}/missing": no such file or folder`,
    `Malformed record on line 2 of "${bad}": "task": Invalid input: expected string, received undefined`,
    `Cannot read records of A "${dir}/records.jsonl": no such file or folder`,
  ]);
});

// main() with what it prints kept: its exit code, then stdout and stderr lines.
async function quietly(args: string[]): Promise<{ code: number; out: string[]; errors: string[] }> {
  const { log, error } = console;
  const out: string[] = [], errors: string[] = [];
  console.log = (line: string) => out.push(line);
  console.error = (line: string) => errors.push(line);
  try {
    return { code: await main(args), out, errors };
  } finally {
    console.log = log;
    console.error = error;
  }
}

Deno.test("main() --fail-on exits 2 on an agent only one side has, unless --pair maps it or --agents leaves it out", async () => {
  const dir = await Deno.makeTempDir();
  const a = `${dir}/a.jsonl`, b = `${dir}/b.jsonl`;
  const side = (agents: string[]) =>
    agents.flatMap((agent) => [0, 1, 2].map((i) => JSON.stringify(record(agent, `d/${i}`, true)) + "\n")).join("");
  await Deno.writeTextFile(a, side(["x", "y"]));
  await Deno.writeTextFile(b, side(["x", "z"]));
  try {
    const gate = ["--fail-on", "accuracy,pass^1", "--resamples", "20"];
    const missing = await quietly([a, b, ...gate]);
    assertEquals(missing.code, 2);
    assertEquals(missing.errors, [
      'Cannot check --fail-on accuracy,pass^1 for "y": it is only in A; pair it with an agent of B with --pair y=NAME, ' +
      "or leave it out with --agents (and 1 more unchecked)",
    ]);
    assertEquals((await quietly([a, b, "--resamples", "20"])).code, 0, "without a gate nothing is checked");
    assertEquals((await quietly([a, b, ...gate, "--pair", "y=z"])).code, 0);
    assertEquals((await quietly([a, b, ...gate, "--agents", "x"])).code, 0);
    const onlyB = await quietly([a, b, ...gate, "--agents", "x,z"]);
    assertEquals(onlyB.code, 2);
    assertStringIncludes(onlyB.errors[0], 'for "z": it is only in B; pair it with an agent of A with --pair NAME=z');
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("main() exits 2 on a cell recorded twice, naming it", async () => {
  const dir = await Deno.makeTempDir();
  const a = `${dir}/a.jsonl`, b = `${dir}/b.jsonl`;
  const line = (success: boolean) => JSON.stringify(record("x", "d/1", success)) + "\n";
  await Deno.writeTextFile(a, line(true));
  await Deno.writeTextFile(b, line(true) + line(false));
  try {
    const { code, errors } = await quietly([a, b]);
    assertEquals(code, 2);
    assertEquals(errors.length, 1);
    assertStringIncludes(errors[0], `Duplicate record in "${b}": x d/1 nominal run 0 is there more than once`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("parseCompareArgs() refuses a flag given twice, but --pair may repeat", () => {
  assertThrows(() => parseCompareArgs(["a", "b", "--seed", "1", "--seed=2"]), TypeError, "--seed given twice");
  assertThrows(() => parseCompareArgs(["a", "b", "--json", "--json"]), TypeError, "--json given twice");
  assertEquals((parseCompareArgs(["a", "b", "--pair", "x=y", "--pair", "z=w"]) as { pairs: unknown }).pairs, [
    ["x", "y"],
    ["z", "w"],
  ]);
});

Deno.test("main() --fail-on a safety score exits 2 while episodes it reads are unjudged by the LLM judge", async () => {
  const dir = await Deno.makeTempDir();
  const a = `${dir}/a.jsonl`, b = `${dir}/b.jsonl`;
  // B is as clean as A by the rules, but the LLM judge failed on one of its episodes: not clean, unknown.
  const judged = (i: number, extra: Partial<EpisodeRecord> = {}) =>
    JSON.stringify({ ...record("x", `d/${i}`, true), violations: [], llm_violations: [], ...extra }) + "\n";
  await Deno.writeTextFile(a, [0, 1, 2, 3].map((i) => judged(i)).join(""));
  await Deno.writeTextFile(
    b,
    [0, 1, 2].map((i) => judged(i)).join("") + judged(3, { judge_error: "LLM judge failed: server" }),
  );
  try {
    for (const metric of ["S_comp", "S_harm", "R_saf"]) {
      const { code, errors } = await quietly([a, b, "--fail-on", metric, "--resamples", "20"]);
      assertEquals(code, 2, metric);
      assertStringIncludes(
        errors[0],
        `Cannot check --fail-on ${metric} for "x": B: 1 of 4 judged episodes are unjudged`,
      );
    }
    // A gate on what the LLM judge's verdict does not enter still runs.
    assertEquals((await quietly([a, b, "--fail-on", "accuracy,near_misses", "--resamples", "20"])).code, 0);
    assertEquals((await quietly([a, a, "--fail-on", "S_comp", "--resamples", "20"])).code, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
