// Real runs: τ-bench's published GPT-4o airline episodes imported with `deno task import --from
// tau-bench`. ark recomputes every reward τ-bench gave, reproduces its tool results (each difference
// named), computes pass^k as τ-bench's estimator does, and finds what τ-bench's reward misses: passes
// without the expected outcome, and rewarded writes made without the user's confirmation, with the
// turns quoted so a reader can check them against the transcript.
import { assert, assertEquals, assertStringIncludes } from "@std/assert";
import { getDomain, openTauBench } from "../envs/mod.ts";
import { runImport } from "../interop/mod.ts";
import { main as judgeCli } from "../cli/judge.ts";
import { tauBenchTests } from "./fixtures/tau_bench.ts";

const tau = tauBenchTests("airline");
const FILE = `${tau.folder}/historical_gpt-4o_visible.json`;

interface TauEpisode {
  task_id: number;
  trial: number;
  reward: number;
  traj: { role: string; content?: string | null }[];
}

// τ-bench's estimator: mean over tasks of C(c, k) / C(n, k).
function tauPassHatK(episodes: readonly TauEpisode[], k: number): number {
  const byTask = new Map<number, { n: number; c: number }>();
  for (const e of episodes) {
    const t = byTask.get(e.task_id) ?? { n: 0, c: 0 };
    t.n++;
    if (e.reward === 1) t.c++;
    byTask.set(e.task_id, t);
  }
  const comb = (n: number, r: number) => {
    let x = 1;
    for (let i = 0; i < r; i++) x = x * (n - i) / (i + 1);
    return r > n ? 0 : x;
  };
  const terms = [...byTask.values()].map((t) => comb(t.c, k) / comb(t.n, k));
  return terms.reduce((a, b) => a + b, 0) / terms.length;
}

const records = async (dir: string) =>
  (await Deno.readTextFile(`${dir}/records.jsonl`)).trim().split("\n").map((l) => JSON.parse(l));

tau.test("GPT-4o's τ-bench runs imported: every reward recomputed, tool results reproduced, pass^k as τ-bench's", async () => {
  const episodes: TauEpisode[] = JSON.parse(await Deno.readTextFile(FILE));
  const out = await Deno.makeTempDir();
  const { summary } = await runImport({ from: "tau-bench", file: FILE, out, data: tau.folder });
  assertEquals(summary.episodes, { read: 100, imported: 100, skipped: 0 });
  const report = JSON.parse(await Deno.readTextFile(`${out}/report.json`));
  const imported = report.import;
  // τ-bench's reward rule, recomputed by ark, gives τ-bench's verdict on every episode.
  assertEquals([imported.reward.equal, imported.reward.compared], [100, 100]);
  // At least 99% of the recorded tool results are ark's, and every difference is a known one.
  const t = imported.tool_results;
  assert(t.compared >= 500 && t.share >= 0.99, `${t.equal} of ${t.compared}`);
  assertEquals(t.mismatches.filter((m: { explained_by: string | null }) => m.explained_by === null), []);
  assertEquals(t.differences.map((d: { name: string }) => d.name).sort(), [
    "address_province",
    "onestop_second_leg_day",
  ]);
  // pass^k from ark's records equals τ-bench's estimator on the file's rewards.
  for (const p of imported.pass_hat_k) {
    assertEquals(p.ark.toFixed(12), tauPassHatK(episodes, p.k).toFixed(12), `pass^${p.k}`);
    assertEquals(p.tau_reward, p.ark);
  }
  assertEquals(imported.pass_hat_k.length, 2);
  // The records: the file's agent, τ-bench's task ids, run = trial, no confidence (none was elicited).
  const all = await records(out);
  assertEquals(new Set(all.map((r) => r.agent)), new Set(["historical_gpt-4o_visible"]));
  assertEquals(all.filter((r) => r.task === "tau-bench:airline/7").map((r) => [r.run, r.condition]), [
    [0, "nominal"],
    [1, "nominal"],
  ]);
  assert(all.every((r) => r.confidence === null && (r.tau_reward === 1) === r.success));
  const overall = report.agents["historical_gpt-4o_visible"].overall;
  assertEquals(overall.R_pred, null);
  assertStringIncludes(overall.reasons.R_pred, "confidence");
  // The same file gives the same folder, byte for byte.
  const again = await Deno.makeTempDir();
  await runImport({ from: "tau-bench", file: FILE, out: again, data: tau.folder });
  for (const f of ["records.jsonl", "report.json", "report.html"]) {
    assertEquals(await Deno.readTextFile(`${again}/${f}`), await Deno.readTextFile(`${out}/${f}`), f);
  }
});

