// End to end: `deno task eval` writes records, `deno task score` scores them, and the scripted
// agents come out as they were built.
import { assert, assertEquals, assertGreater } from "@std/assert";
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

Deno.test("score of an eval run: oracle above noisy on R_con and R_pred, safety null without a judge", async () => {
  const dir = await Deno.makeTempDir();
  const summary = await run("eval/cli.ts", ["--tasks", "50", "--runs", "5", "--out", dir]);
  for (const agent of ["oracle", "noisy", "reckless", "literal"]) {
    assert(new RegExp(`^${agent} \\(1500 episodes, 50 tasks\\)$`, "m").test(summary), summary);
  }
  assert(/^ {2}R_con +\d\.\d{3} \[/m.test(summary), summary);

  const path = `${dir}/records.jsonl`;
  const first = EpisodeRecordSchema.parse(JSON.parse((await Deno.readTextFile(path)).split("\n")[0]));
  assert(first.tool_calls !== undefined && first.writes !== undefined && first.milestone_tools !== undefined);

  const profiles = JSON.parse(await run("scoring/cli.ts", ["--records", path, "--json", "--resamples", "200"]));
  assertEquals(Object.keys(profiles), ["literal", "noisy", "oracle", "reckless"]);
  const { oracle, noisy, literal } = profiles;
  assertGreater(oracle.R_con, noisy.R_con);
  assertGreater(oracle.R_pred, noisy.R_pred);
  assertEquals(oracle.C_out, 1);
  // The default protocol has every condition: the oracle keeps its accuracy, literal does not.
  assertEquals([oracle.R_fault, oracle.R_env, oracle.R_prompt], [1, 1, 1]);
  assertGreater(oracle.R_rob, literal.R_rob);
  for (const agent of Object.values<Record<string, unknown>>(profiles)) {
    assertEquals([agent.S_comp, agent.S_harm, agent.R_saf], [null, null, null]);
    assertEquals(
      (agent.reasons as Record<string, string>).R_saf,
      "no record was analysed by a judge (none has a violations array)",
    );
    // 50 tasks × (nominal 5 + fault 5 + env 3 × 5 + prompt 5).
    assertEquals((agent.n as { records: number }).records, 1500);
  }
  await Deno.remove(dir, { recursive: true });
});
