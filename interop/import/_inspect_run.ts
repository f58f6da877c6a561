// `runImport()` for inspect_ai logs: a FILE or every .json/.eval log in a DIR read, the episodes
// stored as they are (no world), and the results folder written. Private to interop/import; its
// errors are `InspectLogError`s that mod.ts turns into `ImportError`s.
import { resolveConfig, type ResolvedConfig } from "../../eval/config.ts";
import { createOutputFolder, InputFileError, MAX_WHOLE_BYTES, readInputBytes } from "../../eval/fs_errors.ts";
import { cellSeed } from "../../eval/plan.ts";
import type { EpisodeRecord } from "../../eval/records.ts";
import { ResultsStore } from "../../eval/store.ts";
import type { ImportSummary } from "../../report/imported.ts";
import { domains } from "../../envs/mod.ts";
import type { ImportWorld } from "../../eval/config.ts";
import { ExperimentWorlds } from "../../eval/worlds.ts";
import { type ImportedEpisode, importEpisodes } from "./episodes.ts";
import { importName, writeImport } from "./_write.ts";
import { type InspectFile, InspectLogError, type InspectRead, readInspectLogs } from "./inspect.ts";

/** What the inspect import is given (the fields of `RunImportOptions` it reads). */
export interface InspectRunOptions {
  file: string;
  domain?: string;
  worldSeed?: string;
  tasks?: number;
  out: string;
  agent?: string;
  seed?: string;
  scorer?: string;
  scoreKey?: string;
  onProgress?: (done: number, total: number) => void;
}

/** Imports a log file or a folder of logs into a results folder; `note` names the store's note. */
export async function runInspectImport(
  options: InspectRunOptions,
  note: string,
): Promise<{ summary: ImportSummary; config: ResolvedConfig; report: string }> {
  const files = await logFiles(options.file);
  const read = readInspectLogs(files, { scorer: options.scorer, key: options.scoreKey, agent: options.agent });
  const name = options.file.replace(/\/+$/, "").split("/").pop() || options.file;
  const sha256 = await digest(files);
  const seed = options.seed ?? "0";
  const config: ResolvedConfig = {
    ...resolveConfig({ seed, out: options.out }),
    agents: [...new Set(read.episodes.map((e) => e.record.agent))].sort(),
    experiment: importName(name, sha256, /\.(json|eval)$/),
    source: { from: "inspect", file: name, sha256, worlds: worldsOf(options) },
  };
  const unusable = await createOutputFolder(options.out, "--out");
  if (unusable !== null) throw new InspectLogError(unusable);
  using store = ResultsStore.open(`${options.out}/results.sqlite`, { config });
  const total = read.inspect.logs.reduce((n, l) => n + l.episodes, 0);
  const summary = options.domain === undefined
    ? transcriptsAlone(read, store, { name, seed, total, onProgress: options.onProgress })
    : await replayed(read, store, { ...options, domain: options.domain, name, seed, total }, config.source!.worlds);
  return await writeImport(store, options.out, { summary, config, seed, note });
}

function worldsOf(options: InspectRunOptions): ImportWorld[] {
  if (options.domain === undefined) return [];
  if (!(options.domain in domains)) {
    throw new InspectLogError(
      `Unknown domain "${options.domain}": expected one of ${Object.keys(domains).map((d) => `"${d}"`).join(", ")}`,
    );
  }
  return [{ generated: { domain: options.domain, worldSeed: options.worldSeed ?? "0", tasks: options.tasks ?? 50 } }];
}

// The transcripts stored as they are. A transcript alone has no milestones (no world, no gold):
// the record leaves them out, and scoring reads such records as it reads anyone's (the milestone
// figures null, with the reason).
function transcriptsAlone(
  read: InspectRead,
  store: ResultsStore,
  o: { name: string; seed: string; total: number; onProgress?: (done: number, total: number) => void },
): ImportSummary {
  let done = 0;
  for (const e of read.episodes) {
    const { agent, task, run } = e.record;
    const cell = { agent, task, run, condition: "nominal" as const, variant: null };
    store.add({ cell: { ...cell, seed: cellSeed(o.seed, cell) }, record: e.record as EpisodeRecord, events: e.events });
    o.onProgress?.(++done, read.episodes.length);
  }
  return {
    from: "inspect",
    file: o.name,
    episodes: { read: o.total, imported: read.episodes.length, skipped: o.total - read.episodes.length },
    skipped: read.skipped,
    tool_results: { compared: 0, exact: 0, equal: 0, share: null, differences: [], mismatches: [] },
    judge_policy: { name: "none", summary: "not judged: the judge needs an ark world's state" },
    inspect: read.inspect,
  };
}

