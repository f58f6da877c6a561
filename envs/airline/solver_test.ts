import { assert, assertEquals } from "@std/assert";
import { Store } from "../sqlite.ts";
import { Clock } from "../clock.ts";
import { Rng } from "../rng.ts";
import { callTool } from "../call.ts";
import { ToolError } from "../tool.ts";
import type { AgentAction, Observation, SolverOptions } from "../agent.ts";
import type { Json } from "../json.ts";
import type { Message } from "../message.ts";
import type { RowChange } from "../changeset.ts";
import type { Task } from "../task.ts";
import type { ToolCall } from "../tool.ts";
import { generateAirline } from "./generate.ts";
import { airlineRows } from "./_rows.ts";
import { AIRLINE_SCHEMA } from "./schema.ts";
import { airlineTools } from "./tools.ts";
import { airlineTasks } from "./tasks.ts";
import { airlineSolver } from "./solver.ts";
import { NOW } from "./_rules.ts";

const data = generateAirline(new Rng("0").child("world"), 1);
const tasks = airlineTasks(new Rng("0").child("tasks"), 50, data);
const store = Store.open(AIRLINE_SCHEMA);
store.insert(airlineRows(data));
const ctx = { db: store, clock: new Clock(NOW), rng: new Rng("tools") };
const writes = new Set(airlineTools.filter((t) => t.writes).map((t) => t.name));

function canon(v: unknown): string {
  const sort = (x: unknown): unknown =>
    Array.isArray(x)
      ? x.map(sort)
      : x && typeof x === "object"
      ? Object.fromEntries(Object.keys(x).sort().map((k) => [k, sort((x as Record<string, unknown>)[k])]))
      : x;
  return JSON.stringify(sort(v));
}

function run(call: ToolCall): { ok: boolean; result?: Json; error?: { code: ToolError["code"]; message: string } } {
  const tool = airlineTools.find((t) => t.name === call.name);
  if (!tool) return { ok: false, error: { code: "unknown_tool", message: `unknown tool ${call.name}` } };
  try {
    return { ok: true, result: callTool(ctx, tool, call.args) };
  } catch (err) {
    if (err instanceof ToolError) return { ok: false, error: { code: err.code, message: err.message } };
    throw err;
  }
}

/** Runs `body` on the store and returns the row changes it made, then undoes them. */
function changesOf(body: () => void): RowChange[] {
  store.begin();
  const tracker = store.track();
  try {
    body();
    return tracker.changes();
  } finally {
    tracker.close();
    store.rollback();
  }
}

/** A minimal stand-in user: opens with the volunteered facts, answers asks, confirms gold writes only. */
function standIn(task: Task) {
  const pending = task.gold.filter((c) => writes.has(c.name)).map(canon);
  return {
    open(): Message {
      const facts = Object.fromEntries(task.volunteered.map((f) => [f, task.facts[f]]));
      return { role: "user", text: task.openings[0], intent: { kind: "request", goal: task.goal, facts } };
    },
    reply(m: Message): Message {
      const intent = m.intent;
      if (intent?.kind === "ask") {
        const known = intent.fields.filter((f) => f in task.facts);
        return known.length > 0
          ? {
            role: "user",
            text: "Sure.",
            intent: { kind: "provide", facts: Object.fromEntries(known.map((f) => [f, task.facts[f]])) },
          }
          : { role: "user", text: "I don't know.", intent: { kind: "unknown", fields: intent.fields } };
      }
      if (intent?.kind === "propose") {
        const i = pending.indexOf(canon(intent.call));
        if (i < 0) return { role: "user", text: "No.", intent: { kind: "decline" } };
        pending.splice(i, 1);
        return { role: "user", text: "Yes.", intent: { kind: "confirm" } };
      }
      return { role: "user", text: "Bye.", intent: { kind: "stop", satisfied: pending.length === 0 } };
    },
  };
}

interface Episode {
  calls: (ToolCall & { ok: boolean })[];
  messages: Message[];
  ended: boolean;
}

