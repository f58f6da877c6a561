// readAgentMessage() on proposals: the change an agent asks the customer to approve, however it is put
// and closed, and the offers, menus and plans that are not one.
import { assertEquals } from "@std/assert";
import { readAgentMessage } from "./reader.ts";

// The cases whose reading differs from the one wanted, with what was read: [] when all agree.
function misread<T>(cases: readonly [string, T][], read: (text: string) => T): [string, T][] {
  return cases.filter(([text, want]) => JSON.stringify(read(text)) !== JSON.stringify(want))
    .map(([text]) => [text, read(text)]);
}

const agent = (text: string, previous = "") => readAgentMessage("airline", text, { previous });
const proposal = (text: string) => [agent(text).proposes, agent(text).action] as const;

const ASK = "Shall I go ahead? Please answer yes or no.";

Deno.test("readAgentMessage() reads the proposals of ark's scripted agents in every domain, and their change", () => {
  const cases: [string, string, string][] = [
    [
      "airline",
      `I will cancel reservation ZH45RN entirely; the refund of $1986 goes back to the original payment methods. ${ASK}`,
      "cancel",
    ],
    [
      "airline",
      `I will change reservation 97B373 to the flights HAT189 on 2024-05-16 in economy; $48 will be refunded to credit_card_5377861. ${ASK}`,
      "change_flights",
    ],
    [
      "airline",
      `I will move reservation 8SWHI9 to basic economy on the same flights; $120 will be refunded to gift_card_1. ${ASK}`,
      "change_cabin",
    ],
    [
      "airline",
      `I will set reservation XIMGKG to 3 checked bags, 1 of them paid; $50 will be charged to credit_card_1. ${ASK}`,
      "change_baggage",
    ],
    ["airline", `I will reduce reservation XIMGKG to 1 checked bags. ${ASK}`, "change_baggage"],
    [
      "airline",
      `I will update passenger Rosa Mendoza on reservation ABC123 to Rosa Patel, born 1990-02-03. ${ASK}`,
      "change_passengers",
    ],
    ["airline", `I will add the passenger to reservation ABC123. ${ASK}`, "change_passengers"],
    [
      "airline",
      `I'm sorry about the cancelled flight. I will send you a travel certificate of $200 ($100 per passenger). ${ASK}`,
      "send_certificate",
    ],
    [
      "airline",
      `I will book flight HAT022 from LAS to LGA on 2024-05-25 in business for 1 passenger(s), insurance no, 0 checked bag(s) (0 paid), for a total of $735 paid with credit_card_3623169. ${ASK}`,
      "book",
    ],
    [
      "retail",
      `I will cancel order #W4632104 ($988.54 paid) for the reason "no longer needed": the whole order is refunded to its payment methods, a gift card at once and other methods within 5 to 7 business days. ${ASK}`,
      "cancel",
    ],
    [
      "retail",
      `I will change the items of order #W4632104: 7119349779 to 2071487230; the price difference of $20.00 will be charged to paypal_1. Items can be changed only once per order: afterwards the order cannot be changed or cancelled. ${ASK}`,
      "modify_items",
    ],
    [
      "retail",
      `I will change the shipping address of order #W9901667 to 5161 River Road, Apt 48, San Antonio, TX 78243, USA. ${ASK}`,
      "modify_address",
    ],
    [
      "retail",
      `I will pay order #W6645932 with paypal_0432836 instead. The $82.21 paid with credit_card_4652266 is refunded to it (a gift card at once, other methods within 5 to 7 business days). ${ASK}`,
      "modify_payment",
    ],
    [
      "retail",
      `I will request a return of items 4978363844, 4461218321 of order #W3788879 worth $300.10, refunded to paypal_1. An order can be returned only once, and you will get an email with instructions. ${ASK}`,
      "return",
    ],
    [
      "retail",
      `I will request an exchange of order #W4387186: 8464289531 to 2071487230; the price difference of $207.78 will be refunded to paypal_9196958. An order can be exchanged only once, and you will get an email with instructions. ${ASK}`,
      "exchange",
    ],
    ["orders", `I will refund $87.45 on order 5838 (reason: late delivery). ${ASK}`, "refund"],
    ["orders", `I will permanently delete test order 5012, with its items, payments and refunds. ${ASK}`, "delete"],
    ["orders", `I will cancel order 4410 (status pending → cancelled). ${ASK}`, "cancel"],
    [
      "orders",
      `I will email customer C0134 at rosa.rossi.1@example.com with the subject "Your order 5950 is on its way". ${ASK}`,
      "email",
    ],
  ];
  const wrong = cases.filter(([d, text, action]) => {
    const r = readAgentMessage(d, text);
    return !r.proposes || r.action !== action || r.claims_done || r.refuses || r.unread;
  }).map(([d, text]) => [text.slice(0, 50), readAgentMessage(d, text).action]);
  assertEquals(wrong, []);
});

