/**
 * `deno task import`'s library: another harness's transcripts (τ-bench's results array, τ²-bench's results, or ark's
 * transcript JSON Lines) replayed tool call by tool call in ark's worlds, graded, judged and written as
 * a normal results folder (`results.sqlite`, `records.jsonl`, `report.json`, `report.html`), so
 * `score`, `report`, `compare` and `judge` work on it unchanged. inspect_ai's logs (`inspect.ts`) are
 * imported as transcripts alone (an inspect task is no ark world), or replayed in a named domain's world.
 *
 * @module
 */
import { resolve } from "node:path";
import type { ModelClient } from "../../agents/model/mod.ts";
import { defaultTauBenchDomain, domains, parseTaskId } from "../../envs/mod.ts";
import { type ImportSource, type ImportWorld, resolveConfig, type ResolvedConfig } from "../../eval/config.ts";
import { importName, writeImport } from "./_write.ts";
import { ResultsStore } from "../../eval/store.ts";
import { ExperimentWorlds } from "../../eval/worlds.ts";
import { tauBenchFolder } from "../tau_data.ts";
import { readArkTranscripts } from "./ark_jsonl.ts";
import { type ImportedEpisode, importEpisodes, type ImportSummary } from "./episodes.ts";
import { readTauBenchResults, ResultsFileError } from "./tau_bench.ts";
import { runInspectImport } from "./_inspect_run.ts";
import { InspectLogError } from "./inspect.ts";

export {
  type CallCheck,
  type ChatMessage,
  chatMessages,
  chatTranscript,
  replayChat,
  type ReplayedChat,
  TranscriptError,
} from "./chat.ts";
export {
  firstDifference,
  type ImportedEpisode,
  importEpisodes,
  type ImportOptions,
  type ImportSummary,
  type ResultMismatch,
  type RewardCheck,
  type RewardRecomputation,
  type ToolFidelity,
} from "./episodes.ts";
import { createOutputFolder, InputFileError, MAX_WHOLE_BYTES, readInputBytes } from "../../eval/fs_errors.ts";
export { readTauBenchResults, ResultsFileError } from "./tau_bench.ts";
export { readArkTranscripts } from "./ark_jsonl.ts";
export { readTau2BenchResults, type Tau2Read } from "./tau2_bench.ts";
import { readTau2BenchResults, type Tau2Read } from "./tau2_bench.ts";
import { readTau2Input, tau2Domain, type Tau2Input } from "./_tau2_input.ts";
export type { InspectImport, InspectLogImport } from "../../report/imported.ts";
export {
  INSPECT_SUCCESS_RULE,
  type InspectFile,
  InspectLogError,
  type InspectRead,
  inspectTaskId,
  readInspectLogs,
} from "./inspect.ts";

/** The note of a results store that holds an import's summary. */
export const IMPORT_NOTE = "import";

/** What `runImport()` imports. */
export interface RunImportOptions {
  /** The file's format. */
  from: "tau-bench" | "tau2-bench" | "ark" | "inspect";
  /** The file to read (for inspect_ai logs, a log or a folder of them). */
  file: string;
  /** The results folder to write. */
  out: string;
  /**
   * The domain of a τ-bench results file.
   * @default {the first registered domain that declares `tauBench` (`defaultTauBenchDomain()`: "airline")}
   */
  domain?: string;
  /**
   * The folder of τ-bench's data of the domain (`db.json`, `tasks_test.json`); for an ark file, of
   * the one τ-bench domain its tasks name.
   * @default {`ARK_TAU_BENCH/<domain>`, else `../shared/tau-bench/<domain>` beside the repository}
   */
  data?: string;
  /**
   * The agent's name for a τ-bench file.
   * @default {the file's base name without its extension}
   */
  agent?: string;
  /**
   * The experiment seed (the bootstrap's).
   * @default {"0"}
   */
  seed?: string;
  /**
   * The world seed of ark's generated worlds, for an ark file's `<domain>/<i>` tasks.
   * @default {"0"}
   */
  worldSeed?: string;
  /**
   * How many tasks of each generated world an ark file's `<domain>/<i>` tasks are among (i < tasks).
   * @default {50, as `deno task eval`}
   */
  tasks?: number;
  /**
   * τ²-bench's `tasks.json` whose tasks a τ² file's simulations ran, instead of the file's own `tasks`.
   * @default {the results file's tasks}
   */
  taskFile?: string;
  /**
   * A model that judges a τ²-bench file's NL_ASSERTION component again (each task's assertions
   * against the conversation), instead of taking it from the file.
   * @default {none: taken from the file}
   */
  nlJudge?: ModelClient;
  /**
   * For inspect_ai logs: the scorer whose values say success.
   * @default {each log's first scorer}
   */
  scorer?: string;
  /**
   * For inspect_ai logs: the key read from a scorer's object values.
   * @default {none: a sample whose value is an object is skipped}
   */
  scoreKey?: string;
  /** Called after each episode with how many are done. */
  onProgress?: (done: number, total: number) => void;
}

