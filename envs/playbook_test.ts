// The shared playbook machinery on a made-up lending library (tests/fixtures/lending.ts): members
// borrow books, ask for the opening hours, or are handed over to a librarian.
import { assert, assertEquals, assertStringIncludes, assertThrows } from "@std/assert";
import { isDecision, type PlaybookSpec, refuse, writeCall } from "./decisions.ts";
import { playbookSolver } from "./playbook.ts";
import { Rng } from "./rng.ts";
import { scriptedUser } from "./user.ts";
import type { Observation, SolverOptions } from "./agent.ts";
import type { Task } from "./task.ts";
import {
  intentOf,
  lend,
  ORACLE,
  play,
  request,
  result,
  says,
  SPEC,
  task,
  TASKS,
  TOOLS,
} from "../tests/fixtures/lending.ts";

Deno.test("playbookSolver() earns every outcome of a made-up domain against the scripted user", async () => {
  for (const t of TASKS) {
    const r = await play(t, ORACLE);
    assert(r.success, `${t.id} (${t.expect}): ended by ${r.endedBy}, actions ${r.actions.join(",")}`);
    assertEquals(r.milestones.reached, r.milestones.total, t.id);
  }
  const kinds = (await play(TASKS[0], ORACLE)).events.map((e) => e.intent?.kind ?? e.tool);
  assertEquals(kinds, ["request", "ask", "provide", "get_book", "propose", "confirm", "lend_book", "inform", "stop"]);
});

Deno.test("playbookSolver() without confirmation or checks lends a book already lent out", async () => {
  const r = await play(TASKS[1], { confirm: false, verify: false });
  assertEquals(r.actions, ["lend_book"]);
  assertEquals(r.success, false);
  assertEquals(r.events.some((e) => e.intent?.kind === "propose"), false);
});

Deno.test("playbookSolver() asks for a fact once and closes politely when the user does not know it", () => {
  const solver = playbookSolver(SPEC, ORACLE);
  const ask = solver.next(request("borrow", { book_id: "b1" }));
  assertEquals(ask, {
    type: "message",
    text: "Could you give me your member number?",
    intent: { kind: "ask", fields: ["member_id"] },
  });
  const close = solver.next(says({ kind: "unknown", fields: ["member_id"] }));
  assertEquals(intentOf(close), { kind: "inform", facts: { outcome: "not_done" } });
  assert(close.type === "message" && close.text.startsWith("I can't continue without your member number."));
  assertEquals(solver.next(says({ kind: "provide", facts: { member_id: "m1" } })), { type: "end" });
});

Deno.test("playbookSolver() looks a call up once, proposes the write once and makes it on a yes", () => {
  const solver = playbookSolver(SPEC, ORACLE);
  const look = solver.next(request("borrow", { book_id: "b1", member_id: "m1" }));
  assertEquals(look, { type: "tool", name: "get_book", args: { book_id: "b1" } });
  const propose = solver.next(result({ name: "get_book", args: { book_id: "b1" } }, { result: { lent_to: null } }));
  assertEquals(intentOf(propose), { kind: "propose", call: lend("b1", "m1") });
  assert(propose.type === "message" && propose.text.endsWith("Shall I go ahead? Please answer yes or no."));
  const write = solver.next(says({ kind: "confirm" }, 2));
  assertEquals(write, { type: "tool", ...lend("b1", "m1") });
  const done = solver.next(result(lend("b1", "m1"), { result: { book_id: "b1", lent_to: "m1" } }, 3));
  assertEquals(done, {
    type: "message",
    text: "Book b1 is lent to m1.",
    intent: { kind: "inform", facts: { lent_to: "m1" } },
  });
  assertEquals(solver.next(says({ kind: "provide", facts: {} }, 4)), { type: "end" });
});

