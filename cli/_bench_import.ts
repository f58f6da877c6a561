// The import's speed, for `deno task bench`: τ-bench's published GPT-4o runs on the default τ-bench
// domain (the first registered that declares `tauBench`, today the airline) imported into a
// temporary results folder (replayed, graded, judged, stored, reported), or, without τ-bench's data,
// an ark experiment's own episodes written as chat transcripts and imported back; τ²-bench's results
// when its files are there; and an inspect_ai log made at bench time. Private to cli/.
import { zipSync } from "fflate";
import { defaultTauBenchDomain, tau2BenchDomains } from "../envs/mod.ts";
import { chatTranscript, runImport } from "../interop/import/mod.ts";
import { resolveConfig } from "../eval/config.ts";
import { runExperiment } from "../eval/run.ts";
import { MemoryResults } from "../eval/store.ts";
import { hasTauBench, tau2BenchRoot, tauBenchFolder } from "../interop/tau_data.ts";

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

/** The τ²-bench results files the bench imports, when their data are there: `<ARK_TAU2_BENCH>/<domain>/results*.json`. */
function tau2Files(): { domain: string; file: string }[] {
  const out: { domain: string; file: string }[] = [];
  for (const { name } of tau2BenchDomains()) {
    if (!hasTauBench(name)) continue;
    try {
      for (const e of Deno.readDirSync(`${tau2BenchRoot()}/${name}`)) {
        if (e.isFile && /^results.*\.json$/.test(e.name)) {
          out.push({ domain: name, file: `${tau2BenchRoot()}/${name}/${e.name}` });
        }
      }
    } catch {
      // No τ² folder of the domain.
    }
  }
  return out.sort((a, b) => a.file < b.file ? -1 : a.file > b.file ? 1 : 0);
}

/**
 * The τ²-bench import's speed: every τ² results file found (`tau2Files()`) imported into a temporary
 * folder; `null` when none is there with its domain's data.
 */
export async function benchImportTau2(): Promise<Omit<ImportBench, "data"> | null> {
  const files = tau2Files();
  if (files.length === 0) return null;
  const dir = await Deno.makeTempDir({ prefix: "ark-bench-import-tau2-" });
  try {
    let episodes = 0, seconds = 0;
    for (const [i, { file }] of files.entries()) {
      const start = performance.now();
      const { summary } = await runImport({ from: "tau2-bench", file, out: `${dir}/out${i}` });
      seconds += (performance.now() - start) / 1000;
      episodes += summary.episodes.imported;
    }
    return { episodes, import_s: seconds, import_episodes_per_s: episodes / seconds };
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

/** How fast an import of inspect_ai logs is. */
export interface InspectImportBench {
  /** Samples × epochs imported. */
  episodes: number;
  /** Seconds of the whole import: unzip, read, resolve, store, records.jsonl and the reports. */
  import_s: number;
  import_episodes_per_s: number;
}

/**
 * Imports an inspect_ai `.eval` log made here (200 samples × 10 epochs, two tool calls each, their
 * inputs pooled and one result an attachment) into a temporary folder and times it.
 */
export async function benchInspectImport(samples = 200, epochs = 10): Promise<InspectImportBench> {
  const dir = await Deno.makeTempDir({ prefix: "ark-bench-inspect-" });
  try {
    const enc = new TextEncoder();
    const header = {
      version: 2,
      status: "success",
      eval: { task: "bench", model: "bench/model", scorers: [{ name: "match" }], config: { epochs } },
    };
    const files: Record<string, Uint8Array> = { "header.json": enc.encode(JSON.stringify(header)) };
    for (let id = 1; id <= samples; id++) {
      for (let epoch = 1; epoch <= epochs; epoch++) {
        const messages = [
          { role: "system", content: "You are a helpful assistant." },
          { role: "user", content: `Question ${id}: what is ${id} + ${epoch}?` },
          {
            role: "assistant",
            content: "",
            tool_calls: [{ id: "a", function: "add", arguments: { x: id, y: epoch } }],
          },
          { role: "tool", tool_call_id: "a", function: "add", content: "attachment://r" },
          {
            role: "assistant",
            content: "",
            tool_calls: [{ id: "b", function: "check", arguments: { n: id + epoch } }],
          },
          { role: "tool", tool_call_id: "b", function: "check", content: "ok", error: null },
          { role: "assistant", content: `The answer is ${id + epoch}.` },
        ];
        const sample = {
          id,
          epoch,
          messages,
          scores: { match: { value: (id + epoch) % 3 === 0 ? "I" : "C" } },
          events: [{ event: "model", input: [], input_refs: [[0, 6]] }],
          events_data: { messages, calls: [] },
          model_usage: { "bench/model": { input_tokens: 120, output_tokens: 30, total_tokens: 150 } },
          attachments: { r: JSON.stringify({ sum: id + epoch }) },
        };
        files[`samples/${id}_epoch_${epoch}.json`] = enc.encode(JSON.stringify(sample));
      }
    }
    const file = `${dir}/bench.eval`;
    await Deno.writeFile(file, zipSync(files));
    const start = performance.now();
    const { summary } = await runImport({ from: "inspect", file, out: `${dir}/out` });
    const seconds = (performance.now() - start) / 1000;
    const episodes = summary.episodes.imported;
    return { episodes, import_s: seconds, import_episodes_per_s: episodes / seconds };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
