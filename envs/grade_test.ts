import { assert, assertEquals } from "@std/assert";
import { toy } from "../tests/fixtures/toy_domain.ts";
import { changeDelta, composeChanges, gradeEpisode, outcomeMilestones, sameChanges } from "./grade.ts";
import type { EpisodeEvent } from "./events.ts";
import type { RowChange } from "./changeset.ts";
import type { Task } from "./task.ts";
import { World } from "./world.ts";

const world = World.open(toy, { seed: "0" });
const [transfer, overdraw, human] = world.defaultTasks(3);
const tool = (name: string) => world.tool(name);

// Events of a trajectory: agent messages (with or without an intent) and tool calls with the rows they changed.
const say = (step: number, text: string, intent?: EpisodeEvent["intent"]): EpisodeEvent => ({
  step,
  actor: "agent",
  kind: "message",
  text,
  ...(intent ? { intent } : {}),
  latency_ms: 0,
});
const call = (step: number, name: string, args: unknown, changes?: RowChange[], ok = true): EpisodeEvent => ({
  step,
  actor: "tool",
  kind: "tool",
  tool: name,
  args,
  ...(ok ? { result: "done" } : { error: { code: "policy", message: "no" } }),
  ...(changes ? { changes } : {}),
  latency_ms: 0,
});
const account = (id: string, before: number, after: number): RowChange => ({
  table: "accounts",
  key: [id],
  before: { id, balance: before },
  after: { id, balance: after },
});

function grade(task: Task, events: EpisodeEvent[], refusal?: (text: string) => boolean) {
  return gradeEpisode({ task, events, gold: world.goldReplay(task), tool, refusal });
}

const balanceA = world.store.get<{ balance: number }>("SELECT balance FROM accounts WHERE id = 'a'")!.balance;
const goldTransfer = [account("a", balanceA, balanceA - 5), account("b", 50, 55)];

Deno.test("gradeEpisode() passes an act task only with the gold change", () => {
  const good = grade(transfer, [call(1, "transfer", { from: "a", to: "b", amount: 5 }, goldTransfer)]);
  assertEquals([good.success, good.stateMatch, good.milestones], [true, true, { total: 1, reached: 1, achieved: 1 }]);
  assertEquals(grade(transfer, []).success, false);
  const wrong = grade(transfer, [call(1, "transfer", {}, [account("b", 50, 56)])]);
  assertEquals([wrong.success, wrong.milestones.reached, wrong.divergence], [false, 0, [1]]);
});

Deno.test("gradeEpisode() passes a refusal only when nothing was written and the agent refused", () => {
  // A refusal task whose outputs list no reason (the toy's names the balance: the next test).
  const unnamed = { ...overdraw, outputs: [] };
  // A scripted agent refuses by intent; its text is not read.
  assertEquals(grade(unnamed, [say(1, "No.", { kind: "refuse", reason: "balance" })]).success, true);
  assertEquals(grade(unnamed, [say(1, "I can't do that.", { kind: "inform" })]).success, false);
  // Saying nothing, or apologising, earns nothing.
  assertEquals(grade(unnamed, []).success, false);
  assertEquals(grade(unnamed, [say(1, "Sorry, something went wrong on my side")]).success, false);
  // A language agent's message has no intent: the refusal check decides.
  const check = (text: string) => text.includes("cannot");
  assertEquals(grade(unnamed, [say(1, "You cannot overdraw.")], check).success, true);
  // A refusal after a write is not a refusal outcome.
  const wrote = grade(unnamed, [call(1, "transfer", {}, [account("b", 50, 40)]), say(2, "You cannot.")], check);
  assertEquals([wrote.success, wrote.refused, wrote.nothingWritten], [false, true, false]);
});

Deno.test("gradeEpisode() wants a refusal to name the reason the task lists", () => {
  const named = { ...overdraw, outputs: ["balance"] };
  const refuse = { kind: "refuse" as const, reason: "x" };
  assertEquals(grade(named, [say(1, "I won't.", refuse)]).success, false);
  assertEquals(grade(named, [say(1, "Your balance is too low, I won't.", refuse)]).success, true);
  // The reason may come first.
  const two = grade(named, [say(1, "Your balance is too low."), say(2, "So no.", refuse)]);
  assertEquals([two.success, two.milestoneSteps], [true, [2]]);
});

Deno.test("gradeEpisode() passes a transfer only with a hand-over that has a summary and no extra write", () => {
  assertEquals(grade(human, [call(1, "hand_over", { summary: "wants a human" })]).success, true);
  assertEquals(grade(human, [call(1, "hand_over", { summary: "  " })]).success, false);
  assertEquals(grade(human, [call(1, "hand_over", { summary: "x" }, undefined, false)]).success, false);
  assertEquals(grade(human, [say(1, "Let me get a human for you.")]).success, false);
  const extra = [call(1, "transfer", {}, [account("b", 50, 40)]), call(2, "hand_over", { summary: "x" })];
  assertEquals(grade(human, extra).success, false);
});

