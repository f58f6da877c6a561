// The text-mode differential: every scripted agent and baseline speaking in words only
// (`AGENT@text`) must get the verdict it gets when it speaks in intents, on the default tasks and
// scenarios of every registered domain, so that the scripted user reads language agents as it reads
// the playbook protocol. The test prints each agent's agreement and lists every disagreement.
import { assert, assertEquals } from "@std/assert";
import { MemoryResults, resolveConfig, runExperiment, textModeAgreement } from "../eval/mod.ts";

const AGENTS = ["oracle", "noisy", "reckless", "literal", "idle", "apologist", "broken"];

Deno.test("AGENT@text gets its intent-mode verdict on ≥ 99% of the default episodes, oracle@text on all", async () => {
  const sink = new MemoryResults();
  const agents = AGENTS.flatMap((a) => [a, `${a}@text`]);
  await runExperiment(
    resolveConfig({ agents, conditions: { fault: false, env: false, prompt: false }, runs: 2, scenarioRuns: 2 }),
    { sink },
  );
  const records = sink.records();
  const agreement = textModeAgreement(records);
  for (const a of AGENTS) {
    const { agree, episodes, disagreements } = agreement[a];
    console.log(
      `${a}@text: verdict equal to ${a}'s on ${agree} of ${episodes} episodes (${(agree / episodes).toFixed(4)})`,
    );
    for (const d of disagreements) console.log(`  ${d}`);
  }
  for (const a of AGENTS) {
    const { agree, episodes } = agreement[a];
    assert(episodes >= 900, `${a}: only ${episodes} paired episodes`);
    assert(agree / episodes >= 0.99, `${a}@text agrees on ${agree} of ${episodes}`);
  }
  assertEquals(agreement.oracle.disagreements, []);
  // The user read every message of every agent in text mode.
  const unread = records.filter((r) => r.agent.endsWith("@text") && (r.user_misread ?? 0) > 0);
  assertEquals(unread.map((r) => `${r.agent} ${r.task} run ${r.run}`), []);
});

Deno.test("AGENT@text gets its intent-mode verdict under faults, perturbed interfaces and paraphrases too", async () => {
  const sink = new MemoryResults();
  const agents = ["oracle", "noisy", "reckless", "literal"].flatMap((a) => [a, `${a}@text`]);
  await runExperiment(resolveConfig({ agents, suite: "tasks", tasks: 20, runs: 1 }), { sink });
  const agreement = textModeAgreement(sink.records());
  for (const [a, { agree, episodes, disagreements }] of Object.entries(agreement)) {
    console.log(`${a}@text under every condition: ${agree} of ${episodes} (${(agree / episodes).toFixed(4)})`);
    for (const d of disagreements) console.log(`  ${d}`);
    assert(episodes >= 400, `${a}: only ${episodes} paired episodes`);
    assert(agree / episodes >= 0.99, `${a}@text agrees on ${agree} of ${episodes}`);
  }
  assertEquals(agreement.oracle.disagreements, []);
});
