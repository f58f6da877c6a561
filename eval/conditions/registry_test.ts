import { assert, assertEquals, assertRejects, assertThrows } from "@std/assert";
import { FakeModelClient, ModelError } from "../../agents/model/mod.ts";
import { getDomain, World } from "../../envs/mod.ts";
import { resolveConfig, type ResolvedConditions } from "../config.ts";
import type { Cell } from "../plan.ts";
import { conditionDefinition, conditionModels, prepareConditions } from "./registry.ts";

const airline = getDomain("airline");
const { conditions } = resolveConfig();
const cell = (condition: Cell["condition"], variant: string | null): Cell => ({
  agent: "oracle",
  task: "airline/0",
  run: 0,
  condition,
  variant,
  seed: "s",
});

// The conditions prepared for a run of the airline world; the world is closed once they are.
async function prepared(options: { conditions?: ResolvedConditions; cells?: Cell[]; models?: () => FakeModelClient }) {
  using world = World.open(airline);
  const task = { ...world.defaultTasks(1)[0], openings: ["a", "b", "c"] };
  const setups = await prepareConditions({
    conditions: options.conditions ?? conditions,
    worlds: [world],
    tasks: new Map([[task.id, task]]),
    cells: options.cells ?? [],
    models: options.models,
  });
  return { task, setup: (c: Cell) => setups.setup(c, { task, domain: airline }) };
}

Deno.test("prepareConditions() gives each condition its wrapper, and the nominal condition none", async () => {
  const { task, setup } = await prepared({});
  const nominal = setup(cell("nominal", null));
  assertEquals([nominal.condition, nominal.opening, nominal.userTask], [undefined, 0, task]);
  const model = new FakeModelClient([{ content: "x" }]);
  assert(nominal.model(model) === model);
  assertEquals(nominal.record(), { modelFaults: 0 });

  const fault = setup(cell("fault", "p0.2"));
  assert(fault.condition?.dispatch !== undefined && fault.condition.tools === undefined);
  assert(fault.model(model) !== model);

  const env = setup(cell("env", "high"));
  assertEquals(env.condition?.hints?.perturbation !== undefined, true);
  let received: unknown;
  env.condition!.dispatch!(
    { step: 1, name: "search_direct_flight", args: { flightNumber: "HAT001", date: "05/16/2024" } },
    (name, args) => {
      received = args;
      return { name, args, ok: true, result: null };
    },
  );
  assertEquals(received, { flight_number: "HAT001", date: "2024-05-16" });

  assertEquals(setup(cell("prompt", "j3")).opening, 1);
  assertEquals(setup(cell("prompt", "j2")).condition, undefined);
});

Deno.test("prepareConditions() seeds a cell's faults from its seed alone, and the record counts the model's", async () => {
  const { setup } = await prepared({
    conditions: resolveConfig({ conditions: { fault: { p_fault: 0.5 } } }).conditions,
  });
  const kinds = (seed: string) => {
    const faulted = setup({ ...cell("fault", "p0.2"), seed });
    const next = () => ({ name: "x", args: {}, ok: true });
    return Array.from(
      { length: 40 },
      (_, i) => faulted.condition!.dispatch!({ step: i, name: "x", args: {} }, next).fault ?? "-",
    );
  };
  assertEquals(kinds("a"), kinds("a"));
  assert(kinds("a").join() !== kinds("b").join());

  const always = await prepared({ conditions: resolveConfig({ conditions: { fault: { p_fault: 1 } } }).conditions });
  const faulted = always.setup(cell("fault", "p1"));
  const model = faulted.model(new FakeModelClient(() => ({ content: "ok" })));
  const hi = { messages: [{ role: "user" as const, content: "Hi" }] };
  let calls = 0;
  for (; calls < 3; calls++) await model.chat(hi).catch((err) => assert(err instanceof ModelError));
  assertEquals(faulted.record(), { modelFaults: 3 });
});

Deno.test("prepareConditions() has a model paraphrase the openings of the prompt cells' tasks, once each", async () => {
  const prompt = resolveConfig({ conditions: { prompt: { variants: 2, paraphrases: "llm:openai:p" } } }).conditions;
  assertEquals(conditionModels(prompt), ["openai:p"]);
  assertEquals(conditionModels(conditions), []);
  let asked = 0;
  const model = () =>
    new FakeModelClient((request) => {
      asked++;
      const message = request.messages.at(-1)!.content!.split("Message: ")[1];
      return { content: `(1) ${message} Thanks\n(2) ${message} Thanks !` };
    }, { provider: "openai", model: "p" });
  const { task, setup } = await prepared({
    conditions: prompt,
    cells: [cell("prompt", "j1"), cell("prompt", "j2"), cell("nominal", null)],
    models: model,
  });
  assertEquals(asked, 1);
  const j2 = setup(cell("prompt", "j2"));
  assertEquals([j2.opening, j2.userTask.openings.length], [2, 3]);
  assertEquals(j2.userTask.openings[2], `${task.openings[0]} Thanks !`);
  assertEquals(setup(cell("nominal", null)).userTask, task);
  await assertRejects(() => prepared({ conditions: prompt, cells: [cell("prompt", "j1")] }), TypeError, '"openai:p"');
});

Deno.test("conditionDefinition() names each condition and refuses an unknown one", () => {
  assertEquals(["nominal", "fault", "env", "prompt"].map((c) => conditionDefinition(c).name), [
    "nominal",
    "fault",
    "env",
    "prompt",
  ]);
  assertThrows(() => conditionDefinition("noise"), RangeError, '"nominal", "fault", "env", "prompt"');
  assertThrows(() => conditionDefinition("toString"), RangeError, 'Unknown condition "toString"');
});
