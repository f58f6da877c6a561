// The worlds of an experiment's domains, opened once, with each default task beside the world it
// runs in, for the code that judges stored episodes again (`deno task judge`, the bench). Private
// to eval/.
import { getDomain, type Task, World } from "../envs/mod.ts";
import type { ResolvedConfig } from "./plan.ts";

/** A task of the experiment and the world it runs in. */
export interface TaskWorld {
  task: Task;
  world: World;
}

/** Every domain's world of an experiment and its default tasks; disposing closes the worlds. */
export class ExperimentWorlds implements Disposable {
  readonly #worlds: World[];
  readonly #tasks: Map<string, TaskWorld>;

  private constructor(worlds: World[], tasks: Map<string, TaskWorld>) {
    this.#worlds = worlds;
    this.#tasks = tasks;
  }

  /** Opens the worlds of the config's domains at its world seed, with its number of tasks each. */
  static open(config: Pick<ResolvedConfig, "domains" | "worldSeed" | "tasks">): ExperimentWorlds {
    const worlds: World[] = [], tasks = new Map<string, TaskWorld>();
    for (const name of config.domains) {
      const world = World.open(getDomain(name), { seed: config.worldSeed });
      worlds.push(world);
      for (const task of world.defaultTasks(config.tasks)) tasks.set(task.id, { task, world });
    }
    return new ExperimentWorlds(worlds, tasks);
  }

  /** A task by id, with its world; `undefined` when the experiment has no such task. */
  get(id: string): TaskWorld | undefined {
    return this.#tasks.get(id);
  }

  [Symbol.dispose](): void {
    for (const world of this.#worlds) world.close();
  }
}
