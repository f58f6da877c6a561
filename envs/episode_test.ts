import { assert, assertEquals } from "@std/assert";
import { z } from "zod";
import { toy } from "../tests/fixtures/toy_domain.ts";
import { defineDomain } from "./domain.ts";
import { runEpisode } from "./episode.ts";
import { changeDelta, composeChanges } from "./grade.ts";
import { replayTrajectory } from "./replay.ts";
import { Rng } from "./rng.ts";
import { defineTool } from "./tool.ts";
import { scriptedUser } from "./user.ts";
import { World } from "./world.ts";
import type { Agent, AgentAction, ToolResult } from "./agent.ts";
import type { Domain } from "./domain.ts";
import type { Task } from "./task.ts";
import type { UserSimulator } from "./user_sim.ts";

function playbook(domain: Domain, confirm = true, verify = true): Agent {
  const solver = domain.solver({ confirm, verify });
  return { name: "playbook", start() {}, step: (obs) => solver.next(obs), finish: () => ({ confidence: 0.8 }) };
}

function scripted(actions: AgentAction[]): Agent {
  let i = 0;
  return { name: "scripted", start() {}, step: () => actions[i++] ?? { type: "end" } };
}

async function play(task: Task, agent: Agent, seed = "s") {
  using world = World.open(toy, { seed: "0" });
  const rng = new Rng(seed);
  return await runEpisode(world, {
    task,
    agent,
    user: scriptedUser(task, rng.child("user"), { tools: toy.tools }),
    rng,
  });
}

Deno.test("runEpisode() grades a policy-following run as a success and records every event", async () => {
  const [task] = World.open(toy).defaultTasks(3);
  const r = await play(task, playbook(toy));
  assertEquals(r.success, true);
  assertEquals(r.actions, ["get_balance", "transfer"]);
  assertEquals(r.milestones, { total: 1, reached: 1, achieved: 1 });
  assertEquals(r.endedBy, "user");
  assertEquals(r.confidence, 0.8);
  assertEquals(r.events.map((e) => `${e.actor}:${e.kind}`), [
    "user:message", // opening
    "agent:message", // ask
    "user:message", // provide
    "tool:tool", // get_balance
    "agent:message", // propose
    "user:message", // yes
    "tool:tool", // transfer
    "agent:message", // inform
    "user:message", // thanks, stop
  ]);
  assert(r.simTimeMs > 0);
});

Deno.test("runEpisode() resets the world after each episode", async () => {
  using world = World.open(toy, { seed: "0" });
  const [task] = world.defaultTasks(3);
  for (let i = 0; i < 3; i++) {
    const rng = new Rng(i);
    const r = await runEpisode(world, {
      task,
      agent: playbook(toy),
      user: scriptedUser(task, rng, { tools: toy.tools }),
      rng,
    });
    assertEquals(r.success, true);
  }
  assertEquals(world.store.get("SELECT balance FROM accounts WHERE id = 'b'"), { balance: 50 });
});

Deno.test("runEpisode() fails a run whose writes differ from the gold", async () => {
  const [task] = World.open(toy).defaultTasks(3);
  const r = await play(task, scripted([{ type: "tool", name: "transfer", args: { from: "a", to: "b", amount: 6 } }]));
  assertEquals(r.success, false);
  assertEquals(r.stateMatch, false);
  assertEquals(r.changes.length, 2);
  assertEquals(r.endedBy, "agent");
});

Deno.test("runEpisode() turns unknown tools and bad arguments into errors the agent sees", async () => {
  const [task] = World.open(toy).defaultTasks(3);
  const seen: unknown[] = [];
  const actions: AgentAction[] = [
    { type: "tool", name: "fly", args: {} },
    { type: "tool", name: "transfer", args: { from: "a", to: 3 } },
  ];
  let i = 0;
  const agent: Agent = {
    name: "probe",
    start() {},
    step(obs) {
      seen.push(obs.tool?.error);
      return actions[i++] ?? { type: "end", confidence: 0.1 };
    },
  };
  const r = await play(task, agent);
  assertEquals(seen[1], { code: "unknown_tool", message: 'Unknown tool "fly"' });
  assertEquals((seen[2] as { code: string }).code, "invalid_args");
  assertEquals(r.invalidCalls, 2);
  assertEquals(r.firstErrorStep, 1);
  assertEquals(r.confidence, 0.1);
});

