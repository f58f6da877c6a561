// Real runs: a τ²-bench results file (a third-party agent on τ²'s airline, 25 simulations) imported
// with `deno task import --from tau2-bench`: every simulation replayed in ark's world on τ-bench's
// data, judged, and its reward recomputed under τ²'s rule, component by component, against the file's.
// Then the same file as a results folder (layout 2), bad input, a compare of two imports, and τ²'s
// retail tasks (DB × NL_ASSERTION) on simulations built here from their gold actions.
import { assert, assertEquals, assertMatch, assertRejects, assertStringIncludes, assertThrows } from "@std/assert";
import { readTau2BenchResults, ResultsFileError } from "../interop/import/tau2_bench.ts";
import { getDomain, openTau2Bench } from "../envs/mod.ts";
import { FakeModelClient } from "../agents/model/mod.ts";
import { ImportError, runImport } from "../interop/mod.ts";
import { main as compareCli } from "../cli/compare.ts";
import { parseImportArgs } from "../cli/import.ts";
import { tau2BenchTests } from "./fixtures/tau2_bench.ts";

const NAME = "results_whissle_visible.json";
const airline = tau2BenchTests("airline", NAME);
const retail = tau2BenchTests("retail", "tasks.json");
const FILE = `${airline.folder}/${NAME}`;

interface Sim {
  id: string;
  task_id: string;
  trial: number;
  termination_reason: string;
  messages: {
    role: string;
    content?: string | null;
    tool_calls?: { id: string; name: string }[] | null;
    id?: string;
  }[];
  reward_info: { reward: number; reward_breakdown: Record<string, number> | null };
}
interface Results {
  info: { environment_info: { domain_name: string } };
  tasks: { id: string }[];
  simulations: Sim[];
  simulation_index?: unknown;
}

const records = async (dir: string) =>
  (await Deno.readTextFile(`${dir}/records.jsonl`)).trim().split("\n").map((l) => JSON.parse(l));

async function importTo(
  file: string,
  options: { agent?: string; data?: string; taskFile?: string; nlJudge?: FakeModelClient } = {},
) {
  const out = await Deno.makeTempDir();
  const result = await runImport({ from: "tau2-bench", file, out, data: options.data ?? airline.data, ...options });
  return { out, ...result, report: JSON.parse(await Deno.readTextFile(`${out}/report.json`)).import };
}

airline.test("τ²'s airline run imported: every simulation replayed, judged, its reward recomputed as τ²'s", async () => {
  const file: Results = JSON.parse(await Deno.readTextFile(FILE));
  const { out, summary, report } = await importTo(FILE);
  const n = file.simulations.length;
  assertEquals(summary.episodes, { read: n, imported: n, skipped: 0 });
  const all = await records(out);
  // Judged under τ²'s policy variant: every record carries the judge's verdict.
  assertEquals(summary.judge_policy.name, "tau2-bench");
  assert(all.every((r) => Array.isArray(r.violations)), "every episode judged");
  // ark's reward equals the file's on every simulation, and so does each recomputed component.
  const rewards = summary.rewards!;
  assertEquals(rewards.episodes.length, n);
  for (const sim of file.simulations) {
    const e = rewards.episodes.find((x) => x.task === `tau2-bench:airline/${sim.task_id}` && x.run === sim.trial)!;
    assertEquals([e.file, e.ark, e.why], [sim.reward_info.reward, sim.reward_info.reward, null], e.task);
    const breakdown = sim.reward_info.reward_breakdown ?? {};
    for (const c of e.components) {
      assert(!c.taken, `${e.task}: ${c.name} taken from the file`);
      assertEquals([c.name, c.ark], [c.name, breakdown[c.name]], `${e.task}: ${c.name}`);
      assertEquals(c.file, breakdown[c.name]);
    }
    const record = all.find((r) => r.task === e.task && r.run === e.run)!;
    assertEquals([record.tau_reward, record.success], [sim.reward_info.reward, e.ark === 1]);
  }
  // Every airline task's basis is DB × COMMUNICATE: both recomputed on every episode, nothing taken.
  assertEquals(rewards.components.map((c) => [c.name, c.recomputed, c.taken]), [["DB", n, 0], ["COMMUNICATE", n, 0]]);
  // pass^1 from the file's rewards (computed here) and from ark's.
  const fileRate = file.simulations.filter((s) => s.reward_info.reward === 1).length / n;
  assertEquals(report.pass_hat_k[0].tau_reward, fileRate);
  assertEquals(report.pass_hat_k[0].ark, all.filter((r) => r.success).length / n);
  // The recorded tool results are ark's, each difference named but the few listed.
  const t = report.tool_results;
  assert(t.share >= 0.95, `${t.equal} of ${t.compared}`);
  const unexplained = t.mismatches.filter((m: { explained_by: string | null }) => m.explained_by === null);
  console.log(`τ² airline tool results: ${t.equal} of ${t.compared} equal; ${unexplained.length} unexplained`);
  assert(t.differences.some((d: { name: string }) => d.name === "user_record_user_id"));
  // The same file gives the same folder, byte for byte.
  const again = await importTo(FILE);
  for (const f of ["records.jsonl", "report.json", "report.html"]) {
    assertEquals(await Deno.readTextFile(`${again.out}/${f}`), await Deno.readTextFile(`${out}/${f}`), f);
  }
  assertStringIncludes(await Deno.readTextFile(`${out}/report.html`), "Rewards recomputed under the file");
});

