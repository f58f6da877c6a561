import { assertEquals } from "@std/assert";
import { jsonEqual } from "../json.ts";
import { float, floatRepr, parseTyped, plain, round2, typeOf, value } from "./_number.ts";

Deno.test("parseTyped() keeps integral floats apart from ints", () => {
  const parsed = parseTyped('{"a": 247.0, "b": 247, "c": 1.5, "d": 1e2}') as Record<string, unknown>;
  assertEquals(JSON.stringify(parsed), '{"a":247.0,"b":247,"c":1.5,"d":100.0}');
  assertEquals(jsonEqual(parsed.a, parsed.b), false);
  assertEquals(jsonEqual(parsed.a, float(247)), true);
  assertEquals(plain(parsed), { a: 247, b: 247, c: 1.5, d: 100 });
});

Deno.test("typeOf() and value() read a number's Python type and value", () => {
  assertEquals([typeOf(3), typeOf(float(3)), typeOf(0.5)], ["int", "float", "float"]);
  assertEquals(value(float(3)), 3);
});

Deno.test("floatRepr() prints floats as Python's repr does", () => {
  assertEquals([floatRepr(8), floatRepr(-0), floatRepr(1e16), floatRepr(1e-5), floatRepr(0.1)], [
    "8.0",
    "-0.0",
    "1e+16",
    "1e-05",
    "0.1",
  ]);
});

Deno.test("round2() rounds like Python's round(x, 2), exact ties to even", () => {
  // Python: round(0.125, 2) == 0.12, round(0.375, 2) == 0.38, round(2.675, 2) == 2.67 (binary below the tie).
  assertEquals([round2(0.125), round2(0.375), round2(2.675), round2(-0.125), round2(71.96000000000001)], [
    0.12,
    0.38,
    2.67,
    -0.12,
    71.96,
  ]);
});