Deno.test("runEpisode() requires the gold hand-over and stops at a terminating tool", async () => {
  const task = World.open(toy).defaultTasks(3)[2];
  const silent = await play(task, scripted([{ type: "end" }]));
  assertEquals(silent.success, false);
  const handed = await play(
    task,
    scripted([{ type: "tool", name: "hand_over", args: { summary: "x" } }, { type: "end" }]),
  );
  assertEquals(handed.success, true);
  assertEquals(handed.endedBy, "tool");
});

Deno.test("runEpisode() cuts an episode off at maxSteps", async () => {
  const [task] = World.open(toy).defaultTasks(3);
  const loop: Agent = {
    name: "loop",
    start() {},
    step: () => ({ type: "tool", name: "get_balance", args: { account: "a" } }),
  };
  using world = World.open(toy);
  const rng = new Rng(1);
  const r = await runEpisode(world, {
    task,
    agent: loop,
    user: scriptedUser(task, rng, { tools: toy.tools }),
    rng,
    maxSteps: 4,
  });
  assertEquals(r.endedBy, "max_steps");
  assertEquals(r.steps, 4);
});

Deno.test("runEpisode() gives the same trajectory for the same seed", async () => {
  const [task] = World.open(toy).defaultTasks(3);
  const a = await play(task, playbook(toy), "x");
  const b = await play(task, playbook(toy), "x");
  const c = await play(task, playbook(toy), "y");
  assertEquals(JSON.stringify(a.events), JSON.stringify(b.events));
  assert(JSON.stringify(a.events) !== JSON.stringify(c.events));
});

Deno.test("scriptedUser() declines a write its request does not want and refusals end the talk", async () => {
  const [task, overdraw] = World.open(toy).defaultTasks(3);
  const wrong = scripted([{
    type: "message",
    text: "Shall I transfer 7 from a to b?",
    intent: { kind: "propose", call: { name: "transfer", args: { from: "a", to: "b", amount: 7 } } },
  }]);
  const r = await play(task, wrong);
  // No: the amount is not the one the user asked for, and the user says which it is.
  assertEquals(r.events[2].intent, { kind: "decline", facts: { amount: 5 } });
  const refused = await play(overdraw, playbook(toy));
  assertEquals(refused.success, true);
  // The customer accepts the refusal, though what it wanted was not done.
  assertEquals(refused.events.at(-1)?.intent, { kind: "stop", satisfied: false });
  // Without checks the agent tries the transfer; the tool itself refuses it.
  const reckless = await play(overdraw, playbook(toy, false, false));
  assertEquals(reckless.actions, ["transfer"]);
  assertEquals(reckless.writeCalls, { attempted: 1, succeeded: 0 });
});

Deno.test("runEpisode() reports per-milestone divergence from the gold change", async () => {
  const [task] = World.open(toy).defaultTasks(3);
  // One milestone: the transfer, which changes both accounts.
  const good = await play(task, playbook(toy));
  assertEquals(good.divergence, [0]);
  const wrong = await play(
    task,
    scripted([{ type: "tool", name: "transfer", args: { from: "a", to: "b", amount: 6 } }]),
  );
  assertEquals(wrong.divergence, [1]);
  const none = await play(task, scripted([{ type: "end" }]));
  assertEquals(none.divergence, [1]);
});

Deno.test("runEpisode() gives each writing call the rows it changed, adding up to the episode's change", async () => {
  const [task] = World.open(toy).defaultTasks(3);
  const r = await play(
    task,
    scripted([
      { type: "tool", name: "transfer", args: { from: "a", to: "b", amount: 6 } },
      { type: "tool", name: "get_balance", args: { account: "a" } },
      { type: "tool", name: "transfer", args: { from: "b", to: "a", amount: 1 } },
    ]),
  );
  const tools = r.events.filter((e) => e.kind === "tool");
  assertEquals(tools.map((e) => e.changes?.length ?? 0), [2, 0, 2]);
  // b: 50 → 56 by the first call, 56 → 55 by the second.
  const b = (i: number) => tools[i].changes!.find((c) => c.key[0] === "b")!;
  assertEquals([b(0).before?.balance, b(0).after?.balance, b(2).before?.balance, b(2).after?.balance], [
    50,
    56,
    56,
    55,
  ]);
  // Net: 5 moved from a to b.
  const balance = (id: string) => r.changes.find((c) => c.key[0] === id)!;
  assertEquals([balance("b").before?.balance, balance("b").after?.balance], [50, 55]);
  assertEquals(balance("a").after!.balance, (balance("a").before!.balance as number) - 5);
  assertEquals(composeChanges(tools.map((e) => e.changes ?? [])), r.changes);
});

