// The reliability protocol end to end: faults, perturbations and paraphrases as conditions of an
// experiment, and the behaviour the scripted agents were built to show, measured with scoring.
import { assert, assertAlmostEquals, assertEquals, assertGreaterOrEqual, assertLessOrEqual } from "@std/assert";
import { getDomain, type Json, Rng, World } from "../envs/mod.ts";
import { decodeResult, encodeArgs, noisy, perturbationHints } from "../agents/mod.ts";
import { type EpisodeRecord, MemoryResults, recordsJsonl, resolveConfig, runExperiment } from "../eval/mod.ts";
import { columnRenames, envCondition, FAULT_KINDS, faultCondition, faultMessage } from "../eval/conditions/mod.ts";
import { scoreRecords } from "../scoring/mod.ts";

const airline = getDomain("airline");
const NO_ERRORS = { wrongArgument: 0, skippedConfirmation: 0, skippedLookup: 0, wrongTool: 0, prematureEnd: 0 };
const SCRIPTED = ["oracle", "noisy", "reckless", "literal"];

// Pinned to the airline: its agents' built-in behaviour under faults and perturbations is what is checked.
async function run(config: Parameters<typeof resolveConfig>[0], agents = {}): Promise<MemoryResults> {
  const sink = new MemoryResults();
  await runExperiment(resolveConfig({ suite: "tasks", domains: ["airline"], ...config }), { sink, agents });
  return sink;
}

Deno.test("a faulted call never reaches the world: the episode's tracked changes stay empty", () => {
  using world = World.open(airline);
  const ctx = world.context(new Rng("w"));
  const writes = world.defaultTasks(50).flatMap((t) => t.gold).filter((c) => world.tool(c.name)!.writes);
  assert(writes.length > 10);
  const next = (name: string, args: unknown) => world.call(ctx, name, args);
  {
    using recording = world.beginEpisode();
    const always = faultCondition({ seed: "f", p: 1 });
    for (const call of writes) {
      const result = always.dispatch!({ step: 1, name: call.name, args: call.args }, next);
      assertEquals([result.ok, result.error?.code], [false, "fault"]);
      assertEquals(result.error!.message, faultMessage(result.fault as never, call.args));
    }
    assertEquals(recording.changes(), []);
  }
  using recording = world.beginEpisode();
  const never = faultCondition({ seed: "f", p: 0 });
  for (const call of writes) never.dispatch!({ step: 1, name: call.name, args: call.args }, next);
  assert(recording.changes().length > 0, "the same calls unfaulted change the world");
});

Deno.test("the fault condition injects every kind at its rate, recorded per event and counted per record", async () => {
  const sink = await run({
    agents: ["oracle"],
    tasks: 50,
    runs: 8,
    conditions: { nominal: false, env: false, prompt: false, fault: { p_fault: 0.2 } },
  });
  const kinds = new Map<string, number>();
  let calls = 0;
  for (const record of sink.records()) {
    const events = sink.events(record).filter((e) => e.kind === "tool");
    calls += events.length;
    for (const e of events) if (e.fault) kinds.set(e.fault, (kinds.get(e.fault) ?? 0) + 1);
    assertEquals(events.filter((e) => e.fault).length, record.faults);
    assert(events.filter((e) => e.fault).every((e) => e.error?.code === "fault"));
    assertEquals(record.recovered, record.faults > 0 ? record.success : record.recovered);
  }
  const faults = [...kinds.values()].reduce((a, b) => a + b, 0);
  assert(calls > 1000, `${calls} calls`);
  assertAlmostEquals(faults / calls, 0.2, 0.04);
  assertEquals([...kinds.keys()].sort(), [...FAULT_KINDS].sort());
  for (const kind of FAULT_KINDS) assertAlmostEquals(kinds.get(kind)! / calls, 0.2 / 8, 0.015, kind);
});

