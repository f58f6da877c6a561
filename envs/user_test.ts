import { assert, assertEquals } from "@std/assert";
import { scriptedUser } from "./user.ts";
import { isExplicitYes } from "./text.ts";
import { airline } from "./airline/mod.ts";
import { Rng } from "./rng.ts";
import type { Intent, Message } from "./message.ts";
import type { Task } from "./task.ts";
import type { ToolCall } from "./tool.ts";

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

Deno.test("scriptedUser() declines a proposal about another record or value, even when its own is said too", () => {
  const cancel = task({
    goal: "cancel_reservation",
    intent: "cancel_reservation",
    facts: { user_id: "ana_lee_1234", reservation_id: "ABC123", reason: "change_of_plan" },
  });
  const other = [
    "Your profile has two trips, ABC123 and XYZ789. I'll cancel XYZ789 for you. Shall I go ahead?",
    "I'll cancel reservation XYZ789 rather than ABC123. Is that okay?",
    "I'd cancel XYZ789, not ABC123. Do you want me to do that?",
  ];
  assertEquals(other.map((t) => kind(user(cancel).reply(say(t)))), ["decline", "decline", "decline"]);
  const own = [
    "Your profile has two trips, ABC123 and XYZ789. I'll cancel ABC123 for you. Shall I go ahead?",
    "I'll cancel reservation ABC123 rather than XYZ789. Is that okay?",
  ];
  assertEquals(own.map((t) => kind(user(cancel).reply(say(t)))), ["confirm", "confirm"]);
  // Both named in the change: the one the change acts on or uses is the one that counts.
  const beside = [
    "I'll upgrade reservation XYZ789 to business and keep ABC123 as it is. Shall I go ahead?",
    "I'll upgrade reservation ABC123 to business for $200, charging gift_card_2222222 since credit_card_1111111 " +
    "has expired. Shall I go ahead?",
  ];
  assertEquals(beside.map((t) => kind(user().reply(say(t)))), ["decline", "decline"]);
  const kept = "I'll upgrade reservation ABC123 to business and keep XYZ789 as it is, charging credit_card_1111111. " +
    "Shall I go ahead?";
  assertEquals(kind(user().reply(say(kept))), "confirm");
  // From one value to another: the user's is the one it goes to, or it is the wrong way round.
  const down = "I'll move reservation ABC123 from business to economy for $0. Shall I go ahead?";
  assertEquals(kind(user().reply(say(down))), "decline");
  const up =
    "I'll move reservation ABC123 from economy to business; $200 goes on credit_card_1111111. Shall I go ahead?";
  assertEquals(kind(user().reply(say(up))), "confirm");
});

Deno.test("scriptedUser() answers a wh-question instead of saying yes to it, and says no yes to a plan alone", () => {
  for (const q of ["How would you like to pay for the upgrade?", "Which card should I charge for it?"]) {
    const reply = user().reply(say(`Upgrading ABC123 to business costs $200. ${q}`));
    assertEquals(reply.intent, { kind: "provide", facts: { payment_id: "credit_card_1111111" } }, q);
  }
  for (const q of ["When would you like to upgrade?", "Would you like to know what the upgrade costs?"]) {
    assert(kind(user().reply(say(q))) !== "confirm", q);
  }
  // A plan stated before its proposal gets a reply that reads as no yes ("Okay." would).
  for (const seed of ["1", "2", "3", "4", "5", "6"]) {
    const reply = user(task(), 0, seed).reply(say("Here's the plan: I'll move reservation ABC123 to business."));
    assertEquals([kind(reply), isExplicitYes(reply.text)], ["provide", false], reply.text);
  }
});

Deno.test("scriptedUser() with a question waits out 'let me check', and a value it gave itself answers nothing", () => {
  const asks = task({ goal: "report_lost_bag" });
  const stalls = [
    "One moment while I pull up reservation ABC123.",
    "Thanks, ana_lee_1234. Let me look into this for you.",
    "I'm sorry to hear that. I'll check on it within 24 hours.",
  ];
  for (const s of stalls) assert(kind(user(asks).reply(say(s))) !== "stop", s);
  const answer = user(asks).reply(say("Let me explain: your bag is at JFK and arrives on May 21."));
  assertEquals(answer.intent, { kind: "stop", satisfied: true });
});

Deno.test("scriptedUser() is not satisfied by a claim that another change was made, unasked", () => {
  for (
    const claim of [
      "Reservation ABC123 has been cancelled; $300 goes back to your card.",
      "I've added two checked bags to ABC123.",
    ]
  ) {
    const reply = user().reply(say(claim));
    assertEquals(reply.intent, { kind: "stop", satisfied: false }, claim);
  }
  // After its yes, a claim is about the change approved, whatever follows from it (a refund).
  const u = user();
  const good =
    "I will move reservation ABC123 to business; $200 will be charged to credit_card_1111111. Shall I go ahead?";
  assertEquals(kind(u.reply(say(good))), "confirm");
  const done = u.reply(say("Done: ABC123 is in business now, and the old fare difference is refunded to your card."));
  assertEquals(done.intent, { kind: "stop", satisfied: true });
});

Deno.test("scriptedUser() takes the old value beside its new one as what changes, not as another", () => {
  const rename = task({
    goal: "update_passenger",
    intent: "update_passenger",
    facts: { user_id: "ana_lee_1234", reservation_id: "KA2O31", passenger_name: "Kofi Patel", new_first_name: "Emeka" },
  });
  const fix = "I'll correct the name on KA2O31 from Kofi Patel to Emeka Patel. Shall I go ahead?";
  assertEquals(kind(user(rename).reply(say(fix))), "confirm");
  const flights = task({
    goal: "change_flights",
    intent: "change_flights",
    facts: { user_id: "ana_lee_1234", reservation_id: "97B373", new_date: "2024-05-16", preference: "cheapest_direct" },
    openings: ["Hi, I need to move my flight to another day."],
  });
  const move = "Your outbound is HAT001 on 2024-05-14. The cheapest direct flight on 2024-05-16 is HAT002. " +
    "I'll change the flight on reservation 97B373 to HAT002 for $50. Shall I go ahead?";
  assertEquals(kind(user(flights).reply(say(move))), "confirm");
  // Told it was done without a yes asked, with what follows from it (bags carried over): its request.
  const done = user(flights).reply(
    say("All done: 97B373 now flies HAT002 on 2024-05-16, and your checked bags carry over."),
  );
  assertEquals(done.intent, { kind: "stop", satisfied: true });
});

Deno.test("scriptedUser() with a question takes an answer after a colon, or about the record it named", () => {
  const asks = task({ goal: "report_lost_bag" });
  for (
    const a of [
      "I'll look it up: your bag is at JFK.",
      "Your reservation ABC123 shows the bag was delivered to the belt.",
    ]
  ) {
    assertEquals(user(asks).reply(say(a)).intent, { kind: "stop", satisfied: true }, a);
  }
  assert(kind(user(asks).reply(say("Thanks, ABC123. Could you tell me more?"))) !== "stop");
});

Deno.test("scriptedUser() reads a proposal alike in every episode, each reply with its own reading", () => {
  const wrong = propose(upgrade("gift_card_2222222"));
  const first = user().reply(wrong);
  const read = structuredClone(first.read);
  first.read?.fields.push("user_id");
  first.read?.conflicts?.push("new_cabin");
  const again = user().reply(wrong);
  assertEquals(again.read, read);
  assertEquals(again.read?.conflicts, ["payment_id"]);
});
