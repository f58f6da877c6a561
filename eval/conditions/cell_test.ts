import { assert, assertEquals } from "@std/assert";
import { FakeModelClient } from "../../agents/model/mod.ts";
import { getDomain } from "../../envs/mod.ts";
import { resolveConfig } from "../config.ts";
import { cellSetup } from "./cell.ts";

const airline = getDomain("airline");
const { conditions } = resolveConfig();
const task = { id: "airline/0", openings: ["a", "b", "c"] };
const options = { conditions, task, tools: airline.tools, columns: { flight_number: "flightNo" } };
const cell = (condition: "nominal" | "fault" | "env" | "prompt", variant: string | null) => ({
  agent: "oracle",
  task: "airline/0",
  run: 0,
  condition,
  variant,
  seed: "s",
});

Deno.test("cellSetup() gives each condition its wrapper, and the nominal condition none", () => {
  const nominal = cellSetup(cell("nominal", null), options);
  assertEquals([nominal.condition, nominal.opening], [undefined, 0]);
  const model = new FakeModelClient([{ content: "x" }]);
  assert(nominal.model(model).client === model);

  const fault = cellSetup(cell("fault", "p0.2"), options);
  assert(fault.condition?.dispatch !== undefined && fault.condition.tools === undefined);
  assert(fault.model(model).client !== model);

  const env = cellSetup(cell("env", "high"), options);
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

  assertEquals(cellSetup(cell("prompt", "j3"), options).opening, 1);
  assertEquals(cellSetup(cell("prompt", "j2"), options).condition, undefined);
});

Deno.test("cellSetup() seeds a cell's faults from its seed alone", () => {
  const kinds = (seed: string) => {
    const setup = cellSetup({ ...cell("fault", "p0.2"), seed }, {
      ...options,
      conditions: resolveConfig({ conditions: { fault: { p_fault: 0.5 } } }).conditions,
    });
    const next = () => ({ name: "x", args: {}, ok: true });
    return Array.from(
      { length: 40 },
      (_, i) => setup.condition!.dispatch!({ step: i, name: "x", args: {} }, next).fault ?? "-",
    );
  };
  assertEquals(kinds("a"), kinds("a"));
  assert(kinds("a").join() !== kinds("b").join());
});