Deno.test("runEpisode() lets a condition inject faults, show other tools and count recovery steps", async () => {
  const [task] = World.open(toy).defaultTasks(3);
  let seenTools: readonly string[] = [];
  let hints: unknown;
  const base = playbook(toy);
  const agent: Agent = {
    ...base,
    start(ctx) {
      seenTools = ctx.tools.map((t) => t.name);
      hints = ctx.hints;
    },
    // Retries a call that failed with a fault, then goes on with the playbook.
    step: (() => {
      let retry: AgentAction | null = null;
      let last: AgentAction | null = null;
      return (obs) => {
        if (obs.tool?.error?.code === "fault" && last) retry = last;
        const action = retry ?? base.step(obs) as AgentAction;
        retry = null;
        last = action;
        return action;
      };
    })(),
  };
  let faulted = false;
  const condition = {
    tools: toy.tools.filter((t) => t.name !== "hand_over"),
    hints: { note: "faults" },
    dispatch: (call: { step: number; name: string; args: unknown }, next: (n: string, a: unknown) => ToolResult) => {
      if (call.name === "transfer" && !faulted) {
        faulted = true;
        return {
          name: call.name,
          args: call.args,
          ok: false,
          error: { code: "fault" as const, message: "timeout" },
          fault: "timeout",
        };
      }
      return next(call.name, call.args);
    },
  };
  using world = World.open(toy);
  const rng = new Rng("f");
  const r = await runEpisode(world, {
    task,
    agent,
    user: scriptedUser(task, rng, { tools: toy.tools }),
    rng,
    condition,
  });
  assertEquals(seenTools, ["get_balance", "transfer"]);
  assertEquals(hints, { note: "faults" });
  assertEquals(r.faults, 1);
  assertEquals(r.recoverySteps, [1]);
  assertEquals(r.events.filter((e) => e.fault).map((e) => e.fault), ["timeout"]);
  assertEquals(r.success, true);
  // The faulted call's latency is time lost to the fault, not the agent's time.
  const faultedMs = r.events.find((e) => e.fault)!.latency_ms;
  assert(faultedMs > 0);
  assertEquals(r.faultTimeMs, faultedMs);
  assertEquals(r.simTimeMs + r.faultTimeMs, r.events.reduce((t, e) => t + e.latency_ms, 0));
});

// A domain whose write draws the new row's id from `ctx.rng` and stamps it with `ctx.clock.iso()`:
// a correct run matches its gold only if the episode's tools see the gold replay's world.
const notes: Domain = defineDomain({
  name: "notes",
  policy: "Add the notes customers ask for.",
  schema: "CREATE TABLE notes (id TEXT PRIMARY KEY, text TEXT NOT NULL, created_at TEXT NOT NULL)",
  now: "2024-01-01T09:00:00",
  generate: () => ({}),
  rows: () => ({ notes: [] }),
  read: () => ({}),
  tools: [
    defineTool({
      name: "list_notes",
      description: "Lists the notes",
      input: z.object({}),
      writes: false,
      run: ({ db }) => db.all("SELECT id FROM notes ORDER BY id").map((r) => String(r.id)),
    }),
    defineTool({
      name: "add_note",
      description: "Adds a note",
      input: z.object({ text: z.string() }),
      writes: true,
      run: ({ db, clock, rng }, { text }) => {
        const id = `note_${rng.int(100000, 999999)}`;
        db.run("INSERT INTO notes VALUES (?, ?, ?)", id, text, clock.iso());
        return { id };
      },
    }),
  ],
  tasks: () => [],
  solver: () => ({ next: () => ({ type: "end" }) }),
});

const noteTask: Task = {
  id: "notes/0",
  intent: "add",
  goal: "add_note",
  facts: {},
  volunteered: [],
  openings: ["Please add a note saying hello."],
  gold: [{ name: "add_note", args: { text: "hello" } }],
  outputs: [],
  milestones: [{ kind: "change", label: "note added", gold: 0 }],
  expect: "act",
};

// The user asks once, and stops when the agent reports what it did.
const noteUser = (): UserSimulator => ({
  open: () => ({ role: "user", text: noteTask.openings[0] }),
  reply: (m) =>
    m.intent?.kind === "inform"
      ? { role: "user", text: "Thanks", intent: { kind: "stop", satisfied: true } }
      : { role: "user", text: "OK" },
});

