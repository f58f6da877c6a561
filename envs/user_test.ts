import { assert, assertEquals } from "@std/assert";
import { scriptedUser } from "./user.ts";
import { airline } from "./airline/mod.ts";
import { Rng } from "./rng.ts";
import type { Intent, Message, Task, ToolCall } from "./types.ts";

// A customer who wants reservation ABC123 in business, paid with credit_card_1111111. The gold
// pays with another card on purpose: the user must go by its own request, never by the gold.
function task(extra: Partial<Task> = {}): Task {
  return {
    id: "airline/0",
    intent: "change_cabin",
    goal: "change_cabin",
    facts: {
      user_id: "ana_lee_1234",
      reservation_id: "ABC123",
      new_cabin: "business",
      payment_id: "credit_card_1111111",
    },
    volunteered: ["user_id"],
    openings: ["Hi, I want to fly business on my booking."],
    gold: [upgrade("gift_card_2222222")],
    outputs: [],
    milestones: [],
    expect: "act",
    ...extra,
  };
}

function upgrade(payment: string, cabin = "business", reservation = "ABC123"): ToolCall {
  return {
    name: "update_reservation_flights",
    args: {
      reservation_id: reservation,
      cabin,
      flights: [{ flight_number: "HAT001", date: "2024-05-20" }],
      payment_id: payment,
    },
  };
}

function user(t: Task = task(), trust = 0, seed = "1") {
  return scriptedUser(t, new Rng(seed), { tools: airline.tools, vocabulary: airline.vocabulary, trust });
}

// A scripted agent's proposal: the call, and the playbook's words for it (the user reads what is said).
const propose = (call: ToolCall, text = statement(call)): Message => ({
  role: "agent",
  text,
  intent: { kind: "propose", call },
});

function statement(call: ToolCall): string {
  const a = call.args as Record<string, string>;
  return call.name === "cancel_reservation"
    ? `I will cancel reservation ${a.reservation_id}. Shall I go ahead?`
    : `I will move reservation ${a.reservation_id} to ${a.cabin.replace("_", " ")}; $200 will be charged to ` +
      `${a.payment_id}. Shall I go ahead?`;
}
const say = (text: string): Message => ({ role: "agent", text });
const kind = (m: Message): Intent["kind"] | undefined => m.intent?.kind;

Deno.test("scriptedUser() approves a proposal that matches its own request, not the gold's", () => {
  assertEquals(kind(user().reply(propose(upgrade("credit_card_1111111")))), "confirm");
  const no = user().reply(propose(upgrade("gift_card_2222222")));
  assertEquals(kind(no), "decline");
  assert(no.text.includes("credit_card_1111111"), no.text);
  assertEquals(no.read?.conflicts, ["payment_id"]);
});

Deno.test("scriptedUser() declines another reservation, another cabin and a change it did not ask for", () => {
  assertEquals(kind(user().reply(propose(upgrade("credit_card_1111111", "economy")))), "decline");
  assertEquals(kind(user().reply(propose(upgrade("credit_card_1111111", "business", "XYZ789")))), "decline");
  const cancel = { name: "cancel_reservation", args: { reservation_id: "ABC123" } };
  assertEquals(kind(user().reply(propose(cancel))), "decline");
});

Deno.test("scriptedUser() with trust approves a wrong detail at that rate, never another change", () => {
  const wrong = propose(upgrade("gift_card_2222222"));
  assertEquals(kind(user(task(), 1).reply(wrong)), "confirm");
  const cancel = propose({ name: "cancel_reservation", args: { reservation_id: "ABC123" } });
  assertEquals(kind(user(task(), 1).reply(cancel)), "decline");
  // At 0.5, some of many seeded users let it through and some do not.
  const yes = Array.from({ length: 40 }, (_, i) => kind(user(task(), 0.5, String(i)).reply(wrong)) === "confirm");
  const share = yes.filter(Boolean).length / yes.length;
  assert(share > 0.2 && share < 0.8, `approved ${share}`);
});

Deno.test("scriptedUser() holds against a proposal only what it says, and asks when it says nothing", () => {
  // The call charges another card, but the words name none: the customer cannot see it.
  const silent = propose(upgrade("gift_card_2222222"), "I will move reservation ABC123 to business. Shall I go ahead?");
  assertEquals(kind(user().reply(silent)), "confirm");
  const bare = user().reply(propose(upgrade("credit_card_1111111"), "Shall I go ahead?"));
  assertEquals([kind(bare), bare.read?.kind], ["provide", "propose"]);
  assertEquals(kind(user().reply(say("Shall I go ahead?"))), "provide");
});

