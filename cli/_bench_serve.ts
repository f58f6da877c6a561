// The episode API under load for `deno task bench`: `episodes` episodes opened at once over loopback
// HTTP and played concurrently with the decisions the oracle made in-process for the same cells (the
// first domain's tasks under every condition, two agents), their actions interleaved one request at
// a time; every record must equal the in-process one (a difference is a leak between episodes).
// Figures: leaks, p50/p99 of a tool call's round trip, and the memory one open episode takes.
// Private to cli/.
import { resolveConfig } from "../eval/config.ts";
import { runExperiment } from "../eval/run.ts";
import { MemoryResults } from "../eval/store.ts";
import { remoteActions, serverApp } from "../server/mod.ts";
import type { EpisodeRecord } from "../scoring/mod.ts";

/** What the load bench measured. */
export interface ServeBench {
  /** Episodes open at once. */
  episodes: number;
  /** Episodes whose record differs from the same cell run alone in-process. */
  leaks: number;
  /** Tool calls made. */
  tool_calls: number;
  /** Median and 99th percentile of a tool call's round trip with every episode open, in ms. */
  p50_ms: number;
  p99_ms: number;
  /** Resident memory per open episode, in MB (all open at once, before any action). */
  mb_per_episode: number;
}

/**
 * Runs the load bench on `domain`'s first tasks: `episodes` cells (tasks × conditions' variants,
 * one run each), in-process first, then over loopback all at once.
 */
export async function benchServe(domain: string, options: { episodes?: number } = {}): Promise<ServeBench> {
  const episodes = options.episodes ?? 200;
  // 10 tasks × (nominal, fault, 3 env presets, 5 paraphrases) = 100 cells per agent name; two names.
  const tasks = Math.ceil(episodes / 20);
  const config = resolveConfig({ suite: "tasks", domains: [domain], agents: ["oracle", "noisy"], tasks, runs: 1 });
  const sink = new MemoryResults();
  await runExperiment(config, { sink });
  const cells = sink.records().slice(0, episodes);
  const { app, api } = serverApp({ maxEpisodes: episodes + 1 });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, app.fetch);
  const base = `http://127.0.0.1:${server.addr.port}`;
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${base}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const json = await res.json();
    if (!res.ok) throw new Error(`${path}: HTTP ${res.status}: ${json.error}`);
    return json;
  };
  try {
    const before = Deno.memoryUsage().rss;
    const opened: string[] = [];
    for (const r of cells) {
      const opening = await post("/v1/episodes", {
        domain,
        task: r.task,
        agent: r.agent,
        condition: r.condition,
        variant: r.variant ?? null,
      });
      opened.push(opening.id);
    }
    const mb = (Deno.memoryUsage().rss - before) / 2 ** 20 / cells.length;
    // Every episode open at once; their actions interleaved round by round, one request at a time,
    // so a call's latency is its own, with all the others open beside it.
    const latencies: number[] = [];
    const queues = cells.map((r) => remoteActions(sink.events({ ...r, variant: r.variant ?? null }), r.confidence));
    const verdicts: ({ record: EpisodeRecord } | null)[] = cells.map(() => null);
    for (let round = 0; queues.some((q) => q.length > 0); round++) {
      for (let i = 0; i < queues.length; i++) {
        const d = queues[i].shift();
        if (d === undefined) continue;
        const id = opened[i];
        if (d.type === "tool") {
          const start = performance.now();
          await post(`/v1/episodes/${id}/tool`, { name: d.name, arguments: d.arguments });
          latencies.push(performance.now() - start);
        } else if (d.type === "message") {
          await post(`/v1/episodes/${id}/message`, { text: d.text, ...(d.intent ? { intent: d.intent } : {}) });
        } else {
          verdicts[i] = await post(
            `/v1/episodes/${id}/end`,
            d.confidence === undefined ? {} : { confidence: d.confidence },
          );
        }
      }
    }
    const leaks = cells.filter((r, i) => JSON.stringify(verdicts[i]?.record) !== JSON.stringify(r)).length;
    latencies.sort((a, b) => a - b);
    const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
    return {
      episodes: cells.length,
      leaks,
      tool_calls: latencies.length,
      p50_ms: at(0.5),
      p99_ms: at(0.99),
      mb_per_episode: Math.max(0, mb),
    };
  } finally {
    api.close();
    await server.shutdown();
  }
}
