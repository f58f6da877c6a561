// The worker that generates an experiment's tasks (`stoppableTasks()`), so the thread that runs the
// experiment keeps listening for a stop while a big plan's tasks are drawn. Private to eval/.
import { getDomain, World } from "../envs/mod.ts";
import { experimentTasks } from "./worlds.ts";
import type { TaskConfig } from "./_tasks.ts";

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<TaskConfig>) => void) | null;
  postMessage(message: unknown): void;
};

scope.onmessage = ({ data: config }) => {
  const worlds: World[] = [];
  try {
    for (const name of config.domains) worlds.push(World.open(getDomain(name), { seed: config.worldSeed }));
    // The runner's thread and its workers open the same worlds from these rather than generate them.
    const images = config.domains.map((name) => World.image(getDomain(name), { seed: config.worldSeed }));
    scope.postMessage({ images: World.shareable(images) });
    scope.postMessage({ tasks: experimentTasks(config, worlds) });
  } catch (error) {
    scope.postMessage({ error });
  } finally {
    for (const world of worlds) world.close();
  }
};