Deno.test("readAgentMessage() reads a proposal however the agent asks for the go-ahead", () => {
  const cases: [string, [boolean, string | null]][] = [
    ["Here's the summary: flight HAT123 on May 3 in economy, $230 on your Visa ending 1234. Shall I book it?", [
      true,
      "book",
    ]],
    ["Would you like me to go ahead and upgrade reservation ABC123 to business for $400?", [true, "change_cabin"]],
    [
      "To confirm, I'll move your return flight to HAT210 on May 22 and upgrade you to business. Does that sound good?",
      [true, "change_flights"],
    ],
    ["I can add 2 checked bags to reservation ABC123 for $100. Would you like me to proceed?", [
      true,
      "change_baggage",
    ]],
    ["As a gold member you are eligible for a $100 travel certificate. Should I issue it?", [true, "send_certificate"]],
    ["Please confirm that you'd like me to cancel reservation XYZ789.", [true, "cancel"]],
    [
      "Booking XYZ789 qualifies for a $420 refund if cancelled. Do you wish to go ahead with cancelling it?",
      [true, "cancel"],
    ],
    ["I'll change the passenger's name from Ana Lee to Ana Park. Is that okay?", [true, "change_passengers"]],
    ['The new flights are HAT001 and HAT002, and the upgrade adds $90. Please confirm with a "yes" to proceed.', [
      true,
      "change_flights",
    ]],
  ];
  assertEquals(misread(cases, proposal), []);
});

Deno.test("readAgentMessage() reads no proposal in menus, generic offers, transfers, conditions and open values", () => {
  const cases: [string, [boolean, string | null]][] = [
    ["Here are two options:\n1. HAT001 at 8 am ($120)\n2. HAT002 at 5 pm ($140)\nWhich one would you like to book?", [
      false,
      null,
    ]],
    ["Do you want to continue with one of the flights above?", [false, null]],
    ["Basic economy can't be modified, but you can change the cabin class. Would you like to change the cabin class?", [
      false,
      null,
    ]],
    ["Would you like to book a new reservation instead?", [false, null]],
    ["Shall I hand you over to one of my human colleagues?", [false, null]],
    ["If you're a gold member, I can offer a certificate. Would you like to proceed?", [false, null]],
    ["Would you like me to search for flights on another day?", [false, null]],
    ["I can book flight HAT100 for you. Shall I go ahead? Please also tell me which cabin you want.", [false, null]],
    ["Flight HAT100:\n- Economy: $120\n- Business: $310\nWould you like to proceed with booking?", [false, null]],
    ["Do you wish to modify or cancel the booking?", [false, null]],
    ["Your reservation has been cancelled. Is there anything else I can help with?", [false, null]],
    ["Could you confirm which of your reservations you'd like to cancel?", [false, null]],
  ];
  assertEquals(misread(cases, proposal), []);
});

Deno.test("readAgentMessage() takes a payment-only re-proposal's change from what was said before", () => {
  const text =
    "The gift card did not cover it. Would you like to proceed using your credit card ending in 1234 instead?";
  assertEquals(agent(text, "Please change my flight to May 20.").proposes, true);
  assertEquals(agent(text, "Please change my flight to May 20.").action, "change_flights");
  const earlier = readAgentMessage("airline", "Shall we go ahead with that amount on your Visa?", {
    earlier: ["I can book flight HAT100 on May 3 in economy for $230."],
  });
  assertEquals([earlier.proposes, earlier.action], [true, "book"]);
});

Deno.test("readAgentMessage() reads a proposal whatever closes it, taking the change from the message when the question names none", () => {
  const bodies: [string, string][] = [
    ["cancel", "Reservation T4K8PZ (Denver to Austin, June 9) can be cancelled with $310 going back to your Visa."],
    ["change_flights", "Your updated itinerary would be HAT417 from ATL to BOS on June 12, with $64 more to pay."],
    ["change_cabin", "Moving both travellers on reservation R2D9QX up to business comes to $515."],
    ["change_baggage", "Three checked bags on reservation M3V7WS will cost $75 in total, charged to your Mastercard."],
    ["send_certificate", "Since the delay was over four hours, I can offer you a $150 travel voucher as compensation."],
  ];
  const closers = [
    "Should I make this change?",
    "Do you want me to do that?",
    "Would that work for you?",
    "Is everything correct?",
    "Looks good?",
    "OK to go ahead?",
    "Please confirm (yes or no).",
    "Could you confirm?",
    "Do you agree?",
    "Are you comfortable with this?",
    "Want me to proceed?",
    "Should I?",
    "Let me know if this looks right.",
  ];
  const wrong: string[] = [];
  for (const [action, body] of bodies) {
    for (const closer of closers) {
      const r = agent(`${body} ${closer}`);
      if (!r.proposes || r.action !== action) wrong.push(`${closer} ${action}: ${r.action}`);
    }
  }
  assertEquals(wrong, []);
  assertEquals(proposal("Cancelling reservation P0L9KQ returns $180 to your card, alright?"), [true, "cancel"]);
  // A question opened by a wh-word asks for a value, whatever its verb: no proposal to say yes to.
  const wh = [
    "Upgrading ABC123 to business costs $200. How would you like to pay for the upgrade?",
    "When would you like me to cancel it?",
    "How many bags would you like to add to reservation ABC123?",
    "Why would you like to cancel reservation ABC123?",
    "Would you like to know how much the upgrade would cost?",
  ];
  assertEquals(wh.filter((t) => agent(t).proposes), []);
  // "my booking" in the customer's request names the record, not a booking to make.
  const unnamed = readAgentMessage("airline", "ABC123 to business, $200, on your Visa. OK to proceed?", {
    previous: "Hi, I want to fly business on my booking.",
  });
  assertEquals([unnamed.proposes, unnamed.action], [true, "change_cabin"]);
  assertEquals(proposal("Confirm: one extra bag on H6J2NB for $35. yes/no"), [true, "change_baggage"]);
  // A hand-over pointed at is no change.
  assertEquals(proposal("I could pass this to a live agent if you wish. Should I do that?"), [false, null]);
});

