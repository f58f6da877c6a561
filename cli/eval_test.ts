import { assert, assertEquals, assertMatch, assertStringIncludes, assertThrows } from "@std/assert";
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

const EVAL = new URL("./eval.ts", import.meta.url).pathname;

function evalCommand(args: string[]): Deno.Command {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", EVAL, ...args],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", OPENAI_API_KEY: "", ANTHROPIC_API_KEY: "", OPENAI_BASE_URL: "", ANTHROPIC_BASE_URL: "" },
  });
}

async function evalCli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const { code, stdout, stderr } = await evalCommand(args).output();
  const text = new TextDecoder();
  return { code, stdout: text.decode(stdout), stderr: text.decode(stderr) };
}

Deno.test("eval CLI refuses a plan of more than a million episodes in one line unless --yes", async () => {
  const out = await Deno.makeTempDir();
  try {
    const huge = ["--domains", "airline", "--suite", "tasks", "--agents", "oracle", "--out", out];
    // Per task: nominal, fault and three env presets K runs each, five prompt variants of one run.
    const cases: [string[], number][] = [
      [["--tasks", "1000000"], 1_000_000 * (5 + 5 + 3 * 5 + 5)],
      [["--runs", "1000000"], 50 * (5 * 1_000_000 + 5)],
    ];
    for (const [flags, episodes] of cases) {
      const count = episodes.toLocaleString("en");
      const { code, stdout, stderr } = await evalCli([...huge, ...flags]);
      assertEquals([code, stdout], [2, ""]);
      assertEquals(
        stderr,
        `The plan holds ${count} episodes, more than 1,000,000: give --yes to run them all, or plan fewer ` +
          "(--tasks, --runs, --agents, --conditions)\n",
      );
    }
    assertEquals([...Deno.readDirSync(out)], [], "nothing is written");
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});

Deno.test("eval CLI --prices on a file that is not JSON says where, never what it holds", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const secret = `${dir}/shadow`;
    await Deno.writeTextFile(secret, "root:$6$saltsalt$hashhashhash:19000:0:99999:7:::\n");
    const { code, stderr } = await evalCli(["--prices", secret, "--tasks", "1", "--out", `${dir}/out`]);
    assertEquals(code, 2);
    assertEquals(stderr.trimEnd().split("\n"), [
      `Cannot parse price file "${secret}" as JSON: expected ` +
      '{ "provider:model": { "input": dollars per million tokens, "output": dollars per million tokens } }',
    ]);
    const device = await evalCli(["--prices", "/dev/zero", "--tasks", "1", "--out", `${dir}/out`]);
    assertEquals(device.code, 2);
    assertStringIncludes(device.stderr, 'Cannot read price file "/dev/zero": it is not a regular file');
    const config = await evalCli(["--config", "/dev/zero"]);
    assertEquals(config.code, 2);
    assertStringIncludes(config.stderr, 'Cannot read config file "/dev/zero": it is not a regular file');
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("eval CLI stops at once on SIGTERM while it generates a big plan's tasks", async () => {
  const out = await Deno.makeTempDir();
  // 200,000 tasks take minutes to generate; the run must not wait for them to end.
  const args = [
    "--domains",
    "airline",
    "--suite",
    "tasks",
    "--tasks",
    "200000",
    "--runs",
    "1",
    "--conditions",
    "nominal",
  ];
  const child = evalCommand([...args, "--agents", "oracle", "--out", out]).spawn();
  const ended = child.output();
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    // The store is opened just before the run starts drawing its tasks.
    for (let i = 0; i < 600 && !existsSync(`${out}/results.sqlite`); i++) await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 1000));
    child.kill("SIGTERM");
    const late = new Promise<null>((resolve) => timer = setTimeout(() => resolve(null), 20_000));
    const result = await Promise.race([ended, late]);
    if (result === null) {
      child.kill("SIGKILL");
      await ended;
      throw new Error("eval went on generating tasks for 20 s after SIGTERM");
    }
    const stderr = new TextDecoder().decode(result.stderr);
    assertEquals(result.code, 130, stderr);
    assertStringIncludes(stderr, `Stopped: before the first episode, 0 episodes kept in ${out}`);
  } finally {
    clearTimeout(timer);
    await Deno.remove(out, { recursive: true });
  }
});

function existsSync(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

Deno.test("eval CLI on an --out another eval is writing says so in one line, and the first goes on unharmed", async () => {
  const out = await Deno.makeTempDir();
  const args = ["--domains", "airline", "--suite", "tasks", "--tasks", "10", "--runs", "3", "--agents", "oracle,noisy"];
  const first = evalCommand([...args, "--out", out]).spawn();
  const ended = first.output();
  try {
    for (let i = 0; i < 600 && !existsSync(`${out}/results.sqlite.lock`); i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    const second = await evalCli([...args, "--out", out]);
    assertEquals(second.code, 1);
    assertMatch(
      second.stderr,
      /^"[^"]+" is being written by process \d+: wait for it to end or choose another --out\n$/,
    );
    assertStringIncludes(second.stderr, `"${out}" is being written by process ${first.pid}`);
    const { code, stderr } = await ended;
    assertEquals(code, 0, new TextDecoder().decode(stderr));
    // 2 agents × 10 tasks × (3 nominal + 3 fault + 3 × 3 env + 5 prompt).
    assertEquals(Deno.readTextFileSync(`${out}/records.jsonl`).split("\n").length - 1, 400);
    assertEquals(existsSync(`${out}/results.sqlite.lock`), false, "the lock is gone with its writer");
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});

Deno.test("eval CLI refuses an empty results.sqlite in one line instead of starting the experiment over", async () => {
  const out = await Deno.makeTempDir();
  try {
    await Deno.writeFile(`${out}/results.sqlite`, new Uint8Array());
    const { code, stderr } = await evalCli(["--domains", "airline", "--tasks", "1", "--out", out]);
    assertEquals(code, 1);
    assertEquals(
      stderr,
      `Cannot open results store "${out}/results.sqlite": not an ark store (the file is empty); ` +
        "move it away or choose another --out\n",
    );
    assertEquals(Deno.statSync(`${out}/results.sqlite`).size, 0);
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});

Deno.test("eval CLI --replay on a path holding no results folder and no model cache says so in one line and runs nothing", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const missing = `${dir}/no-such-folder`;
    const { code, stderr } = await evalCli([
      "--replay",
      missing,
      "--domains",
      "airline",
      "--tasks",
      "1",
      "--out",
      `${dir}/out`,
    ]);
    assertEquals(code, 2);
    assertEquals(
      stderr,
      `Cannot replay from "${missing}": no model cache there (expected a model_cache.sqlite file or a results folder ` +
        "holding one), nor a results folder to rerun (one holding results.sqlite)\n",
    );
    assertEquals([...Deno.readDirSync(dir)].length, 0, "nothing was written");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
