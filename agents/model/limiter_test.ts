import { assertEquals, assertRejects, assertStrictEquals, assertThrows } from "@std/assert";
import { ConcurrencyLimiter, limiterFor } from "./limiter.ts";

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => resolve = r);
  return { promise, resolve };
}

Deno.test("ConcurrencyLimiter.run() never has more than max calls in flight", async () => {
  const limiter = new ConcurrencyLimiter(3);
  let inFlight = 0;
  let most = 0;
  const gates = Array.from({ length: 10 }, deferred);
  const runs = gates.map((gate, i) =>
    limiter.run(async () => {
      inFlight++;
      most = Math.max(most, inFlight);
      await gate.promise;
      inFlight--;
      return i;
    })
  );
  await Promise.resolve();
  assertEquals([limiter.active, limiter.pending], [3, 7]);
  for (const gate of gates) {
    gate.resolve();
    await new Promise((r) => setTimeout(r, 0));
  }
  assertEquals(await Promise.all(runs), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  assertEquals([most, limiter.active, limiter.pending], [3, 0, 0]);
});

Deno.test("ConcurrencyLimiter.run() starts waiting calls first in, first out", async () => {
  const limiter = new ConcurrencyLimiter(1);
  const started: number[] = [];
  const first = deferred();
  const runs = [limiter.run(() => first.promise)];
  for (let i = 1; i <= 4; i++) runs.push(limiter.run(() => Promise.resolve(void started.push(i))));
  first.resolve();
  await Promise.all(runs);
  assertEquals(started, [1, 2, 3, 4]);
});

Deno.test("ConcurrencyLimiter.run() frees the slot when the call rejects", async () => {
  const limiter = new ConcurrencyLimiter(1);
  await assertRejects(() => limiter.run(() => Promise.reject(new Error("boom"))), Error, "boom");
  assertEquals(await limiter.run(() => Promise.resolve("next")), "next");
  assertEquals(limiter.active, 0);
});

Deno.test("ConcurrencyLimiter refuses a limit that is not a positive integer", () => {
  for (const max of [0, -1, 1.5, NaN]) assertThrows(() => new ConcurrencyLimiter(max), RangeError, "positive integer");
});

Deno.test("limiterFor() shares one limiter per endpoint and refuses a conflicting limit", () => {
  const a = limiterFor("http://127.0.0.1:1/v1/", 2);
  assertStrictEquals(limiterFor("http://127.0.0.1:1/v1"), a);
  assertStrictEquals(limiterFor("http://127.0.0.1:1/v1", 2), a);
  assertEquals(limiterFor("http://127.0.0.1:2/v1").max, 4);
  assertThrows(() => limiterFor("http://127.0.0.1:1/v1", 8), RangeError, "already limited to 2");
});
