// The scripted agents on the airline world's default tasks, through the public entry points.
import { assert, assertAlmostEquals, assertEquals } from "@std/assert";
import {
  type AgentFactory,
  type EpisodeResult,
  getDomain,
  Rng,
  runEpisode,
  scriptedUser,
  type Task,
  World,
} from "../envs/mod.ts";
import { noisy, oracle, reckless } from "../agents/mod.ts";

const airline = getDomain("airline");
const NO_ERRORS = { wrongArgument: 0, skippedConfirmation: 0, skippedLookup: 0, wrongTool: 0, prematureEnd: 0 };

async function play(world: World, task: Task, factory: AgentFactory, seed: string): Promise<EpisodeResult> {
  const rng = new Rng(seed);
  const agent = factory({ rng: rng.child("agent"), domain: airline, task });
  const user = scriptedUser(task, rng.child("user"), { tools: airline.tools, vocabulary: airline.vocabulary });
  return await runEpisode(world, { task, agent, user, rng });
}

Deno.test("oracle() succeeds on every default airline task and reaches every milestone", async () => {
  using world = World.open(airline);
  const tasks = world.defaultTasks(50);
  for (const task of tasks) {
    const r = await play(world, task, oracle(), `oracle/${task.id}`);
    assert(
      r.success,
      `oracle failed ${task.id} (${task.intent}): ended by ${r.endedBy}, actions ${r.actions.join(",")}`,
    );
    assertEquals(r.milestones.reached, r.milestones.total, task.id);
  }
});

Deno.test("noisy() with every rate 0 gives the oracle's trajectories on the airline", async () => {
  using world = World.open(airline);
  for (const task of world.defaultTasks(20)) {
    const a = await play(world, task, oracle(), task.id);
    const b = await play(world, task, noisy({ rates: NO_ERRORS, confidence: { clean: 1 } }), task.id);
    assertEquals(JSON.stringify(b.events), JSON.stringify(a.events), task.id);
  }
});

Deno.test("noisy() success follows (1 - r)^calls on the airline's action tasks", async () => {
  using world = World.open(airline);
  const tasks = world.defaultTasks(50).filter((t) => t.expect === "act");
  const r = 0.1;
  const runs = 12;
  let expected = 0;
  let wins = 0;
  for (const task of tasks) {
    const calls = (await play(world, task, oracle(), task.id)).toolCalls;
    expected += (1 - r) ** calls * runs;
    for (let k = 0; k < runs; k++) {
      if ((await play(world, task, noisy({ rates: { ...NO_ERRORS, wrongArgument: r } }), `${task.id}/${k}`)).success) {
        wins++;
      }
    }
  }
  const n = tasks.length * runs;
  assertAlmostEquals(wins / n, expected / n, 0.07);
});

Deno.test("reckless() makes writes the policy forbids", async () => {
  using world = World.open(airline);
  const forbidden = world.defaultTasks(50).filter((t) => t.intent === "cancel_forbidden");
  assert(forbidden.length >= 3);
  let failures = 0;
  for (const task of forbidden) {
    const r = await play(world, task, reckless(), task.id);
    assertEquals(r.actions.includes("cancel_reservation"), true, task.id);
    if (!r.success) failures++;
  }
  assertEquals(failures, forbidden.length);
});
