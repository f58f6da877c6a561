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
const ASK = "Shall I go ahead? Please answer yes or no.";

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

Deno.test("readUserMessage() takes no word of the domain's vocabulary for a name, and keeps names like New York", () => {
  assertEquals(user("The passenger is Lena Ortiz.", "").provides.includes("name"), true);
  assertEquals(user("The passenger would like Economy Plus.", "").provides.includes("name"), false);
  assertEquals(user("I'm flying from New York to Salt Lake City.", "").provides.sort(), ["destination", "origin"]);
});

Deno.test("readAgentMessage() gives every caller a reading of its own", () => {
  const text = "Could you give me your booking reference and your user id?";
  const first = readAgentMessage("airline", text);
  const [asks, facts] = [[...first.asks], [...first.facts]];
  first.asks.push("payment_id");
  first.facts.push("new_cabin");
  const again = readAgentMessage("airline", text);
  assertEquals([again.asks, again.facts], [asks, facts]);
  assertEquals(again.asks, ["reservation_id", "user_id"]);
});