airline.test("a component ark recomputes differently from the file is reported though the rewards agree", async () => {
  const file: Results = JSON.parse(await Deno.readTextFile(FILE));
  // A simulation the file scores DB 0 × COMMUNICATE 0; the copy says DB 1, its reward still 0.
  const sim = file.simulations.find((s) =>
    s.reward_info.reward_breakdown?.DB === 0 && s.reward_info.reward_breakdown?.COMMUNICATE === 0
  )!;
  sim.reward_info.reward_breakdown!.DB = 1;
  const path = `${await Deno.makeTempDir()}/${NAME}`;
  await Deno.writeTextFile(path, JSON.stringify({ ...file, simulations: [sim] }));
  const { out, summary } = await importTo(path);
  const [e] = summary.rewards!.episodes;
  assertEquals([e.file, e.ark], [0, 0]);
  assertStringIncludes(e.why ?? "", "DB: ark 0, the file 1 (the final state differs");
  const counts = summary.rewards!.components.map((c) => [c.name, c.disagreed]);
  assertEquals(counts, [["DB", 1], ["COMMUNICATE", 0]]);
  assertStringIncludes(await Deno.readTextFile(`${out}/report.html`), "differs from the file&#39;s");
});

airline.test("τ²'s null criteria as τ² scores them: no actions nor env assertions is DB 1, no criteria reward 1", async () => {
  type Criteria = { evaluation_criteria: Record<string, unknown> | null };
  const file: Omit<Results, "tasks"> & { tasks: ({ id: string } & Criteria)[] } = JSON.parse(
    await Deno.readTextFile(FILE),
  );
  // Two simulations the file rewards 0 for their final state; their tasks changed here.
  const [a, b] = file.simulations.filter((s) =>
    s.reward_info.reward_breakdown?.DB === 0 && s.reward_info.reward_breakdown?.COMMUNICATE === 1
  );
  const tasks = file.tasks.map((t): { id: string } & Criteria => {
    if (t.id === a.task_id) {
      return { ...t, evaluation_criteria: { ...t.evaluation_criteria, actions: null } };
    }
    return t.id === b.task_id ? { ...t, evaluation_criteria: null } : t;
  });
  const path = `${await Deno.makeTempDir()}/${NAME}`;
  await Deno.writeTextFile(path, JSON.stringify({ ...file, tasks, simulations: [a, b] }));
  const { summary } = await importTo(path);
  const [ea, eb] = summary.rewards!.episodes;
  // a: DB 1 without a replay, COMMUNICATE still recomputed; reward 1.
  assertEquals(ea.components.map((c) => [c.name, c.ark, c.taken]), [["DB", 1, false], ["COMMUNICATE", 1, false]]);
  assertEquals(ea.ark, 1);
  assertStringIncludes(ea.why ?? "", "DB: ark 1, the file 0 (no expected actions or env assertions");
  // b: no components at all, reward 1.
  assertEquals([eb.components, eb.ark], [[], 1]);
  // The same tasks with actions [] (not null): DB is checked, the episode's writes against none.
  const empty = tasks.map((t) =>
    t.id === a.task_id ? { ...t, evaluation_criteria: { ...t.evaluation_criteria, actions: [] } } : t
  );
  await Deno.writeTextFile(path, JSON.stringify({ ...file, tasks: empty, simulations: [a] }));
  const again = await importTo(path);
  const db = again.summary.rewards!.episodes[0].components.find((c) => c.name === "DB")!;
  assertEquals(db.taken, false);
  assertEquals(
    db.ark,
    a.messages.some((m) => (m.tool_calls ?? []).some((c) => /^(book|cancel|update|send)_/.test(c.name))) ? 0 : 1,
  );
});

