import { assert, assertEquals, assertNotEquals, assertRejects, assertStringIncludes, assertThrows } from "@std/assert";
import { domains } from "../envs/mod.ts";
import { checkConfig, configIdentity, loadConfigFile, mergeConfigs, paraphraseModel, resolveConfig } from "./config.ts";

async function file(text: string): Promise<string> {
  const path = await Deno.makeTempFile({ suffix: ".json" });
  await Deno.writeTextFile(path, text);
  return path;
}

Deno.test("loadConfigFile() reads a config and resolveConfig() fills what it leaves out", async () => {
  const path = await file(JSON.stringify({
    agents: ["oracle", "literal"],
    tasks: 4,
    runs: 3,
    conditions: { fault: { p_fault: 0.5 }, env: { presets: ["high"] }, prompt: false },
  }));
  const c = resolveConfig(await loadConfigFile(path));
  assertEquals(c.conditions, {
    nominal: { runs: 3 },
    fault: { p_fault: 0.5, runs: 3 },
    env: { presets: ["high"], runs: 3 },
    prompt: false,
  });
  // The file names no domain: every registered one.
  assertEquals([c.agents, c.tasks, c.domains], [["oracle", "literal"], 4, Object.keys(domains)]);
  await Deno.remove(path);
});

Deno.test("loadConfigFile() names every bad field on its own line, with the file and what is accepted", async () => {
  const path = await file(JSON.stringify({
    tasks: "six",
    agents: ["oracle", "genius"],
    domains: ["bakery"],
    colour: "red",
    conditions: { fault: { p_fault: 2, rate: 1 }, env: { presets: ["extreme"] }, prompt: "yes", chaos: {} },
  }));
  const err = await assertRejects(() => loadConfigFile(path), TypeError);
  const [head, ...lines] = err.message.split("\n");
  assertEquals(head, `Invalid config file "${path}":`);
  const expected: [string, string][] = [
    ['"tasks"', "a whole number of at least 1"],
    ['"agents[1]"', '"genius"'],
    ['"domains[0]"', '"airline"'],
    ['"colour"', "expected one of domains, agents, tasks, runs, conditions"],
    ['"conditions.fault.p_fault"', "[0, 1], got 2"],
    ['"conditions.fault.rate"', "expected one of p_fault, runs"],
    ['"conditions.env.presets[0]"', '"low", "medium", "high"'],
    ['"conditions.prompt"', "false (off), true, or an object"],
    ['"conditions.chaos"', "expected one of nominal, fault, env, prompt"],
  ];
  assertEquals(lines.length, expected.length, err.message);
  for (const [field, accepted] of expected) {
    const line = lines.find((l) => l.trimStart().startsWith(`${field}:`));
    assert(line !== undefined, `no line for ${field} in:\n${err.message}`);
    assertStringIncludes(line, accepted);
  }
  await Deno.remove(path);
});

Deno.test("loadConfigFile() says which file is not JSON and where, and which is missing", async () => {
  const path = await file('{\n  "tasks": 6,\n}');
  const err = await assertRejects(() => loadConfigFile(path), SyntaxError);
  assertStringIncludes(err.message, `"${path}"`);
  assertStringIncludes(err.message, "line 3");
  await Deno.remove(path);
  await assertRejects(() => loadConfigFile(path), TypeError, "no such file");
});

Deno.test("checkConfig() throws a RangeError when every problem is a value out of range", () => {
  const err = assertThrows(() => checkConfig({ tasks: 0, conditions: { fault: { p_fault: -1 } } }), RangeError);
  assertEquals(err.message.split("\n").length, 3);
  assertThrows(() => checkConfig({ tasks: 0 }), RangeError, 'Invalid config field "tasks"');
});

Deno.test("mergeConfigs() puts flags over a file, condition by condition", () => {
  const fromFile = { tasks: 6, conditions: { fault: { p_fault: 0.1 }, env: false as const } };
  assertEquals(mergeConfigs(fromFile, { tasks: 2, conditions: { fault: { runs: 3 }, env: {}, prompt: false } }), {
    tasks: 2,
    conditions: { fault: { p_fault: 0.1, runs: 3 }, env: {}, prompt: false },
  });
  assertEquals(mergeConfigs(fromFile, { seed: "1" }), { ...fromFile, seed: "1" });
});

Deno.test("paraphraseModel() is the model of llm paraphrases, and a bad source is refused", () => {
  assertEquals(paraphraseModel(resolveConfig()), null);
  const llm = resolveConfig({ conditions: { prompt: { paraphrases: "llm:anthropic:claude-3-5-haiku-latest" } } });
  assertEquals(paraphraseModel(llm), "anthropic:claude-3-5-haiku-latest");
  assertThrows(() => resolveConfig({ conditions: { prompt: { paraphrases: "gpt" } } }), RangeError, '"templates"');
});

Deno.test("checkConfig() names a field given as text by its name and text, one line each", () => {
  const given = [
    { path: ["baseUrl"], name: "OPENAI_BASE_URL", text: "localhost:1" },
    { path: ["agents"], name: "--agents", text: "oracle, genius" },
    { path: ["tasks"], name: "--tasks", text: "0" },
  ];
  const bad = { baseUrl: "localhost:1", agents: ["oracle", "genius"], tasks: 0 };
  const err = assertThrows(() => checkConfig(bad, { given }), TypeError);
  assertEquals(err.message.split("\n").map((l) => l.slice(0, l.indexOf(": "))), [
    "Invalid value for --agents",
    'Invalid value "0" for --tasks',
    'Invalid value "localhost:1" for OPENAI_BASE_URL',
  ]);
  // Text is always text: text the schema refuses is out of range, and the message says what is accepted.
  const many = [{ path: ["tasks"], name: "--tasks", text: "many" }];
  const tasks = assertThrows(() => checkConfig({ tasks: "many" }, { given: many }), RangeError);
  assertEquals(
    tasks.message,
    'Invalid value "many" for --tasks: expected the number of tasks, a whole number of at least 1',
  );
});

Deno.test("the scenario settings name the experiment only when its suite runs scenarios", () => {
  const tasks = resolveConfig({ suite: "tasks" });
  assertEquals(
    configIdentity(resolveConfig({ suite: "tasks", scenarioPairs: 5, scenarioRuns: 3 })),
    configIdentity(tasks),
  );
  const all = resolveConfig({ scenarioPairs: 5 });
  assertEquals(configIdentity(all).scenarioPairs, 5);
  assertNotEquals(all.experiment, resolveConfig({}).experiment);
});

Deno.test("resolveConfig() refuses the long suite over domains without long-horizon families, in one line", () => {
  assertThrows(
    () => resolveConfig({ suite: "long", domains: ["airline"] }),
    RangeError,
    'Invalid suite "long" for domains "airline": none has long-horizon task families; expected some of "orders"',
  );
  assertEquals(resolveConfig({ suite: "long", domains: ["airline", "orders"] }).suite, "long");
});

Deno.test("loadConfigFile() never puts what a file holds in its message, and refuses a device or a file too big", async () => {
  const path = await file("root:x:0:0:root:/root:/bin/bash\n");
  const err = await assertRejects(() => loadConfigFile(path), SyntaxError);
  assertEquals(
    err.message,
    `Cannot parse config file "${path}" as JSON: expected one JSON object of settings (docs/config.md)`,
  );
  await Deno.truncate(path, 65 * 1024 * 1024);
  await assertRejects(() => loadConfigFile(path), RangeError, "more than the 64 MB a config file may");
  await Deno.remove(path);
  await assertRejects(() => loadConfigFile("/dev/zero"), TypeError, "not a regular file");
});
