import { assert, assertAlmostEquals, assertEquals, assertRejects, assertThrows } from "@std/assert";
import { FakeModelClient, ModelError } from "../../agents/model/mod.ts";
import type { ToolResult } from "../../envs/mod.ts";
import { FAULT_KINDS, faultAt, faultCondition, faultMessage, FaultyModel } from "./faults.ts";

Deno.test("faultAt() faults calls at rate p, every kind about equally, the same for the same seed", () => {
  const n = 16_000, p = 0.2;
  const counts = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const kind = faultAt({ seed: "s", p }, i);
    if (kind !== null) counts.set(kind, (counts.get(kind) ?? 0) + 1);
    assertEquals(faultAt({ seed: "s", p }, i), kind);
  }
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  assertAlmostEquals(total / n, p, 0.015);
  assertEquals([...counts.keys()].sort(), [...FAULT_KINDS].sort());
  for (const kind of FAULT_KINDS) assertAlmostEquals(counts.get(kind)! / n, p / FAULT_KINDS.length, 0.006);
  assert(Array.from({ length: 100 }, (_, i) => faultAt({ seed: "s", p: 0 }, i)).every((k) => k === null));
  assertThrows(() => faultAt({ seed: "s", p: 1.5 }, 0), RangeError, "[0, 1]");
});

Deno.test("faultCondition() answers a faulted call without calling the world, with the kind's message", () => {
  const condition = faultCondition({ seed: "x", p: 0.5 });
  let worldCalls = 0;
  const next = (name: string, args: unknown): ToolResult => (worldCalls++, { name, args, ok: true, result: 1 });
  const results = Array.from(
    { length: 200 },
    (_, i) => condition.dispatch!({ step: i + 1, name: "cancel", args: { reservation_id: "ZFA04Y" } }, next),
  );
  const faulted = results.filter((r) => r.fault !== undefined);
  assertEquals(worldCalls, 200 - faulted.length);
  results.forEach((r, i) => assertEquals(r.fault ?? null, faultAt({ seed: "x", p: 0.5 }, i)));
  for (const r of faulted) {
    assertEquals([r.ok, r.error?.code], [false, "fault"]);
    assertEquals(r.error?.message, faultMessage(r.fault as never, { reservation_id: "ZFA04Y" }));
  }
  assertEquals(faultMessage("partial", { reservation_id: "ZFA04Y" }), 'partial response: {"reserv');
  assertEquals(faultMessage("server_error", {}), "503 service unavailable");
});

Deno.test("FaultyModel counts a retry for a transient fault and throws an auth ModelError", async () => {
  // Find a call index of each sort under p = 1.
  const kinds = Array.from({ length: 64 }, (_, i) => faultAt({ seed: "m", p: 1 }, i));
  const firstAuth = kinds.indexOf("auth");
  assert(firstAuth > 0, "an auth fault after a transient one");
  const inner = new FakeModelClient(() => ({ content: "ok", retries: 1 }));
  const hi = { messages: [{ role: "user" as const, content: "Hi" }] };
  const model = new FaultyModel(inner, { seed: "m", p: 1 });
  for (let i = 0; i < firstAuth; i++) {
    const answer = await model.chat(hi);
    assertEquals(answer.retries, 2);
  }
  const err = await assertRejects(() => model.chat(hi), ModelError);
  assertEquals(err.code, "auth");
  assertEquals(model.faults, kinds.slice(0, firstAuth + 1));
  assertEquals([model.provider, model.model], [inner.provider, inner.model]);
});
