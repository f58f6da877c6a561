import { assert, assertEquals, assertRejects } from "@std/assert";
import { FakeModelClient, ModelError } from "../agents/model/mod.ts";
import type { AgentFactory } from "../envs/mod.ts";
import { resolveConfig } from "./config.ts";
import { recordsJsonl } from "./records.ts";
import { type Progress, runExperiment } from "./run.ts";
import { MemoryResults } from "./store.ts";

// The runner's mechanics on the nominal condition; the conditions themselves are tested below.
const NOMINAL = { fault: false, env: false, prompt: false } as const;
// Every config names its domain, so registering another changes none of these counts.
const config = resolveConfig({
  suite: "tasks",
  domains: ["airline"],
  agents: ["oracle", "noisy", "reckless"],
  tasks: 4,
  runs: 2,
  seed: "3",
  conditions: NOMINAL,
});

Deno.test("runExperiment() runs every cell once and reports progress up to the total", async () => {
  const sink = new MemoryResults();
  const progress: Progress[] = [];
  const summary = await runExperiment(config, { sink, onProgress: (p) => progress.push(p) });
  assertEquals(summary, { total: 24, skipped: 0, ran: 24, cost: 0, stoppedAtBudget: false });
  assertEquals(sink.count(), 24);
  assertEquals(progress[0], { done: 0, total: 24 });
  assertEquals(progress.at(-1), { done: 24, total: 24 });
  const oracle = sink.records().filter((r) => r.agent === "oracle");
  assert(oracle.length === 8 && oracle.every((r) => r.steps > 0 && r.actions.length === r.resources.num_actions));
  assert(sink.events(oracle[0]).length > 0);
});

Deno.test("runExperiment() gives the same records for the same seed", async () => {
  const a = new MemoryResults(), b = new MemoryResults();
  await runExperiment(config, { sink: a });
  await runExperiment(config, { sink: b });
  assertEquals(recordsJsonl(a.records()), recordsJsonl(b.records()));
});

Deno.test("runExperiment() skips finished cells and ends with what an uninterrupted run has", async () => {
  const whole = new MemoryResults();
  await runExperiment(config, { sink: whole });
  // A sink that fails after 10 episodes, as a killed process would.
  const partial = new MemoryResults();
  const add = partial.add.bind(partial);
  partial.add = (e) => {
    if (partial.count() === 10) throw new Error("killed");
    return add(e);
  };
  await runExperiment(config, { sink: partial }).catch(() => {});
  assertEquals(partial.count(), 10);
  partial.add = add;
  const summary = await runExperiment(config, { sink: partial });
  assertEquals(summary, { total: 24, skipped: 10, ran: 14, cost: 0, stoppedAtBudget: false });
  assertEquals(recordsJsonl(partial.records()), recordsJsonl(whole.records()));
});

Deno.test("runExperiment() starts no episode once options.signal aborts, keeps those in flight, and resumes", async () => {
  const whole = new MemoryResults();
  await runExperiment(config, { sink: whole });
  const sink = new MemoryResults();
  const stop = new AbortController();
  const onProgress = ({ done }: Progress) => done === 5 && stop.abort();
  const stopped = await runExperiment(config, { sink, onProgress, signal: stop.signal });
  assertEquals(stopped, { total: 24, skipped: 0, ran: 5, cost: 0, stoppedAtBudget: false, stoppedBySignal: true });
  assertEquals(sink.count(), 5);
  const rest = await runExperiment(config, { sink });
  assertEquals([rest.skipped, rest.ran, rest.stoppedBySignal], [5, 19, undefined]);
  assertEquals(recordsJsonl(sink.records()), recordsJsonl(whole.records()));

  // Three in flight when the signal comes: the two others finish and are kept.
  const parallel = new MemoryResults();
  const stop3 = new AbortController();
  const onProgress3 = ({ done }: Progress) => done === 1 && stop3.abort();
  const three = await runExperiment({ ...config, concurrency: 3 }, {
    sink: parallel,
    onProgress: onProgress3,
    signal: stop3.signal,
  });
  assertEquals([three.ran, parallel.count(), three.stoppedBySignal], [3, 3, true]);
  const done = new Set(parallel.records().map((r) => recordsJsonl([r])));
  assert(whole.records().filter((r) => done.has(recordsJsonl([r]))).length === 3, "kept episodes are whole");
});

Deno.test("runExperiment() sees a process signal abort options.signal between episodes that never wait", async () => {
  const sink = new MemoryResults();
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  Deno.addSignalListener("SIGUSR2", onSignal);
  try {
    // Pending until the event loop turns: scripted episodes alone never let it.
    Deno.kill(Deno.pid, "SIGUSR2");
    const stopped = await runExperiment(config, { sink, signal: stop.signal });
    assertEquals(stopped.stoppedBySignal, true);
    assert(stopped.ran < 24 && sink.count() === stopped.ran, `${stopped.ran} episodes ran`);
  } finally {
    Deno.removeSignalListener("SIGUSR2", onSignal);
  }
});

