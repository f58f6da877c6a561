import { assertEquals } from "@std/assert";
import { z } from "zod";
import { abnormalResult, AbnormalSchedule, outcomeUnknown } from "./abnormal.ts";
import { defineTool } from "./tool.ts";

Deno.test("AbnormalSchedule counts each tool's calls and names the ones the world answers wrongly", () => {
  const s = new AbnormalSchedule({
    abnormal: [{ tool: "a", call: 1, kind: "dependency_down" }, { tool: "a", call: 2, kind: "dependency_down" }],
  });
  assertEquals([s.next("b"), s.next("a"), s.next("a"), s.next("a")], [
    null,
    "dependency_down",
    "dependency_down",
    null,
  ]);
  assertEquals(new AbnormalSchedule({}).next("a"), null);
});

Deno.test("abnormalResult() runs a partial call and cuts its result; a tool without a partial form times out", () => {
  const read = defineTool({
    name: "read",
    description: "Rows.",
    input: z.object({}),
    writes: false,
    partial: (r) => ({ rows: (r as { rows: number[] }).rows.slice(0, 1), complete: false }),
    run: () => ({ rows: [1, 2] }),
  });
  const call = { name: "read", args: {} };
  let ran = 0;
  const run = () => (ran++, { ...call, ok: true, result: { rows: [1, 2] } });
  assertEquals(abnormalResult("partial", call, read, run).result, { rows: [1], complete: false });
  assertEquals(ran, 1);
  const down = abnormalResult("dependency_down", call, read, run);
  assertEquals([down.ok, down.error?.code, ran], [false, "fault", 1]);
  assertEquals(abnormalResult("partial", call, undefined, run).error?.message.split(":")[0], "timeout");
});

Deno.test("abnormalResult() runs a lost call (its effect takes place) and answers a fault saying the outcome is unknown", () => {
  const call = { name: "cancel", args: { id: "A1" } };
  let ran = 0;
  const run = () => (ran++, { ...call, ok: true, result: { status: "cancelled" } });
  const lost = abnormalResult("lost", call, undefined, run);
  assertEquals([lost.ok, lost.error?.code, ran], [false, "fault", 1]);
  assertEquals(outcomeUnknown(lost), true);
  // A timeout does not run the call, and says a retry is safe: its outcome is known.
  const timeout = abnormalResult("timeout", call, undefined, run);
  assertEquals([ran, outcomeUnknown(timeout), outcomeUnknown(run())], [1, false, false]);
  assertEquals(ran, 2);
});