Deno.test("perturbations round-trip: arguments mapped back, results normalised, schemas renamed", () => {
  using world = World.open(airline);
  const ctx = world.context(new Rng("p"));
  const env = envCondition({ preset: "high", tools: airline.tools, columns: columnRenames(world.store), seed: "s" });
  const hints = perturbationHints(env.hints)!;
  const shownNames = (schema: unknown): string[] =>
    Object.keys((schema as { properties: Record<string, unknown> }).properties);
  for (const tool of env.tools) assert(shownNames(tool.parameters).every((n) => !n.includes("_")), tool.name);
  for (const task of world.defaultTasks(50)) {
    for (const call of task.gold) {
      const shown = encodeArgs(call.args, hints);
      let received: unknown;
      env.dispatch!({ step: 1, name: call.name, args: shown }, (name, args) => {
        received = args;
        return { name, args, ok: true, result: null };
      });
      assertEquals(received, call.args);
      if (world.tool(call.name)!.writes) continue;
      const result = env.dispatch!({ step: 1, name: call.name, args: shown }, (n, a) => world.call(ctx, n, a));
      assertEquals(decodeResult(result.result as Json, hints), world.call(ctx, call.name, call.args).result);
    }
  }
});

Deno.test("agents under faults and perturbations behave as built (R_fault, R_env from scoring)", async () => {
  const sink = await run({
    agents: ["oracle", "literal"],
    tasks: 50,
    runs: 2,
    conditions: { fault: { p_fault: 0.2, runs: 3 }, env: { runs: 1 }, prompt: { variants: 2 } },
  });
  const profiles = scoreRecords(sink.records(), { resamples: 20 });
  const { oracle, literal } = profiles;
  // Retrying after a fault keeps the oracle's accuracy; giving up at the first one loses it.
  assertGreaterOrEqual(oracle.R_fault!, 0.95);
  assertLessOrEqual(literal.R_fault!, 0.8);
  // Following the hints keeps every answer; reading the parameter names literally fails the calls.
  assertEquals(oracle.R_env, 1);
  assertLessOrEqual(literal.R_env!, 0.3);
  assertEquals([oracle.R_prompt, literal.R_prompt], [1, 1]);
  // Milestones compare what reached the world, whatever names the agent was shown.
  const oracleEnv = sink.records().filter((r) => r.agent === "oracle" && r.condition === "env");
  assert(oracleEnv.every((r) => r.milestones.reached === r.milestones.total));
  const literalEnv = sink.records().filter((r) => r.agent === "literal" && r.condition === "env");
  assert(literalEnv.every((r) => r.invalid_calls! > 0 || r.tool_calls === 0));
});

Deno.test("every scripted agent with no error is fully consistent in every condition", async () => {
  const sink = await run({
    agents: SCRIPTED,
    tasks: 25,
    runs: 3,
    conditions: { fault: { p_fault: 0 }, env: { runs: 3 }, prompt: { variants: 2, runs: 3 } },
  }, { noisy: noisy({ rates: NO_ERRORS }) });
  const groups = new Map<string, EpisodeRecord[]>();
  for (const r of sink.records()) {
    const key = `${r.agent} ${r.condition} ${r.variant}`;
    groups.set(key, [...groups.get(key) ?? [], r]);
  }
  assertEquals(groups.size, SCRIPTED.length * (1 + 1 + 3 + 2));
  for (const [key, records] of groups) {
    // Scored as if nominal: consistency is defined on one condition's runs.
    const [profile] = Object.values(scoreRecords(records.map((r) => ({ ...r, condition: "nominal" })), {
      resamples: 10,
    }));
    assertEquals(profile.C_out, 1, key);
    assert(profile.C_traj_s === 1 || (profile.C_traj_s === null && records.every((r) => !r.success)), key);
    const byTask = Map.groupBy(records, (r) => r.task);
    for (const runs of byTask.values()) {
      assertEquals(new Set(runs.map((r) => JSON.stringify([r.success, r.actions]))).size, 1, `${key} ${runs[0].task}`);
    }
  }
});

Deno.test("the same protocol twice gives byte-identical records", async () => {
  const config = {
    agents: ["noisy", "reckless"],
    tasks: 10,
    runs: 2,
    conditions: { env: { presets: ["medium" as const] } },
  };
  const [a, b] = [await run(config), await run(config)];
  assertEquals(recordsJsonl(a.records()), recordsJsonl(b.records()));
  assert(a.records().some((r) => r.condition === "fault" && r.faults > 0));
});
