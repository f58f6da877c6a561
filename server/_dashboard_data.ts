// What the dashboard reads of a results folder: its experiments (subfolders holding a results
// store), each one's progress against its plan, its headline per agent, and the rate of a running
// one from successive polls. Private to server/.
import { canonicalJson } from "../envs/mod.ts";
import { storedConfig } from "../eval/rejudge.ts";
import { type EpisodeRecord, experimentCells, ResultsStore, ResultsStoreError } from "../eval/mod.ts";
import { REPORT_FILES, summarize } from "../report/mod.ts";
import { compareText } from "../report/mod.ts";

/** The store file of an experiment folder. */
export const STORE_FILE = "results.sqlite";

/** One agent's headline figures. */
export interface Headline {
  agent: string;
  R: number | null;
  R_saf: number | null;
  accuracy: number | null;
}

/** What the dashboard shows of one experiment. */
export interface ExperimentView {
  /** The folder's name under the results folder. */
  name: string;
  /** The experiment's name and seed as its store keeps them. */
  experiment: string;
  seed: string;
  /** Episodes stored. */
  done: number;
  /** Episodes of the plan; `null` when the stored config no longer resolves to a plan. */
  total: number | null;
  agents: string[];
  headline: Headline[];
  /** Where the headline came from. */
  source: "report.json" | "records";
  /** Episodes that did not succeed, and those that failed by an error of the agent itself. */
  failures: number;
  agentErrors: number;
  /** Last change of the store's files, in ms since the epoch. */
  modified: number | null;
}

/** An experiment folder whose store cannot be read, and why. */
export interface BrokenExperiment {
  name: string;
  problem: string;
}

/** A name that cannot be a folder right under the results folder: empty, `.`, `..`, a path or absolute. */
export function unsafeName(name: string): boolean {
  return name === "" || name === "." || name === ".." || /[/\\\0]/.test(name) || /^[A-Za-z]:/.test(name);
}

