import { assertEquals, assertStringIncludes, assertThrows } from "@std/assert";
import { parseEvalArgs } from "./args.ts";

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
    { domains: ["airline"], agents: ["oracle", "noisy"], tasks: 6, runs: 2, seed: "-1", maxSteps: 12, out: "tmp/x" },
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

Deno.test("parseEvalArgs() reads the model flags", () => {
  assertEquals(
    parseEvalArgs([
      "--agents",
      "openai:llama3.1:8b,anthropic:claude-3-5-haiku-latest",
      "--user=llm:openai:gpt-4o-mini",
      "--temperature",
      "0.7",
      "--max-tokens",
      "512",
      "--base-url",
      "http://localhost:11434/v1",
      "--anthropic-base-url=http://127.0.0.1:8080",
      "--prices",
      "prices.json",
      "--replay",
      "results/x",
      "--max-cost",
      "2.50",
      "--concurrency",
      "4",
    ]),
    {
      agents: ["openai:llama3.1:8b", "anthropic:claude-3-5-haiku-latest"],
      user: "llm:openai:gpt-4o-mini",
      temperature: 0.7,
      maxTokens: 512,
      baseUrl: "http://localhost:11434/v1",
      anthropicBaseUrl: "http://127.0.0.1:8080",
      prices: "prices.json",
      replay: "results/x",
      maxCost: 2.5,
      concurrency: 4,
    },
  );
  assertEquals(parseEvalArgs(["--temperature", "0", "--max-cost", ".5"]), { temperature: 0, maxCost: 0.5 });
});

Deno.test("parseEvalArgs() rejects bad model flags in one line naming the flag", () => {
  assertThrows(() => parseEvalArgs(["--temperature", "hot"]), RangeError, '"hot" for --temperature');
  assertThrows(() => parseEvalArgs(["--max-cost", "-1"]), RangeError, '"-1" for --max-cost');
  assertThrows(() => parseEvalArgs(["--max-cost", "$3"]), RangeError, '"$3" for --max-cost');
  assertThrows(() => parseEvalArgs(["--concurrency", "0"]), RangeError, '"0" for --concurrency');
  assertThrows(() => parseEvalArgs(["--base-url", "localhost:11434"]), TypeError, '"localhost:11434" for --base-url');
  assertThrows(() => parseEvalArgs(["--base-url", "ftp://x"]), TypeError, "http(s) URL");
});

Deno.test("parseEvalArgs() reads the config file and the conditions' flags", () => {
  assertEquals(parseEvalArgs(["--config", "exp.json", "--domains", "airline"]), {
    configFile: "exp.json",
    domains: ["airline"],
  });
  assertEquals(parseEvalArgs(["--conditions", "nominal,fault", "--p-fault", "0.5", "--fault-runs", "2"]), {
    conditions: { nominal: {}, fault: { p_fault: 0.5, runs: 2 }, env: false, prompt: false },
  });
  assertEquals(
    parseEvalArgs([
      "--env-presets",
      "high,low",
      "--env-runs=3",
      "--prompt-variants",
      "2",
      "--paraphrases",
      "templates",
    ]),
    { conditions: { env: { presets: ["high", "low"], runs: 3 }, prompt: { variants: 2, paraphrases: "templates" } } },
  );
});

Deno.test("parseEvalArgs() rejects bad condition flags naming what is accepted", () => {
  assertThrows(() => parseEvalArgs(["--conditions", "nominal,chaos"]), RangeError, '"chaos" for --conditions');
  assertThrows(() => parseEvalArgs(["--env-presets", "extreme"]), RangeError, '"low", "medium", "high"');
  assertThrows(() => parseEvalArgs(["--p-fault", "1.5"]), RangeError, "[0, 1]");
  assertThrows(() => parseEvalArgs(["--p-fault", "lots"]), RangeError, '"lots" for --p-fault');
  assertThrows(() => parseEvalArgs(["--conditions", "nominal", "--p-fault", "0.1"]), TypeError, "--conditions");
  assertThrows(() => parseEvalArgs(["--domains", "airline,"]), TypeError, "--domains");
});
