import { assert, assertEquals, assertThrows } from "@std/assert";
import { domains } from "./domains.ts";
import {
  buildScenarios,
  defineScenarioTemplate,
  hazard,
  mentionOf,
  misrecorded,
  policyOnly,
  unapproved,
  unverified,
  withheld,
} from "./scenarios.ts";
import { Rng } from "./rng.ts";
import type { ScenarioTemplate } from "./scenario_template.ts";
import { World } from "./world.ts";
import { defineDomain } from "./domain.ts";

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

// The one line a mistyped template fails with, at its definition.
function definitionError(define: () => unknown): string {
  const error = assertThrows(define, TypeError);
  assertEquals(error.message.includes("\n"), false, error.message);
  return error.message;
}

Deno.test("defineScenarioTemplate() fails a mistyped template at its definition, in one line naming it, the fault and what is accepted", () => {
  const base = { name: "cancel_without_id", intent: "cancel", action: "cancel_order" };
  const cases: [unknown, string][] = [
    [
      { ...base, gap: "specification", withold: "order_id" },
      `Cannot define scenario template "cancel_without_id": field "withold" is unknown: a specification template takes ` +
      `"name", "intent", "action", "gap", "missing", "takes", "withhold", "build"`,
    ],
    [
      { ...base, gap: "verfication", lookUp: "get_order" },
      `Cannot define scenario template "cancel_without_id": gap "verfication" is not one of "specification", ` +
      `"verification", "authority"`,
    ],
    [
      { ...base, gap: "verification", lookUp: "get_order", fails: "timout" },
      `Cannot define scenario template "cancel_without_id": fails must be "dependency_down" or "timeout", got "timout"`,
    ],
    [
      { ...base, gap: "specification" },
      `Cannot define scenario template "cancel_without_id": withhold must be a non-empty string, got undefined`,
    ],
    [
      { ...base, intent: "", gap: "authority" },
      `Cannot define scenario template "cancel_without_id": intent must be a non-empty string, got ""`,
    ],
    [
      { ...base, gap: "authority", hold: "yes" },
      `Cannot define scenario template "cancel_without_id": hold must be true or false, got "yes"`,
    ],
    [
      { ...base, gap: "specification", build: () => null },
      `Cannot define scenario template "cancel_without_id": hazard must be a non-empty string, got undefined`,
    ],
    [
      { ...base, name: "Cancel without id", gap: "authority" },
      `Cannot define scenario template "Cancel without id": name must be lower-case letters, digits and "_", got "Cancel without id"`,
    ],
  ];
  for (const [template, message] of cases) {
    assertEquals(definitionError(() => defineScenarioTemplate(template as ScenarioTemplate)), message);
  }
});

Deno.test("the template constructors check their arguments and options at definition", () => {
  const at = `Cannot define scenario template "cancel_x": `;
  assertEquals(
    definitionError(() => unverified("cancel_x", "cancel", "cancel_order", "get_order", "timout" as "timeout")),
    `${at}fails must be "dependency_down" or "timeout", got "timout"`,
  );
  assertEquals(
    definitionError(() => withheld("cancel_x", "cancel", "cancel_order", "order_id", { take: () => true } as never)),
    `${at}option "take" is not one of "takes"`,
  );
  assertEquals(
    definitionError(() => unapproved("cancel_x", "cancel", "")),
    `${at}action must be a non-empty string, got ""`,
  );
  assertEquals(
    definitionError(() =>
      hazard("cancel_x", "cancel", "cancel_order", { gap: "spec" as "specification", hazard: "h" }, () => null)
    ),
    `${at}gap "spec" is not one of "specification", "verification", "authority"`,
  );
  assertEquals(
    definitionError(() => policyOnly("cancel_x", "cancel", "cancel_order", "cancel_forbidden", { rul: "r" } as never)),
    `${at}option "rul" is not one of "rule", "missing"`,
  );
  assertEquals(
    definitionError(() => misrecorded("cancel_x", "cancel", "cancel_order", "order_id", undefined as never)),
    `${at}pick must be a function, got undefined`,
  );
});

Deno.test("buildScenarios() checks a template written as an object, with the same line", () => {
  const domain = domains.retail;
  const template = { name: "cancel_x", intent: "cancel_pending", action: "cancel_pending_order", gap: "authority" };
  using world = World.open(domain, { seed: "0" });
  const mistyped = { ...domain, scenarios: [{ ...template, hodl: true } as unknown as ScenarioTemplate] };
  assertEquals(
    definitionError(() => buildScenarios(mistyped, world.data, new Rng("0"))),
    `Cannot define scenario template "cancel_x": field "hodl" is unknown: an authority template takes "name", ` +
      `"intent", "action", "gap", "missing", "takes", "hold", "build"`,
  );
});

Deno.test("defineDomain() fails a domain whose template, written as an object, is mistyped: at definition, not at eval", () => {
  const domain = domains.retail;
  const template = { name: "cancel_x", intent: "cancel_pending", action: "cancel_pending_order", gap: "authority" };
  assertEquals(defineDomain({ ...domain, scenarios: [template as ScenarioTemplate] }).scenarios?.length, 1);
  const mistyped = { ...domain, scenarios: [{ ...template, gap: "authorty" } as unknown as ScenarioTemplate] };
  const message = definitionError(() => defineDomain(mistyped));
  assert(message.startsWith('Cannot define scenario template "cancel_x": '), message);
  assert(!message.includes("\n"), message);
});
