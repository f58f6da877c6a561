/**
 * Gold replay of τ-bench tasks: load τ-bench's data into a world, run each task's gold
 * actions through the tools, and export the final state in τ-bench's shape, so it can be
 * compared with τ-bench's own gold final states.
 *
 * @module
 */
import { Clock } from "../envs/clock.ts";
import { Rng } from "../envs/rng.ts";
import { callTool, ToolError } from "../envs/tool.ts";
import type { Json, Tool, ToolContext } from "../envs/types.ts";
import { airlineTools } from "../envs/airline/tools.ts";
import { exportTauAirline, loadTauAirline, openTauAirline, type TauAction, type TauTask } from "../envs/airline/tau.ts";

type Db = ToolContext["db"];

/** What the replay needs to know about a domain whose data come from τ-bench. */
export interface ReplayDomain {
  /** The simulated time every episode starts at. */
  now: string;
  tools: readonly Tool[];
  /** Reads τ-bench's data and test tasks from a folder; `open` makes a world holding the data. */
  load(dir: string): { tasks: TauTask[]; open(): Db };
  /** Exports the world's state in τ-bench's db.json shape. */
  read(db: Db): unknown;
}

/** The domains `deno task replay` accepts, by name. */
export const REPLAY_DOMAINS: Readonly<Record<string, ReplayDomain>> = {
  airline: {
    now: "2024-05-15T15:00:00",
    tools: airlineTools,
    load: (dir) => {
      const { data, tasks } = loadTauAirline(dir);
      return { tasks, open: () => openTauAirline(data) };
    },
    read: exportTauAirline,
  },
};

/** Options of `replayTau()`. */
export interface ReplayOptions {
  /**
   * Indices of the tasks to replay, in this order.
   * @default {every task, in file order}
   */
  tasks?: readonly number[];
}

/** One replayed task: its index in the task file and the final state. */
export interface ReplayedTask {
  task: number;
  state: unknown;
}

/**
 * Runs gold actions in order through the tools. Terminating tools are skipped, unknown
 * tool names change nothing (as in τ-bench), and a `ToolError` is an ordinary outcome.
 * Returns how many calls failed with a `ToolError`.
 */
export function replayActions(ctx: ToolContext, tools: readonly Tool[], actions: readonly TauAction[]): number {
  let failed = 0;
  for (const action of actions) {
    const tool = tools.find((t) => t.name === action.name);
    if (!tool || tool.terminates) continue;
    try {
      callTool(ctx, tool, action.kwargs);
    } catch (err) {
      if (!(err instanceof ToolError)) throw err;
      failed++;
    }
  }
  return failed;
}

/**
 * Replays every task of a τ-bench folder on one world, undoing each task's changes
 * (`begin`/`rollback`) before the next, and yields the final state of each.
 *
 * @example
 * ```ts ignore
 * import { replayTau } from "./replay.ts";
 * for (const { task, state } of replayTau("airline", "../shared/tau-bench/airline")) console.log(task, state);
 * ```
 */
export function replayTau(domainName: string, dir: string, options: ReplayOptions = {}): Generator<ReplayedTask> {
  const domain = Object.hasOwn(REPLAY_DOMAINS, domainName) ? REPLAY_DOMAINS[domainName] : undefined;
  if (!domain) {
    throw new TypeError(
      `Unknown domain "${domainName}": expected one of ${Object.keys(REPLAY_DOMAINS).map((d) => `"${d}"`).join(", ")}`,
    );
  }
  // Loaded eagerly, so that bad data fail before anything is written.
  const { tasks, open } = domain.load(dir);
  const indices = options.tasks ?? tasks.map((_, i) => i);
  const bad = indices.find((i) => !Number.isInteger(i) || i < 0 || i >= tasks.length);
  if (bad !== undefined) throw new RangeError(`No task ${bad} in "${dir}": expected 0 to ${tasks.length - 1}`);
  return replayLoaded(domain, open, indices.map((i) => [i, tasks[i]]));
}

function* replayLoaded(
  domain: ReplayDomain,
  open: () => Db,
  tasks: readonly [number, TauTask][],
): Generator<ReplayedTask> {
  using store = open();
  for (const [index, task] of tasks) {
    store.begin();
    try {
      replayActions({ db: store, clock: new Clock(domain.now), rng: new Rng(0) }, domain.tools, task.actions);
      yield { task: index, state: domain.read(store) };
    } finally {
      store.rollback();
    }
  }
}

/** Writes one JSON line `{"task": i, "state": ...}` per replayed task to a file; returns the count. */
export function writeReplay(replayed: Iterable<ReplayedTask>, out: string): number {
  const encoder = new TextEncoder();
  using file = Deno.openSync(out, { write: true, create: true, truncate: true });
  let count = 0;
  for (const { task, state } of replayed) {
    const line = encoder.encode(JSON.stringify({ task, state: state as Json }) + "\n");
    for (let written = 0; written < line.length;) written += file.writeSync(line.subarray(written));
    count++;
  }
  return count;
}
