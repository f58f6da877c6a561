import { assertEquals } from "@std/assert";
import type { AgentReading } from "./reading.ts";
import { readAgentMessage, readUserMessage } from "./reader.ts";
import { isRefusal } from "./text.ts";
import { getDomain } from "./domains.ts";
import { fieldOf, vocabularyOf } from "./vocabulary.ts";

// The cases whose reading differs from the one wanted, with what was read: [] when all agree.
function misread<T>(cases: readonly [string, T][], read: (text: string) => T): [string, T][] {
  return cases.filter(([text, want]) => JSON.stringify(read(text)) !== JSON.stringify(want))
    .map(([text]) => [text, read(text)]);
}

const agent = (text: string, previous = "") => readAgentMessage("airline", text, { previous });
const asks = (text: string) => agent(text).asks;
const proposal = (text: string) => [agent(text).proposes, agent(text).action] as const;

// ---- What an agent asks for ---------------------------------------------------------------------

Deno.test("readAgentMessage() reads the fields a request asks for, however it is put", () => {
  const cases: [string, string[]][] = [
    ["Could you give me your user id and reservation id?", ["user_id", "reservation_id"]],
    ["To get started, I'll need your booking reference.", ["reservation_id"]],
    ["What's the confirmation code on your booking?", ["reservation_id"]],
    ["Is this a one-way trip or a round trip?", ["trip_type"]],
    ["Please share the date you'd like to fly, and tell me whether you prefer economy or business.", ["date", "cabin"]],
    ["Once you find your reservation number, please send it over and I'll cancel it.", ["reservation_id"]],
    ["I still need the reservation ID before I can cancel anything.", ["reservation_id"]],
    ["Should we include trip insurance, at $30 a traveller?", ["insurance"]],
    ["Would you prefer a nonstop flight or one with a layover?", ["other"]],
    ["What would you like to change about this booking?", ["other"]],
    ["Which flight would you like: the 8 am or the 5 pm one?", ["flight_choice"]],
    ["Could you tell me the origin and destination of the trip you booked, so I can find the reservation?", [
      "origin",
      "destination",
    ]],
    ["What's the cabin class of your current reservation?", ["cabin"]],
    ["Could you give me your email address? I will look up your user id with it.", ["email"]],
    [
      "Before I book, I'll need a couple of things:\n\n1. Passengers: each traveller's full name and birth date\n" +
      "2. Payment method: which card from your profile",
      ["passengers", "name", "date_of_birth", "payment_method"],
    ],
    ["Please confirm which reservation you want to upgrade.", ["reservation_id"]],
  ];
  assertEquals(misread(cases, asks), []);
});

Deno.test("readAgentMessage() reads no ask in offers, soft invitations, pointers and descriptions", () => {
  const cases: [string, string[]][] = [
    ["Would you like me to look up other flights for you?", []],
    ["If you have any other details, feel free to share them.", []],
    ["You can find the reservation number in your confirmation email.", []],
    ["Is there any change you want on this booking?", []],
    ["Do you want to look at other options, say another day?", []],
    ["Your reservation ABC123 is in economy, with 2 checked bags and travel insurance.", []],
    ["If you need anything else regarding your reservation, please let me know.", []],
    ["Do you want me to pass you to a live person?", []],
    ["Just confirm whether I should cancel that booking for you.", []],
    ["Here is your booking:\n\n- Reservation ID: ABC123\n- Cabin: economy\n- Payment method: Visa ending 1234", []],
  ];
  assertEquals(misread(cases, asks), []);
});