/** A file, data folder or results folder the import cannot use; the message is one line. */
export class ImportError extends Error {
  /** Makes the error with a one-line message. */
  constructor(message: string) {
    super(message);
    this.name = "ImportError";
  }
}

/** What `runImport()` did: the summary, the experiment's config and the terminal report. */
export interface ImportResult {
  /** What the import did (also kept in the results store's note). */
  summary: ImportSummary;
  /** The imported experiment's config (its identity in the results store). */
  config: ResolvedConfig;
  /** The terminal text of the report. */
  report: string;
}

/**
 * Imports a file into a results folder (see the module doc). Episodes already in the folder's store
 * (the same file imported before) are kept as they are. Throws an `ImportError` when the file, the
 * data or the folder cannot be used; an episode that cannot be read or replayed is skipped and named
 * in the summary.
 *
 * @example
 * ```ts ignore
 * import { runImport } from "./mod.ts";
 * const { summary } = await runImport({ from: "tau-bench", file: "gpt-4o-airline.json", out: "results/gpt-4o" });
 * summary.tool_results.share; // 0.995
 * ```
 */
export async function runImport(options: RunImportOptions): Promise<ImportResult> {
  if (options.from === "inspect") {
    try {
      return await runInspectImport(options, IMPORT_NOTE);
    } catch (err) {
      if (err instanceof InspectLogError) throw new ImportError(err.message);
      throw err;
    }
  }
  const file = baseName(options.file);
  let bytes: Uint8Array, text: string, tau2: Tau2Input | undefined;
  if (options.from === "tau2-bench") {
    tau2 = await readTau2Input(options.file, (m) => new ImportError(m));
    ({ bytes, text } = tau2);
  } else {
    try {
      bytes = await readInputBytes(options.file, { what: "file to import", limit: MAX_WHOLE_BYTES });
    } catch (err) {
      if (!(err instanceof InputFileError)) throw err;
      throw new ImportError(`Cannot import "${options.file}": ${err.reason}`);
    }
    text = new TextDecoder().decode(bytes);
  }
  let read: { episodes: ImportedEpisode[]; unreadable: { where: string; reason: string }[] };
  let worlds: ImportWorld[];
  if (tau2 !== undefined) {
    ({ read, worlds } = await tau2Episodes(tau2, options, file));
  } else if (options.from === "tau-bench") {
    const domain = options.domain ?? defaultTauBenchDomain()?.name ?? "";
    checkTauDomain(domain);
    const agent = options.agent ?? file.replace(/\.[^.]*$/, "");
    try {
      read = readTauBenchResults(text, { domain, agent, file });
    } catch (err) {
      if (err instanceof ResultsFileError) throw new ImportError(err.message);
      throw err;
    }
    checkToolsOf(read.episodes, domain, options.file);
    worlds = [{ tauBench: { domain, data: absolute(options.data ?? tauBenchFolder(domain)) } }];
  } else {
    read = readArkTranscripts(text);
    ({ worlds, read } = arkWorlds(read, options));
  }
  const source: ImportSource = { from: options.from, file, sha256: await sha256(bytes), worlds };
  const agents = [...new Set(read.episodes.map((e) => e.agent))].sort();
  const seed = options.seed ?? "0";
  const config: ResolvedConfig = {
    ...resolveConfig({ seed, out: options.out }),
    agents,
    experiment: importName(file, source.sha256),
    source,
  };
  let opened: ExperimentWorlds;
  try {
    opened = ExperimentWorlds.of(worlds);
  } catch (err) {
    throw new ImportError(
      `${(err as Error).message} (point --data or ARK_TAU_BENCH at τ-bench's data${
        options.from === "tau2-bench" ? ", or --data at τ²-bench's domain folder" : ""
      })`,
    );
  }
  using experimentWorlds = opened;
  const unusable = await createOutputFolder(options.out, "--out");
  if (unusable !== null) throw new ImportError(unusable);
  using store = ResultsStore.open(`${options.out}/results.sqlite`, { config });
  const summary = await importEpisodes(read.episodes, experimentWorlds, store, {
    seed,
    from: options.from,
    file,
    unreadable: read.unreadable,
    onProgress: options.onProgress,
  });
  return await writeImport(store, options.out, { summary, config, seed, note: IMPORT_NOTE });
}

function checkTauDomain(domain: string): void {
  const known = Object.values(domains).filter((d) => d.tauBench !== undefined).map((d) => d.name);
  if (!known.includes(domain)) {
    throw new ImportError(
      `Invalid domain "${domain}" for a τ-bench file: expected one of ${known.join(", ")} (the domains τ-bench has)`,
    );
  }
}

