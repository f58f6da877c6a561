// End to end: `deno task eval` writes records, `deno task score` scores them, and the scripted
// agents come out as they were built.
import { assert, assertEquals, assertGreater, assertLess } from "@std/assert";
import { EpisodeRecordSchema } from "../scoring/mod.ts";

const ROOT = new URL("..", import.meta.url).pathname;

async function run(script: string, args: string[]): Promise<string> {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", script, ...args],
    cwd: ROOT,
    stdin: "null",
    env: { NO_COLOR: "1" },
  }).output();
  const text = new TextDecoder();
  assertEquals(code, 0, text.decode(stderr));
  return text.decode(stdout);
}

Deno.test("the default eval: verdicts are earned, safety is judged, and the scripted agents come out as built", async () => {
  const dir = await Deno.makeTempDir();
  const summary = await run("cli/eval.ts", [
    "--domains",
    "airline",
    "--suite",
    "tasks",
    "--tasks",
    "50",
    "--runs",
    "5",
    "--out",
    dir,
  ]);
  for (const agent of ["oracle", "noisy", "reckless", "literal"]) {
    assert(new RegExp(`^${agent} \\(1500 episodes, 50 tasks\\)$`, "m").test(summary), summary);
  }
  assert(/^ {2}R_con +\d\.\d{3} \[/m.test(summary), summary);

  const path = `${dir}/records.jsonl`;
  const records = (await Deno.readTextFile(path)).trimEnd().split("\n").map((l) =>
    EpisodeRecordSchema.parse(JSON.parse(l))
  );
  const first = records[0];
  assert(first.tool_calls !== undefined && first.writes !== undefined && first.milestone_labels !== undefined);
  // Every record was judged.
  assert(records.every((r) => Array.isArray(r.violations) && Array.isArray(r.near_misses)));
  // Milestones are outcomes: an episode that succeeds reaches all of them (a look-up skipped costs none).
  for (const r of records.filter((r) => r.success)) {
    assertEquals(r.milestones!.reached, r.milestones!.total, `${r.agent} ${r.task} run ${r.run} ${r.condition}`);
  }

  const profiles = JSON.parse(await run("cli/score.ts", ["--records", path, "--json", "--resamples", "200"]));
  assertEquals(Object.keys(profiles), ["literal", "noisy", "oracle", "reckless"]);
  const { oracle, noisy, literal, reckless } = profiles;
  assertGreater(oracle.R_con, noisy.R_con);
  assertGreater(oracle.R_pred, noisy.R_pred);
  assertEquals(oracle.C_out, 1);
  // The default protocol has every condition: the oracle keeps its accuracy, literal does not.
  assertEquals([oracle.R_fault, oracle.R_env, oracle.R_prompt], [1, 1, 1]);
  assertGreater(oracle.R_rob, literal.R_rob);
  // literal fails every call under env, so it earns nothing there (no-write tasks included).
  assertLess(literal.R_env, 0.05);
  // No false positive on the oracle; reckless, which writes without a yes, is the least safe.
  assertEquals([oracle.S_comp, oracle.R_saf], [1, 1]);
  for (const other of [oracle, noisy, literal]) assertGreater(other.R_saf, reckless.R_saf);
  assert(reckless.operational.violation_count.explicit_confirmation !== undefined, "reckless skips confirmations");
  // On nominal records the oracle's decay curve is flat at 1.
  const curve = oracle.decay.by_condition.nominal.curve as { R: number }[];
  assert(curve.length > 1 && curve.every((p) => p.R === 1), JSON.stringify(curve));
  for (const agent of Object.values<Record<string, unknown>>(profiles)) {
    // 50 tasks × (nominal 5 + fault 5 + env 3 × 5 + prompt 5).
    assertEquals((agent.n as { records: number }).records, 1500);
  }

  // noisy skips a confirmation with probability 0.02 at each proposal: about 2% of its episodes
  // that propose a write (the oracle's proposals, one per episode that writes) carry one.
  const proposing = records.filter((r) => r.agent === "oracle" && (r.writes?.succeeded ?? 0) > 0).length;
  const skipped = records.filter((r) =>
    r.agent === "noisy" &&
    r.violations!.some((v) =>
      v.constraint === "explicit_confirmation" && /without first stating/.test(v.evidence ?? "")
    )
  ).length;
  const expected = 0.02 * proposing, sd = Math.sqrt(proposing * 0.02 * 0.98);
  assert(Math.abs(skipped - expected) <= 4 * sd, `noisy skipped ${skipped} confirmations, expected about ${expected}`);
  await Deno.remove(dir, { recursive: true });
});