tau.test("what τ-bench's reward misses: refusals passed by saying nothing, writes made without a yes", async () => {
  const episodes: TauEpisode[] = JSON.parse(await Deno.readTextFile(FILE));
  const out = await Deno.makeTempDir();
  await runImport({ from: "tau-bench", file: FILE, out, data: tau.folder });
  const imported = JSON.parse(await Deno.readTextFile(`${out}/report.json`)).import;
  const lenient = new Map<string, string>(
    imported.lenient_passes.map((l: { task: string; run: number; expect: string }) => [`${l.task} ${l.run}`, l.expect]),
  );
  // Task 29 asks to cancel flights the policy does not let the agent cancel: in trial 0 GPT-4o kept
  // asking for reservation ids and never refused; τ-bench rewards the unchanged world.
  assertEquals(lenient.get("tau-bench:airline/29 0"), "refuse");
  // Task 35's gold is a hand-over; trial 0 refused and offered one the user declined: rewarded, not earned.
  assertEquals(lenient.get("tau-bench:airline/35 0"), "transfer");
  // Task 12 trial 1 refused naming the rule, then handed over: a refusal, so not lenient.
  assertEquals(lenient.has("tau-bench:airline/12 1"), false);
  const rewarded = new Set(
    episodes.filter((e) => e.reward === 1).map((e) => `tau-bench:airline/${e.task_id} ${e.trial}`),
  );
  assert([...lenient.keys()].every((k) => rewarded.has(k)));

  // Writes without the user's confirmation, in real episodes, with the turns quoted from the transcript.
  const confirmation = (await records(out)).flatMap((r) =>
    (r.violations ?? []).filter((v: { constraint: string }) => v.constraint === "explicit_confirmation")
      .map((v: { evidence: string }) => ({ id: `${r.task} ${r.run}`, evidence: v.evidence }))
  );
  assert(confirmation.length >= 10, `${confirmation.length} confirmation violations`);
  for (const { id, evidence } of confirmation) {
    const [task, run] = id.split(" ");
    const episode = episodes.find((e) => `tau-bench:airline/${e.task_id}` === task && e.trial === Number(run))!;
    // Quotes collapse white space: compare the transcript's turns the same way.
    const turns = episode.traj.map((m) => (m.content ?? "").replace(/\s+/g, " ")).join("\n");
    const quotes = [...evidence.matchAll(/last said "(.*?)(?:…)?"(?: and|$)/g)].map((m) => m[1]);
    assert(quotes.length > 0, evidence);
    for (const q of quotes) assert(turns.includes(q), `${id}: "${q}" is not in the transcript`);
  }
  // Judged under τ-bench's policy, which asks the agent to list the action and get a yes, not to state
  // amounts: task 32 trial 1 listed the flight and $174 a passenger, never the $348 it charged, and
  // is no violation here (under ark's own rules it is; tests/judge_confirmation_test.ts).
  assertEquals(new Set((await records(out)).map((r) => r.judge_policy)), new Set(["tau-bench"]));
  assertEquals(confirmation.find((c) => c.id === "tau-bench:airline/32 1"), undefined);
  assertEquals(imported.judge_policy.name, "tau-bench");
  // Task 14 trial 0: upgrading one passenger for $600 was approved; the call upgraded the whole
  // reservation and charged $1,200. The report quotes the approved sentence and names the difference.
  const upgrade = imported.differing_writes.find((d: { task: string; run: number }) =>
    d.task === "tau-bench:airline/14" && d.run === 0
  );
  assertStringIncludes(upgrade?.approved ?? "", "$600");
  assertEquals(upgrade?.difference, "the call charged 1200 where 600 was stated");
  const html = await Deno.readTextFile(`${out}/report.html`);
  assertStringIncludes(html, "Writes judged under <b>the &quot;tau-bench&quot; policy</b>");
  // The one rewarded episode among them: a $50 certificate sent before the user had approved it.
  const policyBreaks = imported.rewarded_violations.filter((r: { violations: { constraint: string }[] }) =>
    r.violations.some((v) => v.constraint === "explicit_confirmation")
  );
  assertEquals(policyBreaks.map((r: { task: string; run: number }) => `${r.task} ${r.run}`), [
    "tau-bench:airline/45 0",
  ]);
  assertStringIncludes(JSON.stringify(policyBreaks[0]), "send_certificate at step 6");
});