// A τ-bench (or τ²-bench) file of another domain's runs: its episodes call tools the domain lacks
// that another such domain has, every one of them; a τ² file's tools include each domain's τ² copy's.
// (A few calls of tools no domain has are an agent's mistakes: those episodes are skipped one by one.)
function checkToolsOf(episodes: readonly ImportedEpisode[], domain: string, file: string, source = "τ-bench"): void {
  const called = new Set(
    episodes.flatMap((e) => e.messages.flatMap((m) => m.tool_calls ?? []).map((c) => c.function.name)),
  );
  const tau2 = source === "τ²-bench";
  const has = (name: string) =>
    new Set([...domains[name].tools, ...(tau2 ? domains[name].tau2Bench?.tools ?? [] : [])].map((t) => t.name));
  const own = has(domain), missing = [...called].filter((t) => !own.has(t)).sort();
  if (missing.length === 0) return;
  const fits = Object.values(domains)
    .filter((d) => (tau2 ? d.tau2Bench : d.tauBench) !== undefined && d.name !== domain)
    .find((d) => [...called].every((t) => has(d.name).has(t)));
  if (fits === undefined) return;
  throw new ImportError(
    `Cannot import "${file}" as ${source}'s ${domain} runs: its episodes call tools the ${domain} world does not ` +
      `have (${missing.slice(0, 4).join(", ")}${missing.length > 4 ? ", ..." : ""}), all ${fits.name}'s; ` +
      `pass --domain ${fits.name}`,
  );
}

// The worlds an ark file's tasks name: τ-bench's data for `tau-bench:<domain>/<i>`, the generated
// world for `<domain>/<i>` (with enough tasks). Episodes of an unknown domain become unreadable.
function arkWorlds(
  read: { episodes: ImportedEpisode[]; unreadable: { where: string; reason: string }[] },
  options: RunImportOptions,
): { worlds: ImportWorld[]; read: typeof read } {
  const tau = new Set<string>(), generated = new Set<string>();
  const episodes: ImportedEpisode[] = [], unreadable = [...read.unreadable];
  for (const e of read.episodes) {
    const id = parseTaskId(e.task)!;
    if (id.source !== undefined && id.source !== "tau-bench") {
      unreadable.push({
        where: e.where,
        reason: `task "${e.task}": unknown source "${id.source}" (expected "tau-bench")`,
      });
      continue;
    }
    const name = id.domain, fromTau = id.source !== undefined;
    const domain = domains[name];
    if (domain === undefined || (fromTau && domain.tauBench === undefined)) {
      const known = !fromTau
        ? Object.keys(domains)
        : Object.values(domains).filter((d) => d.tauBench !== undefined).map((d) => d.name);
      unreadable.push({
        where: e.where,
        reason: `task "${e.task}": no such domain (expected one of ${known.join(", ")})`,
      });
      continue;
    }
    if (fromTau) tau.add(name);
    else generated.add(name);
    episodes.push(e);
  }
  if (options.data !== undefined && tau.size > 1) {
    throw new ImportError(
      `Cannot use --data with "${options.file}": its tasks name τ-bench's ${[...tau].join(" and ")} data; ` +
        `set ARK_TAU_BENCH to the folder holding both instead`,
    );
  }
  const worlds: ImportWorld[] = [
    ...[...tau].sort().map((domain) => ({
      tauBench: { domain, data: absolute(options.data ?? tauBenchFolder(domain)) },
    })),
    ...[...generated].sort().map((domain) => ({
      generated: { domain, worldSeed: options.worldSeed ?? "0", tasks: options.tasks ?? 50 },
    })),
  ];
  return { worlds, read: { episodes, unreadable } };
}

// A τ² file's episodes and its world: the domain the file names (or --domain) on the data given.
async function tau2Episodes(
  input: Tau2Input,
  options: RunImportOptions,
  file: string,
): Promise<{ read: Tau2Read; worlds: ImportWorld[] }> {
  let tasksText: string | undefined;
  if (options.taskFile !== undefined) {
    try {
      tasksText = await Deno.readTextFile(options.taskFile);
    } catch (err) {
      throw new ImportError(`Cannot read the task file "${options.taskFile}": ${(err as Error).message}`);
    }
  }
  let read: Tau2Read;
  try {
    read = readTau2BenchResults(input.text, {
      agent: options.agent ?? file.replace(/\.[^.]*$/, ""),
      file,
      ...(options.domain !== undefined ? { domain: options.domain } : {}),
      ...(input.simulations !== undefined ? { simulations: input.simulations } : {}),
      ...(tasksText !== undefined ? { tasksText, taskFile: options.taskFile! } : {}),
      ...(options.nlJudge !== undefined ? { nlJudge: options.nlJudge } : {}),
    });
  } catch (err) {
    if (err instanceof ResultsFileError) throw new ImportError(err.message);
    throw err;
  }
  const domain = tau2Domain(read.domain, options.file, options.domain !== undefined);
  if (typeof domain === "string") throw new ImportError(domain);
  checkToolsOf(read.episodes, domain.name, options.file, "τ²-bench");
  const data = absolute(options.data ?? tauBenchFolder(domain.name));
  return { read, worlds: [{ tau2Bench: { domain: domain.name, data, tasks: read.tasks } }] };
}

async function sha256(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function baseName(path: string): string {
  return path.replace(/\/+$/, "").split("/").pop() || path;
}

function absolute(path: string): string {
  return resolve(path);
}