Deno.test("runExperiment() with a signal draws its tasks in a worker and records what it records without one", async () => {
  const all = resolveConfig({ domains: ["airline"], agents: ["oracle", "noisy"], tasks: 3, runs: 1, seed: "5" });
  const inline = new MemoryResults(), drawn = new MemoryResults();
  await runExperiment(all, { sink: inline });
  const summary = await runExperiment(all, { sink: drawn, signal: new AbortController().signal });
  assertEquals(summary.ran, inline.count());
  assertEquals(recordsJsonl(drawn.records()), recordsJsonl(inline.records()));
});

Deno.test("runExperiment() stops while a big plan's tasks are drawn, with nothing run", async () => {
  // 100,000 tasks take well over a minute to draw; the stop must not wait for them.
  const big = resolveConfig({
    suite: "tasks",
    domains: ["airline"],
    agents: ["oracle"],
    tasks: 100_000,
    conditions: NOMINAL,
  });
  const sink = new MemoryResults();
  const stop = new AbortController();
  const timers = [setTimeout(() => stop.abort(), 500)];
  const late = new Promise<"late">((resolve) => timers.push(setTimeout(() => resolve("late"), 20_000)));
  try {
    const summary = await Promise.race([runExperiment(big, { sink, signal: stop.signal }), late]);
    assert(summary !== "late", "still drawing tasks 20 s after the stop");
    assertEquals(summary, { total: 0, skipped: 0, ran: 0, cost: 0, stoppedAtBudget: false, stoppedBySignal: true });
    assertEquals(sink.count(), 0);
  } finally {
    timers.forEach(clearTimeout);
  }
});

// A model that ends at once and says it is 70% sure: two calls of 15 tokens per episode.
function quickModel(model = "m"): FakeModelClient {
  return new FakeModelClient(
    (request) => ({
      content: JSON.stringify(request.messages).includes("How confident") ? "70" : "",
      usage: { inputTokens: 10, outputTokens: 5 },
    }),
    { provider: "openai", model, prices: { [`openai:${model}`]: { input: 1000, output: 1000 } } },
  );
}

const modelConfig = resolveConfig({
  suite: "tasks",
  domains: ["airline"],
  agents: ["openai:m"],
  tasks: 2,
  runs: 2,
  conditions: NOMINAL,
});

Deno.test("runExperiment() runs a model agent from options.models and records its usage", async () => {
  const sink = new MemoryResults();
  const model = quickModel();
  const summary = await runExperiment(modelConfig, { sink, models: () => model });
  assertEquals(summary, { total: 4, skipped: 0, ran: 4, cost: 0.015 * 8, stoppedAtBudget: false });
  for (const r of sink.records()) {
    assertEquals([r.resources.api_calls, r.resources.tokens, r.resources.cost], [2, 30, 0.03]);
    assertEquals([r.confidence, r.confidence_source, r.agent_error], [0.7, "elicited", undefined]);
  }
  assertEquals(model.runIndexes, [0, 0, 1, 1, 0, 0, 1, 1]);
  await assertRejects(() => runExperiment(modelConfig, { sink: new MemoryResults() }), TypeError, '"openai:m"');
});

Deno.test("runExperiment() starts no episode once the budget is spent, and resumes with a higher one", async () => {
  const sink = new MemoryResults();
  const model = quickModel();
  const budget = { ...modelConfig, maxCost: 0.05 };
  const stopped = await runExperiment(budget, { sink, models: () => model });
  assertEquals(stopped, { total: 4, skipped: 0, ran: 2, cost: 0.06, stoppedAtBudget: true });
  // Resumed episodes count: the budget is already spent.
  assertEquals((await runExperiment(budget, { sink, models: () => model })).ran, 0);
  const rest = await runExperiment({ ...budget, maxCost: 1 }, { sink, models: () => model });
  assertEquals([rest.skipped, rest.ran, rest.stoppedAtBudget], [2, 2, false]);
  const parallel = await runExperiment({ ...budget, maxCost: 0.02, concurrency: 3 }, {
    sink: new MemoryResults(),
    models: () => model,
  });
  assertEquals([parallel.ran, parallel.stoppedAtBudget], [3, true], "episodes in flight finish and are kept");
});

Deno.test("runExperiment() stops on a replay miss without recording it, but records other model failures", async () => {
  const sink = new MemoryResults();
  const missing = new FakeModelClient(() => new ModelError("cache_miss", "No cached answer"), { provider: "openai" });
  const err = await assertRejects(() => runExperiment(modelConfig, { sink, models: () => missing }), ModelError);
  assertEquals([err.code, err.message], ["cache_miss", 'Cannot run "openai:m" on airline/0 run 0: No cached answer']);
  assertEquals(sink.count(), 0);
  const failing = new FakeModelClient(() => new ModelError("server", "HTTP 503"), { provider: "openai" });
  await runExperiment(modelConfig, { sink, models: () => failing });
  assertEquals(sink.records().map((r) => r.agent_error), Array(4).fill("server: HTTP 503"));
});