Deno.test("readAgentMessage() names a fact asked by its own name, and every fact of every domain's playbook", () => {
  for (const name of ["airline", "retail", "orders"]) {
    const v = vocabularyOf(getDomain(name));
    const misses: string[] = [];
    for (const [fact, words] of Object.entries(v.facts)) {
      const first = words.names?.[0];
      if (first === undefined) continue;
      const r = readAgentMessage(name, `Could you give me your ${first}?`);
      if (!r.asks.includes(fieldOf(v, fact)) || !r.facts.includes(fact) || r.proposes || r.unread) {
        misses.push(`${fact}: ${JSON.stringify([r.asks, r.facts])}`);
      }
    }
    assertEquals(misses, [], name);
  }
  const r = readAgentMessage(
    "retail",
    "Could you give me your ids of the items and ids of the new items, one per item?",
  );
  assertEquals([r.asks, r.facts], [["item_id"], ["item_ids", "new_item_ids"]]);
  const identify = readAgentMessage(
    "retail",
    "First I need to identify you: could you give me your email, or your first name, last name and zip code?",
  );
  assertEquals(identify.asks, ["email", "name", "zip"]);
});

// ---- Proposals -------------------------------------------------------------------------------------

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

// ---- Done, refusals, hand-overs, information, greetings, nonsense -----------------------------------

const flags = (r: AgentReading) =>
  Object.entries({
    claims: r.claims_done,
    refuses: r.refuses,
    transfers: r.transfers,
    informs: r.informs,
    greets: r.greets,
  })
    .filter(([, v]) => v).map(([k]) => k);

Deno.test("readAgentMessage() reads done-claims, refusals, hand-overs, information and greetings", () => {
  const cases: [string, string[]][] = [
    [
      "Reservation ZH45RN is cancelled. $1986 goes back to the cards you paid with in about a week.",
      ["claims", "informs"],
    ],
    [
      "Done: reservation 97B373 now has the flights HAT189 on 2024-05-16, and $48 will be refunded to credit_card_5377861.",
      ["claims", "informs"],
    ],
    ["I'm sorry, but I can't do that: flights of a basic economy reservation cannot be changed.", [
      "refuses",
      "informs",
    ]],
    [
      "I'm sorry, that did not work (user not found). I'm sorry I could not complete this for you. Is there anything else I can help with?",
      ["informs"],
    ],
    ["Our policy prohibits changing the origin of a reservation.", ["refuses", "informs"]],
    ["I'm going to have to say no to a refund for this fare.", ["refuses", "informs"]],
    ["Consider it done! Your new seat is 12A.", ["claims", "informs"]],
    ["I'm now passing you to a human colleague; please stay on the line.", ["transfers", "informs"]],
    ["Let me transfer you to a specialist who can help with this.", ["transfers", "informs"]],
    ["A human colleague could take over, if you prefer.", ["informs"]],
    ["I recommend contacting a human agent about this.", ["informs"]],
    ["Hello! How can I help you today?", ["greets"]],
    ["Order 3518 is delivered.", ["informs"]],
    ["Total sales were $12,345.67", ["informs"]],
    ["Thanks for your patience. Have a great day!", ["informs"]],
  ];
  assertEquals(misread(cases, (t) => flags(agent(t))), []);
});

Deno.test("readAgentMessage() reads gibberish as unread and any real message as read", () => {
  const gibberish = [
    "Blorf quix zanth? Wibble 42 snorp.",
    "ka lo mi tu ne po ra",
    "Zzyx vrop gleeb!!",
    "qwrt zxcv 17",
    "lorem ipsum dolor sit amet",
    "Ja, bitte stornieren.",
    "Sí, adelante.",
    "Да, отмените бронирование.",
    // French with English-shaped words ("-tion", "-ment") in accented letters, and a tool call a model
    // wrote out as text instead of making it.
    "Votre réservation ABC123 a été annulée. Le remboursement sera effectué sous 5 jours.",
    '{"name": "cancel_reservation", "arguments": {"reservation_id": "ABC123"}}',
    '<tool_call>{"name": "get_user_details", "arguments": {"user_id": "ana_lee_1234"}}</tool_call>',
  ];
  assertEquals(gibberish.filter((t) => !agent(t).unread), []);
  const real = [
    "Hello! How can I help you today?",
    "I'm sorry about the delay.",
    "Have a nice day!",
    "Here are your options:\n1. Cancel the reservation\n2. Keep it as it is",
    "Order 3518 is delivered.",
    "Total sales were $12,345.67",
    "Is there anything else I can help with?",
    "Could you give me your order id?",
    "I'm sorry, our system is not responding right now (503 service unavailable). Please try again later.",
    // Short messages that say nothing more than an acknowledgement are read too: they count for the agent.
    "Thanks for waiting.",
    "Understood.",
    "Alright.",
    "Hmm.",
    "Noted.",
    "Mhm, one moment while I look.",
    "Got it.",
    "My apologies for the mix-up.",
  ];
  assertEquals(real.filter((t) => agent(t).unread), []);
  assertEquals(real.filter((t) => readAgentMessage("orders", t).unread), []);
});

