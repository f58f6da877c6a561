// The checks that run agents through the protocol: the oracle solves every task under every condition
// and reads back the same from its chat transcripts; the sanity baselines (agents/baselines.ts) pass
// nothing and break no rule.
import { type Domain, episodeFigures, World } from "../envs/mod.ts";
import { isRefusal, rulesJudge } from "../judge/mod.ts";
import { chatTranscript, replayChat } from "../interop/mod.ts";
import { check, none } from "./_check.ts";
import { CONDITIONS, describe, kinds, NOMINAL, runCells } from "./_run.ts";

/** The sanity baselines: doing nothing, apologising, and making only malformed calls. */
const BASELINES = ["idle", "apologist", "broken"];

/** Registers the protocol's checks: the oracle on `protocolTasks` tasks under every condition, the rest on `count`. */
export function protocolChecks(domain: Domain, count: number, protocolTasks: number): void {
  const name = domain.name;

  Deno.test(`${name}: oracle solves every default task under every condition, reaching every milestone and breaking no rule`, async () => {
    const protocol = (await runCells(domain, { agents: ["oracle"], tasks: protocolTasks, runs: 1 })).records;
    const nominal = (await runCells(domain, NOMINAL(count))).records;
    // Per task: nominal 1, fault 1, env 3 presets, prompt 5 paraphrases.
    check(
      protocol.length === protocolTasks * 10,
      `${name}: ${protocol.length} oracle episodes, ${protocolTasks * 10} planned`,
    );
    check(nominal.length === count, `${name}: ${nominal.length} nominal oracle episodes, ${count} planned`);
    for (const condition of CONDITIONS) {
      const n = protocol.filter((r) => r.condition === condition).length;
      const expected = protocolTasks * (condition === "env" ? 3 : condition === "prompt" ? 5 : 1);
      check(n === expected, `${name}: ${n} oracle episodes under ${condition}, ${expected} planned`);
    }
    const failed = [...protocol, ...nominal].filter((r) =>
      !r.success || r.milestones.reached !== r.milestones.total || r.violations!.length + r.near_misses!.length > 0
    ).map(describe);
    none(failed, `${name}: the oracle (the domain's playbook, careful) fails these episodes`);
  });

  Deno.test(`${name}: the oracle's episodes read back from chat transcripts, without intents, grade and judge the same`, async () => {
    const run = await runCells(domain, NOMINAL(count));
    using world = World.open(domain);
    const tasks = new Map(world.defaultTasks(count).map((t) => [t.id, t]));
    const differ: string[] = [];
    for (const r of run.records) {
      // What `deno task import` makes of the transcript: the texts and the calls, answered again.
      const task = tasks.get(r.task)!;
      const { events } = replayChat(world, chatTranscript(run.events(r)), { task });
      const figures = episodeFigures(world, { task, events, refusal: isRefusal });
      const verdict = rulesJudge({ task, events, gold: world.goldReplay(task), domain, db: world.store });
      const was = `success ${r.success}, milestones ${JSON.stringify(r.milestones)}, ${kinds(r.violations ?? [])}`;
      const now = `success ${figures.success}, milestones ${JSON.stringify(figures.milestones)}, ${
        kinds(verdict.violations)
      }`;
      if (now !== was) differ.push(`${r.task}: ${was} → ${now}`);
    }
    none(
      differ,
      `${name}: the oracle's episodes read from their texts alone (its words are not read as it meant them)`,
    );
  });

  // The sanity baselines (docs/metrics.md "Grading") must fail every task under every condition: a task
  // one of them passes can be earned by doing nothing, by failing every call, or by apologising.
  Deno.test(`${name}: idle, apologist and broken pass no task under any condition`, async () => {
    const { records } = await runCells(domain, {
      agents: BASELINES,
      tasks: count,
      runs: 1,
      conditions: { nominal: { runs: 2 }, fault: { runs: 2 }, env: { runs: 1 }, prompt: { variants: 5 } },
    });
    // Per agent and task: nominal 2, fault 2, env 3 presets × 1, prompt 5.
    const planned = BASELINES.length * count * (2 + 2 + 3 + 5);
    check(records.length === planned, `${name}: ${records.length} baseline episodes, ${planned} planned`);
    // Every agent and condition is there: the test cannot pass by running nothing.
    for (const agent of BASELINES) {
      for (const condition of CONDITIONS) {
        check(
          records.some((r) => r.agent === agent && r.condition === condition && r.task.startsWith(`${name}/`)),
          `${name}: no ${agent} episode under ${condition}`,
        );
      }
    }
    const passed = records.filter((r) => r.success).map((r) =>
      `${r.task} passed by ${r.agent} under ${r.condition}${r.variant ? ` (${r.variant})` : ""}`
    );
    none(passed, `${name}: tasks a sanity baseline passes (earned by doing nothing, failing or apologising)`);
    // broken's calls are all malformed: none reached a tool's code.
    const reached = records.filter((r) => r.agent === "broken")
      .filter((r) => !(r.invalid_calls === r.tool_calls! - r.faults && r.tool_calls! > 0)).map(describe);
    none(reached, `${name}: the broken baseline's malformed calls reached a tool, or it made none`);
  });

  Deno.test(`${name}: the sanity baselines break no rule and attempt none: a malformed call is no near miss`, async () => {
    const { records } = await runCells(domain, { ...NOMINAL(10), agents: BASELINES });
    check(
      records.length === BASELINES.length * 10,
      `${name}: ${records.length} baseline episodes, ${BASELINES.length * 10} planned`,
    );
    const flagged = records.filter((r) => r.violations!.length + r.near_misses!.length > 0).map((r) =>
      `${r.agent} ${describe(r)}`
    );
    none(flagged, `${name}: the sanity baselines are flagged by the judge`);
  });
}
