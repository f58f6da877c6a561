// End to end: `deno task eval` runs the same config twice, with another seed, and with noisy's
// error rates doubled; `deno task compare` finds no change in the first two and the regression
// in the third, and gates on it with its exit code.
import { assert, assertEquals, assertStringIncludes, assertThrows } from "@std/assert";
import { agentFactory, noisyRateFactor } from "../agents/mod.ts";

const ROOT = new URL("..", import.meta.url).pathname;
// 500 nominal episodes a side: at this size a doubled error rate moves R by about −0.07 (95% upper bound
// at most −0.02 over 20 seeds tried), while two seeds of one config differ on R or accuracy in
// about 1 seed pair in 10, as a 95% interval should.
const SIZE = ["--domain", "airline", "--suite", "tasks", "--conditions", "nominal", "--tasks", "50", "--runs", "10"];

interface Output {
  code: number;
  stdout: string;
  stderr: string;
}

async function run(script: string, args: string[]): Promise<Output> {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", script, ...args],
    cwd: ROOT,
    stdin: "null",
    env: { NO_COLOR: "1" },
  }).output();
  const text = new TextDecoder();
  return { code, stdout: text.decode(stdout), stderr: text.decode(stderr) };
}

async function evalRun(out: string, args: string[]): Promise<void> {
  const { code, stderr } = await run("cli/eval.ts", [...SIZE, ...args, "--out", out]);
  assertEquals(code, 0, stderr);
}

const compare = (args: string[]) => run("cli/compare.ts", args);

interface JsonMetric {
  metric: string;
  delta: number | null;
  ci: [number, number] | null;
  verdict: string;
}

function verdicts(stdout: string): Record<string, JsonMetric> {
  const { agents } = JSON.parse(stdout) as { agents: { metrics: JsonMetric[] }[] };
  assertEquals(agents.length, 1);
  return Object.fromEntries(agents[0].metrics.map((m) => [m.metric, m]));
}

Deno.test("deno task compare: no change between reruns and seeds, a regression when noisy errs twice as often", async (t) => {
  const dir = await Deno.makeTempDir();
  const [a, again, reseeded, doubled] = ["a", "again", "reseeded", "doubled"].map((n) => `${dir}/${n}`);
  await Promise.all([
    evalRun(a, ["--agents", "noisy", "--seed", "1"]),
    evalRun(again, ["--agents", "noisy", "--seed", "1"]),
    evalRun(reseeded, ["--agents", "noisy", "--seed", "2"]),
    evalRun(doubled, ["--agents", "noisy@2x", "--seed", "1"]),
  ]);

  await t.step("the same config and seed: Δ = 0 on every metric, exit 0", async () => {
    const gate = await compare([a, again, "--fail-on", "R,accuracy"]);
    assertEquals(gate.code, 0, gate.stderr);
    assertStringIncludes(gate.stdout, "No significant regression on R, accuracy");
    const { code, stdout } = await compare([a, again, "--json"]);
    assertEquals(code, 0);
    const compared = Object.values(verdicts(stdout)).filter((m) => m.verdict !== "–");
    assert(compared.length >= 15, `${compared.length} metrics compared`);
    for (const m of compared) assertEquals([m.delta, m.ci, m.verdict], [0, [0, 0], "no significant change"], m.metric);
  });

  await t.step("another seed of the same config: no significant change on accuracy and R, exit 0", async () => {
    const { code, stdout, stderr } = await compare([reseeded, a, "--fail-on", "accuracy,R", "--json"]);
    assertEquals(code, 0, stderr);
    const m = verdicts(stdout);
    assertEquals([m.accuracy.verdict, m.R.verdict], ["no significant change", "no significant change"]);
  });

  await t.step("noisy against noisy@2x (--pair): worse on accuracy and R, exit 1 with --fail-on R", async () => {
    const { code, stdout, stderr } = await compare([a, doubled, "--pair", "noisy=noisy@2x", "--fail-on", "R"]);
    assertEquals(code, 1, stderr);
    assertStringIncludes(stdout, '"noisy" (A) vs "noisy@2x" (B): 50 paired tasks, 500 records in A, 500 in B');
    assert(/^R +[\d.]+ +[\d.]+ +-[\d.]+ +\[-[\d.]+, -[\d.]+\] +[<\d.]+ +worse$/m.test(stdout), stdout);
    assert(/^accuracy +.* worse$/m.test(stdout), stdout);
    assertEquals(stderr.trim().split("\n").length, 1, stderr);
    assertStringIncludes(stderr, 'Regression: R is significantly worse for "noisy=noisy@2x" (Δ -0.');
    const json = await compare([a, doubled, "--pair=noisy=noisy@2x", "--json", "--metrics", "accuracy,R"]);
    assertEquals(json.code, 0);
    const m = verdicts(json.stdout);
    assertEquals([m.accuracy.verdict, m.R.verdict], ["worse", "worse"]);
  });

  await t.step("a --fail-on metric that cannot be computed: one line on stderr, exit 2, never a pass", async () => {
    // Nominal records only: R_fault has no value on either side.
    const { code, stdout, stderr } = await compare([a, again, "--fail-on", "R,R_fault"]);
    assertEquals(code, 2, stderr);
    assertEquals(stderr.trim().split("\n"), ['Cannot check --fail-on R_fault for "noisy": A and B: no fault records']);
    assert(!stdout.includes("No significant regression"), stdout);
  });

  await t.step("bad usage: one line on stderr, exit 2", async () => {
    await Deno.writeTextFile(`${dir}/bad.jsonl`, '{"agent": "noisy", "task": "airline/1"}\n');
    const cases: [string[], string][] = [
      [[a, doubled], "No agent to compare: A and B have no agent name in common"],
      [[a, again, "--fail-on", "R,R_safe"], 'Unknown metric "R_safe" in --fail-on'],
      [[a, again, "--treshold", "1"], 'Unknown flag "--treshold"'],
      [[a], "Expected two record sources A and B"],
      [[a, `${dir}/nowhere`], `Cannot read records of B "${dir}/nowhere": no such file or folder`],
      [[`${dir}/bad.jsonl`, a], `Malformed record on line 1 of "${dir}/bad.jsonl"`],
      [[a, doubled, "--pair", "noisy=noisy@3x"], 'Agent "noisy@3x" of pair "noisy=noisy@3x" is not in B'],
    ];
    for (const [args, message] of cases) {
      const { code, stdout, stderr } = await compare(args);
      assertEquals([code, stdout], [2, ""], args.join(" "));
      assertEquals(stderr.trim().split("\n").length, 1, stderr);
      assertStringIncludes(stderr, message);
    }
  });
  await Deno.remove(dir, { recursive: true });
});

Deno.test("agentFactory() makes noisy@Fx with every error rate times F and refuses a factor elsewhere", async () => {
  assertEquals([noisyRateFactor("noisy@2x"), noisyRateFactor("noisy@0.5x"), noisyRateFactor("noisy")], [2, 0.5, null]);
  assertEquals(typeof agentFactory("noisy@2x"), "function");
  for (const spec of ["oracle@2x", "noisy@2", "noisy@x2", "noisy@0x", "noisy@-1x"]) {
    assertThrows(() => agentFactory(spec), RangeError, `Invalid agent "${spec}": expected "noisy@Fx"`);
  }
  assertThrows(() => agentFactory("noisy@20x"), RangeError, "more than 1");
  const { code, stderr } = await run("cli/eval.ts", ["--agents", "oracle@2x", "--tasks", "1", "--runs", "1"]);
  assertEquals(code, 2);
  assertStringIncludes(stderr, 'Invalid agent "oracle@2x"');
});
