import { assertEquals } from "@std/assert";
import { type AgentAction, type Observation, outcomeUnknown, type Solver, type ToolResult } from "../envs/mod.ts";
import { adaptSolver } from "./adapt.ts";
import type { PerturbationHints } from "./perturbation.ts";

const HINTS: PerturbationHints = {
  names: { user_id: "userId", flight_number: "flightNumber" },
  dates: "MM/DD/YYYY",
  wrapped: true,
  numbers: "formatted",
  columns: { flight_number: "flightNo" },
  reordered: true,
};

// A playbook that looks a user up, then says what it saw; it records every observation.
function recorder(): Solver & { seen: Observation[] } {
  const seen: Observation[] = [];
  return {
    seen,
    next(obs) {
      seen.push(obs);
      if (obs.tool) return { type: "message", text: JSON.stringify(obs.tool) };
      return {
        type: "tool",
        name: "look",
        args: { user_id: "u1", legs: [{ flight_number: "F1", date: "2024-05-16" }] },
      };
    },
  };
}

const fault = (step: number): Observation => ({
  step,
  tool: { name: "look", args: {}, ok: false, error: { code: "fault", message: "503 service unavailable" } },
});

Deno.test("adaptSolver() shows the playbook's calls in the hinted interface and its results back in its own", () => {
  const inner = recorder();
  const solver = adaptSolver(inner);
  solver.start({ perturbation: HINTS as never });
  const call = solver.next({ step: 0 }) as Extract<AgentAction, { type: "tool" }>;
  assertEquals(call.args, { userId: "u1", legs: [{ flightNumber: "F1", date: "05/16/2024" }] });
  solver.next({
    step: 1,
    tool: { name: "look", args: call.args, ok: true, result: { status: "ok", data: { n: "2,000" } } },
  });
  assertEquals(inner.seen[1].tool?.result, { n: 2000 });
  assertEquals(inner.seen[1].tool?.args, { user_id: "u1", legs: [{ flight_number: "F1", date: "2024-05-16" }] });
});

Deno.test("adaptSolver() retries a faulted call up to maxRetries, then gives up; the playbook never sees a fault", () => {
  const inner = recorder();
  const solver = adaptSolver(inner, { maxRetries: 3 });
  solver.start();
  const call = solver.next({ step: 0 });
  for (let i = 1; i <= 3; i++) assertEquals(solver.next(fault(i)), call);
  const gaveUp = solver.next(fault(4));
  assertEquals(gaveUp.type === "message" && gaveUp.intent?.kind, "inform");
  assertEquals(solver.next({ step: 5, message: { role: "user", text: "ok" } }), { type: "end" });
  assertEquals(inner.seen.length, 1);
});

Deno.test("adaptSolver() counts retries per call: a success starts the count again", () => {
  const solver = adaptSolver(recorder(), { maxRetries: 1 });
  solver.start();
  const call = solver.next({ step: 0 });
  assertEquals(solver.next(fault(1)), call);
  solver.next({ step: 2, tool: { name: "look", args: {}, ok: true, result: 1 } });
  solver.start();
  assertEquals(solver.next({ step: 0 }), call);
  assertEquals(solver.next(fault(1)), call);
});

Deno.test("adaptSolver() without retry or adaptation gives up at once and uses the playbook's names", () => {
  const solver = adaptSolver(recorder(), { retry: false, adapt: false });
  solver.start({ perturbation: HINTS as never });
  const call = solver.next({ step: 0 }) as Extract<AgentAction, { type: "tool" }>;
  assertEquals((call.args as Record<string, unknown>).user_id, "u1");
  assertEquals(solver.next(fault(1)).type, "message");
  assertEquals(solver.next({ step: 2 }), { type: "end" });
});

Deno.test("adaptSolver() never retries a call whose outcome is unknown (it ran, its answer was lost): the playbook is shown it", () => {
  const message = "lost: look ran but its answer was lost; whether it took effect is unknown";
  const lost: ToolResult = { name: "look", args: {}, ok: false, error: { code: "fault", message } };
  assertEquals(outcomeUnknown(lost), true);
  for (const retry of [true, false]) {
    const inner = recorder();
    const solver = adaptSolver(inner, { retry });
    solver.start();
    solver.next({ step: 0 });
    const next = solver.next({ step: 1, tool: lost });
    assertEquals(
      [next.type, inner.seen.length, inner.seen[1].tool?.error],
      ["message", 2, lost.error],
      `retry ${retry}`,
    );
  }
});
