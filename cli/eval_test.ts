import { assert, assertEquals, assertStringIncludes, assertThrows } from "@std/assert";
import { parseEvalArgs, USAGE } from "./_eval_args.ts";
import { type ExperimentConfig, resolveConfig } from "../eval/config.ts";

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

Deno.test("parseEvalArgs() checks names with the config's schema, naming the flag", () => {
  assertThrows(
    () => parseEvalArgs(["--domain", "bakery"]),
    RangeError,
    'Invalid value for --domain: Unknown domain "bakery"',
  );
  assertThrows(() => parseEvalArgs(["--agents", "oracle,genius"]), RangeError, '--agents: Unknown agent "genius"');
  assertThrows(() => parseEvalArgs(["--judge", "gpt"]), RangeError, '--judge: Unknown judge "gpt"');
  // A list's bad item is the value quoted; the order of a condition flag and --conditions does not matter.
  assertThrows(() => parseEvalArgs(["--env-presets", "low,extreme"]), RangeError, '"extreme" for --env-presets');
  assertThrows(() => parseEvalArgs(["--p-fault", "0.1", "--conditions", "nominal"]), TypeError, "--conditions");
});

Deno.test("parseEvalArgs() gives the settings a config file with the same fields gives", () => {
  const flags = parseEvalArgs(["--tasks", "6", "--env-presets", "high,low", "--conditions", "env,nominal", "--seed=7"]);
  assert(flags !== "help");
  const file = {
    tasks: 6,
    seed: "7",
    conditions: { nominal: {}, fault: false, env: { presets: ["high", "low"] }, prompt: false },
  };
  assertEquals(resolveConfig(flags), resolveConfig(file as ExperimentConfig));
  assertEquals(resolveConfig(flags).conditions.env, { presets: ["low", "high"], runs: 5 });
});

Deno.test("USAGE lists every flag parseEvalArgs() accepts, each once, with the conditions and presets", () => {
  const listed = [...USAGE.matchAll(/^ {2}(--[a-z-]+)/gm)].map((m) => m[1]);
  const accepted = assertThrows(() => parseEvalArgs(["--colour"]), TypeError).message.split("expected one of ")[1];
  assertEquals(listed.join(", "), accepted);
  assertEquals(new Set(listed).size, listed.length);
  assertStringIncludes(USAGE, "(nominal, fault, env, prompt)");
  assertStringIncludes(USAGE, "--env-presets P,.. perturbation presets, of low, medium, high (default all)");
  assertStringIncludes(USAGE, '--agents A,B,...   agents to test (default "oracle,noisy,reckless,literal")');
});
