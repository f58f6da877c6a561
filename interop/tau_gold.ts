/**
 * Gold replay of τ-bench tasks: load τ-bench's data into a world, run each task's gold
 * actions through the tools, and export the final state in τ-bench's shape, so it can be
 * compared with τ-bench's own gold final states. Any domain that declares `tauBench` can be
 * replayed; this file knows none by name.
 *
 * @module
 */
import { type Domain, getDomain, type Json, type Task, tauBenchDomains, tauBenchTask, World } from "../envs/mod.ts";

/** Options of `goldFinalStates()`. */
export interface GoldOptions {
  /**
   * Indices of the tasks to replay, in this order.
   * @default {every task, in file order}
   */
  tasks?: readonly number[];
  /**
   * τ-bench's task split to replay.
   * @default {"test"}
   */
  split?: "test" | "train" | "dev";
}

/** One replayed task: its index in the task file and the final state. */
export interface GoldTask {
  /** The task's index in τ-bench's task file. */
  task: number;
  /** The final state after its gold actions, in τ-bench's `db.json` shape. */
  state: unknown;
}

/**
 * The names of the domains `deno task gold` accepts: those that declare `tauBench`, in
 * registry order.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { goldDomains } from "./tau_gold.ts";
 * assertEquals(goldDomains(), ["airline", "retail"]);
 * ```
 */
export function goldDomains(): string[] {
  return tauBenchDomains().map((d) => d.name);
}

/**
 * Replays every task of a τ-bench folder on one world, undoing each task's changes before the
 * next, and yields the final state of each in τ-bench's `db.json` shape (`tauBench.export`).
 * Each task's gold actions run in order with the task's own tool context (`World.taskContext()`),
 * as in its gold replay: terminating tools are skipped, unknown tool names change nothing (as in
 * τ-bench), and a `ToolError` is an ordinary outcome.
 *
 * @example
 * ```ts ignore
 * import { goldFinalStates } from "./tau_gold.ts";
 * for (const { task, state } of goldFinalStates("airline", "../shared/tau-bench/airline")) console.log(task, state);
 * ```
 */
export function goldFinalStates(domainName: string, dir: string, options: GoldOptions = {}): Generator<GoldTask> {
  const domain = getDomain(domainName, { among: goldDomains() });
  // Loaded eagerly, so that bad data fail before anything is written.
  const { data, tasks } = domain.tauBench!.load(dir, { split: options.split ?? "test" });
  const indices = options.tasks ?? tasks.map((_, i) => i);
  const bad = indices.find((i) => !Number.isInteger(i) || i < 0 || i >= tasks.length);
  if (bad !== undefined) throw new RangeError(`No task ${bad} in "${dir}": expected 0 to ${tasks.length - 1}`);
  return replayLoaded(domain, data, indices.map((i) => [i, tauBenchTask(tasks[i], domain)]));
}

function* replayLoaded(domain: Domain, data: unknown, tasks: readonly [number, Task][]): Generator<GoldTask> {
  using world = World.fromData(domain, data);
  for (const [index, task] of tasks) {
    using _episode = world.beginEpisode();
    const ctx = world.taskContext(task);
    for (const call of task.gold) {
      const tool = world.tool(call.name);
      if (tool !== undefined && !tool.terminates) world.call(ctx, call.name, call.args);
    }
    yield { task: index, state: domain.tauBench!.export(world.store) };
  }
}

/** Writes one JSON line `{"task": i, "state": ...}` per replayed task to a file; returns the count. */
export function writeGoldStates(replayed: Iterable<GoldTask>, out: string): number {
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