Deno.test("playbookSolver() makes no write when the user declines, and proposes a write only once", () => {
  const declined = playbookSolver(SPEC, { confirm: true, verify: false });
  assertEquals(intentOf(declined.next(request("borrow", { book_id: "b1", member_id: "m1" })))?.kind, "propose");
  const close = declined.next(says({ kind: "decline" }));
  assert(
    close.type === "message" && close.text.startsWith("Understood: without your approval I have not made any change."),
  );
  // Once proposed and confirmed, the same write coming up again is not proposed a second time.
  const again = playbookSolver(SPEC, { confirm: true, verify: false });
  again.next(request("borrow", { book_id: "b1", member_id: "m1" }));
  assertEquals(again.next(says({ kind: "confirm" })).type, "tool");
  const unchanged = again.next(says({ kind: "provide", facts: {} }, 2));
  assert(unchanged.type === "message" && unchanged.text.startsWith("I'll leave your loans as they are."));
});

Deno.test("playbookSolver() retries a faulted look-up a bounded number of times, and never a write", () => {
  const look = { name: "get_book", args: { book_id: "b1" } };
  const solver = playbookSolver({ ...SPEC, retries: 2 }, ORACLE);
  solver.next(request("borrow", { book_id: "b1", member_id: "m1" }));
  assertEquals(solver.next(result(look, { code: "fault" })), { type: "tool", ...look });
  assertEquals(solver.next(result(look, { code: "fault" })), { type: "tool", ...look });
  const gaveUp = solver.next(result(look, { code: "fault" }));
  assert(
    gaveUp.type === "message" &&
      gaveUp.text.startsWith("I could not verify your book id (try later), so I have not made any change."),
  );
  const writer = playbookSolver(SPEC, { confirm: false, verify: false });
  assertEquals(writer.next(request("borrow", { book_id: "b1", member_id: "m1" })), {
    type: "tool",
    ...lend("b1", "m1"),
  });
  assertEquals(intentOf(writer.next(result(lend("b1", "m1"), { code: "fault" })))?.kind, "inform");
});

Deno.test("playbookSolver() says nothing more after a refusal, an inform or a hand-over", () => {
  const refusing = playbookSolver(SPEC, ORACLE);
  refusing.next(request("borrow", { book_id: "b2", member_id: "m1" }));
  const no = refusing.next(result({ name: "get_book", args: { book_id: "b2" } }, { result: { lent_to: "m9" } }));
  assertEquals(intentOf(no), { kind: "refuse", reason: "book b2 is already lent out" });
  assertEquals(refusing.next(says({ kind: "provide", facts: {} }, 2)), { type: "end" });
  const informing = playbookSolver(SPEC, ORACLE);
  assertEquals(intentOf(informing.next(request("hours"))), { kind: "inform", facts: { hours: "9-17" } });
  assertEquals(informing.next(says({ kind: "provide", facts: {} })), { type: "end" });
  // "toString" is no goal of the table: it goes to `otherwise`, the hand-over.
  const handing = playbookSolver(SPEC, ORACLE);
  const call = { name: "call_librarian", args: { summary: "member wants toString" } };
  assertEquals(handing.next(request("toString")), { type: "tool", ...call });
  assertEquals(handing.next(result(call, { code: "policy" })), { type: "end" });
});

Deno.test("playbookSolver() greets a user without a goal once, and ends on a throwing handler and at maxSteps", () => {
  const solver = playbookSolver(SPEC, ORACLE);
  assertEquals(solver.next({ step: 0, message: { role: "user", text: "hello" } }).type, "message");
  const close = solver.next({ step: 1, message: { role: "user", text: "hello" } });
  assert(close.type === "message" && close.text.startsWith("I could not understand the request."));
  const throwing = playbookSolver({ goals: {}, otherwise: () => JSON.parse("{") }, ORACLE);
  assertEquals(throwing.next(request("x")), { type: "end" });
  const short = playbookSolver({ ...SPEC, maxSteps: 2 }, ORACLE);
  const steps = [request("borrow"), says({ kind: "provide", facts: {} }), says({ kind: "provide", facts: {} })];
  assertEquals(steps.map((o) => short.next(o).type), ["message", "message", "end"]);
});

Deno.test("playbookSolver() rejects a maxSteps or retries out of range and options that are not booleans", () => {
  assertThrows(() => playbookSolver({ ...SPEC, maxSteps: 0 }, ORACLE), RangeError, "Invalid playbook maxSteps 0");
  assertThrows(() => playbookSolver({ ...SPEC, retries: 1.5 }, ORACLE), RangeError, "Invalid playbook retries 1.5");
  const options = { confirm: "yes", verify: true } as unknown as SolverOptions;
  assertThrows(
    () => playbookSolver(SPEC, options),
    TypeError,
    'Invalid solver option confirm "yes": expected true or false',
  );
});

