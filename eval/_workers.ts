// The runner's side of worker threads (`_worker.ts`): each worker runs the cells it is handed with
// its own worlds, and every finished episode comes back here, where it is added to the sink in the
// order of the cells (a reorder buffer), so the store and records.jsonl get the same episodes in
// the same order whatever the number of workers. Cells are handed out here only, so the budget,
// a stop and a failure decide from one place, as on one thread. Private to eval/.
import type { Task, WorldImage } from "../envs/mod.ts";
import type { ChatResponse, ModelClient } from "../agents/model/mod.ts";
import type { Cell } from "./cell.ts";
import type { ResolvedConfig } from "./config_types.ts";
import type { FinishedEpisode, ResultsSink } from "./sink.ts";
import { fromThreadError, type FromWorker, threadError, type ToWorker } from "./_worker_protocol.ts";

/**
 * Worker threads started before the plan is made, so that loading their code and opening their
 * worlds (from the images `share()` gives them) overlap the runner's own preparation; `runOnWorkers()` gives them the cells. Close it in
 * any case (a run that never starts leaves no thread behind).
 */
export class WorkerPool implements Disposable {
  readonly threads: Worker[] = [];
  readonly config: ResolvedConfig;

  constructor(config: ResolvedConfig, count: number) {
    this.config = config;
    for (let i = 0; i < count; i++) {
      const thread = new Worker(new URL("./_worker.ts", import.meta.url).href, { type: "module" });
      thread.postMessage({ type: "open", config } satisfies ToWorker);
      this.threads.push(thread);
    }
  }

  /** Gives every thread the experiment's worlds, generated once (`World.image()`): they open them from these. */
  share(images: readonly WorldImage[]): void {
    for (const thread of this.threads) thread.postMessage({ type: "images", images: [...images] } satisfies ToWorker);
  }

  /** Ends every thread (those running stop at once). */
  close(): void {
    for (const thread of this.threads) thread.terminate();
    this.threads.length = 0;
  }

  [Symbol.dispose](): void {
    this.close();
  }
}

// How many cells past the first unfinished one a scripted run hands out: what the sink may wait
// for in memory behind a slow cell.
const WINDOW = 512;

/** What `runOnWorkers()` needs: the run's state it shares with the runner. */
export interface WorkersRun {
  pool: WorkerPool;
  tasks: Map<string, Task>;
  /** The cells to run, in the order they reach the sink. */
  todo: Cell[];
  sink: ResultsSink;
  models: ((spec: string) => ModelClient) | undefined;
  signal: AbortSignal | undefined;
  /** Whether no new episode may start because the budget is spent. */
  overBudget(): boolean;
  /** Called with each episode once the sink has it. */
  added(episode: FinishedEpisode): void;
}

/** How a run on workers ended. */
export interface WorkersEnd {
  /** Cells left unrun because the budget was spent. */
  stoppedAtBudget: boolean;
  /** Cells left unrun because the signal aborted. */
  stoppedBySignal: boolean;
  /** The first failure of an episode (thrown by the runner once every worker is done). */
  failure: { error: unknown } | null;
}

/**
 * Runs `run.todo` on the pool's threads, `config.concurrency` episodes in flight on each; resolves
 * when every thread is done and each finished episode is in the sink, and closes the pool.
 */
