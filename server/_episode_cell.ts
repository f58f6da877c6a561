// The cell a remote episode is of, as `deno task eval` would plan it: the experiment config its
// request names, the task of the world it asks for, and the condition, variant and run it runs under;
// each refusal an `EpisodeError` ("invalid") naming what the world or the config does not have.
import { getDomain, LONG_SOURCE, parseTaskId, SCENARIO_SOURCE, type Task, type World } from "../envs/mod.ts";
import { type Cell, cellSeed, conditionVariants } from "../eval/plan.ts";
import { DEFAULT_LONG_TASKS, type ExperimentConfig, resolveConfig, type ResolvedConfig } from "../eval/config.ts";
import { EpisodeError, type EpisodeRequest } from "./_requests.ts";

/** The experiment config of a checked request (`EpisodeRequestSchema`): the domain must be registered. */
export function configOf(
  request: EpisodeRequest,
  options: { worldSeed?: string; config?: Partial<ExperimentConfig> },
): ResolvedConfig {
  try {
    // The request schema makes it a string; a caller of RemoteEpisode.open() may not have, and a
    // non-string (`["airline"]`) names no domain even where its text would.
    getDomain(typeof request.domain === "string" ? request.domain : JSON.stringify(request.domain));
  } catch (err) {
    throw new EpisodeError("invalid", (err as Error).message);
  }
  return resolveConfig({
    ...options.config,
    domains: [request.domain],
    seed: request.seed ?? "0",
    ...(options.worldSeed === undefined ? {} : { worldSeed: options.worldSeed }),
  } as ExperimentConfig);
}

/** The task the request names, of the world and as many as the config serves. */
export function findTask(world: World, request: EpisodeRequest, config: ResolvedConfig): Task {
  const id = parseTaskId(request.task);
  const bad = () =>
    new EpisodeError(
      "invalid",
      `Unknown task ${JSON.stringify(request.task)}: expected "${request.domain}/<index>", ` +
        `"${SCENARIO_SOURCE}:${request.domain}/<n>" or "${LONG_SOURCE}:${request.domain}/<n>" of a task, ` +
        `scenario or long-suite task the world has`,
    );
  if (id === null || id.domain !== request.domain) throw bad();
  if (id.source === undefined) {
    // Refused before any task is made: making them is what takes the time (seconds per thousand).
    if (id.index >= config.tasks) {
      throw new EpisodeError(
        "invalid",
        `Unknown task ${JSON.stringify(request.task)}: this server serves "${request.domain}/0" to ` +
          `"${request.domain}/${config.tasks - 1}" (its ${config.tasks} tasks per domain), and its scenarios ` +
          `"${SCENARIO_SOURCE}:${request.domain}/<n>" and long-suite tasks "${LONG_SOURCE}:${request.domain}/<n>"`,
      );
    }
    return world.defaultTasks(id.index + 1)[id.index] ?? (() => {
      throw bad();
    })();
  }
  const from = id.source === SCENARIO_SOURCE
    ? world.scenarios(config.scenarioPairs)
    : id.source === LONG_SOURCE
    ? world.longTasks(config.longTasks ?? DEFAULT_LONG_TASKS)
    : [];
  return from.find((t) => t.id === request.task) ?? (() => {
    throw bad();
  })();
}

/** The cell the request is of: its condition and variant as the plan runs them for the task. */
export function cellOf(config: ResolvedConfig, request: EpisodeRequest, task: Task): Cell {
  const condition = request.condition ?? "nominal";
  // As the plan runs it (`planCells()`): an abstention scenario and a long-suite task run nominal only.
  const long = parseTaskId(task.id)?.source === LONG_SOURCE;
  if ((task.scenario !== undefined || long) && condition !== "nominal") {
    throw new EpisodeError(
      "invalid",
      `Invalid condition ${JSON.stringify(condition)} for ${
        long ? "long-suite task" : "abstention scenario"
      } ${task.id}: expected "nominal"`,
    );
  }
  const variants = conditionVariants(config, condition).map(([v]) => v);
  const variant = request.variant === undefined ? variants[0] ?? null : request.variant;
  if (!variants.includes(variant)) {
    throw new EpisodeError(
      "invalid",
      `Unknown variant ${JSON.stringify(variant)} of ${condition}: expected ${
        variants.map((v) => JSON.stringify(v)).join(", ")
      }`,
    );
  }
  const run = request.run ?? 0;
  const key = { agent: request.agent ?? "remote", task: task.id, run, condition, variant };
  return { ...key, seed: cellSeed(config.seed, key) };
}
