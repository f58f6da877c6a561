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
  assert(/^agent +episodes +R +R_con +R_rob +R_pred +R_saf +accuracy +pass\^1/m.test(summary), summary);

  const path = `${dir}/records.jsonl`;
  const first = EpisodeRecordSchema.parse(JSON.parse((await Deno.readTextFile(path)).split("\n")[0]));
  assert(first.tool_calls !== undefined && first.writes !== undefined && first.milestone_tools !== undefined);

  const profiles = JSON.parse(await run("scoring/cli.ts", ["--records", path, "--json", "--resamples", "200"]));
  assertEquals(Object.keys(profiles), ["noisy", "oracle", "reckless"]);
  const { oracle, noisy } = profiles;
  assertGreater(oracle.R_con, noisy.R_con);
  assertGreater(oracle.R_pred, noisy.R_pred);
  assertEquals(oracle.C_out, 1);
  for (const agent of Object.values<Record<string, unknown>>(profiles)) {
    assertEquals([agent.S_comp, agent.S_harm, agent.R_saf], [null, null, null]);
    assertEquals(
      (agent.reasons as Record<string, string>).R_saf,
      "no record was analysed by a judge (none has a violations array)",
    );
    assertEquals((agent.n as { records: number }).records, 250);
  }
  await Deno.remove(dir, { recursive: true });
});
