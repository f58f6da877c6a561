import { assert, assertEquals, assertNotEquals, assertRejects, assertThrows } from "@std/assert";
import { Rng } from "../../envs/mod.ts";
import { backoffMs, malformed, parseRetryAfter, postJson } from "./_http.ts";
import { resolveResilience } from "./resilience.ts";
import { ModelError } from "./types.ts";

Deno.test("parseRetryAfter() reads delay-seconds, milliseconds and HTTP dates", () => {
  assertEquals(parseRetryAfter(new Headers({ "retry-after": "2" })), 2000);
  assertEquals(parseRetryAfter(new Headers({ "retry-after": "0.5" })), 500);
  assertEquals(parseRetryAfter(new Headers({ "retry-after-ms": "750", "retry-after": "9" })), 750);
  const date = "Thu, 01 Jan 2026 12:00:00 GMT";
  assertEquals(parseRetryAfter(new Headers({ "retry-after": "Thu, 01 Jan 2026 12:00:07 GMT", date })), 7000);
  assertEquals(parseRetryAfter(new Headers({ "retry-after": "Thu, 01 Jan 2026 11:00:00 GMT", date })), 0);
  assertEquals(parseRetryAfter(new Headers({ "retry-after": "soon" })), undefined);
  assertEquals(parseRetryAfter(new Headers()), undefined);
});

Deno.test("parseRetryAfter() caps what a server asks for at two minutes", () => {
  assertEquals(parseRetryAfter(new Headers({ "retry-after": "86400" })), 120_000);
});

Deno.test("backoffMs() doubles from 500 ms up to 30 s, plus seeded jitter under 500 ms", () => {
  const rng = new Rng("jitter");
  const waits = Array.from({ length: 8 }, (_, n) => backoffMs(n, rng));
  waits.forEach((w, n) => {
    const base = Math.min(30_000, 500 * 2 ** n);
    assert(w >= base && w < base + 500, `retry ${n} waited ${w}`);
  });
  const again = new Rng("jitter");
  assertEquals(Array.from({ length: 8 }, (_, n) => backoffMs(n, again)), waits);
  const other = new Rng("other");
  assertNotEquals(Array.from({ length: 8 }, (_, n) => backoffMs(n, other)), waits);
});

Deno.test("resolveResilience() fills in defaults and refuses out-of-range values", () => {
  const resolved = resolveResilience({});
  assertEquals([resolved.timeoutMs, resolved.retries, resolved.limiter], [60_000, 4, undefined]);
  assertThrows(() => resolveResilience({ timeoutMs: 0 }), RangeError, "timeoutMs");
  assertThrows(() => resolveResilience({ retries: -1 }), RangeError, "retries");
  assertThrows(() => resolveResilience({ retries: 1.5 }), RangeError, "retries");
});

Deno.test("postJson() rethrows the caller's abort instead of retrying", async () => {
  const controller = new AbortController();
  controller.abort(new DOMException("stopped by the caller", "AbortError"));
  const call = {
    label: 'Test endpoint "http://127.0.0.1:9"',
    model: "m",
    url: "http://127.0.0.1:9/x",
    headers: {},
    body: {},
    parse: () => malformed("never parsed"),
  };
  const err = await assertRejects(() => postJson(call, { ...resolveResilience({}), signal: controller.signal }));
  assertEquals([err instanceof ModelError, (err as Error).name], [false, "AbortError"]);
});
