import { assertEquals, assertStringIncludes, assertThrows } from "@std/assert";
import { parseEvalArgs } from "./cli.ts";

Deno.test("parseEvalArgs() reads every flag, with a space or an equals sign", () => {
  assertEquals(parseEvalArgs([]), {});
  assertEquals(
    parseEvalArgs([
      "--domain",
      "airline",
      "--agents=oracle, noisy",
      "--tasks",
      "6",
      "--runs=2",
      "--seed",
      "-1",
      "--max-steps",
      "12",
      "--out",
      "tmp/x",
    ]),
    { domain: "airline", agents: ["oracle", "noisy"], tasks: 6, runs: 2, seed: "-1", maxSteps: 12, out: "tmp/x" },
  );
  assertEquals(parseEvalArgs(["--tasks", "3", "--help"]), "help");
});

Deno.test("parseEvalArgs() says what was wrong and what is accepted", () => {
  assertStringIncludes(assertThrows(() => parseEvalArgs(["--task", "3"]), TypeError).message, "--tasks");
  assertStringIncludes(assertThrows(() => parseEvalArgs(["--tasks", "0"]), RangeError).message, "at least 1");
  assertThrows(() => parseEvalArgs(["--tasks", "2.5"]), RangeError, '"2.5"');
  assertThrows(() => parseEvalArgs(["--runs", "many"]), RangeError, '"many"');
  assertThrows(() => parseEvalArgs(["--runs"]), TypeError, "Missing value for --runs");
  assertThrows(() => parseEvalArgs(["--agents", "oracle,,noisy"]), TypeError, "--agents");
  assertThrows(() => parseEvalArgs(["oracle"]), TypeError, '"oracle"');
});