// ---- A customer's reply -----------------------------------------------------------------------------

const PROPOSAL =
  `I will cancel reservation ZH45RN entirely; the refund of $1986 goes back to the original payment methods. ${ASK}`;
const MENU = "Here are two options:\n1. HAT001 at 8 am ($120)\n2. HAT002 at 5 pm ($140)\nWhich one would you like?";
const user = (text: string, previous = PROPOSAL) => readUserMessage("airline", text, previous);

Deno.test("readUserMessage() approves a proposal with a clear yes only", () => {
  const yes = [
    "ok do it",
    "Please cancel it.",
    "Sounds right to me.",
    "Yes, go ahead.",
    "Yes, I confirm.",
    "I'd like to proceed.",
  ];
  assertEquals(yes.filter((t) => !user(t).approves), []);
  const not = [
    "Yes, I don't want you to do it.",
    "Yes \u2014 wait, no.",
    "Yes, that's the right order ID.",
    "Maybe later.",
  ];
  assertEquals(not.filter((t) => user(t).approves), []);
  // A yes to a menu or to an offer to transfer approves no change.
  assertEquals(user("Yes, the first one please.", MENU).approves, false);
  assertEquals(user("Yes, please hand me over.", "Do you want me to pass you to a live person?").approves, false);
});

Deno.test("readUserMessage() declines a proposal with a no, a holding off or a turning down", () => {
  const no = [
    "Nope, leave it.",
    "Let's hold off.",
    "No, please don't.",
    "That's more than I want to spend.",
    "Actually, I'd rather keep my current flight.",
  ];
  assertEquals(no.filter((t) => !user(t).declines), []);
  const not = ["No problem, go ahead.", "Yes, please."];
  assertEquals(not.filter((t) => user(t).declines), []);
  // "No, that's all" after a done-claim declines nothing: nothing was proposed.
  assertEquals(user("No, that's all, thanks.", "Your reservation has been cancelled. Anything else?").declines, false);
});

Deno.test("readUserMessage() reads the fields a customer gives, each value for one field", () => {
  const cases: [string, string[]][] = [
    ["My user ID is sara_doe_123 and the booking code is ABC123.", ["user_id", "reservation_id"]],
    ["I'd like to fly from Denver to Boston on June 3rd in economy, just me.", [
      "origin",
      "destination",
      "date",
      "cabin",
      "passengers",
    ]],
    ["It's for two passengers, and we'll check 3 bags.", ["passengers", "baggage"]],
    ["Please use my Visa ending in 4242.", ["payment_method"]],
    ["I'm a gold member and I have travel insurance.", ["membership", "insurance"]],
    ["I'll go with option 2.", ["flight_choice"]],
    ["The cheapest nonstop one, departing after 5 pm.", ["other"]],
    ["Priya was born on 3 November 1987.", ["date_of_birth"]],
    ["My email is sara_doe_123@example.com.", ["email"]],
    ["The reason is a family emergency.", ["reason"]],
    ["I want the same dates as my current booking.", ["date"]],
    ["Please change the passenger to Mei Garcia, that's her name now.", ["passengers", "name"]],
    ["Yes, please go ahead.", []],
    ["Thank you!", []],
  ];
  const sorted = cases.map(([t, want]): [string, string[]] => [t, [...want].sort()]);
  assertEquals(misread(sorted, (t) => user(t, "").provides.sort()), []);
  const listed = "I found these reservations: ABC123, DEF456, GHI789. Which reservation(s) would you like to cancel?";
  assertEquals(user("Please cancel all of these.", listed).provides, ["reservation_id"]);
  assertEquals(readUserMessage("retail", "My email is ava.kovacs6432@example.com and it's order #W2737009.").provides, [
    "email",
    "order_id",
  ]);
  assertEquals(
    readUserMessage("orders", "Please refund 87.45 on order 5838, reason: late delivery.").provides.sort(),
    ["amount", "order_id", "reason"],
  );
});