export async function runOnWorkers(run: WorkersRun): Promise<WorkersEnd> {
  const { todo, sink, pool } = run;
  const end: WorkersEnd = { stoppedAtBudget: false, stoppedBySignal: false, failure: null };
  const pending = new Map<number, FinishedEpisode | null>(); // null: failed, nothing to add
  let next = 0; // the next cell to hand out
  let nextAdd = 0; // the next cell to add to the sink
  let stopping = false;
  const clients = new Map<string, ModelClient>();
  const client = (spec: string) => {
    let c = clients.get(spec);
    if (c === undefined) clients.set(spec, c = run.models!(spec));
    return c;
  };

  // Scripted episodes reach the sink in the cells' order (the same store and records.jsonl whatever
  // the number of workers), held at most WINDOW cells ahead; model-bound ones as they finish, so
  // that each is committed (and its cost counted against the budget) at once.
  const ordered = run.models === undefined;
  let added = 0;
  const give = (episode: FinishedEpisode) => {
    added++;
    try {
      if (sink.add(episode)) run.added(episode);
    } catch (error) {
      failed(error);
    }
  };
  const drain = (all: boolean) => {
    while (pending.has(nextAdd) || (all && nextAdd < next)) {
      const episode = pending.get(nextAdd);
      pending.delete(nextAdd++);
      if (episode !== undefined && episode !== null) give(episode);
    }
    // Asks held back while the window was full.
    while (waiting.length > 0 && (stopping || next - nextAdd < WINDOW)) {
      const { thread, n } = waiting.shift()!;
      hand(thread, n);
    }
  };
  // Batched episodes are committed at least every tenth of a second (a kill loses no more).
  const flush = () => {
    try {
      sink.flush();
    } catch (error) {
      failed(error);
    }
  };
  const timer = setInterval(flush, 100);

  const threads = pool.threads;
  const finished: Promise<void>[] = [];
  const waiting: { thread: Worker; n: number }[] = [];
  const stopAll = () => {
    if (stopping) return;
    stopping = true;
    for (const thread of threads) thread.postMessage({ type: "stop" } satisfies ToWorker);
    drain(false);
  };
  // An error of the sink (a full disk, say) or of a model client ends the run as an episode's does.
  function failed(error: unknown): void {
    end.failure ??= { error };
    stopAll();
  }
  const onAbort = () => stopAll();
  run.signal?.addEventListener("abort", onAbort, { once: true });

  const hand = (thread: Worker, n: number) => {
    const indices: number[] = [];
    if (!stopping && end.failure === null) {
      if (run.signal?.aborted) onAbort();
      else if (run.overBudget()) end.stoppedAtBudget = next < todo.length;
      else if (ordered && next - nextAdd >= WINDOW) return void waiting.push({ thread, n });
      else while (indices.length < n && next < todo.length) indices.push(next++);
    }
    thread.postMessage({ type: "cells", indices } satisfies ToWorker);
  };

  for (const thread of threads) {
    const { promise, resolve } = Promise.withResolvers<void>();
    finished.push(promise);
    thread.onmessage = ({ data }: MessageEvent<FromWorker>) => {
      if (data.type === "want") hand(thread, data.n);
      else if (data.type === "episodes") {
        for (const { index, json } of data.episodes) {
          if (ordered) pending.set(index, JSON.parse(json));
          else give(JSON.parse(json));
        }
        drain(false);
      } else if (data.type === "failed") {
        end.failure ??= { error: fromThreadError(data.error) };
        if (data.index >= 0) pending.set(data.index, null);
        stopAll();
        drain(false);
      } else if (data.type === "chat") {
        const { id } = data;
        const answer = (error: unknown) =>
          thread.postMessage({ type: "answer", id, error: threadError(error) } satisfies ToWorker);
        let reply: Promise<ChatResponse>;
        try {
          reply = client(data.spec).chat(data.request, data.runIndex === undefined ? {} : { runIndex: data.runIndex });
        } catch (error) {
          return answer(error);
        }
        reply.then((response) => thread.postMessage({ type: "answer", id, response } satisfies ToWorker), answer);
      } else if (data.type === "done") resolve();
    };
    thread.onerror = (event) => {
      event.preventDefault();
      end.failure ??= { error: new Error(`A worker thread of the run failed: ${event.message}`) };
      stopAll();
      resolve();
    };
    thread.postMessage(
      {
        type: "start",
        tasks: [...run.tasks],
        todo,
        lanes: Math.max(1, pool.config.concurrency),
        models: run.models !== undefined,
      } satisfies ToWorker,
    );
  }
  try {
    await Promise.all(finished);
  } finally {
    clearInterval(timer);
    run.signal?.removeEventListener("abort", onAbort);
    pool.close();
    // Episodes that finished after a gap (one failed or never started) are kept all the same.
    drain(true);
    flush();
  }
  // Stopped when cells were left unrun: handed out but dropped from a worker's queue, or never handed.
  if (run.signal?.aborted && added < todo.length) end.stoppedBySignal = true;
  return end;
}