/** Plays one task with the solver against the real tools; returns what happened and the row changes. */
function play(task: Task, options: SolverOptions): Episode & { changes: RowChange[] } {
  const episode: Episode = { calls: [], messages: [], ended: false };
  const changes = changesOf(() => {
    const solver = airlineSolver(options);
    const user = standIn(task);
    let obs: Observation = { step: 0, message: user.open() };
    for (let step = 1; step < 100; step++) {
      const action: AgentAction = solver.next(obs);
      if (action.type === "end") {
        episode.ended = true;
        return;
      }
      if (action.type === "tool") {
        const call = { name: action.name, args: action.args as Record<string, Json> };
        const result = run(call);
        episode.calls.push({ ...call, ok: result.ok });
        if (call.name === "transfer_to_human_agents" && result.ok) return void (episode.ended = true);
        obs = { step, tool: { ...call, ...result } };
      } else {
        const said: Message = { role: "agent", text: action.text, intent: action.intent };
        episode.messages.push(said);
        obs = { step, message: user.reply(said) };
      }
    }
  });
  return { ...episode, changes };
}

function goldChanges(task: Task): RowChange[] {
  return changesOf(() => task.gold.forEach((call) => assert(run(call).ok, `gold call ${call.name} fails`)));
}

Deno.test("airlineSolver() as the oracle reaches every default task's gold state, calls and outputs", () => {
  for (const task of tasks) {
    const got = play(task, { confirm: true, verify: true });
    const where = `${task.id} (${task.intent}): ${task.rationale}`;
    assert(got.ended, `${where}: the solver did not end`);
    assertEquals(got.calls.map(({ name, args }) => canon({ name, args })), task.gold.map(canon), where);
    assert(got.calls.every((c) => c.ok), `${where}: a call failed`);
    assertEquals(got.changes, goldChanges(task), where);
    assertEquals(got.changes.length > 0, task.expect === "act", `${where}: changes ${got.changes.length}`);
    const said = got.messages.map((m) => m.text.toLowerCase().replaceAll(",", "")).join("\n");
    for (const out of task.outputs) assert(said.includes(out.toLowerCase()), `${where}: "${out}" was not said`);
    const kinds = got.messages.map((m) => m.intent?.kind);
    if (task.expect === "refuse") assert(kinds.includes("refuse"), `${where}: no refusal`);
    if (task.expect === "transfer") assertEquals(got.calls.at(-1)?.name, "transfer_to_human_agents", where);
    if (task.expect === "act") assert(kinds.includes("propose") && !kinds.includes("refuse"), where);
  }
});

Deno.test("airlineSolver() without verification cancels what the policy forbids", () => {
  const task = tasks.find((t) => t.intent === "cancel_forbidden")!;
  const got = play(task, { confirm: false, verify: false });
  assertEquals(got.calls.map((c) => [c.name, c.ok]), [["cancel_reservation", true]]);
  assertEquals(got.changes.length > 0, true);
});

Deno.test("airlineSolver() without confirmation writes without proposing", () => {
  const task = tasks.find((t) => t.intent === "add_bags")!;
  const got = play(task, { confirm: false, verify: true });
  assertEquals(got.messages.some((m) => m.intent?.kind === "propose"), false);
  assertEquals(got.changes, goldChanges(task));
});

Deno.test("airlineSolver() makes no change when the user declines", () => {
  const task = tasks.find((t) => t.intent === "change_flights")!;
  const declining = { ...task, gold: task.gold.filter((c) => !writes.has(c.name)) };
  const got = play(declining, { confirm: true, verify: true });
  assert(got.ended);
  assertEquals(got.changes, []);
});

Deno.test("airlineSolver() ends politely on garbage, errors and silence", () => {
  const observations: Observation[] = [
    { step: 0 },
    { step: 1, message: { role: "user", text: "???", intent: { kind: "provide", facts: "x" as never } } },
    {
      step: 2,
      tool: { name: "get_user_details", args: {}, ok: false, error: { code: "not_found", message: "user not found" } },
    },
    { step: 3, message: { role: "user", text: "hello" } },
  ];
  const solver = airlineSolver({ confirm: true, verify: true });
  const actions = observations.map((o) => solver.next(o));
  assertEquals(actions.at(-1)?.type, "end");
  const loop = airlineSolver({ confirm: true, verify: true });
  let last: AgentAction = { type: "message", text: "" };
  for (let i = 0; i < 200 && last.type !== "end"; i++) {
    last = loop.next({
      step: i,
      message: { role: "user", text: "hm", intent: { kind: "request", goal: "change_cabin", facts: {} } },
    });
  }
  assertEquals(last.type, "end");
});