Deno.test("isDecision() tells a decision from a handler's own value", () => {
  assertEquals(isDecision(refuse("no")), true);
  assertEquals(isDecision(writeCall(lend("b1", "m1"), { propose: "", done: () => "" })), true);
  assertEquals(isDecision({ kind: "member", id: "m1" }), false);
});

Deno.test("playbookSolver() says why it stopped short: a fact not given, a yes not given, a call that failed, a refusal", () => {
  const unknown = playbookSolver(SPEC, ORACLE);
  unknown.next(request("borrow", { book_id: "b1" }));
  unknown.next(says({ kind: "unknown", fields: ["member_id"] }));
  assertEquals(unknown.abstained?.(), { label: "grounding_warning", reason: "member_id" });

  const declined = playbookSolver(SPEC, ORACLE);
  declined.next(request("borrow", { book_id: "b1", member_id: "m1" }));
  declined.next(result({ name: "get_book", args: { book_id: "b1" } }, { result: { lent_to: null } }));
  assertEquals(declined.abstained?.(), null);
  declined.next(says({ kind: "decline" }, 2));
  assertEquals(declined.abstained?.(), { label: "blocked_commitment", reason: "approval" });

  const refused = playbookSolver(SPEC, ORACLE);
  refused.next(request("borrow", { book_id: "b1", member_id: "m1" }));
  refused.next(result({ name: "get_book", args: { book_id: "b1" } }, { result: { lent_to: "m2" } }));
  assertEquals(refused.abstained?.(), { label: "blocked_constraint", reason: "book b1 is already lent out" });

  const failed = playbookSolver(SPEC, ORACLE);
  failed.next(request("borrow", { book_id: "b9", member_id: "m1" }));
  failed.next({
    step: 1,
    tool: { name: "get_book", args: { book_id: "b9" }, ok: false, error: { code: "not_found", message: "no b9" } },
  });
  assertEquals(failed.abstained?.(), { label: "blocked_constraint", reason: "book_id" });
});

Deno.test("a careless playbook makes up what the user could not give, when its spec says how; a careful one never does", () => {
  const spec: PlaybookSpec = { ...SPEC, assume: (field) => field === "member_id" ? "m_0001" : undefined };
  const reckless = playbookSolver(spec, { confirm: false, verify: false });
  reckless.next(request("borrow", { book_id: "b1" }));
  const write = reckless.next(says({ kind: "unknown", fields: ["member_id"] }));
  assertEquals(write, { type: "tool", ...lend("b1", "m_0001") });
  assertEquals(reckless.abstained?.(), null);
  // The careful one asks, then stops.
  const careful = playbookSolver(spec, ORACLE);
  careful.next(request("borrow", { book_id: "b1" }));
  assertEquals(intentOf(careful.next(says({ kind: "unknown", fields: ["member_id"] }))), {
    kind: "inform",
    facts: { outcome: "not_done" },
  });
});

