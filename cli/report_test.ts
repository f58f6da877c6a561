import { assert, assertEquals, assertStringIncludes, assertThrows } from "@std/assert";
import type { EpisodeEvent } from "../envs/mod.ts";
import { resolveConfig } from "../eval/config.ts";
import type { EpisodeRecord } from "../eval/records.ts";
import { ResultsStore } from "../eval/store.ts";
import { main, parseReportArgs } from "./report.ts";

function episode(run: number, success: boolean) {
  const cell = {
    agent: "oracle",
    task: "airline/0",
    run,
    condition: "nominal" as const,
    variant: null,
    seed: `s${run}`,
  };
  const record: EpisodeRecord = {
    agent: "oracle",
    task: "airline/0",
    run,
    condition: "nominal",
    variant: null,
    success,
    actions: ["get_user_details"],
    resources: { time: 3 },
    confidence: 0.9,
    milestones: { total: 1, reached: success ? 1 : 0, achieved: success ? 1 : 0 },
    steps: 2,
    first_error_step: null,
    faults: 0,
    recovered: false,
  };
  const events: EpisodeEvent[] = [
    { step: 0, actor: "user", kind: "message", text: "hello <b>", intent: { kind: "confirm" }, latency_ms: 5 },
    {
      step: 1,
      actor: "tool",
      kind: "tool",
      tool: "get_user_details",
      args: { user_id: "u" },
      error: { code: "not_found", message: "no such user" },
      latency_ms: 1.5,
    },
  ];
  return { cell, record, events };
}

Deno.test("parseReportArgs() takes DIR then flags, and says what is accepted", () => {
  assertEquals(parseReportArgs(["results/x/", "--title=T"]), { dir: "results/x", resamples: 1000, title: "T" });
  assertEquals(parseReportArgs(["--help"]), "help");
  assertThrows(() => parseReportArgs([]), TypeError, "Missing DIR");
  assertThrows(() => parseReportArgs(["--resamples", "5"]), TypeError, "Missing DIR");
  assertThrows(() => parseReportArgs(["d", "--resamples", "0"]), RangeError, "at least 1");
  assertThrows(() => parseReportArgs(["d", "--seed", "1"]), TypeError, "Unknown flag");
});

Deno.test("ResultsStore.read() reads what ResultsStore wrote, and main() re-renders the reports from it", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const config = resolveConfig({ suite: "tasks", agents: ["oracle"], tasks: 1, runs: 2, seed: "9", out: dir });
    {
      using store = ResultsStore.open(`${dir}/results.sqlite`, { config });
      store.add(episode(0, true));
      store.add(episode(1, false));
    }
    {
      using written = ResultsStore.open(`${dir}/results.sqlite`, { config });
      using reader = ResultsStore.read(`${dir}/results.sqlite`);
      assertEquals(reader.experiment().seed, "9");
      assertEquals(reader.records(), written.records());
      const cell = episode(1, false).cell;
      assertEquals(reader.events(cell), written.events(cell));
      assertEquals(reader.events({ ...cell, run: 7 }), []);
    }
    const log: string[] = [];
    const original = console.log;
    console.log = (...args: unknown[]) => log.push(args.join(" "));
    try {
      assertEquals(await main([dir, "--resamples", "20"]), 0);
    } finally {
      console.log = original;
    }
    assertStringIncludes(log.join("\n"), "oracle (2 episodes, 1 tasks)");
    const html = await Deno.readTextFile(`${dir}/report.html`);
    assertStringIncludes(html, "not_found: no such user");
    assertStringIncludes(html, "hello &lt;b&gt;");
    const json = JSON.parse(await Deno.readTextFile(`${dir}/report.json`));
    assertEquals([json.experiment.seed, json.experiment.resamples], ["9", 20]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("main() exits 1 with one line when there is no results store, 2 on bad arguments", async () => {
  const errors: string[] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => errors.push(args.join(" "));
  try {
    assertEquals(await main(["/nonexistent/folder"]), 1);
    assertEquals(await main(["d", "--bogus"]), 2);
  } finally {
    console.error = original;
  }
  assert(errors[0].startsWith('Cannot read results store "/nonexistent/folder/results.sqlite"'), errors[0]);
  assertStringIncludes(errors[1], 'Unknown flag "--bogus"');
});
