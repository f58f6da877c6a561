// The import's speed, for `deno task bench`: τ-bench's published GPT-4o runs on the default τ-bench
// domain (the first registered that declares `tauBench`, today the airline) imported into a
// temporary results folder (replayed, graded, judged, stored, reported), or, without τ-bench's data,
// an ark experiment's own episodes written as chat transcripts and imported back. Private to cli/.
import { defaultTauBenchDomain } from "../envs/mod.ts";
import { chatTranscript, runImport } from "../interop/import/mod.ts";
import { resolveConfig } from "../eval/config.ts";
import { runExperiment } from "../eval/run.ts";
import { MemoryResults } from "../eval/store.ts";
import { hasTauBench, tauBenchFolder } from "../interop/tau_data.ts";

/** How fast an import is. */
export interface ImportBench {
  /** What was imported: τ-bench's GPT-4o runs, or transcripts of a generated experiment. */
  data: "tau-bench" | "generated";
  episodes: number;
  /** Seconds of the whole import: read, replay, grade, judge, store, records.jsonl and the reports. */
  import_s: number;
  import_episodes_per_s: number;
}

/** Imports 100 episodes into a temporary folder and times it. */
export async function benchImport(): Promise<ImportBench> {
  const dir = await Deno.makeTempDir({ prefix: "ark-bench-import-" });
  try {
    const domain = defaultTauBenchDomain()?.name;
    const runs = domain === undefined ? undefined : `${tauBenchFolder(domain)}/historical_gpt-4o_visible.json`;
    let file: string, from: "tau-bench" | "ark", data: ImportBench["data"];
    if (domain !== undefined && runs !== undefined && hasTauBench(domain) && exists(runs)) {
      [file, from, data] = [runs, "tau-bench", "tau-bench"];
    } else {
      const config = resolveConfig({
        agents: ["oracle", "reckless"],
        runs: 1,
        conditions: { fault: false, env: false, prompt: false },
      });
      const sink = new MemoryResults();
      await runExperiment(config, { sink });
      const lines = sink.records().map((r) =>
        JSON.stringify({ agent: r.agent, task: r.task, run: r.run, messages: chatTranscript(sink.events(r)) })
      );
      [file, from, data] = [`${dir}/runs.jsonl`, "ark", "generated"];
      await Deno.writeTextFile(file, lines.join("\n") + "\n");
    }
    const start = performance.now();
    const { summary } = await runImport({ from, file, out: `${dir}/out`, ...(from === "tau-bench" ? { domain } : {}) });
    const seconds = (performance.now() - start) / 1000;
    const episodes = summary.episodes.imported;
    return { data, episodes, import_s: seconds, import_episodes_per_s: episodes / seconds };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

function exists(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}