airline.test("a τ² results folder (results.json and simulations/<id>.json) gives the file's records", async () => {
  const file: Results = JSON.parse(await Deno.readTextFile(FILE));
  const dir = `${await Deno.makeTempDir()}/run`;
  await Deno.mkdir(`${dir}/simulations`, { recursive: true });
  const { simulations, ...rest } = file;
  const index = simulations.map((s) => ({
    id: s.id,
    task_id: s.task_id,
    trial: s.trial,
    reward: s.reward_info.reward,
  }));
  await Deno.writeTextFile(`${dir}/results.json`, JSON.stringify({ ...rest, simulation_index: index }));
  for (const s of simulations) await Deno.writeTextFile(`${dir}/simulations/${s.id}.json`, JSON.stringify(s));
  const one = await importTo(FILE, { agent: "whissle" });
  const two = await importTo(dir, { agent: "whissle" });
  assertEquals(two.summary.episodes, one.summary.episodes);
  assertEquals(
    await Deno.readTextFile(`${two.out}/records.jsonl`),
    await Deno.readTextFile(`${one.out}/records.jsonl`),
  );
  // A simulation the index names but the folder lacks is named, the rest imported.
  await Deno.remove(`${dir}/simulations/${simulations[3].id}.json`);
  const three = await importTo(dir, { agent: "whissle" });
  assertEquals(three.summary.episodes.imported, simulations.length - 1);
  assertStringIncludes(three.summary.skipped[0].where, simulations[3].id);
  // results.json itself names the folder layout too (its sibling simulations/), as τ²'s Results.load has it.
  const file2 = await importTo(`${dir}/results.json`, { agent: "whissle" });
  assertEquals(
    await Deno.readTextFile(`${file2.out}/records.jsonl`),
    await Deno.readTextFile(`${three.out}/records.jsonl`),
  );
  // Without simulation_index: every simulations/*.json, by name.
  await Deno.writeTextFile(`${dir}/results.json`, JSON.stringify(rest));
  const four = await importTo(dir, { agent: "whissle" });
  assertEquals(four.summary.episodes, { read: simulations.length - 1, imported: simulations.length - 1, skipped: 0 });
  const ids = simulations.filter((_, i) => i !== 3).map((s) => s.id).sort();
  const byId = new Map(simulations.map((s) => [s.id, `tau2-bench:airline/${s.task_id}`]));
  assertEquals(four.summary.rewards!.episodes.map((e) => e.task), ids.map((id) => byId.get(id)));
  // No simulations at all: refused in one line, in either layout.
  for (const s of simulations) {
    await Deno.remove(`${dir}/simulations/${s.id}.json`, { recursive: true }).catch(() => {});
  }
  for (const path of [dir, `${dir}/results.json`]) {
    const err = await assertRejects(() => importTo(path), ImportError);
    assertMatch(err.message, /holds no simulation files; expected τ²-bench's simulations\/<id>\.json/);
    assert(!err.message.includes("\n"));
  }
  const alone = `${await Deno.makeTempDir()}/results.json`;
  await Deno.writeTextFile(alone, JSON.stringify(rest));
  const err = await assertRejects(() => importTo(alone), ImportError);
  assertMatch(err.message, /it holds no simulations; expected τ²-bench's results/);
});

airline.test("bad τ² input is refused in one line saying what is accepted", async () => {
  const dir = await Deno.makeTempDir();
  const write = async (
    name: string,
    text: string,
  ) => (await Deno.writeTextFile(`${dir}/${name}`, text), `${dir}/${name}`);
  const file: Results = JSON.parse(await Deno.readTextFile(FILE));
  const cases: [string, string, RegExp][] = [
    ["not JSON", await write("a.json", "{nope"), /it is not JSON.*expected τ²-bench's results/],
    ["wrong shape", await write("b.json", "[1, 2]"), /expected τ²-bench's results/],
    [
      "unknown domain",
      await write("c.json", JSON.stringify({ ...file, info: { environment_info: { domain_name: "telecom" } } })),
      /domain "telecom".*expected one of airline, retail/,
    ],
  ];
  for (const [what, path, expected] of cases) {
    const err = await assertRejects(() => importTo(path), ImportError);
    assertMatch(err.message, expected, what);
    assert(!err.message.includes("\n"), `${what}: one line`);
  }
  // The airline runs read as retail's: refused, its own domain named (τ²'s tools counted as the domains').
  const other = await assertRejects(() => runImport({ from: "tau2-bench", file: FILE, out: dir, domain: "retail" }));
  assertMatch((other as Error).message, /as τ²-bench's retail runs: its episodes call tools .*pass --domain airline$/);
  // Missing data: a folder without db.json.
  const err = await assertRejects(() => importTo(FILE, { data: dir }), ImportError);
  assertMatch(err.message, /db\.json.*no such file.*--data/);
  assert(!err.message.includes("\n"));
});

airline.test("compare flags an import whose agent's writes were dropped as significantly worse", async () => {
  const file: Results = JSON.parse(await Deno.readTextFile(FILE));
  const writes = new Set([
    "book_reservation",
    "cancel_reservation",
    "update_reservation_flights",
    "update_reservation_baggages",
    "update_reservation_passengers",
    "send_certificate",
  ]);
  // The changed copy: in every rewarded simulation, each write call (and its result) left out; the
  // file's rewards kept as they were.
  for (const s of file.simulations.filter((s) => s.reward_info.reward === 1)) {
    const dropped = new Set<string>();
    s.messages = s.messages.flatMap((m) => {
      const calls = m.tool_calls ?? [];
      const kept = calls.filter((c) => !writes.has(c.name));
      for (const c of calls) if (writes.has(c.name)) dropped.add(c.id);
      if (m.role === "tool" && m.id !== undefined && dropped.has(m.id)) return [];
      if (calls.length > 0 && kept.length === 0) return [];
      return [calls.length > 0 ? { ...m, tool_calls: kept } : m];
    });
  }
  const changed = `${await Deno.makeTempDir()}/${NAME}`;
  await Deno.writeTextFile(changed, JSON.stringify(file));
  const a = await importTo(FILE), b = await importTo(changed);
  const lost = b.summary.rewards!.episodes.filter((e) => e.why !== null);
  assert(lost.length >= 5, `${lost.length} rewards lost`);
  // Each lost because its final state is not the gold's, where they first differ named.
  assert(lost.every((e) => e.why!.startsWith("DB: ark 0, the file 1 (the final state differs")), lost[0].why!);
  console.log(`changed copy: ${lost.length} of ${file.simulations.length} rewards lost`);
  const code = await compareCli([a.out, b.out, "--fail-on", "accuracy"]);
  assertEquals(code, 1);
  // The same import compared with itself: no change.
  assertEquals(await compareCli([a.out, a.out, "--fail-on", "accuracy"]), 0);
});

retail.test("τ²'s retail tasks (DB × NL_ASSERTION): DB recomputed, NL taken from the file, tasks from --task-file", async () => {
  const tasks: { id: string; evaluation_criteria: { actions: { name: string; arguments: unknown }[] } }[] = JSON.parse(
    await Deno.readTextFile(`${retail.folder}/tasks.json`),
  );
  const chosen = tasks.filter((t) => t.evaluation_criteria.actions.length > 0).slice(0, 6);
  // Simulations built here: the agent makes the task's gold calls (the last one's writes left out),
  // and the file says reward 1 with every component met.
  const simulations = chosen.map((t, i) => {
    const calls = i === chosen.length - 1 ? t.evaluation_criteria.actions.slice(0, 1) : t.evaluation_criteria.actions;
    return rewardedSimulation(`sim-${i}`, t.id, calls);
  });
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(
    `${dir}/retail.json`,
    JSON.stringify({ timestamp: "t", info: { environment_info: { domain_name: "retail" } }, tasks: [], simulations }),
  );
  const { summary } = await importTo(`${dir}/retail.json`, {
    data: retail.data,
    taskFile: `${retail.folder}/tasks.json`,
  });
  assertEquals(summary.episodes.imported, chosen.length);
  const rewards = summary.rewards!;
  const nl = rewards.components.find((c) => c.name === "NL_ASSERTION")!;
  assertEquals([nl.recomputed, nl.taken], [0, chosen.length]);
  const differ = rewards.episodes.filter((e) => e.why !== null);
  // Only the simulation whose writes were left out loses its reward, for its final state.
  const lastWrites = chosen.at(-1)!.evaluation_criteria.actions.length > 1;
  assertEquals(differ.length, lastWrites ? 1 : 0);
  if (lastWrites) assertStringIncludes(differ[0].why!, "DB: ark 0, the file 1 (the final state differs");

  // With a judge model, NL_ASSERTION is judged again: this one finds the first assertion unmet.
  const judge = new FakeModelClient((request) => {
    const n = [...(request.messages.at(-1)!.content ?? "").matchAll(/^\d+\. /gm)].length;
    return { content: JSON.stringify({ results: Array.from({ length: n }, (_, i) => ({ met: i > 0, reason: "" })) }) };
  });
  const judged = await importTo(`${dir}/retail.json`, {
    data: retail.data,
    taskFile: `${retail.folder}/tasks.json`,
    nlJudge: judge,
  });
  const withAssertions =
    chosen.filter((t) =>
      ((t.evaluation_criteria as { nl_assertions?: string[] | null }).nl_assertions ?? []).length > 0
    ).length;
  assertEquals(judge.requests.length, withAssertions);
  const nl2 = judged.summary.rewards!.components.find((c) => c.name === "NL_ASSERTION")!;
  assertEquals([nl2.recomputed, nl2.taken], [chosen.length, 0]);
  const lostNl = judged.summary.rewards!.episodes.filter((e) => e.why?.includes("NL_ASSERTION: ark 0, the file 1"));
  assertEquals(lostNl.length, withAssertions);
  assert(lostNl.every((e) => e.ark === 0 && e.why!.includes("the judge (fake:fake-model) finds unmet")));
});

retail.test("τ²'s retail tools replayed: get_item_details answered, an unknown tool a failed call, as τ² replays it", async () => {
  type Action = { name: string; arguments: Record<string, unknown> };
  const tasks: { id: string; evaluation_criteria: { actions: Action[] } }[] = JSON.parse(
    await Deno.readTextFile(`${retail.folder}/tasks.json`),
  );
  // A task whose gold actions name an item; the agent looks it up, calls a tool no world has, then acts.
  const t = tasks.find((t) => t.evaluation_criteria.actions.some((a) => Array.isArray(a.arguments.item_ids)))!;
  const gold = t.evaluation_criteria.actions;
  const item = (gold.find((a) => Array.isArray(a.arguments.item_ids))!.arguments.item_ids as string[])[0];
  const calls: Action[] = [
    { name: "get_item_details", arguments: { item_id: item } },
    { name: "lookup_everything", arguments: {} },
    ...gold,
  ];
  const sim = rewardedSimulation("sim-0", t.id, calls);
  const data: { products: Record<string, { variants: Record<string, unknown> }> } = JSON.parse(
    await Deno.readTextFile(`${retail.data}/db.json`),
  );
  const variant = Object.values(data.products).find((p) => item in p.variants)!.variants[item];
  sim.messages.splice(2, 0, { role: "tool", id: "c0", content: JSON.stringify(variant) } as never);
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(
    `${dir}/retail.json`,
    JSON.stringify({ info: { environment_info: { domain_name: "retail" } }, tasks: [], simulations: [sim] }),
  );
  const { out, summary, report } = await importTo(`${dir}/retail.json`, {
    data: retail.data,
    taskFile: `${retail.folder}/tasks.json`,
  });
  assertEquals(summary.episodes, { read: 1, imported: 1, skipped: 0 });
  const [record] = await records(out);
  // Both calls replayed (none skipped), the unknown one the episode's only failed call.
  assertEquals(record.actions.slice(0, 2), ["get_item_details", "lookup_everything"]);
  assertEquals(record.resources.num_errors, 1);
  // get_item_details answers with the item as its product lists it in the data: τ²'s recorded answer.
  assertEquals([report.tool_results.compared, report.tool_results.equal], [1, 1]);
  // The failed call changes nothing: the gold actions still give the gold's final state.
  const db = summary.rewards!.episodes[0].components.find((c) => c.name === "DB")!;
  assertEquals([db.ark, db.file], [1, 1]);
});

for (const domain of ["airline", "retail"]) {
  const policy = tau2BenchTests(domain, "policy.md");
  policy.test(`${domain}'s declared τ² policy is the confirmation rule of τ²'s ${domain} policy.md`, async () => {
    const text = (await Deno.readTextFile(`${policy.folder}/policy.md`)).replace(/\s+/g, " ");
    const declared = getDomain(domain).tau2Bench!.policy!;
    // τ²'s rule: before a database update, list the action's details and get an explicit yes.
    const rule =
      /Before taking any actions? that updates? the (?:booking )?database \(([^)]*)\), you must list the action details and obtain explicit user confirmation \(yes\) to proceed/
        .exec(text);
    assert(rule !== null, `${domain}'s policy.md has no confirmation rule`);
    assertEquals(declared.name, "tau2-bench");
    assertStringIncludes(declared.summary, "lists its details and the user says yes");
    // It asks for the details, not for amounts to be stated before the yes.
    assertEquals(declared.amounts, /\b(amount|price|cost|charge)/i.test(rule[0]));
  });
}

Deno.test("parseImportArgs() takes --from tau2-bench with --task-file and refuses what does not fit it", () => {
  const args = parseImportArgs(["--from", "tau2-bench", "run.json", "--out", "o", "--task-file", "tasks.json"]);
  assert(args !== "help");
  assertEquals([args.from, args.taskFile], ["tau2-bench", "tasks.json"]);
  const refused = (argv: string[], expected: RegExp) => {
    let message = "";
    try {
      parseImportArgs(argv);
    } catch (err) {
      message = (err as Error).message;
    }
    assertMatch(message, expected);
  };
  refused(["--from", "tau-bench", "r.json", "--out", "o", "--task-file", "t.json"], /Unexpected --task-file/);
  refused(
    ["--from", "tau2-bench", "r.json", "--out", "o", "--domain", "telecom"],
    /expected one of "airline", "retail"/,
  );
  refused(["--from", "tau2-bench", "r.json", "--out", "o", "--tasks", "3"], /Unexpected --tasks/);
});

Deno.test("the import task may reach a judge model (--judge llm:…), as the judge task may", async () => {
  const tasks: Record<string, string> = JSON.parse(await Deno.readTextFile(new URL("../deno.json", import.meta.url)))
    .tasks;
  for (const name of ["import", "judge"]) assertMatch(tasks[name], /--allow-net\b/, name);
});

Deno.test("τ²'s termination reasons as ark's endings: a step limit no error, an infrastructure error not the agent's", () => {
  const text = (reasons: string[]) =>
    JSON.stringify({
      info: { environment_info: { domain_name: "airline" } },
      tasks: [{ id: "3", evaluation_criteria: { actions: [], communicate_info: [], reward_basis: ["DB"] } }],
      simulations: reasons.map((r, i) => ({
        id: `s${i}`,
        task_id: "3",
        trial: i,
        termination_reason: r,
        messages: [],
      })),
    });
  const reasons = ["max_steps", "infrastructure_error", "user_error", "too_many_errors"];
  const endings = readTau2BenchResults(text(reasons), { agent: "a", file: "r.json" }).episodes.map((e) => e.ending!);
  assertEquals(endings[0], { endedBy: "max_steps" });
  assertEquals([endings[1].agentError, endings[1].userError !== undefined], [undefined, true]);
  assertStringIncludes(endings[1].userError!, "infrastructure");
  assertEquals([endings[2].agentError, endings[2].userError !== undefined], [undefined, true]);
  assertStringIncludes(endings[3].agentError!, "too_many_errors");
});

Deno.test("a bad --task-file is refused in its own one line naming a τ² tasks.json", () => {
  const text = JSON.stringify({ info: { environment_info: { domain_name: "airline" } }, simulations: [] });
  for (const [tasks, expected] of [["{nope", /it is not JSON/], ['{"a": 1}', /it is JSON but not an array/]] as const) {
    const err = assertThrows(
      () => readTau2BenchResults(text, { agent: "a", file: "r.json", tasksText: tasks, taskFile: "t.json" }),
      ResultsFileError,
    );
    assertMatch(err.message, expected);
    assertMatch(err.message, /^Cannot read the task file "t\.json": .*expected τ²-bench's tasks\.json/);
    assert(!err.message.includes("results"), err.message);
  }
});

airline.test("τ²'s book_reservation takes the booked seats from each flight, as τ²'s airline does", async () => {
  const file: Results = JSON.parse(await Deno.readTextFile(FILE));
  const { tasks } = readTau2BenchResults(JSON.stringify(file), { agent: "a", file: "r" });
  const spec = tasks.find((t) => t.actions.some((a) => a.name === "book_reservation"))!;
  const book = spec.actions.find((a) => a.name === "book_reservation")!.arguments as {
    cabin: string;
    passengers: unknown[];
    flights: { flight_number: string; date: string }[];
  };
  using tau2 = openTau2Bench(getDomain("airline"), airline.data, [spec]);
  const { world } = tau2;
  type Flights = { flights: Record<string, { dates: Record<string, { available_seats: Record<string, number> }> }> };
  const seats = () =>
    book.flights.map((f) =>
      (world.domain.tau2Bench!.export(world.store) as Flights).flights[f.flight_number].dates[f.date]
        .available_seats[book.cabin]
    );
  const before = seats();
  using _episode = world.beginEpisode();
  const ctx = world.taskContext(tau2.tasks[0]);
  for (const a of spec.actions) {
    const r = world.call(ctx, a.name, a.arguments);
    if (a.name === "book_reservation") assert(r.ok, JSON.stringify(r));
  }
  assertEquals(seats(), before.map((n) => n - book.passengers.length));
});

// A τ² retail simulation made here: the agent makes `calls` one per turn and says "Done."; the file
// says reward 1 with DB and NL_ASSERTION met.
function rewardedSimulation(id: string, task: string, calls: readonly { name: string; arguments: unknown }[]) {
  return {
    id,
    task_id: task,
    trial: 0,
    termination_reason: "user_stop",
    messages: [
      { role: "user", content: "Hi" },
      ...calls.map((a, j) => ({
        role: "assistant",
        content: null,
        tool_calls: [{ id: `c${j}`, name: a.name, arguments: a.arguments, requestor: "assistant" }],
      })),
      { role: "assistant", content: "Done." },
    ],
    reward_info: { reward: 1, reward_breakdown: { DB: 1, NL_ASSERTION: 1 } },
  };
}
