import { assertEquals, assertThrows } from "@std/assert";
import { openingOf, promptVariants } from "./prompt.ts";

Deno.test("promptVariants() names J variants j1..jJ", () => {
  assertEquals(promptVariants(5), ["j1", "j2", "j3", "j4", "j5"]);
  assertThrows(() => promptVariants(0), RangeError, "at least 1");
});

Deno.test("openingOf() uses openings 1..J, cycling when a task has fewer, never the nominal one if it has others", () => {
  const task = (n: number) => ({ id: "t/1", openings: Array.from({ length: n }, (_, i) => `o${i}`) });
  const openings = (n: number) => promptVariants(5).map((v) => openingOf(task(n), v));
  assertEquals(openings(6), [1, 2, 3, 4, 5]);
  assertEquals(openings(3), [1, 2, 1, 2, 1]);
  assertEquals(openings(1), [0, 0, 0, 0, 0]);
  assertThrows(() => openingOf(task(3), "p1"), RangeError, '"p1"');
});
