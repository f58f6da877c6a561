import { assert, assertAlmostEquals, assertEquals, assertThrows } from "@std/assert";
import { toy } from "../tests/fixtures/toy_domain.ts";
import { runEpisode } from "../envs/episode.ts";
import { Rng } from "../envs/rng.ts";
import { scriptedUser } from "../envs/user.ts";
import { World } from "../envs/world.ts";
import type { AgentFactory } from "../envs/mod.ts";
import { literal, noisy, oracle, reckless } from "./scripted.ts";
import { scriptedAgents } from "./mod.ts";

const NO_ERRORS = { wrongArgument: 0, skippedConfirmation: 0, skippedLookup: 0, wrongTool: 0, prematureEnd: 0 };

async function episode(world: World, factory: AgentFactory, taskIndex: number, seed: string | number) {
  const task = world.defaultTasks(3)[taskIndex];
  const rng = new Rng(seed);
  const agent = factory({ rng: rng.child("agent"), domain: toy, task });
  const user = scriptedUser(task, rng.child("user"), { tools: toy.tools });
  return await runEpisode(world, { task, agent, user, rng });
}

Deno.test("noisy() with every rate 0 behaves exactly like oracle()", async () => {
  using world = World.open(toy);
  for (let seed = 0; seed < 5; seed++) {
    for (const t of [0, 1, 2]) {
      const a = await episode(world, oracle(), t, seed);
      const b = await episode(world, noisy({ rates: NO_ERRORS, confidence: { clean: 1 } }), t, seed);
      assertEquals(JSON.stringify(b.events), JSON.stringify(a.events));
    }
  }
});

Deno.test("noisy() succeeds at about (1 - r)^toolCalls with a wrong-argument rate r", async () => {
  using world = World.open(toy);
  const r = 0.3;
  const n = 400;
  let wins = 0;
  let lowConfidenceWhenFailed = 0;
  for (let seed = 0; seed < n; seed++) {
    const e = await episode(world, noisy({ rates: { ...NO_ERRORS, wrongArgument: r } }), 0, `s${seed}`);
    if (e.success) wins++;
    else if (e.confidence === 0.3) lowConfidenceWhenFailed++;
  }
  // The oracle makes 2 tool calls on this task, and any changed argument spoils it: 0.7^2 = 0.49.
  assertAlmostEquals(wins / n, (1 - r) ** 2, 0.08);
  // Every failure came from an error, so each failed run reported the lowered confidence.
  assertEquals(lowConfidenceWhenFailed, n - wins);
});

Deno.test("noisy() with skipped confirmations writes without asking", async () => {
  using world = World.open(toy);
  const e = await episode(world, noisy({ rates: { ...NO_ERRORS, skippedConfirmation: 1 } }), 0, 1);
  assert(!e.events.some((x) => x.intent?.kind === "propose"));
  assertEquals(e.stateMatch, true);
  assertEquals(e.confidence, 0.3);
});

Deno.test("noisy() with a premature end stops at once", async () => {
  using world = World.open(toy);
  const e = await episode(world, noisy({ rates: { ...NO_ERRORS, prematureEnd: 1 } }), 0, 1);
  assertEquals(e.steps, 1);
  assertEquals(e.endedBy, "agent");
  assertEquals(e.success, false);
});

Deno.test("noisy() rejects rates outside [0, 1] or adding up to more than 1", () => {
  assertThrows(() => noisy({ rates: { wrongArgument: 1.5 } }), RangeError, "wrongArgument");
  assertThrows(() => noisy({ rates: { wrongArgument: 0.6, wrongTool: 0.6 } }), RangeError, "add up");
});

Deno.test("reckless() acts without proposing or looking up", async () => {
  using world = World.open(toy);
  const e = await episode(world, reckless(), 0, 1);
  assertEquals(e.actions, ["transfer"]);
  assert(!e.events.some((x) => x.intent?.kind === "propose"));
});

Deno.test("literal() plays exactly like oracle() when nothing is perturbed or faulted", async () => {
  using world = World.open(toy);
  for (const t of [0, 1, 2]) {
    const a = await episode(world, oracle(), t, t);
    const b = await episode(world, literal(), t, t);
    assertEquals(JSON.stringify(b.events), JSON.stringify(a.events));
    assertEquals(b.confidence, 1);
  }
  assertEquals(Object.keys(scriptedAgents), ["oracle", "noisy", "reckless", "literal"]);
});