Deno.test("scriptedUser() declines basic economy when it asked for economy, and ends after its patience", () => {
  const wants = task({ facts: { ...task().facts, new_cabin: "economy" } });
  assertEquals(kind(user(wants).reply(propose(upgrade("credit_card_1111111", "basic_economy")))), "decline");
  assertEquals(kind(user(wants).reply(propose(upgrade("credit_card_1111111", "economy")))), "confirm");
  const u = user();
  const wrong = propose(upgrade("gift_card_2222222"));
  assertEquals([u.reply(wrong), u.reply(wrong), u.reply(wrong)].map(kind), ["decline", "decline", "stop"]);
});

Deno.test("scriptedUser() with a question ends on an answer that states something, not on a filler", () => {
  const asks = task({ goal: "report_lost_bag" });
  assertEquals(kind(user(asks).reply(say("Let me look into that for you."))), "provide");
  assertEquals(user(asks).reply(say("Your bag was found: it is at gate 12 of JFK.")).intent, {
    kind: "stop",
    satisfied: true,
  });
});

Deno.test("scriptedUser() approves nothing when undecided, and cannot confirm what it lacks", () => {
  assertEquals(kind(user(task({ undecided: true }), 1).reply(propose(upgrade("credit_card_1111111")))), "decline");
  const { reservation_id: _, ...facts } = task().facts;
  const lacking = task({ facts, lacks: ["reservation_id"] });
  const named = propose(upgrade("credit_card_1111111"), "I will move reservation ZZ9Z99 to business.");
  const honest = user(lacking).reply(named);
  assertEquals([kind(honest), honest.read?.conflicts], ["decline", ["reservation_id"]]);
  assertEquals(kind(user(lacking, 1).reply(named)), "confirm");
});

Deno.test("scriptedUser() answers a question in words with the fact it names, by any of its names", () => {
  for (const q of ["Could you give me your reservation id?", "What is your booking reference?"]) {
    const reply = user().reply(say(q));
    assertEquals(reply.intent, { kind: "provide", facts: { reservation_id: "ABC123" } }, q);
    assert(reply.text.includes("ABC123"), reply.text);
    assertEquals(reply.read, { kind: "ask", fields: ["reservation_id"], action: null });
  }
  const unknown = user().reply(say("Could you tell me your email address?"));
  assertEquals(kind(unknown), "unknown");
});

Deno.test("scriptedUser() answers a proposal in words: yes when it matches, no when a detail is otherwise", () => {
  const good = "I will move reservation ABC123 to business on the same flights; $200 will be charged to " +
    "credit_card_1111111. Shall I go ahead?";
  assertEquals(kind(user().reply(say(good))), "confirm");
  const card = good.replace("credit_card_1111111", "gift_card_2222222");
  assertEquals(kind(user().reply(say(card))), "decline");
  const cabin = good.replace("to business", "to economy");
  assertEquals(kind(user().reply(say(cabin))), "decline");
});

Deno.test("scriptedUser() ends when the agent says it is done or refuses, and counts what it cannot read", () => {
  const done = user().reply(say("Your reservation ABC123 has been upgraded to business."));
  assertEquals(done.intent, { kind: "stop", satisfied: true });
  const refused = user().reply(say("I'm sorry, but our policy does not allow upgrading this reservation."));
  assertEquals(refused.intent, { kind: "stop", satisfied: false });
  const u = user();
  const reply = u.reply(say("Blorf quix zanth? Wibble snorp."));
  assertEquals([kind(reply), reply.read?.kind], ["provide", "unread"]);
  u.reply(say("Could you give me your reservation id?"));
  assertEquals(u.finish?.(), { misread: { messages: 2, unread: 1 } });
});

Deno.test("scriptedUser() reads a proposal split over two messages", () => {
  const u = user();
  const first = u.reply(say("Here's the plan: I'll move reservation ABC123 to business on the same flights."));
  assertEquals(kind(first), "provide");
  const second = u.reply(say("It costs $200, charged to credit_card_1111111. Shall I go ahead?"));
  assertEquals(kind(second), "confirm");
});

Deno.test("scriptedUser() does not take a done-claim that states a detail otherwise as its request met", () => {
  const wrong = user().reply(
    say("Done: reservation ABC123 is now in business, and $200 was charged to gift_card_2222222."),
  );
  assertEquals(wrong.intent, { kind: "stop", satisfied: false });
  assert(wrong.text.includes("credit_card_1111111"), wrong.text);
  const right = user().reply(
    say("Done: reservation ABC123 is now in business, and $200 was charged to credit_card_1111111."),
  );
  assertEquals(right.intent, { kind: "stop", satisfied: true });
});