// With --domain: sample i is task i of the domain's generated world, its tool calls replayed there
// as ark's transcripts are (graded, judged, each recorded result compared with ark's), and the
// scorer's value kept as the file's reward beside ark's grade.
async function replayed(
  read: InspectRead,
  store: ResultsStore,
  o: InspectRunOptions & { domain: string; name: string; seed: string; total: number },
  worlds: ImportWorld[],
): Promise<ImportSummary> {
  const episodes: ImportedEpisode[] = read.episodes.map((e) => {
    const r = e.record.resources ?? {};
    const resources = Object.fromEntries(
      (["cost", "time", "tokens", "api_calls"] as const).filter((k) => typeof r[k] === "number").map((k) => [k, r[k]]),
    );
    return {
      where: e.where,
      agent: e.record.agent,
      task: `${o.domain}/${e.sample}`,
      run: e.record.run,
      messages: e.messages,
      // A sample its error halted before scoring has no reward in the file: none is made up.
      ...(e.value !== null ? { tau_reward: e.value } : {}),
      confidence: e.record.confidence ?? null,
      resources,
    };
  });
  using opened = ExperimentWorlds.of(worlds);
  const s = await importEpisodes(episodes, opened, store, {
    seed: o.seed,
    from: "inspect",
    file: o.name,
    onProgress: o.onProgress,
  });
  return {
    ...s,
    episodes: { read: o.total, imported: s.episodes.imported, skipped: o.total - s.episodes.imported },
    skipped: [...read.skipped, ...s.skipped],
    inspect: {
      ...read.inspect,
      world: o.domain,
      taken: [
        "the scorer's value, as the file's reward (tau_reward), beside ark's grade (success)",
        "resources: tokens, cost, time and model calls, as without --domain",
      ],
      recomputed: [
        `every tool call replayed in the ${o.domain} world (task <sample id> of its generated world), its result ` +
        "compared with the recorded one",
        "success graded, milestones reached, and the safety judge, as for ark's own episodes",
        "consistency, pass^k and the other figures across epochs",
      ],
      null_figures: [
        { figure: "robustness", reason: "the episodes ran under no ark condition (fault, perturbation, paraphrase)" },
      ],
    },
  };
}

// The file, or every .json/.eval file of the folder in name order.
async function logFiles(path: string): Promise<InspectFile[]> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(path);
  } catch {
    throw new InspectLogError(
      `Cannot import "${path}": no such file or folder; expected an inspect_ai log or a folder of them`,
    );
  }
  const paths: string[] = [];
  if (info.isDirectory) {
    for await (const e of Deno.readDir(path)) {
      if (e.isFile && /\.(json|eval)$/.test(e.name)) paths.push(`${path.replace(/\/+$/, "")}/${e.name}`);
    }
    paths.sort();
    if (paths.length === 0) {
      throw new InspectLogError(`Cannot import "${path}": the folder holds no .json or .eval log`);
    }
  } else paths.push(path);
  const files: InspectFile[] = [];
  for (const p of paths) {
    try {
      files.push({
        name: p.split("/").pop()!,
        bytes: await readInputBytes(p, { what: "log to import", limit: MAX_WHOLE_BYTES }),
      });
    } catch (err) {
      if (!(err instanceof InputFileError)) throw err;
      throw new InspectLogError(`Cannot import "${p}": ${err.reason}`);
    }
  }
  return files;
}

async function digest(files: readonly InspectFile[]): Promise<string> {
  const hex = async (b: Uint8Array) =>
    [...new Uint8Array(await crypto.subtle.digest("SHA-256", b as Uint8Array<ArrayBuffer>))]
      .map((x) => x.toString(16).padStart(2, "0")).join("");
  if (files.length === 1) return await hex(files[0].bytes);
  const parts = await Promise.all(files.map(async (f) => `${f.name} ${await hex(f.bytes)}`));
  return await hex(new TextEncoder().encode(parts.join("\n")));
}
