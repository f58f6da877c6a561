import { assertEquals, assertRejects, assertStringIncludes } from "@std/assert";
import { factTokens, generateParaphrases } from "./paraphrase.ts";
import { FakeModelClient } from "./model/fake.ts";

const answering = (content: string) => new FakeModelClient([{ content }], { model: "m" });

const OPENING = "Hi, I need to move my flight. My user id is mia_li_3668. The reservation id is ZH45RN. " +
  "I'd like to fly on 2024-05-16 from DFW with 2 bags.";

Deno.test("factTokens() finds ids, dates, numbers and codes", () => {
  assertEquals(factTokens(OPENING), ["mia_li_3668", "ZH45RN", "2024-05-16", "DFW", "2"]);
  assertEquals(factTokens("Hello there, I'm stuck."), []);
});

Deno.test("generateParaphrases() keeps the paraphrases that carry every fact", async () => {
  const client = answering([
    "Here are the paraphrases:",
    "1. Hello, please move my flight: user mia_li_3668, reservation ZH45RN, to 2024-05-16 from DFW with 2 bags.",
    '2) "I want to change my flight. I am mia_li_3668, booking ZH45RN, new date 2024-05-16, leaving DFW, 2 bags."',
    "- Move my flight please, user mia_li_3668, reservation ZH45RN, on 2024-05-16 from DFW with two bags.",
    "* Please move flight ZH45RN for mia_li_3668 to 2024-05-17 from DFW with 2 bags.",
    "• Move my flight: user mia_li_3668, reservation ZH45RN, on 2024-05-16 from DFW, 2 bags, seat 14C.",
    "",
    "Hello, please move my flight: user mia_li_3668, reservation ZH45RN, to 2024-05-16 from DFW with 2 bags.",
    "Could you move my flight? mia_li_3668 here, reservation ZH45RN, 2024-05-16, from DFW, 2 bags.",
  ].join("\n"));
  const out = await generateParaphrases(client, OPENING, { count: 3, runIndex: 4 });
  assertEquals(out, [
    "Hello, please move my flight: user mia_li_3668, reservation ZH45RN, to 2024-05-16 from DFW with 2 bags.",
    "I want to change my flight. I am mia_li_3668, booking ZH45RN, new date 2024-05-16, leaving DFW, 2 bags.",
    "Could you move my flight? mia_li_3668 here, reservation ZH45RN, 2024-05-16, from DFW, 2 bags.",
  ]);
  assertEquals(client.runIndexes[0], 4);
  assertStringIncludes(client.requests[0].messages[1].content!, "Write 3 different paraphrases");
  assertStringIncludes(client.requests[0].messages[1].content!, OPENING);
});

Deno.test("generateParaphrases() fails when too few keep every fact", async () => {
  const client = answering([
    "Please move my flight ZH45RN to 2024-05-16 from DFW with 2 bags.", // drops the user id
    "Move my flight, user mia_li_3668, reservation ZH45RN, 2024-05-16, DFW, 2 bags.",
    OPENING, // the original itself
  ].join("\n"));
  await assertRejects(
    () => generateParaphrases(client, OPENING, { count: 2 }),
    Error,
    'model "m" gave 1 paraphrases that keep every fact, expected 2',
  );
});

Deno.test("generateParaphrases() rejects a count that is not a positive integer", async () => {
  await assertRejects(() => generateParaphrases(answering(""), OPENING, { count: 0 }), RangeError);
  await assertRejects(() => generateParaphrases(answering(""), " ", { count: 1 }), TypeError);
});