Deno.test("runEpisode() grades a correct run as a success when the write draws an id and stamps the time", async () => {
  using world = World.open(notes);
  const gold = world.goldReplay(noteTask).all;
  assertEquals(gold.length, 1);
  for (const [seed, reads] of [["a", 0], ["b", 2], [7, 5]] as const) {
    // Reads and messages before the write take simulated time and draw latencies: the tools see neither.
    const r = await runEpisode(world, {
      task: noteTask,
      agent: scripted([
        ...Array.from({ length: reads }, () => ({ type: "tool" as const, name: "list_notes", args: {} })),
        { type: "message", text: "Let me add it." },
        { type: "tool", name: "add_note", args: { text: "hello" } },
        { type: "message", text: "Done: your note is added.", intent: { kind: "inform" } },
      ]),
      user: noteUser(),
      rng: new Rng(seed),
    });
    assertEquals(r.success, true, `seed ${seed}`);
    assertEquals(r.changes, gold);
    assertEquals(gold[0].after?.created_at, "2024-01-01T09:00:00");
    // The latency is still counted, on the events (no call was faulted).
    assertEquals([r.simTimeMs, r.faultTimeMs], [r.events.reduce((t, e) => t + e.latency_ms, 0), 0]);
    assert(r.simTimeMs >= 1500 + 400 + 1500 + 80 * (reads + 1));
  }
});

Deno.test("replayTrajectory() with the task gives the rows of its gold", async () => {
  using world = World.open(notes);
  const r = await runEpisode(world, {
    task: noteTask,
    agent: scripted([{ type: "tool", name: "add_note", args: { text: "hello" } }]),
    user: noteUser(),
    rng: new Rng("r"),
  });
  const replayed = replayTrajectory(world, r.events, { task: noteTask });
  assertEquals(replayed.flatMap((e) => e.changes ?? []), world.goldReplay(noteTask).all);
  assertEquals(world.store.get("SELECT count(*) AS n FROM notes"), { n: 0 });
});

Deno.test("runEpisode() answers a task's abnormal calls wrongly, apart from any condition, and a replay does too", async () => {
  const [plain] = World.open(toy).defaultTasks(1);
  // The world times the first look-up out: a retrying agent calls again and succeeds.
  const task: Task = { ...plain, abnormal: [{ tool: "get_balance", call: 1, kind: "timeout" }] };
  const lookUp = plain.gold.find((c) => c.name === "get_balance")!;
  const agent = scripted([
    { type: "tool", name: lookUp.name, args: lookUp.args },
    { type: "tool", name: lookUp.name, args: lookUp.args },
  ]);
  const r = await play(task, agent);
  const calls = r.events.filter((e) => e.kind === "tool");
  assertEquals(calls.map((e) => e.error?.code ?? "ok"), ["fault", "ok"]);
  assert(calls[0].error!.message.startsWith("timeout: get_balance did not answer in time"));
  // Not a condition's fault: none counted, none marked on the event.
  assertEquals([r.faults, calls[0].fault], [0, undefined]);
  using world = World.open(toy, { seed: "0" });
  const again = replayTrajectory(world, r.events, { task }).filter((e) => e.kind === "tool");
  assertEquals(again.map((e) => e.error?.code ?? "ok"), ["fault", "ok"]);
  // A long task runs for its own maxSteps when the experiment's is smaller.
  const many = scripted(Array.from({ length: 40 }, () => ({ type: "tool", name: lookUp.name, args: lookUp.args })));
  const long = await play({ ...plain, maxSteps: 35 }, many);
  assertEquals(long.steps, 35);
});

Deno.test("Recording.during() gives a call's own changes: what changeDelta() of the changes around it gives", () => {
  using world = World.open(toy, { seed: "0" });
  const [task] = world.defaultTasks(1);
  const write = task.gold.find((c) => world.tool(c.name)?.writes)!;
  using recording = world.beginEpisode();
  const ctx = world.taskContext(task);
  const first = recording.during(() => world.call(ctx, write.name, write.args));
  assert(first.value.ok && first.changes.length > 0);
  const before = recording.changes();
  // The same write again changes the same rows once more: only this call's part is in its changes.
  const again = recording.during(() => world.call(ctx, write.name, write.args));
  assert(again.value.ok && again.changes.length > 0, JSON.stringify(again.value));
  assertEquals(again.changes, changeDelta(before, recording.changes()));
  assertEquals(first.changes, changeDelta([], before));
});
