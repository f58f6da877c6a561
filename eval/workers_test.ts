import { assert, assertEquals, assertRejects } from "@std/assert";
import { FakeModelClient, ModelError } from "../agents/model/mod.ts";
import { resolveConfig } from "./config.ts";
import { recordLine } from "./records.ts";
import { type Progress, runExperiment } from "./run.ts";
import { MemoryResults } from "./store.ts";
import type { ResultsSink } from "./sink.ts";

// Every config names its domains, so registering another changes none of these counts. All three
// kinds of world and every condition: 3 agents × 3 domains × 2 tasks × 2 runs × 9 condition cells.
const config = resolveConfig({
  suite: "tasks",
  domains: ["airline", "retail", "orders"],
  agents: ["oracle", "noisy", "reckless"],
  tasks: 2,
  runs: 2,
  seed: "7",
});

// What a sink holds, in the order it was given: each record's line and its events.
function contents(sink: ResultsSink): string[] {
  return sink.records().map((r) => `${recordLine(r)}\n${JSON.stringify(sink.events(r))}`);
}

const oneThread = new MemoryResults();
const whole = runExperiment(config, { sink: oneThread }).then(() => contents(oneThread));

Deno.test("runExperiment() on 2 and 4 workers gives the sink the same episodes in the same order as on one thread", async () => {
  const expected = await whole;
  assert(expected.length > 200, `${expected.length} episodes`);
  for (const workers of [2, 4]) {
    const sink = new MemoryResults();
    const progress: Progress[] = [];
    const summary = await runExperiment(config, { sink, workers, onProgress: (p) => progress.push(p) });
    assertEquals([summary.ran, summary.skipped, summary.stoppedBySignal], [expected.length, 0, undefined]);
    assertEquals(progress.at(-1), { done: expected.length, total: expected.length });
    assertEquals(contents(sink), expected, `${workers} workers`);
  }
});

Deno.test("runExperiment() on workers stops on a signal, keeps whole episodes, and resumes to the same end", async () => {
  const expected = await whole;
  const sink = new MemoryResults();
  const stop = new AbortController();
  const stopped = await runExperiment(config, {
    sink,
    workers: 2,
    signal: stop.signal,
    onProgress: ({ done }) => done === 20 && stop.abort(),
  });
  assertEquals(stopped.stoppedBySignal, true);
  assert(stopped.ran >= 20 && stopped.ran < expected.length, `${stopped.ran} episodes ran`);
  assertEquals(sink.count(), stopped.ran);
  const kept = new Set(expected);
  assert(contents(sink).every((c) => kept.has(c)), "every kept episode is one an uninterrupted run has");
  const rest = await runExperiment(config, { sink, workers: 2 });
  assertEquals([rest.skipped, rest.ran], [stopped.ran, expected.length - stopped.ran]);
  assertEquals(contents(sink).sort(), [...expected].sort());
});

// A model that ends at once and says it is 70% sure: two calls of 15 tokens per episode.
function quickModel(): FakeModelClient {
  return new FakeModelClient(
    (request) => ({
      content: JSON.stringify(request.messages).includes("How confident") ? "70" : "",
      usage: { inputTokens: 10, outputTokens: 5 },
    }),
    { provider: "openai", model: "m", prices: { "openai:m": { input: 1000, output: 1000 } } },
  );
}

const modelConfig = resolveConfig({
  suite: "tasks",
  domains: ["airline"],
  agents: ["openai:m", "noisy"],
  tasks: 3,
  runs: 2,
  conditions: { fault: false, env: false, prompt: false },
});

Deno.test("runExperiment() on workers answers model calls from this thread's clients, as one thread does", async () => {
  const one = new MemoryResults(), two = new MemoryResults();
  const model = quickModel();
  await runExperiment(modelConfig, { sink: one, models: () => quickModel() });
  const summary = await runExperiment({ ...modelConfig, concurrency: 2 }, {
    sink: two,
    models: () => model,
    workers: 2,
  });
  assertEquals(summary.cost, 0.03 * 6);
  assertEquals(model.runIndexes.length, 12, "two calls for each of the six model episodes");
  // Model-bound episodes reach the sink as they finish (each committed and paid for at once).
  assertEquals(contents(two).sort(), contents(one).sort());
});

