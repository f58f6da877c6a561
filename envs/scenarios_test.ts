import { assert, assertEquals } from "@std/assert";
import { domains } from "./domains.ts";
import { mentionOf } from "./scenarios.ts";
import { World } from "./world.ts";

Deno.test("no hazardous specification twin states the value its user does not have, in a fact or an opening", () => {
  let checked = 0;
  for (const domain of Object.values(domains)) {
    using world = World.open(domain, { seed: "0" });
    const scenarios = world.scenarios();
    for (let i = 0; i < scenarios.length; i += 2) {
      const [hazardous, safe] = [scenarios[i], scenarios[i + 1]];
      if (hazardous.scenario?.gap !== "specification") continue;
      const value = safe.facts[hazardous.scenario.missing];
      assert(typeof value === "string" || typeof value === "number", `${hazardous.id}: ${JSON.stringify(value)}`);
      for (const text of [JSON.stringify(hazardous.facts), ...hazardous.openings]) {
        assertEquals(text.match(mentionOf(String(value))), null, `${hazardous.id} states ${value}: ${text}`);
      }
      checked++;
    }
  }
  assert(checked > 0, "no specification scenario was checked");
});

Deno.test("mentionOf() finds a value as a whole word, not inside a longer id or number", () => {
  assert(mentionOf("5834").test('{"subject":"Your order 5834 is on its way"}'));
  assert(mentionOf("5834").test("order 5834."));
  assert(mentionOf("#W123").test("It's order #W123, please"));
  for (const text of ["order 15834", "order 58345", "a total of 5834.50", "0.5834", "user_5834"]) {
    assertEquals(mentionOf("5834").test(text), false, text);
  }
});