Deno.test("readAgentMessage() reads no proposal in a generic offer to modify or in two changes offered side by side", () => {
  const cases: [string, [boolean, string | null]][] = [
    ["Would you like to modify the passengers on this booking?", [false, null]],
    ["Do you want to update the cabin for your upcoming trip?", [false, null]],
    ["Would you like me to cancel this trip, or change its date instead?", [false, null]],
    ["Should I upgrade the cabin, or add checked bags instead?", [false, null]],
    // With a new value it is a change of its own.
    ["Would you like to change the cabin of reservation K2L4M6 to business for $220?", [true, "change_cabin"]],
    ["Shall I cancel reservation K2L4M6, or is there anything else first?", [true, "cancel"]],
  ];
  assertEquals(misread(cases, proposal), []);
});

Deno.test("readAgentMessage() reads the other domains' proposals however they close, and a quoted text says no change", () => {
  const cases: [string, string, [boolean, string | null]][] = [
    ["orders", "I'll refund $18.20 on order 7704 (reason: defective). Okay to go ahead?", [true, "refund"]],
    ["orders", "Shall I send customer C0917 an email with the subject 'Refund of order 7704'?", [true, "email"]],
    ["orders", "Which date range should the report cover?", [false, null]],
    ["retail", "I can swap item 4455667788 for item 8877665544 on order #W5550001. Does that work for you?", [
      true,
      "modify_items",
    ]],
    ["retail", "Would you like to cancel order #W5550001, or return its items?", [false, null]],
  ];
  const wrong = cases.filter(([d, t, want]) => {
    const r = readAgentMessage(d, t);
    return JSON.stringify([r.proposes, r.action]) !== JSON.stringify(want);
  }).map(([d, t]) => [t, readAgentMessage(d, t).action]);
  assertEquals(wrong, []);
  assertEquals(readAgentMessage("orders", "Which date range should the report cover?").asks, ["date"]);
});

Deno.test("readAgentMessage() reads a plan with a request to decide as a proposal, and a change not made as giving up", () => {
  assertEquals(
    proposal("I can cancel reservation H2K9LM and return $210 to your card. Tell me if you want that."),
    [true, "cancel"],
  );
  assertEquals(proposal("I can book either flight for you. Tell me if you want that."), [false, null]);
  const gaveUp = ["I haven't made any changes to your booking.", "Understood: no changes were made."];
  assertEquals(gaveUp.filter((t) => !agent(t).gives_up), []);
  assertEquals(agent("I have made the change to your booking.").gives_up, false);
});

Deno.test("readAgentMessage() reads more closings, restated changes, bare requests and hand-overs", () => {
  const proposals = [
    "ABC123 moves to business for $200 on your Visa. Can I finalize this?",
    "To confirm, you'd like me to upgrade ABC123 to business for $200?",
    "Before I upgrade ABC123 to business, please confirm that's what you want.",
    "I'll upgrade ABC123 to business for $200. Shall I charge your Visa?",
  ];
  assertEquals(proposals.filter((t) => !agent(t).proposes), []);
  assertEquals(agent("Sure! First, your user ID please.").asks, ["user_id"]);
  const handOvers = [
    "I'm going to pass this over to one of my colleagues who can help.",
    "Let me get a human agent to help you.",
  ];
  assertEquals(handOvers.filter((t) => !agent(t).transfers), []);
  // A wh-question that ends in an approval still asks for one; checking a record, giving an item to
  // someone at the airport, a closing and a note on a refund ask for nothing and hand nothing over.
  assertEquals(agent("When you're ready, shall I go ahead with upgrading ABC123 to business for $200?").proposes, true);
  assertEquals(agent("How would you like to proceed: should I go ahead with cancelling ABC123?").proposes, true);
  assertEquals(agent("Can I make sure I have the right booking? Is it 97B373?").proposes, false);
  assertEquals(agent("At the airport, just hand it to the gate agent along with your ID.").transfers, false);
  assertEquals(agent("Finally the reservation is all set, please let me know if you need anything else.").asks, []);
  assertEquals(agent("Then the refund goes back to your card, please allow 5-7 days.").asks, []);
  // Still no hand-over offered, and a fact to confirm is no change to approve.
  assertEquals(agent("I could get a human agent for you, if you prefer.").transfers, false);
  assertEquals(agent("Your name is Ana Lee; please confirm that's correct.").proposes, false);
});
