// The messages between the experiment runner and its worker threads (`_workers.ts` on the runner's
// side, `_worker.ts` on the worker's). Everything is plain data: a worker rebuilds what holds
// functions (the conditions' setups, the agents) from the config itself. Private to eval/.
import type { Task, WorldImage } from "../envs/mod.ts";
import type { ChatRequest, ChatResponse } from "../agents/model/mod.ts";
import { ModelError, type ModelErrorCode } from "../agents/model/mod.ts";
import type { Cell } from "./cell.ts";
import type { ResolvedConfig } from "./config_types.ts";

/** An error as it crosses a thread: a model error keeps its code, any other its name and stack. */
export interface ThreadError {
  name: string;
  message: string;
  code?: ModelErrorCode;
  stack?: string;
}

/** What the runner tells a worker. */
export type ToWorker =
  /** Once, first: the experiment, whose worlds the worker opens while the runner makes the plan. */
  | { type: "open"; config: ResolvedConfig }
  /** Once, before `start`: the experiment's worlds, generated once (`World.image()`), to open. */
  | { type: "images"; images: WorldImage[] }
  /** Once, next: its tasks, the cells to run (by index below), the lanes, and whether models answer. */
  | { type: "start"; tasks: [string, Task][]; todo: Cell[]; lanes: number; models: boolean }
  /** Cells to run, by index in `todo`; none: there will be no more. */
  | { type: "cells"; indices: number[] }
  /** Start no new cell (those running finish). */
  | { type: "stop" }
  /** The answer to a model call the worker made. */
  | { type: "answer"; id: number; response: ChatResponse }
  | { type: "answer"; id: number; error: ThreadError };

/** What a worker tells the runner. */
export type FromWorker =
  /** Ready for `n` more cells. */
  | { type: "want"; n: number }
  /**
   * Cells' episodes finished, each as JSON (what the results store keeps of it anyway: posting a
   * string costs a fraction of cloning a trajectory's objects), a few at a time (each message
   * wakes the runner's thread).
   */
  | { type: "episodes"; episodes: { index: number; json: string }[] }
  /** A cell's episode failed: the run stops once those in flight finish. */
  | { type: "failed"; index: number; error: ThreadError }
  /** A model call, for the runner's clients (their cache, budget and rate limits are the run's). */
  | { type: "chat"; id: number; spec: string; request: ChatRequest; runIndex?: number }
  /** Every cell given is done (or the worker stopped): the worker may be ended. */
  | { type: "done" };

/** An error made plain for `postMessage()`. */
export function threadError(error: unknown): ThreadError {
  if (error instanceof ModelError) return { name: error.name, message: error.message, code: error.code };
  if (error instanceof Error) return { name: error.name, message: error.message, stack: error.stack };
  return { name: "Error", message: String(error) };
}

/** The error a `ThreadError` stands for: a `ModelError` again when it was one. */
export function fromThreadError(error: ThreadError): Error {
  if (error.code !== undefined) return new ModelError(error.code, error.message);
  const out = error.name === "TypeError"
    ? new TypeError(error.message)
    : error.name === "RangeError"
    ? new RangeError(error.message)
    : new Error(error.message);
  if (error.stack !== undefined) out.stack = error.stack;
  return out;
}
