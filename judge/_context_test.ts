// What prepare() answers about the moments of an episode (made once, read per call), against the
// same questions asked the plain way: a scan of every event before the moment.
import { assert, assertEquals } from "@std/assert";
import { changesWithin, type EpisodeEvent, getDomain, jsonEqual, World } from "../envs/mod.ts";
import { message as msg, toolCall as tool } from "../tests/fixtures/events.ts";
import { replayTrajectory } from "../tests/fixtures/replay.ts";
import { argOf, prepare } from "./_context.ts";

const world = World.open(getDomain("airline"), { seed: "0" });
const task = world.defaultTasks(50).find((t) => t.intent === "cancel_allowed")!;
const user = task.facts.user_id as string, res = task.facts.reservation_id as string;

const events: EpisodeEvent[] = replayTrajectory(world, [
  msg(0, "user", `Hi, I'd like to cancel a trip. I am ${user}.`),
  tool(1, "get_reservation_details", { reservation_id: res }),
  tool(2, "get_user_details", { user_id: user }),
  tool(3, "cancel_reservation", { reservation_id: "NOSUCH" }),
  msg(4, "agent", "   "),
  msg(4, "agent", `Shall I cancel ${res}?`),
  msg(4, "user", `Yes, ${res} please.`),
  tool(5, "cancel_reservation", { reservation_id: "NOSUCH" }),
  tool(6, "cancel_reservation", { reservation_id: res }),
  tool(7, "get_reservation_details", { reservation_id: "OTHER1" }),
  msg(8, "agent", "It is cancelled."),
], { task });

Deno.test("prepare() answers what was before each event as a scan of the events before it would", () => {
  const ctx = prepare({ task, events, gold: world.goldReplay(task), domain: world.domain, db: world.store });
  const userTexts = ctx.messages.filter((m) => m.actor === "user");
  for (let index = 0; index <= events.length + 1; index++) {
    for (const value of [user, res, res.toLowerCase(), "NOSUCH", "cancel", "nobody"]) {
      const said = userTexts.some((m) => m.index < index && m.text.toLowerCase().includes(value.toLowerCase()));
      assertEquals(ctx.userSaid(value, index), said, `${value} before ${index}`);
    }
    assertEquals(ctx.messagesBefore(index), ctx.messages.filter((m) => m.index < index));
    const changed = ctx.calls.some((c) => c.index < index && c.ok && c.changes.length > 0);
    assertEquals(ctx.changedBefore(index), changed, `changed before ${index}`);
    for (const value of [res, "NOSUCH", "OTHER1"]) {
      const named = new Set(
        ctx.calls.filter((c) => c.index < index).map((c) => argOf(c.args, "reservation_id"))
          .filter((v) => typeof v === "string"),
      );
      assertEquals(ctx.onlyNamed("reservation_id", value, index), named.size === 1 && named.has(value), `${index}`);
    }
  }
  for (const name of ["cancel_reservation", "get_user_details"]) {
    assertEquals(ctx.failedCalls(name), ctx.calls.filter((c) => c.tool === name && !c.ok));
  }
  assertEquals(ctx.failedCalls("cancel_reservation").length, 2);
  // The user is identified by the look-up of their own id (event 2), not before.
  assertEquals([...ctx.identifiedBefore(2)], []);
  assertEquals([...ctx.identifiedBefore(3)], [user]);
  assert(ctx.identifiedBefore(3) === ctx.identifiedBefore(events.length));
  for (const call of ctx.calls) {
    assertEquals(ctx.withinGold(call.changes), changesWithin(call.changes, world.goldReplay(task).all));
  }
  const cancelled = ctx.calls.find((c) => c.ok && c.changes.length > 0)!;
  assert(ctx.withinGold(cancelled.changes) && jsonEqual(cancelled.args, { reservation_id: res }));
  assert(!ctx.withinGold([{ ...cancelled.changes[0], after: null }]));
});