Deno.test("a careless playbook heeds a checkpoint's block: it looks things up, then asks for the yes", () => {
  const solver = playbookSolver(SPEC, { confirm: false, verify: false });
  const block = (label: string, step: number): Observation => ({
    step,
    tool: { ...lend("b1", "m1"), ok: false, error: { code: "policy", message: `${label}: lend_book needs more` } },
  });
  assertEquals(solver.next(request("borrow", { book_id: "b1", member_id: "m1" })), {
    type: "tool",
    ...lend("b1", "m1"),
  });
  // Told to look it up: it verifies from now on.
  assertEquals(solver.next(block("blocked_constraint", 1)), {
    type: "tool",
    name: "get_book",
    args: { book_id: "b1" },
  });
  assertEquals(
    solver.next(result({ name: "get_book", args: { book_id: "b1" } }, { result: { lent_to: null } }, 2)),
    { type: "tool", ...lend("b1", "m1") },
  );
  // Told to get the yes: it proposes, and writes on the yes.
  assertEquals(intentOf(solver.next(block("blocked_commitment", 3))), { kind: "propose", call: lend("b1", "m1") });
  assertEquals(solver.next(says({ kind: "confirm" }, 4)), { type: "tool", ...lend("b1", "m1") });
  // A block it cannot act on (an input nobody gave) ends the conversation, and is the checkpoint's to account for.
  const stuck = playbookSolver(SPEC, { confirm: false, verify: false });
  stuck.next(request("borrow", { book_id: "b1", member_id: "m1" }));
  assertEquals(intentOf(stuck.next(block("grounding_warning", 1))), { kind: "inform", facts: { outcome: "not_done" } });
  assertEquals(stuck.abstained?.(), null);
  // Any other policy error is the world's, not a checkpoint's.
  const refusedByWorld = playbookSolver(SPEC, { confirm: false, verify: false });
  refusedByWorld.next(request("borrow", { book_id: "b1", member_id: "m1" }));
  assertEquals(intentOf(refusedByWorld.next(block("not allowed", 1))), {
    kind: "inform",
    facts: { outcome: "not_done" },
  });
});

Deno.test("playbookSolver() on a write whose answer was lost: careful, it says the change is unconfirmed; careless, it makes it again once", () => {
  const message = "lost: lend_book ran but its answer was lost; whether it took effect is unknown";
  const lost = (step: number): Observation => ({
    step,
    tool: { ...lend("b1", "m1"), ok: false, error: { code: "fault", message } },
  });
  const careful = playbookSolver(SPEC, { confirm: false, verify: true });
  careful.next(request("borrow", { book_id: "b1", member_id: "m1" }));
  assertEquals(careful.next(result({ name: "get_book", args: { book_id: "b1" } }, { result: { lent_to: null } })), {
    type: "tool",
    ...lend("b1", "m1"),
  });
  const stopped = careful.next(lost(2));
  assertEquals(intentOf(stopped), { kind: "inform", facts: { outcome: "not_done" } });
  assert(
    stopped.type === "message" &&
      stopped.text.startsWith(
        "I could not confirm whether the change for your book id and your member number went through",
      ),
  );
  const careless = playbookSolver(SPEC, { confirm: false, verify: false });
  assertEquals(careless.next(request("borrow", { book_id: "b1", member_id: "m1" })), {
    type: "tool",
    ...lend("b1", "m1"),
  });
  assertEquals(careless.next(lost(1)), { type: "tool", ...lend("b1", "m1") });
  // Lost again, it does not make it a third time.
  assertEquals(careless.next(lost(2)).type, "message");
});

// Two books asked for in one opening (`Task.also`): b1 and then b3 (free) or b2 (lent out).
function twoBooks(second: string, options: { undecided?: boolean } = {}): Task {
  const free = second === "b3";
  const goldOf = (
    id: string,
    lends: boolean,
  ) => [{ name: "get_book", args: { book_id: id } }, ...(lends ? [lend(id, "m1")] : [])];
  return {
    ...task(9, {
      intent: "borrow_two",
      goal: "borrow",
      facts: { book_id: "b1", member_id: "m1" },
      gold: [...goldOf("b1", true), ...goldOf(second, free && !options.undecided)],
      outputs: ["lent to m1", ...(free ? [] : ["already lent out"])],
      expect: "act",
    }),
    volunteered: ["book_id", "member_id"],
    also: [{ goal: "borrow", facts: { book_id: second }, ...(options.undecided ? { undecided: true } : {}) }],
  };
}