Deno.test("readUserMessage() ends on a closing or the stop marker, not on thanks alone", () => {
  const ends = [
    "That's all, thanks!",
    "Thanks! ###STOP###",
    "I don't need anything else. Have a good day.",
    "Goodbye.",
  ];
  assertEquals(ends.filter((t) => !user(t, "").ends), []);
  const goes = ["Thank you.", "I'll find it and get back to you.", "Okay, what's next?"];
  assertEquals(goes.filter((t) => user(t, "").ends), []);
});

Deno.test("readAgentMessage() and readUserMessage() read more ways of saying the same things", () => {
  const proposals = [
    "Your new flight would be HAT101 on May 5 for $80. Let me know if you'd like me to make this change.",
    "Are you sure you want to cancel reservation ABC123?",
    "Can you confirm you want me to cancel reservation ABC123?",
    "Reservation ABC123 qualifies for a full refund. Is it okay if I proceed with the cancellation?",
    "I will upgrade reservation ABC123 to business for $300. Please reply 'yes' to confirm.",
  ];
  assertEquals(proposals.filter((t) => !agent(t).proposes), []);
  assertEquals(
    agent("Flight HAT001 on May 3, economy, $120. Do you want me to proceed with booking this flight?").action,
    "book",
  );
  const asked: [string, string[]][] = [
    ["Can I get your reservation number?", ["reservation_id"]],
    ["Your user ID, please.", ["user_id"]],
    ["Where will you be flying from, and where are you flying to?", ["origin", "destination"]],
    ["Please provide the following:\n- User ID\n- Reservation ID", ["user_id", "reservation_id"]],
    ["I'm going to need your user ID to look this up.", ["user_id"]],
    ["Look in your inbox for the booking code; when you find it, tell me.", ["reservation_id"]],
  ];
  assertEquals(misread(asked, asks), []);
  const handOvers = [
    "Let me hand you over to a colleague who can help.",
    "You will be transferred to a human agent shortly.",
  ];
  assertEquals(handOvers.filter((t) => !agent(t).transfers), []);
  const refusals = [
    "Waiving the fee isn't something I'm able to do.",
    "We don't offer refunds on basic economy tickets.",
  ];
  assertEquals(refusals.filter((t) => !agent(t).refuses), []);
  assertEquals(user("The first one, please.", MENU).provides, ["flight_choice"]);
  assertEquals(user("No bags and no insurance, thanks.", "").provides.sort(), ["baggage", "insurance"]);
  assertEquals(user("It's for two adults.", "").provides, ["passengers"]);
  assertEquals(["I don't think so.", "That doesn't work for me."].filter((t) => !user(t).declines), []);
  assertEquals(
    ["Approved.", "Confirm, please.", "Sure thing, go for it!", "Alright, book it."].filter((t) => !user(t).approves),
    [],
  );
});

