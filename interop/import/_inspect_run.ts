// `runImport()` for inspect_ai logs: a FILE or every .json/.eval log in a DIR read, the episodes
// stored as they are (no world), and the results folder written. Private to interop/import; its
// errors are `InspectLogError`s that mod.ts turns into `ImportError`s.
import { resolveConfig, type ResolvedConfig } from "../../eval/config.ts";
import { createOutputFolder, InputFileError, MAX_WHOLE_BYTES, readInputBytes } from "../../eval/fs_errors.ts";
import { cellSeed } from "../../eval/plan.ts";
import { type EpisodeRecord, writeRecordsJsonl } from "../../eval/records.ts";
import { ResultsStore } from "../../eval/store.ts";
import type { ImportSummary } from "../../report/imported.ts";
import { writeReports } from "../../report/mod.ts";
import { type InspectFile, InspectLogError, readInspectLogs } from "./inspect.ts";

/** What the inspect import is given (the fields of `RunImportOptions` it reads). */
export interface InspectRunOptions {
  file: string;
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
  const safe = (s: string) => s.replace(/[^A-Za-z0-9_.-]+/g, "_");
  const config: ResolvedConfig = {
    ...resolveConfig({ seed, out: options.out }),
    agents: [...new Set(read.episodes.map((e) => e.record.agent))].sort(),
    experiment: `import-${safe(name.replace(/\.(json|eval)$/, ""))}-${sha256.slice(0, 8)}`,
    source: { from: "inspect", file: name, sha256, worlds: [] },
  };
  const unusable = await createOutputFolder(options.out, "--out");
  if (unusable !== null) throw new InspectLogError(unusable);
  using store = ResultsStore.open(`${options.out}/results.sqlite`, { config });
  let done = 0;
  // A transcript alone has no milestones (no world, no gold): the record leaves them out, and
  // scoring reads such records as it reads anyone's (the milestone figures null, with the reason).
  for (const e of read.episodes) {
    const cell = {
      agent: e.record.agent,
      task: e.record.task,
      run: e.record.run,
      condition: "nominal" as const,
      variant: null,
    };
    store.add({ cell: { ...cell, seed: cellSeed(seed, cell) }, record: e.record as EpisodeRecord, events: e.events });
    options.onProgress?.(++done, read.episodes.length);
  }
  const total = read.inspect.logs.reduce((n, l) => n + l.episodes, 0);
  const summary: ImportSummary = {
    from: "inspect",
    file: name,
    episodes: { read: total, imported: read.episodes.length, skipped: total - read.episodes.length },
    skipped: read.skipped,
    tool_results: { compared: 0, exact: 0, equal: 0, share: null, differences: [], mismatches: [] },
    judge_policy: { name: "none", summary: "not judged: the judge needs an ark world's state" },
    inspect: read.inspect,
  };
  store.setNote(note, summary);
  await writeRecordsJsonl(store, `${options.out}/records.jsonl`);
  const report = await writeReports(options.out, {
    records: store.records(),
    store,
    seed,
    title: config.experiment,
    imported: summary,
  });
  return { summary, config, report };
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