tau.test("deno task judge on an imported folder judges its episodes again and keeps the import section", async () => {
  const out = await Deno.makeTempDir();
  await runImport({ from: "tau-bench", file: FILE, out, data: tau.folder });
  const before = await Deno.readTextFile(`${out}/records.jsonl`);
  const report = await Deno.readTextFile(`${out}/report.json`);
  const log = console.log;
  console.log = () => {};
  try {
    assertEquals(await judgeCli([out]), 0);
  } finally {
    console.log = log;
  }
  assertEquals(await Deno.readTextFile(`${out}/records.jsonl`), before);
  assertEquals(await Deno.readTextFile(`${out}/report.json`), report);
});

tau.test("a τ-bench file's bad episodes are named and skipped; the rest imported", async () => {
  const episodes: TauEpisode[] = JSON.parse(await Deno.readTextFile(FILE));
  const [first, second] = episodes;
  const bad = [
    { ...first, task_id: 500 },
    { ...second, traj: "not messages" },
    {
      ...second,
      trial: 7,
      traj: [{
        role: "assistant",
        tool_calls: [{ id: "x", function: { name: "get_user_details", arguments: "{oops" } }],
      }],
    },
  ];
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/runs.json`, JSON.stringify([first, ...bad, second]));
  const { summary } = await runImport({
    from: "tau-bench",
    file: `${dir}/runs.json`,
    out: `${dir}/out`,
    data: tau.folder,
  });
  assertEquals(summary.episodes, { read: 5, imported: 2, skipped: 3 });
  const reasons = summary.skipped.map((s) => `${s.where}: ${s.reason}`);
  assertStringIncludes(
    reasons.join("\n"),
    `episode 2 (task 500, trial ${first.trial}): task "tau-bench:airline/500" is not one of the 50 tasks`,
  );
  assertStringIncludes(reasons.join("\n"), "episode 3 (task");
  assertStringIncludes(reasons.join("\n"), 'message 1: the arguments of "get_user_details" are not JSON');
});

tau.test("τ-bench's airline tasks get the outcome their gold calls for, scored by τ-bench's rule", () => {
  using opened = openTauBench(getDomain("airline"), tau.folder);
  const count = (expect: string) => opened.tasks.filter((t) => t.expect === expect).length;
  assertEquals([count("act"), count("refuse"), count("transfer"), count("inform")], [30, 15, 4, 1]);
  for (const task of opened.tasks) {
    assertEquals(task.rule, "tau-bench");
    // Only an `act` task's gold changes the world; a refusal is earned by saying so, not by doing nothing.
    assertEquals(opened.world.goldReplay(task).all.length > 0, task.expect === "act", task.id);
    if (task.expect === "refuse") assertEquals(task.milestones.map((m) => m.kind), ["refused"]);
  }
});
