/**
 * τ-bench's results format: the JSON array its `run.py` writes, one element per episode
 * (`task_id`, `trial`, `reward`, `info`, `traj`: the chat messages, system prompt first).
 *
 * @module
 */
import { z } from "zod";
import { taskId } from "../../envs/mod.ts";
import { chatMessages } from "./chat.ts";
import type { ImportedEpisode } from "./episodes.ts";
import { jsonErrorWhere } from "../../eval/fs_errors.ts";

const episode = z.object({
  task_id: z.number().int().nonnegative(),
  trial: z.number().int().nonnegative(),
  reward: z.number().min(0).max(1),
  traj: chatMessages,
});

/** A file that is not a τ-bench results array. */
export class ResultsFileError extends Error {
  /** Makes the error with a one-line message. */
  constructor(message: string) {
    super(message);
    this.name = "ResultsFileError";
  }
}

/**
 * The episodes of a τ-bench results file's text, as `agent`'s, on tasks `tau-bench:<domain>/<task_id>`
 * with run = `trial`; elements that are not episodes are listed as unreadable, each naming what is
 * wrong. Throws a `ResultsFileError` when the text is not a JSON array.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { readTauBenchResults } from "./tau_bench.ts";
 * const text = '[{"task_id": 3, "trial": 1, "reward": 1.0, "traj": [{"role": "user", "content": "Hi"}]}]';
 * assertEquals(readTauBenchResults(text, { domain: "airline", agent: "gpt-4o", file: "run.json" }).episodes[0].task, "tau-bench:airline/3");
 * ```
 */
export function readTauBenchResults(
  text: string,
  options: { domain: string; agent: string; file: string },
): { episodes: ImportedEpisode[]; unreadable: { where: string; reason: string }[] } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    if (!(err instanceof SyntaxError)) throw err;
    throw new ResultsFileError(
      `Cannot import "${options.file}": it is not JSON${jsonErrorWhere(err)}; expected τ-bench's results ` +
        `array, as its run.py writes it`,
    );
  }
  if (!Array.isArray(data)) {
    throw new ResultsFileError(
      `Cannot import "${options.file}": it is JSON but not an array; expected τ-bench's results array of ` +
        `{task_id, trial, reward, traj}, as its run.py writes it`,
    );
  }
  const episodes: ImportedEpisode[] = [], unreadable: { where: string; reason: string }[] = [];
  data.forEach((raw, i) => {
    const ids = raw !== null && typeof raw === "object"
      ? ` (task ${JSON.stringify((raw as Record<string, unknown>).task_id)}, trial ${
        JSON.stringify((raw as Record<string, unknown>).trial)
      })`
      : "";
    const where = `episode ${i + 1}${ids}`;
    const parsed = episode.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const path = issue.path.length === 0 ? "the element" : issue.path.map(String).join(".");
      unreadable.push({ where, reason: `${path}: ${issue.message}; expected {task_id, trial, reward, traj}` });
      return;
    }
    const e = parsed.data;
    episodes.push({
      where,
      agent: options.agent,
      task: taskId(options.domain, e.task_id, { source: "tau-bench" }),
      run: e.trial,
      messages: e.traj,
      tau_reward: e.reward,
    });
  });
  return { episodes, unreadable };
}
