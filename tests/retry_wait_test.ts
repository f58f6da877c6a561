// Network weather is not agent inconsistency: the same deterministic model agent behind a clean
// and a flaky endpoint gets the same records but for `retry_wait` and `model_retries`, hence the
// same C_res. A virtual clock times the attempts, so the test measures the accounting, not the
// machine's scheduler: the provider advances it while it answers, a backoff wait by its length.
import { assert, assertEquals, assertGreater, assertNotEquals } from "@std/assert";
import { openaiClient } from "../agents/model/mod.ts";
import { getDomain, World } from "../envs/mod.ts";
import { MemoryResults, resolveConfig, runExperiment } from "../eval/mod.ts";
import type { EpisodeRecord } from "../eval/records.ts";
import { consistency } from "../scoring/mod.ts";
import { type FakeReply, startFakeProvider } from "./fixtures/fake_provider.ts";
import { goldReply } from "./fixtures/gold_model.ts";

const config = resolveConfig({
  suite: "tasks",
  domains: ["airline"],
  agents: ["openai:fake-model"],
  tasks: 3,
  runs: 3,
  conditions: { fault: false, env: false, prompt: false },
  // One episode at a time, so that the virtual clock sees one request at a time.
  concurrency: 1,
});
const tasks = (() => {
  using world = World.open(getDomain("airline"), { seed: String(config.worldSeed) });
  return world.defaultTasks(config.tasks);
})();
const USAGE = { inputTokens: 100, outputTokens: 20 };

/** Runs the experiment against a provider that fails every `failEvery`-th request once (0: never). */
async function run(failEvery: number): Promise<EpisodeRecord[]> {
  let clock = 0;
  let seen = 0;
  await using provider = startFakeProvider((request): FakeReply => {
    seen++;
    if (failEvery > 0 && seen % failEvery === 0) {
      clock += 35;
      return { status: seen % (2 * failEvery) === 0 ? 429 : 503 };
    }
    // The model's own time depends on what it is asked, never on the network.
    clock += 150 + 10 * ((request.body as { messages: unknown[] }).messages.length);
    return goldReply(tasks, request, USAGE);
  });
  const client = openaiClient({
    model: "fake-model",
    baseUrl: provider.openaiBaseUrl,
    now: () => clock,
    sleep: (ms) => {
      clock += ms;
      return Promise.resolve();
    },
  });
  const sink = new MemoryResults();
  await runExperiment(config, { sink, models: () => client });
  return sink.records();
}

// A record without what the network changes.
function agentsOwn(record: EpisodeRecord): EpisodeRecord {
  const { model_retries: _, ...rest } = record;
  const { retry_wait: _w, ...resources } = record.resources;
  return { ...rest, resources };
}

Deno.test("the same agent behind a clean and a flaky endpoint gets the same records, retry_wait aside, and the same C_res", async () => {
  const clean = await run(0);
  const flaky = await run(3);
  assertEquals(clean.length, 9);
  assert(clean.some((r) => r.success));
  assert(clean.every((r) => r.resources.retry_wait === undefined && r.model_retries === 0));
  // The flaky endpoint did fail, and the time lost is kept apart.
  const retried = flaky.filter((r) => (r.model_retries ?? 0) > 0);
  assertGreater(retried.length, 0);
  assert(retried.every((r) => r.resources.retry_wait! >= 0.5), "each retry waits at least the 500 ms backoff");
  assertEquals(flaky.map(agentsOwn), clean.map(agentsOwn));
  const [a, b] = [consistency(clean), consistency(flaky)];
  assert(a.C_res !== null && a.C_res < 1, "time varies between runs (the tools' simulated latency)");
  assertEquals([b.C_res, b.R_con], [a.C_res, a.R_con]);
  // Folding the waits into time, as ark once did, is what this guards against.
  const folded = flaky.map((r) => ({
    ...r,
    resources: { ...r.resources, time: r.resources.time! + (r.resources.retry_wait ?? 0) },
  }));
  assertNotEquals(consistency(folded).C_res, a.C_res);
});