Deno.test("runExperiment() on workers starts no episode once the budget is spent", async () => {
  const sink = new MemoryResults();
  const model = quickModel();
  const budget = { ...modelConfig, agents: ["openai:m"], maxCost: 0.05 };
  const stopped = await runExperiment(budget, { sink, models: () => model, workers: 2 });
  assertEquals(stopped.stoppedAtBudget, true);
  // Each worker asks for one cell at a time: at most one each starts before the first costs.
  assert(stopped.ran >= 2 && stopped.ran <= 3, `${stopped.ran} episodes ran`);
  assertEquals(sink.count(), stopped.ran);
  const rest = await runExperiment({ ...budget, maxCost: 1 }, { sink, models: () => model, workers: 2 });
  assertEquals([rest.skipped + rest.ran, rest.stoppedAtBudget], [6, false]);
});

Deno.test("runExperiment() on workers throws a fatal model error as one thread does, keeping what finished", async () => {
  const missing = new FakeModelClient(() => new ModelError("cache_miss", "No cached answer"), { provider: "openai" });
  const sink = new MemoryResults();
  const err = await assertRejects(
    () => runExperiment(modelConfig, { sink, models: () => missing, workers: 2 }),
    ModelError,
  );
  assertEquals(err.code, "cache_miss");
  assert(/^Cannot run "openai:m" on airline\/\d run \d: No cached answer$/.test(err.message), err.message);
  assert(sink.records().every((r) => r.agent === "noisy"), "no model episode is recorded");
});

// A model whose first answer takes a while: every later episode finishes before the first.
function slowFirstModel(ms: number): FakeModelClient {
  let first = true;
  const quick = quickModel();
  return new FakeModelClient(
    async (request) => {
      if (first) {
        first = false;
        await new Promise((resolve) => setTimeout(resolve, ms));
      }
      return await quick.chat(request);
    },
    { provider: "openai", model: "m", prices: { "openai:m": { input: 1000, output: 1000 } } },
  );
}

Deno.test("runExperiment() on workers counts each model episode's cost when it ends, not when those before it end", async () => {
  const config = { ...modelConfig, agents: ["openai:m"], tasks: 20, maxCost: 0.1, concurrency: 2 };
  const sink = new MemoryResults();
  const model = slowFirstModel(1000);
  const summary = await runExperiment(config, { sink, models: () => model, workers: 2 });
  assertEquals(summary.stoppedAtBudget, true);
  // $0.03 an episode: the budget is spent after four; lanes already running may finish theirs.
  assert(summary.ran >= 4 && summary.ran <= 8, `${summary.ran} episodes ran (of 40) for a $0.10 budget`);
  assertEquals(sink.count(), summary.ran);
});

Deno.test("runExperiment() on workers says it was stopped whenever a stop leaves cells unrun, however late", async () => {
  const expected = await whole;
  for (const left of [5, 40, 90]) {
    const sink = new MemoryResults();
    const stop = new AbortController();
    const summary = await runExperiment(config, {
      sink,
      workers: 2,
      signal: stop.signal,
      onProgress: ({ done, total }) => done === total - left && stop.abort(),
    });
    assertEquals(sink.count(), summary.ran);
    assertEquals(summary.stoppedBySignal === true, summary.ran < expected.length, `stopped ${left} before the end`);
  }
});

// A sink whose disk fills: its `add` (or `flush`) throws once it holds `after` episodes.
class FullDisk extends MemoryResults {
  constructor(readonly failing: "add" | "flush", readonly after: number) {
    super();
  }
  override add(episode: Parameters<MemoryResults["add"]>[0]): boolean {
    if (this.failing === "add" && this.count() >= this.after) throw new Error("disk full");
    return super.add(episode);
  }
  override flush(): void {
    if (this.failing === "flush" && this.count() >= this.after) throw new Error("disk full");
  }
}

Deno.test("runExperiment() on workers rejects with the sink's error (add or flush) instead of ending the process", async () => {
  for (const failing of ["add", "flush"] as const) {
    const sink = new FullDisk(failing, 30);
    const err = await assertRejects(() => runExperiment(config, { sink, workers: 2 }), Error);
    assertEquals(err.message, "disk full", failing);
    assert(sink.count() >= 30, `${sink.count()} episodes kept`);
  }
});

Deno.test("runExperiment() refuses more workers than it takes, in one line, before starting any", async () => {
  const err = await assertRejects(
    () => runExperiment(config, { sink: new MemoryResults(), workers: 100_000 }),
    RangeError,
  );
  assertEquals(err.message, "Invalid workers 100000: expected a whole number of at most 64");
});
