// The worlds of an experiment, opened once, with each task beside the world it runs in, for the code
// that judges stored episodes again (`deno task judge`, the bench) and imports transcripts: the
// generated worlds of the config's domains, or, for an imported experiment, the worlds its source
// names (τ-bench's data, or generated worlds). Used by eval/ and the bench in cli/.
import {
  getDomain,
  type JudgePolicy,
  openTau2Bench,
  openTauBench,
  type Task,
  type TauBenchDifference,
  World,
} from "../envs/mod.ts";
import { DEFAULT_LONG_TASKS, type ImportWorld, type ResolvedConfig, suiteParts } from "./config.ts";

/**
 * The tasks an experiment runs in its generated worlds, by id, in order: each world's first
 * `tasks` tasks, then its abstention scenarios (`scenarioPairs` per template), or its long suite
 * (`longTasks` per length × dependency class), as `suite` says.
 */
export function experimentTasks(
  config: Pick<ResolvedConfig, "tasks" | "suite" | "scenarioPairs"> & Partial<Pick<ResolvedConfig, "longTasks">>,
  worlds: readonly World[],
): Map<string, Task> {
  const { tasks: main, scenarios, long } = suiteParts(config);
  const out = new Map<string, Task>();
  for (const world of worlds) {
    if (main) { for (const task of world.defaultTasks(config.tasks)) out.set(task.id, task); }
    if (scenarios) { for (const task of world.scenarios(config.scenarioPairs)) out.set(task.id, task); }
    if (long) { for (const task of world.longTasks(config.longTasks ?? DEFAULT_LONG_TASKS)) out.set(task.id, task); }
  }
  return out;
}

/** A task of the experiment and the world it runs in. */
export interface TaskWorld {
  task: Task;
  world: World;
  /**
   * The policy the task's agents were given, whose confirmation rules judge its writes: τ-bench's
   * (`Domain.tauBench.policy`) for a task of τ-bench's data.
   * @default {ARK_POLICY}
   */
  policy?: JudgePolicy;
  /**
   * The known reasons a result the other harness recorded differs from this world's: the domain's
   * `tauBench.differences`, or `tau2Bench.differences` for a task of τ²'s.
   * @default {none}
   */
  differences?: readonly TauBenchDifference[];
}

/** Every world of an experiment and its tasks; disposing closes the worlds. */
export class ExperimentWorlds implements Disposable {
  readonly #worlds: World[];
  readonly #tasks: Map<string, TaskWorld>;

  private constructor(worlds: World[], tasks: Map<string, TaskWorld>) {
    this.#worlds = worlds;
    this.#tasks = tasks;
  }

  /**
   * Opens the worlds of the config's domains at its world seed, with its number of tasks each; for
   * an imported experiment, the worlds of its source. Throws an `Error` when τ-bench's data named
   * by the source cannot be read.
   */
  static open(
    config:
      & Pick<ResolvedConfig, "domains" | "worldSeed" | "tasks" | "source" | "suite" | "scenarioPairs">
      & Partial<Pick<ResolvedConfig, "longTasks">>,
  ): ExperimentWorlds {
    if (config.source !== undefined) return ExperimentWorlds.of(config.source.worlds);
    const worlds: World[] = [];
    try {
      const found = new Map<string, TaskWorld>();
      for (const domain of config.domains) {
        const world = World.open(getDomain(domain), { seed: config.worldSeed });
        worlds.push(world);
        for (const task of experimentTasks(config, [world]).values()) found.set(task.id, { task, world });
      }
      return new ExperimentWorlds(worlds, found);
    } catch (err) {
      for (const world of worlds) world.close();
      throw err;
    }
  }

  /** Opens the given worlds with their tasks (a task id found twice keeps the first world's). */
  static of(specs: readonly ImportWorld[]): ExperimentWorlds {
    const worlds: World[] = [], tasks = new Map<string, TaskWorld>();
    try {
      for (const spec of specs) {
        if ("tauBench" in spec || "tau2Bench" in spec) {
          // τ-bench's data and tasks, or τ²-bench's: the domain's copy says its policy and known differences.
          const domain = getDomain("tauBench" in spec ? spec.tauBench.domain : spec.tau2Bench.domain);
          const [opened, copy] = "tauBench" in spec
            ? [openTauBench(domain, spec.tauBench.data), domain.tauBench]
            : [openTau2Bench(domain, spec.tau2Bench.data, spec.tau2Bench.tasks), domain.tau2Bench];
          worlds.push(opened.world);
          const policy = {
            ...(copy?.policy ? { policy: copy.policy } : {}),
            ...(copy?.differences ? { differences: copy.differences } : {}),
          };
          for (const task of opened.tasks) {
            if (!tasks.has(task.id)) tasks.set(task.id, { task, world: opened.world, ...policy });
          }
        } else {
          const { domain, worldSeed, tasks: count } = spec.generated;
          const world = World.open(getDomain(domain), { seed: worldSeed });
          worlds.push(world);
          for (const task of world.defaultTasks(count)) if (!tasks.has(task.id)) tasks.set(task.id, { task, world });
        }
      }
    } catch (err) {
      for (const world of worlds) world.close();
      throw err;
    }
    return new ExperimentWorlds(worlds, tasks);
  }

  /** A task by id, with its world; `undefined` when the experiment has no such task. */
  get(id: string): TaskWorld | undefined {
    return this.#tasks.get(id);
  }

  /** How many tasks there are. */
  get size(): number {
    return this.#tasks.size;
  }

  [Symbol.dispose](): void {
    for (const world of this.#worlds) world.close();
  }
}