Deno.test("runExperiment() gives the same records at any concurrency", async () => {
  const one = new MemoryResults(), three = new MemoryResults();
  const both = resolveConfig({
    suite: "tasks",
    domains: ["airline"],
    agents: ["noisy", "openai:m"],
    tasks: 4,
    runs: 1,
  });
  await runExperiment(both, { sink: one, models: () => quickModel() });
  await runExperiment({ ...both, concurrency: 3 }, { sink: three, models: () => quickModel() });
  assertEquals(recordsJsonl(three.records()), recordsJsonl(one.records()));
});

Deno.test("runExperiment() with a model user: its cost is apart from the agent's, a guard trip is a user_error", async () => {
  const sink = new MemoryResults();
  const user = new FakeModelClient(
    () => ({ content: "Thanks. ###STOP###", usage: { inputTokens: 10, outputTokens: 5 } }),
    {
      provider: "openai",
      model: "u",
      prices: { "openai:u": { input: 1000, output: 1000 } },
    },
  );
  const config = resolveConfig({
    suite: "tasks",
    domains: ["airline"],
    agents: ["oracle"],
    user: "llm:openai:u",
    tasks: 2,
    runs: 1,
    conditions: NOMINAL,
  });
  const summary = await runExperiment(config, { sink, models: () => user });
  assertEquals(summary.cost, 0.03);
  for (const r of sink.records()) {
    assertEquals(r.user_resources, { api_calls: 1, tokens: 15, cost: 0.015, call_latency: 0 });
    assertEquals(r.resources.cost, undefined);
    assertEquals(r.user_error, "user ended the conversation on its first reply, before the agent could help");
  }
});

Deno.test("runExperiment() faults a model agent's calls: retries counted, an injected auth failure is the agent's", async () => {
  const sink = new MemoryResults();
  const faulty = resolveConfig({
    suite: "tasks",
    domains: ["airline"],
    agents: ["openai:m"],
    tasks: 10,
    runs: 2,
    conditions: { nominal: false, env: false, prompt: false, fault: { p_fault: 1 } },
  });
  // The run goes on: an injected auth failure is not the endpoint rejecting the key.
  const summary = await runExperiment(faulty, { sink, models: () => quickModel() });
  assertEquals(summary.ran, 20);
  const records = sink.records();
  const auth = records.filter((r) => r.agent_error !== undefined);
  assert(auth.length > 0 && auth.length < records.length, `${auth.length} auth failures`);
  for (const r of records) {
    // Every model call was faulted; every transient fault was retried once, an auth fault never:
    // it ends the episode, or (on the confidence question) leaves the heuristic confidence.
    assertEquals(r.faults, r.resources.api_calls);
    const authFaults = r.agent_error !== undefined || r.confidence_source === "heuristic" ? 1 : 0;
    assertEquals(r.model_retries, r.faults - authFaults);
    if (r.agent_error !== undefined) {
      assertEquals(r.agent_error, "auth: 401 unauthorized: authentication failed (injected fault)");
    }
    assertEquals(r.recovered, r.success);
  }
});

Deno.test("runExperiment() opens prompt cells with a model's paraphrases, and fails on too few", async () => {
  const paraphrases = (n: number) =>
    new FakeModelClient((request) => {
      const message = request.messages.at(-1)!.content!.split("Message: ")[1];
      return {
        content: Array.from({ length: n }, (_, i) => `(${i + 1}) ${message} Thanks ${"!".repeat(i)}`).join("\n"),
      };
    }, { provider: "openai", model: "p" });
  const prompt = resolveConfig({
    suite: "tasks",
    domains: ["airline"],
    agents: ["oracle"],
    tasks: 2,
    runs: 1,
    conditions: { nominal: false, fault: false, env: false, prompt: { variants: 2, paraphrases: "llm:openai:p" } },
  });
  const sink = new MemoryResults();
  const model = paraphrases(2);
  await runExperiment(prompt, { sink, models: () => model });
  const openings = sink.records().map((r) => sink.events(r)[0].text!);
  assertEquals(openings.length, 4);
  assert(openings.every((t) => /Thanks( !)?$/.test(t)), openings.join("\n"));
  assertEquals(new Set(openings).size, 4);
  const err = await assertRejects(
    () => runExperiment(prompt, { sink: new MemoryResults(), models: () => paraphrases(1) }),
    ModelError,
  );
  assertEquals(err.code, "malformed");
});

Deno.test("runExperiment() runs the factories of options.agents under the config's names", async () => {
  const sink = new MemoryResults();
  const silent: AgentFactory = () => ({ name: "silent", start() {}, step: () => ({ type: "end" }) });
  await runExperiment({ ...config, agents: ["oracle"], tasks: 2 }, { sink, agents: { oracle: silent } });
  assertEquals(sink.count(), 4);
  assert(sink.records().every((r) => r.agent === "oracle" && r.actions.length === 0 && r.steps === 1));
});
