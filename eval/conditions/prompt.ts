/**
 * The `prompt` condition: the user opens with a paraphrase of the request. Variant `jk`
 * (k = 1..J) opens with the task's opening k; a task with fewer paraphrases cycles through the
 * ones it has (opening 0 is the nominal one, used only when there is no other). The J
 * paraphrases may instead be written by a language model (`paraphrasedTask()`): `promptDefinition`
 * asks it once per experiment for each task that still has a prompt cell to run.
 *
 * @module
 */
import type { Task } from "../../envs/mod.ts";
import { generateParaphrases } from "../../agents/mod.ts";
import { type ModelClient, ModelError } from "../../agents/model/mod.ts";
import { paraphraseModel } from "../config.ts";
import { type ConditionDefinition, unchangedSetup } from "./condition.ts";

/**
 * The variant names of J paraphrases: `j1` … `jJ`.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { promptVariants } from "./prompt.ts";
 * assertEquals(promptVariants(3), ["j1", "j2", "j3"]);
 * ```
 */
export function promptVariants(count: number): string[] {
  if (!(Number.isInteger(count) && count > 0)) {
    throw new RangeError(`Invalid paraphrase count ${count}: expected a whole number of at least 1`);
  }
  return Array.from({ length: count }, (_, i) => `j${i + 1}`);
}

/**
 * The index of the opening a prompt variant `jk` uses: k, cycling over openings 1.. when the
 * task has fewer, and 0 when it has only the nominal one.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { openingOf } from "./prompt.ts";
 * const task = { id: "t/1", openings: ["hi", "hello", "hey"] };
 * assertEquals(["j1", "j2", "j3", "j4"].map((v) => openingOf(task, v)), [1, 2, 1, 2]);
 * ```
 */
export function openingOf(task: Pick<Task, "id" | "openings">, variant: string): number {
  const m = /^j([1-9]\d*)$/.exec(variant);
  if (m === null) throw new RangeError(`Unknown prompt variant "${variant}": expected "j1", "j2", …`);
  const others = task.openings.length - 1;
  if (others < 1) return 0;
  return 1 + (Number(m[1]) - 1) % others;
}

/**
 * The task with its openings replaced by the nominal one and `count` paraphrases of it written
 * by a model (through the run's model cache, so a replay gives the same ones), for the user
 * simulator of the prompt condition: variant `jk` then opens with the k-th.
 *
 * @throws {Error} when the model gives fewer than `count` paraphrases that keep every fact.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { FakeModelClient } from "../../agents/model/mod.ts";
 * import { getDomain, World } from "../../envs/mod.ts";
 * import { paraphrasedTask } from "./prompt.ts";
 * using world = World.open(getDomain("airline"));
 * const task = { ...world.defaultTasks(1)[0], openings: ["Please cancel reservation ZFA04Y."] };
 * const client = new FakeModelClient([{ content: "1. Cancel reservation ZFA04Y, please.\n2. I want ZFA04Y cancelled." }]);
 * const paraphrased = await paraphrasedTask(client, task, { count: 2 });
 * assertEquals(paraphrased.openings, [
 *   "Please cancel reservation ZFA04Y.",
 *   "Cancel reservation ZFA04Y, please.",
 *   "I want ZFA04Y cancelled.",
 * ]);
 * ```
 */
export async function paraphrasedTask(client: ModelClient, task: Task, options: { count: number }): Promise<Task> {
  const more = await generateParaphrases(client, task.openings[0], { count: options.count });
  return { ...task, openings: [task.openings[0], ...more] };
}

/**
 * The `prompt` condition: each cell's user opens with the paraphrase of its variant. With
 * `paraphrases: "llm:PROVIDER:MODEL"` the model writes them once per experiment, for each task
 * that still has a cell to run; a model's failure is a `ModelError` (a `"malformed"` one when it
 * gives too few paraphrases that keep every fact).
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { promptDefinition } from "./prompt.ts";
 * const prompt = { variants: 5, paraphrases: "llm:openai:gpt-4o-mini", runs: 1 };
 * assertEquals(promptDefinition.models({ nominal: false, fault: false, env: false, prompt }), ["openai:gpt-4o-mini"]);
 * ```
 */
export const promptDefinition: ConditionDefinition = {
  name: "prompt",
  variants: (c) =>
    c.prompt === false ? [] : promptVariants(c.prompt.variants).map((v) => [v, (c.prompt as { runs: number }).runs]),
  models(conditions) {
    const spec = paraphraseModel({ conditions });
    return spec === null ? [] : [spec];
  },
  async prepare({ conditions, tasks, cells, models }) {
    const openings = new Map<string, Task>();
    const spec = paraphraseModel({ conditions });
    if (spec !== null && conditions.prompt !== false) {
      if (models === undefined) throw new TypeError(`Cannot paraphrase with "${spec}": no model clients were given`);
      const client = models(spec);
      for (const id of new Set(cells.map((c) => c.task))) {
        openings.set(id, await paraphrased(client, tasks.get(id)!, conditions.prompt.variants));
      }
    }
    return {
      setup(cell, { task }) {
        const userTask = openings.get(cell.task) ?? task;
        return { ...unchangedSetup(userTask), opening: openingOf(userTask, cell.variant ?? "") };
      },
    };
  },
};

// A task with a model's paraphrases; any failure but the model's own is a malformed answer.
async function paraphrased(client: ModelClient, task: Task, count: number): Promise<Task> {
  try {
    return await paraphrasedTask(client, task, { count });
  } catch (err) {
    if (err instanceof ModelError) throw err;
    throw new ModelError("malformed", err instanceof Error ? err.message : String(err));
  }
}