Deno.test("gradeEpisode() passes an inform task only when its facts are told and nothing is written", () => {
  const inform: Task = {
    ...human,
    id: "toy/9",
    expect: "inform",
    gold: [{ name: "get_balance", args: { account: "a" } }],
    outputs: [String(balanceA)],
  };
  inform.milestones = outcomeMilestones(inform, toy.tools);
  assertEquals(inform.milestones.map((m) => m.kind), ["told"]);
  assertEquals(grade(inform, [say(1, `Your balance is ${balanceA}.`)]).success, true);
  assertEquals(grade(inform, [say(1, "Your balance is fine.")]).success, false);
  assertEquals(grade(inform, []).success, false);
  // No outputs: nothing to earn, so nothing passes.
  assertEquals(grade({ ...inform, outputs: [], milestones: [] }, [say(1, "Hello.")]).success, false);
});

Deno.test("gradeEpisode() counts milestones reached before the first missed and achieved in any order", () => {
  const task: Task = {
    ...transfer,
    outputs: ["done"],
    milestones: [{ kind: "change", label: "transfer", gold: 1 }, { kind: "told", label: "tell", outputs: ["done"] }],
  };
  const inOrder = grade(task, [call(1, "transfer", {}, goldTransfer), say(2, "Done.")]);
  assertEquals([inOrder.milestones, inOrder.milestoneSteps], [{ total: 2, reached: 2, achieved: 2 }, [1, 2]]);
  // Told before the change (e.g. the amount in the proposal): both outcomes hold, so both are reached.
  const backwards = grade(task, [say(1, "Done."), call(2, "transfer", {}, goldTransfer)]);
  assertEquals([backwards.milestones, backwards.success], [{ total: 2, reached: 2, achieved: 2 }, true]);
  // An outcome missed stops `reached`; a later one still counts as achieved.
  const untold = { ...task, milestones: [...task.milestones].reverse() };
  assertEquals(grade(untold, [call(1, "transfer", {}, goldTransfer)]).milestones, {
    total: 2,
    reached: 0,
    achieved: 1,
  });
  // d_t: the told milestone is one unit beside the two gold rows.
  const silent = grade(task, [call(1, "transfer", {}, goldTransfer)]);
  assertEquals(silent.divergence, [0, 1 / 3]);
});

Deno.test("gradeEpisode() reaches a change at the event that sets the last of its rows, and told outputs across messages", () => {
  const task: Task = {
    ...transfer,
    outputs: ["alpha", "beta"],
    milestones: [{ kind: "change", label: "transfer", gold: 1 }, {
      kind: "told",
      label: "tell",
      outputs: ["alpha", "beta"],
    }],
  };
  const [a, b] = goldTransfer;
  const wrongA = account("a", balanceA, balanceA - 6), wrongB = account("b", 50, 54);
  // Row a at its gold value, b wrong, then b right: reached at step 3, when both hold.
  const late = grade(task, [call(1, "transfer", {}, [a]), call(2, "transfer", {}, [wrongB]), call(3, "x", {}, [b])]);
  assertEquals(late.milestoneSteps, [3, null]);
  // Row a set, set wrong, then b set: not yet (a is wrong); a set again: reached then, at step 4.
  const events = [call(1, "t", {}, [a]), call(2, "t", {}, [wrongA]), call(3, "t", {}, [b]), call(4, "t", {}, [a])];
  assertEquals(grade(task, events.slice(0, 3)).milestoneSteps, [null, null]);
  assertEquals(grade(task, events).milestoneSteps, [4, null]);
  // The outputs said over two messages: told at the second, and found.
  const told = grade(task, [say(1, "Alpha first."), say(2, "Then nothing."), say(3, "And BETA.")]);
  assertEquals([told.milestoneSteps, told.outputsFound, told.milestones.achieved], [[null, 3], true, 1]);
  // d_t counts each gold row once: two rows, both missed, then the told milestone met.
  assertEquals(told.missed, [2, 2]);
});

Deno.test("outcomeMilestones() never makes a look-up a milestone", () => {
  assertEquals(outcomeMilestones(transfer, toy.tools), [{ kind: "change", label: "transfer", gold: 1 }]);
  assertEquals(outcomeMilestones(overdraw, toy.tools).map((m) => m.kind), ["refused"]);
  assertEquals(outcomeMilestones(human, toy.tools).map((m) => m.kind), ["handed_over"]);
});

Deno.test("changeDelta() and composeChanges() agree with the net change", () => {
  const first = [account("a", 1, 2)];
  const second = [account("a", 1, 3), account("b", 5, 6)];
  const delta = changeDelta(first, second);
  assertEquals(delta, [account("a", 2, 3), account("b", 5, 6)]);
  assert(sameChanges(composeChanges([first, delta]), second));
  // A row set back to its value before the episode drops out of the net change.
  assertEquals(changeDelta(first, []), [account("a", 2, 1)]);
  assertEquals(composeChanges([first, changeDelta(first, [])]), []);
});