/** The folder names under `results` that hold a results store, sorted; none when the folder is missing. */
export function experimentNames(results: string): string[] {
  const names: string[] = [];
  try {
    // Symbolic links are not followed: a listed folder is a real folder inside `results`.
    for (const entry of Deno.readDirSync(results)) {
      if (entry.isDirectory && !unsafeName(entry.name) && isFile(`${results}/${entry.name}/${STORE_FILE}`)) {
        names.push(entry.name);
      }
    }
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  return names.sort(compareText);
}

function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

function mtime(path: string): number | null {
  try {
    return Deno.statSync(path).mtime?.getTime() ?? null;
  } catch {
    return null;
  }
}

/** Reads the experiments of a results folder, sharing the plans worked out before. */
export class ResultsFolder {
  readonly results: string;
  // Plan sizes by stored config: working one out opens the experiment's worlds.
  readonly #totals = new Map<string, number | null>();

  constructor(results: string) {
    this.results = results;
  }

  /** The folder of an experiment when `name` is one of them; `null` otherwise. */
  dirOf(name: string): string | null {
    if (unsafeName(name) || !experimentNames(this.results).includes(name)) return null;
    return `${this.results}/${name}`;
  }

  /** Opens an experiment's store and runs `read` on it (closing it after); `null` when there is no such experiment. */
  with<T>(name: string, read: (store: ResultsStore, dir: string) => T): T | null {
    const dir = this.dirOf(name);
    if (dir === null) return null;
    using store = ResultsStore.read(`${dir}/${STORE_FILE}`);
    return read(store, dir);
  }

  /** Every experiment, readable or not. */
  list(): (ExperimentView | BrokenExperiment)[] {
    return experimentNames(this.results).map((name) => {
      try {
        return this.with(name, (store, dir) => this.view(name, store, dir)) ?? { name, problem: "gone" };
      } catch (err) {
        if (!(err instanceof ResultsStoreError)) throw err;
        return { name, problem: err.message };
      }
    });
  }

  /** What the dashboard shows of an open experiment. */
  view(name: string, store: ResultsStore, dir: string): ExperimentView {
    const { name: experiment, seed } = store.experiment();
    const records = store.records();
    const stored = store.config();
    const agents = Array.isArray(stored.agents) ? stored.agents.map(String) : [...new Set(records.map((r) => r.agent))];
    const fromReport = reportHeadline(dir, records.length);
    const modified = Math.max(mtime(`${dir}/${STORE_FILE}`) ?? 0, mtime(`${dir}/${STORE_FILE}-wal`) ?? 0);
    return {
      name,
      experiment,
      seed,
      done: records.length,
      total: this.total(store, dir, records.length),
      agents,
      headline: fromReport ?? recordsHeadline(records, agents),
      source: fromReport === null ? "records" : "report.json",
      failures: records.filter((r) => !r.success).length,
      agentErrors: records.filter((r) => r.agent_error !== undefined).length,
      modified: modified === 0 ? null : modified,
    };
  }

  // The plan's size, as `runExperiment()` lays it out: the tasks of the config's worlds, then the
  // cells. An imported experiment has no plan: its episodes are all there is.
  total(store: ResultsStore, dir: string, done: number): number | null {
    const key = canonicalJson(store.config());
    if (this.#totals.has(key)) return this.#totals.get(key)!;
    let total: number | null = null;
    try {
      const config = storedConfig(store, { out: dir });
      if (config.source !== undefined) return done;
      total = experimentCells(config).length;
    } catch (err) {
      // A config this version no longer resolves (another ark version, a domain gone): no plan to show.
      if (!(err instanceof ResultsStoreError || err instanceof RangeError || err instanceof TypeError)) throw err;
    }
    this.#totals.set(key, total);
    return total;
  }
}

// The headline of report.json when it was written from the records the store holds now.
function reportHeadline(dir: string, count: number): Headline[] | null {
  let report: { experiment?: { records?: number }; agents?: Record<string, { overall?: Record<string, unknown> }> };
  try {
    report = JSON.parse(Deno.readTextFileSync(`${dir}/${REPORT_FILES.json}`));
  } catch {
    return null;
  }
  if (report?.experiment?.records !== count || typeof report.agents !== "object" || report.agents === null) return null;
  const num = (x: unknown) => typeof x === "number" && Number.isFinite(x) ? x : null;
  return Object.entries(report.agents).map(([agent, a]) => ({
    agent,
    R: num(a.overall?.R),
    R_saf: num(a.overall?.R_saf),
    accuracy: num(a.overall?.accuracy),
  }));
}

function recordsHeadline(records: readonly EpisodeRecord[], agents: readonly string[]): Headline[] {
  const scored = records.filter((r) => r.user_error === undefined);
  if (scored.length === 0) return [];
  return summarize(scored, { agents }).map((s) => ({
    agent: s.agent,
    R: s.scores.R,
    R_saf: s.scores.R_saf,
    accuracy: Number.isFinite(s.accuracy) ? s.accuracy : null,
  }));
}

/** How far a running experiment has got, as `progress.json` gives it. */
export interface ProgressView {
  done: number;
  total: number | null;
  /** Episodes per second over the recent polls; `null` until two polls have been seen. */
  rate: number | null;
  /** Seconds left at that rate; `null` when unknown (no rate, no progress, no plan). */
  eta_s: number | null;
  /** Episodes that did not succeed so far. */
  failures: number;
  /** Episodes that failed by an error of the agent itself. */
  agent_errors: number;
  /** `"finished"` when every planned episode is stored. */
  state: "running" | "finished";
}

// How long polls are remembered for the rate.
const WINDOW_MS = 60_000;

/** The rate of each experiment from the counts seen at successive polls. */
export class RateMeter {
  readonly #samples = new Map<string, { t: number; done: number }[]>();

  /** Notes a count seen at time `t` (ms) and returns the progress with its rate and ETA. */
  progress(
    name: string,
    view: Pick<ExperimentView, "done" | "total" | "failures" | "agentErrors">,
    t: number,
  ): ProgressView {
    let samples = this.#samples.get(name) ?? [];
    // A count that went down is another run into the same folder: start again.
    if (samples.length > 0 && view.done < samples[samples.length - 1].done) samples = [];
    samples.push({ t, done: view.done });
    while (samples.length > 2 && t - samples[0].t > WINDOW_MS) samples.shift();
    this.#samples.set(name, samples);
    const first = samples[0], elapsed = (t - first.t) / 1000;
    const rate = elapsed > 0 ? (view.done - first.done) / elapsed : null;
    const finished = view.total !== null && view.done >= view.total;
    const left = view.total === null ? null : Math.max(0, view.total - view.done);
    const eta = finished ? 0 : left !== null && rate !== null && rate > 0 ? left / rate : null;
    return {
      done: view.done,
      total: view.total,
      rate,
      eta_s: eta,
      failures: view.failures,
      agent_errors: view.agentErrors,
      state: finished ? "finished" : "running",
    };
  }
}