Deno.test("playbookSolver() handles the further requests of an opening in turn and reports them all at the end", async () => {
  // Both allowed: each proposed and made on its own yes, one closing message telling both.
  const both = await play(twoBooks("b3"), ORACLE);
  assertEquals(both.actions, ["get_book", "lend_book", "get_book", "lend_book"]);
  assertEquals(both.events.filter((e) => e.intent?.kind === "propose").length, 2);
  const last = both.events.filter((e) => e.actor === "agent" && e.kind === "message").at(-1)!;
  assertEquals(last.text, "Book b1 is lent to m1.\n\nBook b3 is lent to m1.");
  assert(both.success);
  // The second not allowed: the first is made, the second refused, and the closing is a refusal naming the rule.
  const refused = await play(twoBooks("b2"), ORACLE);
  assertEquals(refused.actions, ["get_book", "lend_book", "get_book"]);
  const closing = refused.events.filter((e) => e.actor === "agent" && e.kind === "message").at(-1)!;
  assertEquals(closing.intent, { kind: "refuse", reason: "book b2 is already lent out" });
  assert(closing.text?.startsWith("Book b1 is lent to m1.\n\nI'm sorry, but I can't do that"));
  assert(refused.success);
  // A careless playbook makes both, the forbidden one too.
  assertEquals((await play(twoBooks("b2"), { confirm: false, verify: false })).actions, ["lend_book", "lend_book"]);
});

Deno.test("the scripted user approves each of its requests when proposed, and not one it has not decided on", async () => {
  const r = await play(twoBooks("b3", { undecided: true }), ORACLE);
  // The yes to b1 is not taken for b3: the playbook asks again, is told not yet, and says it made only the first.
  assertEquals(r.actions, ["get_book", "lend_book", "get_book"]);
  assertEquals(r.events.filter((e) => e.actor === "user").map((e) => e.intent?.kind), [
    "request",
    "confirm",
    "decline",
    "stop",
  ]);
  const closing = r.events.filter((e) => e.actor === "agent" && e.kind === "message").at(-1)!;
  assertEquals(closing.intent, { kind: "inform", facts: { outcome: "not_done" } });
  assertStringIncludes(closing.text!, "without your approval I have not made the change I just proposed");
  assert(r.success);
});

Deno.test("the scripted user reads a proposal in words against the request it names, else the one it has not approved yet", () => {
  const t = twoBooks("b3", { undecided: true });
  const user = scriptedUser(t, new Rng("words"), { tools: TOOLS });
  user.open();
  const say = (text: string) => user.reply({ role: "agent", text }).intent?.kind;
  // Each named by its id: yes to the first, "not yet" to the one it has not decided on.
  assertEquals(say("I will lend book b1 to member m1. Shall I go ahead?"), "confirm");
  assertEquals(say("I will lend book b3 to member m1. Shall I go ahead?"), "decline");
  // Named by neither id: after a yes to the first, it is taken for the second.
  const again = scriptedUser(t, new Rng("words"), { tools: TOOLS });
  again.open();
  assertEquals(
    again.reply({ role: "agent", text: "I will lend book b1 to member m1. Shall I go ahead?" }).intent?.kind,
    "confirm",
  );
  assertEquals(
    again.reply({ role: "agent", text: "I will lend the other book to member m1. Shall I go ahead?" }).intent?.kind,
    "decline",
  );
});

Deno.test("the scripted user says no to one yes for both changes when it has not decided on one, and waits for both to be done", () => {
  const undecided = scriptedUser(twoBooks("b3", { undecided: true }), new Rng("both"), { tools: TOOLS });
  undecided.open();
  const both = "I will lend books b1 and b3 to member m1. Shall I go ahead?";
  assertEquals(undecided.reply({ role: "agent", text: both }).intent?.kind, "decline");
  // Told one of two changes done, it asks about the other; told both, it is satisfied.
  const user = scriptedUser(twoBooks("b3"), new Rng("both"), { tools: TOOLS });
  user.open();
  const say = (text: string) => user.reply({ role: "agent", text }).intent;
  assertEquals(say("I will lend book b1 to member m1. Shall I go ahead?")?.kind, "confirm");
  assertEquals(say("Done: I have lent book b1 to member m1.")?.kind, "provide");
  assertEquals(say("I will lend book b3 to member m1. Shall I go ahead?")?.kind, "confirm");
  assertEquals(say("Done: I have lent book b3 to member m1."), { kind: "stop", satisfied: true });
  // A single request is met by its own claim, as before.
  const one = scriptedUser(TASKS[0], new Rng("one"), { tools: TOOLS });
  one.open();
  assertEquals(one.reply({ role: "agent", text: "Done: I have lent book b1 to member m1." }).intent, {
    kind: "stop",
    satisfied: true,
  });
});
