import { assertEquals, assertThrows } from "@std/assert";
import { configIdentity, type ExperimentConfig, resolveConfig } from "./config.ts";
import { parseEvalArgs } from "../cli/_eval_args.ts";
import { RERUN_SETTINGS, rerunConfig, rerunStorePath } from "./rerun.ts";
import { ResultsStore, ResultsStoreError } from "./store.ts";

// Every config names its domain, so registering another changes none of these.
const config = resolveConfig({
  suite: "tasks",
  domains: ["airline"],
  agents: ["oracle", "noisy"],
  tasks: 3,
  runs: 2,
  seed: "7",
  conditions: { env: false, prompt: false },
});

async function storedFolder(): Promise<string> {
  const dir = await Deno.makeTempDir();
  ResultsStore.open(`${dir}/results.sqlite`, { config }).close();
  return dir;
}

// What the flags of `deno task eval` say, without the `--config` file.
function flags(...args: string[]) {
  const parsed = parseEvalArgs(args);
  if (parsed === "help") throw new Error("help");
  return parsed;
}

Deno.test("rerunStorePath() finds a results folder's store, and nothing for a cache file or a missing folder", async () => {
  const dir = await storedFolder();
  assertEquals(rerunStorePath(dir), `${dir}/results.sqlite`);
  assertEquals(rerunStorePath(`${dir}/`), `${dir}/results.sqlite`);
  assertEquals(rerunStorePath(`${dir}/results.sqlite`), null);
  assertEquals(rerunStorePath(`${dir}/missing`), null);
  await Deno.mkdir(`${dir}/empty`);
  assertEquals(rerunStorePath(`${dir}/empty`), null);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("rerunConfig() takes the experiment from the store, with --out, --replay and the run's own settings", async () => {
  const dir = await storedFolder();
  const rerun = rerunConfig(
    `${dir}/results.sqlite`,
    flags("--replay", dir, "--out", `${dir}/new`, "--concurrency", "3", "--max-cost", "2"),
  );
  assertEquals(configIdentity(rerun), configIdentity(config));
  assertEquals(
    [rerun.out, rerun.replay, rerun.concurrency, rerun.maxCost],
    [`${dir}/new`, dir, 3, 2],
  );
  // Without --out: the experiment's default folder, as for a live run.
  assertEquals(rerunConfig(`${dir}/results.sqlite`, { replay: dir }).out, `results/${config.experiment}`);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("rerunConfig() accepts flags that give the stored experiment's own values", async () => {
  const dir = await storedFolder();
  const same = flags(
    "--replay",
    dir,
    "--domains",
    "airline",
    "--tasks",
    "3",
    "--runs",
    "2",
    "--seed",
    "7",
    "--conditions",
    "nominal,fault",
    "--p-fault",
    "0.2",
    "--suite",
    "tasks",
  );
  assertEquals(configIdentity(rerunConfig(`${dir}/results.sqlite`, same)), configIdentity(config));
  await Deno.remove(dir, { recursive: true });
});

Deno.test("rerunConfig() refuses, in one line naming the flag, any flag that would change the experiment", async () => {
  const dir = await storedFolder();
  const store = `${dir}/results.sqlite`;
  const cases: [string[], string][] = [
    [
      ["--tasks", "4"],
      '--tasks with --replay "DIR": it would change the experiment stored there ("tasks" is 3 there, 4',
    ],
    [["--p-fault", "0.1"], "--p-fault with"],
    [["--conditions", "nominal"], "--conditions with"],
    [["--domain", "retail"], "--domains or --domain with"],
    [["--agents", "oracle"], "--agents with"],
    [["--seed", "8"], '"seed" is "7" there, "8" here'],
    [["--suite", "all"], "--suite with"],
    [["--max-steps", "12"], "--max-steps with"],
    [["--judge", "llm:openai:judge"], "--judge with"],
    [["--temperature", "0.5"], "--temperature with"],
  ];
  for (const [args, part] of cases) {
    const err = assertThrows(() => rerunConfig(store, flags("--replay", dir, ...args)), RangeError);
    const message = err.message.replaceAll(dir, "DIR");
    assertEquals(message.includes(part), true, message);
    assertEquals(message.includes("\n"), false, message);
    assertEquals(
      message.endsWith(
        "give only --base-url, --anthropic-base-url, --prices, --replay, --max-cost, --concurrency, --workers or --out",
      ),
      true,
      message,
    );
  }
  assertThrows(
    () => rerunConfig(store, { replay: dir }, { configFile: "x.json" }),
    RangeError,
    `Cannot use --config with --replay "${dir}": the experiment comes from its results store`,
  );
  await Deno.remove(dir, { recursive: true });
});

Deno.test("rerunConfig() fails with a ResultsStoreError on a store that is missing or not ark's", async () => {
  const dir = await Deno.makeTempDir();
  assertThrows(
    () => rerunConfig(`${dir}/results.sqlite`, { replay: dir }),
    ResultsStoreError,
    "Cannot read results store",
  );
  await Deno.writeTextFile(`${dir}/results.sqlite`, "not sqlite");
  assertThrows(() => rerunConfig(`${dir}/results.sqlite`, { replay: dir }), ResultsStoreError);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("RERUN_SETTINGS leave the experiment's identity as it is", () => {
  const input: ExperimentConfig = { suite: "tasks", domains: ["airline"], tasks: 3 };
  const run = {
    replay: "x",
    out: "y",
    concurrency: 9,
    workers: 3,
    maxCost: 1,
    prices: "p.json",
    baseUrl: "http://127.0.0.1:1/v1",
    anthropicBaseUrl: "http://127.0.0.1:2",
  };
  assertEquals(Object.keys(run).toSorted(), [...RERUN_SETTINGS].toSorted());
  assertEquals(configIdentity(resolveConfig({ ...input, ...run })), configIdentity(resolveConfig(input)));
});
