// `deno task import --from tau-bench --domain retail`: τ-bench's folder holds no retail run, so the
// file is made at test time from ark's own episodes of τ-bench's retail test tasks (played from their
// gold, with and without asking before writes, and some left unfinished), written as τ-bench's run.py
// writes them, its tool outputs printed as τ-bench's tools print them (`247.0` for a float). The
// import recomputes every reward, reproduces every tool result, and score and report read its folder.
import { assert, assertEquals, assertStringIncludes } from "@std/assert";
import { getDomain, openTauBench } from "../envs/mod.ts";
import { tauBenchTests } from "./fixtures/tau_bench.ts";
import { pythonJson, tauDataHash, type TauResult, tauResults } from "./fixtures/tau_results.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const tau = tauBenchTests("retail");

async function run(script: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", script, ...args],
    cwd: ROOT,
    stdin: "null",
    env: { NO_COLOR: "1", ARK_TAU_BENCH: tau.root },
  }).output();
  const text = new TextDecoder();
  return { code, stdout: text.decode(stdout), stderr: text.decode(stderr) };
}

// Half the test tasks asked and answered (trial 0, even ids); of the others, half written without
// asking and half left unfinished (trial 1): every task once. Made once for the file's tests.
let made: Promise<{ file: string; episodes: TauResult[] }> | undefined;
function resultsFile(): Promise<{ file: string; episodes: TauResult[] }> {
  return made ??= (async () => {
    const episodes = await tauResults(getDomain("retail"), tau.folder, {
      trials: 2,
      hashes: false,
      play: (task, trial) =>
        // Kept short: each episode exports the whole shop to type its numbers.
        trial === 0
          ? (task % 2 === 0 ? "confirmed" : null)
          : task % 4 === 1
          ? "unconfirmed"
          : task % 4 === 3
          ? "incomplete"
          : null,
    });
    const file = `${await Deno.makeTempDir()}/gpt-retail.json`;
    await Deno.writeTextFile(file, pythonJson(episodes));
    return { file, episodes };
  })();
}

tau.test("import --domain retail: every episode imported, every reward recomputed, every tool result ark's", async () => {
  const { file, episodes } = await resultsFile();
  const tools = episodes.flatMap((e) => e.traj.filter((m) => m.role === "tool"));
  // The file is τ-bench's: floats printed as Python prints them, rewards of both kinds, every episode's calls.
  assert(tools.some((m) => /\d\.0[,}\]]/.test(String(m.content))), "no tool output holds an integral float");
  const rewards = episodes.map((e) => JSON.stringify(e.reward));
  assert(rewards.includes("1.0") && rewards.includes("0.0"), rewards.join(","));
  const out = `${await Deno.makeTempDir()}/out`;
  const { code, stdout, stderr } = await run("cli/import.ts", [
    "--from",
    "tau-bench",
    file,
    "--out",
    out,
    "--domain",
    "retail",
    "--data",
    tau.folder,
  ]);
  assertEquals(code, 0, stderr);
  const n = episodes.length;
  assertStringIncludes(stdout, `Imported ${n} of ${n} episodes from gpt-retail.json (tau-bench)`);
  const imported = JSON.parse(await Deno.readTextFile(`${out}/report.json`)).import;
  assertEquals([imported.reward.equal, imported.reward.compared], [n, n]);
  // Every recorded result is ark's, exactly (τ-bench's `247.0` is ark's `247`), and none differs unexplained.
  const t = imported.tool_results;
  assertEquals([t.compared, t.equal, t.exact], [tools.length, tools.length, tools.length]);
  const retailDifferences = getDomain("retail").tauBench!.differences!.map((d) => d.name);
  for (const m of t.mismatches) assert(retailDifferences.includes(m.explained_by), JSON.stringify(m));
  // The records: the file's agent, τ-bench's task ids, run = trial, τ-bench's reward kept.
  const records = (await Deno.readTextFile(`${out}/records.jsonl`)).trim().split("\n").map((l) => JSON.parse(l));
  assertEquals(
    records.map((r) => `${r.agent} ${r.task} ${r.run} ${r.tau_reward}`).sort(),
    episodes.map((e) => `gpt-retail tau-bench:retail/${e.task_id} ${e.trial} ${JSON.parse(rewards.shift()!)}`).sort(),
  );
  // Writes made without asking are rewarded by τ-bench and found by the judge; asked ones are not.
  const unconfirmed = (r: { violations?: { constraint: string }[] }) =>
    (r.violations ?? []).some((v) => v.constraint === "explicit_confirmation");
  const unasked = records.filter((r) => r.run === 1 && r.tau_reward === 1 && Number(r.task.split("/")[1]) % 4 === 1);
  assert(unasked.some(unconfirmed));
  assertEquals(records.filter((r) => r.run === 0 && unconfirmed(r)).map((r) => r.task), []);

  // score and report work on the folder.
  const score = await run("cli/score.ts", ["--records", `${out}/records.jsonl`, "--json"]);
  assertEquals(score.code, 0, score.stderr);
  assertEquals(Object.keys(JSON.parse(score.stdout)), ["gpt-retail"]);
  const report = await run("cli/report.ts", [out]);
  assertEquals(report.code, 0, report.stderr);
  assertStringIncludes(report.stdout, `gpt-retail (${n} episodes, 115 tasks)`); // every task, once or twice
});

tau.test("import refuses a retail file as airline's, and a bad --domain, each in one line", async () => {
  const { file } = await resultsFile();
  const out = `${await Deno.makeTempDir()}/out`;
  const airline = await run("cli/import.ts", ["--from", "tau-bench", file, "--out", out, "--domain", "airline"]);
  assertEquals(airline.code, 1);
  assertEquals(airline.stderr.trim().split("\n").length, 1, airline.stderr);
  assertStringIncludes(airline.stderr, `Cannot import "${file}" as τ-bench's airline runs: its episodes call tools`);
  assertStringIncludes(airline.stderr, "all retail's; pass --domain retail");
  const bad = await run("cli/import.ts", ["--from", "tau-bench", file, "--out", out, "--domain", "retial"]);
  assertEquals([bad.code, bad.stderr.trim()], [
    2,
    'Invalid value "retial" for --domain: expected one of "airline", "retail" (the domains τ-bench has)',
  ]);
});

tau.test("the fixture hashes a state as τ-bench does: the untouched db.json gives its check value", async () => {
  const retail = getDomain("retail");
  using opened = openTauBench(retail, tau.folder);
  assertEquals(
    await tauDataHash(retail.tauBench!.export(opened.world.store)),
    "5a4b2cb59f4d12dea7e4adff24a7f8fada510ead49372ea4a729a82bbb5f49b5",
  );
});