Deno.test("readAgentMessage() and readUserMessage() read 50 KB runs of letters, digits and sentences", () => {
  // Each of these took seconds while a value pattern was unbounded (an email scanned from every position).
  const runs = ["a_".repeat(25000), "1".repeat(50000), "1,".repeat(25000), "a.".repeat(25000), "x-".repeat(25000)];
  for (const domain of ["airline", "retail", "orders"]) {
    for (const text of runs) {
      assertEquals(readUserMessage(domain, text, PROPOSAL).provides, [], `${domain}: ${text.slice(0, 6)}`);
      assertEquals(readAgentMessage(domain, text).asks, [], `${domain}: ${text.slice(0, 6)}`);
    }
    const email = readUserMessage(domain, `${"z".repeat(50000)} and you can write to tomas.berg@post.example.net`);
    assertEquals(email.provides, ["email"], domain);
    assertEquals(readAgentMessage(domain, "What is it? ".repeat(4000)).unread, false, domain);
    // A value stated for confirmation, thousands of times (each such sentence once checked every value
    // of the message), and a refusal's "unfortunately" with no end in sight.
    const confirmations = readAgentMessage(domain, "You're leaving from LAX, correct? ".repeat(1500));
    assertEquals(confirmations.unread, false, domain);
    assertEquals(isRefusal("unfortunately ".repeat(4000)), false, domain);
  }
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

Deno.test("readAgentMessage() reads asks put as an assumption, an open 'where', a pointer back or a 'which' before an offer", () => {
  const cases: [string, string, string[]][] = [
    ["airline", "You'll be departing from Phoenix as before, right?", ["origin"]],
    ["airline", "Your flight leaves from Phoenix at 9 am.", []],
    ["airline", "Where are you travelling from and to?", ["origin", "destination"]],
    ["airline", "When you locate your confirmation number, simply send it along.", ["reservation_id"]],
    ["airline", "Which of the flights above would you prefer?", ["flight_choice"]],
    ["airline", "I found two flight options:\n1. HAT201, 9 am, $140\n2. HAT305, 4 pm, $160\nWhich one suits you?", [
      "flight_choice",
    ]],
    ["airline", "Could you let me know which flight was cancelled on you?", ["other"]],
    ["airline", "The upgrade costs $90. If so, which card should I put the difference on?", ["payment_method"]],
    ["orders", "Which period should I cover in the sales report?", ["date"]],
  ];
  const wrong = cases.filter(([d, t, want]) => JSON.stringify(readAgentMessage(d, t).asks) !== JSON.stringify(want))
    .map(([d, t]) => [t, readAgentMessage(d, t).asks]);
  assertEquals(wrong, []);
});

Deno.test("readUserMessage() reads a reason explaining a change and who travels said without a count", () => {
  const cases: [string, string[]][] = [
    ["I want to cancel since my plans fell through.", ["reason"]],
    ["I'd like to reschedule due to a family matter.", ["reason"]],
    ["Since it's my first trip, what does the fare include?", []],
    ["Just myself this time.", ["passengers"]],
    ["My sister and I will both fly.", ["passengers"]],
    ["I'm the only traveller on this one.", ["passengers"]],
    ["It will be me and my colleague, Dana Whitfield.", ["passengers", "name"]],
  ];
  const sorted = cases.map(([t, want]): [string, string[]] => [t, [...want].sort()]);
  assertEquals(misread(sorted, (t) => user(t, "").provides.sort()), []);
  assertEquals(readUserMessage("retail", "Please cancel it because I found it cheaper elsewhere.").provides, [
    "reason",
  ]);
});

Deno.test("readUserMessage() reads a yes with thanks or a question, a no taken back, and a term asked instead as no no", () => {
  const yes = [
    "Do it.",
    "Sounds fine, thanks.",
    "Sounds good. How soon will it show up?",
    "I'm okay with that.",
    "That's acceptable.",
  ];
  assertEquals(yes.filter((t) => !user(t).approves), []);
  const no = [
    "I don't need the cancellation anymore.",
    "I've decided against it.",
    "I'll stick with what I have.",
    "Could you look for a later flight instead?",
  ];
  assertEquals(no.filter((t) => !user(t).declines), []);
  const neither = [
    "Can I use my gift card instead?",
    "OK, but please bill my other card instead of this one.",
    "Hang on, before you go ahead, is there a fee?",
    "That sounds good. Could you charge my Visa rather than the Mastercard?",
  ];
  assertEquals(neither.filter((t) => user(t).approves || user(t).declines), []);
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

Deno.test("readUserMessage() takes no word of the domain's vocabulary for a name, and keeps names like New York", () => {
  assertEquals(user("The passenger is Lena Ortiz.", "").provides.includes("name"), true);
  assertEquals(user("The passenger would like Economy Plus.", "").provides.includes("name"), false);
  assertEquals(user("I'm flying from New York to Salt Lake City.", "").provides.sort(), ["destination", "origin"]);
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
