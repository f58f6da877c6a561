// An experiment's tasks drawn where a stop request can end the drawing: generating them is one long
// synchronous call into the domains (about a millisecond a task, an hour for a million), during
// which the thread that makes it runs no signal listener. Private to eval/.
import type { Task, WorldImage } from "../envs/mod.ts";
import type { ResolvedConfig } from "./config.ts";

/** What the tasks of an experiment depend on. */
export type TaskConfig =
  & Pick<ResolvedConfig, "domains" | "worldSeed" | "tasks" | "suite" | "scenarioPairs">
  & Partial<Pick<ResolvedConfig, "longTasks">>;

/**
 * The tasks of `experimentTasks()` over the config's worlds, drawn in a worker: `null` as soon as
 * `signal` aborts (the worker is ended mid-draw). The worlds it generates go to `onImages` before
 * the tasks are drawn (`World.adopt()` them to open them without generating them again). The tasks are plain data, so they come back
 * equal to those drawn in this thread, in the same order. An error of the drawing is thrown here.
 */
export function stoppableTasks(
  config: TaskConfig,
  signal: AbortSignal,
  onImages: (images: WorldImage[]) => void = () => {},
): Promise<Map<string, Task> | null> {
  if (signal.aborted) return Promise.resolve(null);
  const worker = new Worker(new URL("./_tasks_worker.ts", import.meta.url).href, { type: "module" });
  const { promise, resolve, reject } = Promise.withResolvers<Map<string, Task> | null>();
  const stop = () => resolve(null);
  signal.addEventListener("abort", stop, { once: true });
  worker.onmessage = (
    { data }: MessageEvent<{ tasks: Map<string, Task> } | { images: WorldImage[] } | { error: unknown }>,
  ) => "images" in data ? onImages(data.images) : "tasks" in data ? resolve(data.tasks) : reject(data.error);
  worker.onerror = (event) => {
    event.preventDefault();
    reject(new Error(`Cannot generate the tasks: ${event.message}`));
  };
  const { domains, worldSeed, tasks, suite, scenarioPairs, longTasks } = config;
  worker.postMessage({ domains, worldSeed, tasks, suite, scenarioPairs, longTasks });
  return promise.finally(() => {
    signal.removeEventListener("abort", stop);
    worker.terminate();
  });
}
