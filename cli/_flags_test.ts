import { assertEquals, assertThrows } from "@std/assert";
import { readDirArgs, readFlags } from "./_flags.ts";
import { parseEvalArgs } from "./_eval_args.ts";
import { parseCompareArgs } from "./compare.ts";
import { parseExportArgs } from "./export.ts";
import { parseGoldArgs } from "./gold.ts";
import { parseImportArgs } from "./import.ts";
import { parseJudgeArgs } from "./judge.ts";
import { parseMergeArgs } from "./merge.ts";
import { parseReportArgs } from "./report.ts";
import { parseScoreArgs } from "./score.ts";
import { parseServeArgs } from "./serve.ts";

Deno.test("readFlags() refuses a flag given twice by name, with either spelling, unless it may repeat", () => {
  assertThrows(() => readFlags(["--runs", "2", "--runs", "3"], ["--runs"]), TypeError, "--runs given twice");
  assertThrows(() => readFlags(["--runs=2", "--runs", "2"], ["--runs"]), TypeError, "--runs given twice");
  assertEquals(readFlags(["--pair", "a=b", "--pair=c=d"], ["--pair"], { repeatable: ["--pair"] }), [
    ["--pair", "a=b"],
    ["--pair", "c=d"],
  ]);
});

Deno.test("readFlags() reads a switch without a value, and refuses one given a value", () => {
  assertEquals(readFlags(["--yes", "--tasks", "3"], ["--yes", "--tasks"], { switches: ["--yes"] }), [
    ["--yes", ""],
    ["--tasks", "3"],
  ]);
  assertThrows(() => readFlags(["--yes=1"], ["--yes"], { switches: ["--yes"] }), TypeError, "it takes none");
  assertThrows(() => readDirArgs(["d", "--title", "a", "--title", "b"], ["--title"]), TypeError, "--title given twice");
});

Deno.test("every command refuses a repeated flag by name: none keeps the last value silently", () => {
  const cases: [(args: string[]) => unknown, string[], string][] = [
    [parseEvalArgs, ["--runs", "2", "--runs", "3"], "--runs"],
    [parseEvalArgs, ["--yes", "--yes"], "--yes"],
    [parseEvalArgs, ["--shard", "1/2", "--shard=2/2"], "--shard"],
    [parseScoreArgs, ["--records", "a", "--seed", "1", "--seed", "2"], "--seed"],
    [parseCompareArgs, ["a", "b", "--fail-on", "R", "--fail-on", "R_saf"], "--fail-on"],
    [parseReportArgs, ["d", "--resamples", "10", "--resamples", "20"], "--resamples"],
    [parseExportArgs, ["d", "--format", "csv", "--format", "otlp"], "--format"],
    [parseJudgeArgs, ["d", "--concurrency", "1", "--concurrency", "2"], "--concurrency"],
    [parseMergeArgs, ["x", "a", "b", "--resamples", "1", "--resamples", "2"], "--resamples"],
    [parseMergeArgs, ["x", "a", "--partial", "--partial"], "--partial"],
    [parseImportArgs, ["--from", "ark", "f.jsonl", "--out", "a", "--out", "b"], "--out"],
    [parseGoldArgs, ["--domain", "airline", "--domain", "retail"], "--domain"],
    [(args) => parseServeArgs(args), ["--port", "1", "--port", "2"], "--port"],
  ];
  for (const [parse, args, flag] of cases) assertThrows(() => parse(args), TypeError, `${flag} given twice`);
});
