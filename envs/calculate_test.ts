import { assertEquals, assertThrows } from "@std/assert";
import { ToolError } from "./tool.ts";
import { calculate } from "./calculate.ts";

Deno.test("calculate() follows Python's precedence and operators", () => {
  const cases: [string, number][] = [
    ["2 + 2", 4],
    ["2 * ((350 - 122) + (499 - 127))", 1200],
    ["10 / 3", 3.33],
    ["2 / 3", 0.67],
    ["7 // 2", 3],
    ["-7 // 2", -4],
    ["7.5 // 2", 3],
    ["-2 ** 2", -4],
    ["2 ** -1", 0.5],
    ["2 ** 3 ** 2", 512],
    ["(2 ** 3) ** 2", 64],
    ["--3 + +2", 5],
    [" 1.5 * .5 ", 0.75],
    ["5. + 007.5", 12.5],
    ["00 + 0", 0],
    ["1 - 2 - 3", -4],
    ["8 / 2 / 2", 2],
    ["0.1 + 0.2", 0.3],
    ["2 ** 0.5", 1.41],
  ];
  for (const [expression, expected] of cases) assertEquals(calculate(expression), expected, expression);
});

Deno.test("calculate() refuses characters outside digits, operators, parentheses, dot and space", () => {
  for (const expression of ["2 % 3", "abs(1)", "1e5", "2\t+ 2", "__import__('os')"]) {
    const err = assertThrows(() => calculate(expression), ToolError);
    assertEquals([err.code, err.message], ["invalid_args", "invalid characters in expression"], expression);
  }
});

Deno.test("calculate() reports division by zero", () => {
  for (const expression of ["1 / 0", "1 // (2 - 2)", "0 ** -1"]) {
    const err = assertThrows(() => calculate(expression), ToolError);
    assertEquals([err.code, err.message], ["invalid_args", "division by zero"], expression);
  }
});

Deno.test("calculate() rejects malformed expressions as invalid_args", () => {
  for (const expression of ["", "1 +", "()", "(1", "1)", "1 2", "007", "1.2.3", "2 * * 3", "1 / / 2", ".", "((((1"]) {
    const err = assertThrows(() => calculate(expression), ToolError);
    assertEquals(err.code, "invalid_args", expression);
  }
  assertEquals(assertThrows(() => calculate("(".repeat(300) + "1" + ")".repeat(300)), ToolError).code, "invalid_args");
  assertEquals(assertThrows(() => calculate("10 ** 400"), ToolError).code, "invalid_args");
  assertEquals(assertThrows(() => calculate("(0 - 8) ** 0.5"), ToolError).code, "invalid_args");
});
