// Text mode for `deno task bench`: every scripted agent and baseline on the default tasks and
// scenarios of every domain (nominal, one run), in intents and in words (`AGENT@text`), timed apart;
// the share of episodes whose verdict is the same both ways, per agent, and what speaking in words
// costs per episode (the text renderings and the simulated user's reading). Private to cli/.
import { MemoryResults, resolveConfig, runExperiment, textModeAgreement } from "../eval/mod.ts";

/** Text mode's agreement and cost. */
export interface TextBench {
  /** Episodes per form. */
  episodes: number;
  /** Per agent: the share of episodes with the same verdict in words as in intents. */
  agreement: Record<string, number>;
  /** Milliseconds per episode in intents and in words. */
  intent_ms: number;
  text_ms: number;
}

const AGENTS = ["oracle", "noisy", "reckless", "literal", "idle", "apologist", "broken"];

/** Runs the agents both ways and compares their verdicts. */
export async function benchText(options: { tasks?: number; agents?: readonly string[] } = {}): Promise<TextBench> {
  const agents = options.agents ?? AGENTS;
  const run = async (names: string[]) => {
    const sink = new MemoryResults();
    const config = resolveConfig({
      agents: names,
      tasks: options.tasks ?? 50,
      runs: 1,
      conditions: { fault: false, env: false, prompt: false },
    });
    const start = performance.now();
    await runExperiment(config, { sink });
    return { records: sink.records(), ms: performance.now() - start };
  };
  const intents = await run([...agents]);
  const words = await run(agents.map((a) => `${a}@text`));
  const agreement = textModeAgreement([...intents.records, ...words.records]);
  const episodes = intents.records.length;
  return {
    episodes,
    agreement: Object.fromEntries(agents.map((a) => [a, agreement[a].agree / Math.max(1, agreement[a].episodes)])),
    intent_ms: intents.ms / Math.max(1, episodes),
    text_ms: words.ms / Math.max(1, words.records.length),
  };
}
