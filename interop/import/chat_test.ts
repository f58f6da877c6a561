import { assertEquals, assertThrows } from "@std/assert";
import { getDomain, World } from "../../envs/mod.ts";
import { type ChatMessage, replayChat, TranscriptError } from "./chat.ts";
import { firstDifference } from "./episodes.ts";

function world(): World {
  return World.open(getDomain("airline"), { seed: "0" });
}

// The first user of the generated world, and one of their reservations.
function someone(w: World): { user: string; reservation: string } {
  const row = w.store.get<{ user_id: string; reservation_id: string }>(
    "SELECT user_id, reservation_id FROM reservations ORDER BY reservation_id LIMIT 1",
  )!;
  return { user: row.user_id, reservation: row.reservation_id };
}

const call = (id: string | undefined, name: string, args: unknown): ChatMessage => ({
  role: "assistant",
  content: "Let me look that up.",
  tool_calls: [{ ...(id ? { id } : {}), function: { name, arguments: JSON.stringify(args) } }],
});

Deno.test("replayChat() keeps what the user saw, parses each call and answers it from the world", () => {
  using w = world();
  const { user, reservation } = someone(w);
  const { events, calls } = replayChat(w, [
    { role: "system", content: "You are an airline agent." },
    { role: "user", content: `I'm ${user}.` },
    call("a", "get_user_details", { user_id: user }),
    call("b", "get_reservation_details", { reservation_id: "NOSUCH" }),
    // Results come back out of order; they are matched by id.
    // τ-bench's text for an unknown reservation, which ark keeps.
    { role: "tool", tool_call_id: "b", content: "Error: user not found" },
    { role: "tool", tool_call_id: "a", content: '{"name": "someone else"}' },
    { role: "assistant", content: [{ type: "text", text: "Found you." }] },
  ]);
  // The system prompt and the text beside the calls are gone; the calls are steps 1 and 2.
  assertEquals(events.map((e) => [e.step, e.actor, e.kind, e.tool ?? e.text]), [
    [0, "user", "message", `I'm ${user}.`],
    [1, "tool", "tool", "get_user_details"],
    [2, "tool", "tool", "get_reservation_details"],
    [3, "agent", "message", "Found you."],
  ]);
  assertEquals(events[1].args, { user_id: user });
  assertEquals(events[2].error, { code: "not_found", message: "user not found" });
  // The error text matches exactly; the profile does not.
  assertEquals(calls.map((c) => [c.tool, c.equal]), [["get_user_details", false], ["get_reservation_details", true]]);
  assertEquals(calls[1].ark, "Error: user not found");
  // Nothing of the replay stays in the world.
  assertEquals(
    replayChat(w, [call(undefined, "get_reservation_details", { reservation_id: reservation })]).calls[0].equal,
    null,
  );
});

Deno.test("replayChat() refuses a call of a tool the world lacks, or arguments that are not JSON", () => {
  using w = world();
  assertThrows(
    () => replayChat(w, [{ role: "user", content: "hi" }, call("a", "fly_me_to_the_moon", {})]),
    TranscriptError,
    'message 2 calls tool "fly_me_to_the_moon", which the airline world does not have',
  );
  assertThrows(
    () =>
      replayChat(w, [{
        role: "assistant",
        tool_calls: [{ function: { name: "get_user_details", arguments: '{"user_id": "x"' } }],
      }]),
    TranscriptError,
    'message 1: the arguments of "get_user_details" are not JSON',
  );
  // Arguments of the wrong shape are the agent's mistake, not the file's: an invalid call, replayed.
  const { events } = replayChat(w, [call("a", "get_user_details", { user: 1 })]);
  assertEquals(events[0].error?.code, "invalid_args");
});

Deno.test("firstDifference() names the first path where two results differ", () => {
  assertEquals(firstDifference([1, 2], [1, 2, 3]), "[2]: recorded absent, ark 3");
  assertEquals(firstDifference({ a: { b: 1 } }, { a: { c: 1 } }), ".a.b: recorded 1, ark absent");
  assertEquals(firstDifference("Error: x", "Error: y"), 'the result: recorded "Error: x", ark "Error: y"');
  assertEquals(firstDifference({ a: 1 }, { a: 1 }), "");
});

Deno.test("replayChat() answers two calls of one id in the order they were made", () => {
  using w = world();
  const { user, reservation } = someone(w);
  const { calls } = replayChat(w, [
    {
      role: "assistant",
      tool_calls: [
        { id: "x", function: { name: "get_user_details", arguments: JSON.stringify({ user_id: user }) } },
        {
          id: "x",
          function: { name: "get_reservation_details", arguments: JSON.stringify({ reservation_id: reservation }) },
        },
      ],
    },
    { role: "tool", tool_call_id: "x", content: "first" },
    { role: "tool", tool_call_id: "x", content: "second" },
  ]);
  assertEquals(calls.map((c) => [c.tool, c.recorded]), [["get_user_details", "first"], [
    "get_reservation_details",
    "second",
  ]]);
});
