/**
 * inspect_ai's logs (`.json`, and `.eval` zip archives) imported as transcripts alone: a sample ×
 * epoch is an episode (`run` = epoch − 1, task `inspect:<task>/<sample id>`, agent the log's model),
 * its success read from a scorer's value, its tool calls and recorded results its events, its
 * model usage its resources. An inspect task is no ark world, so nothing is replayed: every figure
 * that needs a world is null, and the import says why (`ImportSummary.inspect`).
 *
 * @module
 */
import type { EpisodeRecord } from "../../scoring/mod.ts";
import type { EpisodeEvent } from "../../envs/mod.ts";
import type { ChatMessage } from "./chat.ts";
import type { InspectImport, InspectLogImport } from "../../report/imported.ts";
import { type InspectEpisode, inspectEpisodes, logScorers } from "./_inspect_episodes.ts";
import { InspectLogError, readInspectBytes } from "./_inspect_log.ts";

export { InspectLogError } from "./_inspect_log.ts";
export { inspectTaskId } from "./_inspect_episodes.ts";

/** How success is read from a score value (also in the README and `deno task import --help`). */
export const INSPECT_SUCCESS_RULE: string = 'success iff the value is full credit: "C", 1, true, "yes" or "true" ' +
  '(inspect\'s value_to_float() = 1); "I", "N", "P" (0.5), 0, false and any number below 1 are failures, and so ' +
  "is a sample its error halted before it was scored; a value outside [0, 1], a list, or an object without " +
  "--score-key skips the sample, named, as does a sample without the scorer's value";

/** One log file to read: its name (for messages) and bytes. */
export interface InspectFile {
  /** The file's name, as messages and the summary show it. */
  name: string;
  /** Its bytes. */
  bytes: Uint8Array;
}

/** What `readInspectLogs()` read: the episodes, the samples skipped, and the import's summary part. */
export interface InspectRead {
  /**
   * The episodes in file order, each with its record and events (the transcript alone), its sample's
   * id, its score as a number in [0, 1] (null for a sample its error halted before scoring), and
   * its transcript in OpenAI's chat shape (for a replay).
   */
  episodes: {
    where: string;
    record: EpisodeRecord;
    events: EpisodeEvent[];
    sample: string | number;
    value: number | null;
    messages: ChatMessage[];
  }[];
  /** Samples not imported (no score, a score that is no success or failure, a cell read before), named. */
  skipped: { where: string; reason: string }[];
  /** What each log held, and what is taken, recomputed and null. */
  inspect: InspectImport;
}

/**
 * Reads inspect_ai logs as episodes. `scorer` names the scorer whose values say success (default:
 * each log's first); `key` the entry of an object value; `agent` replaces the logs' model as the
 * agent's name. A log that cannot be read, has no samples or lacks the scorer is refused with one
 * line (in `inspect.logs[].refused`); the others are read. Throws an `InspectLogError` when every
 * log is refused (the first one's reason).
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { readInspectLogs } from "./inspect.ts";
 * const log = {
 *   version: 2, status: "success", eval: { task: "quiz", model: "openai/gpt-4o", scorers: [{ name: "match" }] },
 *   samples: [1, 2].map((epoch) => ({ id: 7, epoch, messages: [{ role: "user", content: "2+2?" }, { role: "assistant", content: "4" }], scores: { match: { value: epoch === 1 ? "C" : "I" } } })),
 * };
 * const read = readInspectLogs([{ name: "quiz.json", bytes: new TextEncoder().encode(JSON.stringify(log)) }]);
 * assertEquals(read.episodes.map((e) => [e.record.task, e.record.run, e.record.success]), [["inspect:quiz/7", 0, true], ["inspect:quiz/7", 1, false]]);
 * ```
 */
export function readInspectLogs(
  files: readonly InspectFile[],
  options: { scorer?: string; key?: string; agent?: string } = {},
): InspectRead {
  const episodes: InspectEpisode[] = [], skipped: { where: string; reason: string }[] = [];
  const logs: InspectLogImport[] = [];
  const seen = new Map<string, string>();
  for (const file of files) {
    const entry: InspectLogImport = {
      file: file.name,
      task: null,
      model: null,
      status: null,
      scorer: null,
      episodes: 0,
      imported: 0,
      tool_calls: 0,
      values: [],
      refused: null,
    };
    logs.push(entry);
    try {
      const log = readInspectBytes(file.bytes, file.name);
      Object.assign(entry, {
        task: log.header.eval.task,
        model: log.header.eval.model,
        status: log.header.status ?? null,
        episodes: log.samples.length,
      });
      if (log.samples.length === 0) {
        throw new InspectLogError(
          `Cannot import "${file.name}": it holds no samples (status "${log.header.status ?? "unknown"}": a log ` +
            `written header-only, cancelled before any sample finished, or still starting)`,
        );
      }
      const scorers = logScorers(log);
      const scorer = options.scorer ?? scorers[0];
      if (scorer === undefined) {
        throw new InspectLogError(`Cannot import "${file.name}": it names no scorer and its samples hold no scores`);
      }
      const known = new Set([...scorers, ...log.samples.flatMap((s) => Object.keys(s.scores ?? {}))]);
      if (!known.has(scorer)) {
        throw new InspectLogError(
          `Unknown scorer "${scorer}" in "${file.name}": expected one of ${[...known].map((s) => `"${s}"`).join(", ")}`,
        );
      }
      entry.scorer = scorer;
      const read = inspectEpisodes(log, {
        file: file.name,
        scorer,
        key: options.key,
        agent: options.agent ?? log.header.eval.model,
      });
      entry.tool_calls = read.toolCalls;
      entry.values = read.values;
      skipped.push(...read.skipped);
      for (const e of read.episodes) {
        const cell = JSON.stringify([e.record.agent, e.record.task, e.record.run]);
        const before = seen.get(cell);
        if (before !== undefined) {
          skipped.push({
            where: e.where,
            reason: `agent "${e.record.agent}", task "${e.record.task}", run ` +
              `${e.record.run} was already read from ${before}`,
          });
          continue;
        }
        seen.set(cell, file.name);
        episodes.push(e);
        entry.imported++;
      }
      if (read.episodes.length === 0) {
        entry.refused = `Cannot import "${file.name}": none of its ${log.samples.length} samples × epochs has a ` +
          `usable "${scorer}" score (${read.skipped[0]?.reason ?? "none read"})`;
      }
    } catch (err) {
      if (!(err instanceof InspectLogError)) throw err;
      entry.refused = err.message;
    }
  }
  if (episodes.length === 0) {
    const first = logs.find((l) => l.refused !== null)?.refused ?? "no log file found";
    throw new InspectLogError(
      logs.length <= 1 ? first : `None of the ${logs.length} logs can be imported; the first: ${first}`,
    );
  }
  return { episodes, skipped, inspect: section(logs, options.key ?? null, oneRunAgents(episodes)) };
}

// The agents none of whose tasks has two runs (epochs): their consistency measures nothing.
function oneRunAgents(episodes: readonly { record: EpisodeRecord }[]): string[] {
  const runs = new Map<string, Map<string, number>>();
  for (const { record: r } of episodes) {
    const tasks = runs.get(r.agent) ?? new Map<string, number>();
    tasks.set(r.task, (tasks.get(r.task) ?? 0) + 1);
    runs.set(r.agent, tasks);
  }
  return [...runs].filter(([, tasks]) => [...tasks.values()].every((n) => n < 2)).map(([a]) => a).sort();
}

function section(logs: InspectLogImport[], key: string | null, oneRun: readonly string[]): InspectImport {
  const noWorld = "an inspect task is not an ark world: nothing was replayed";
  return {
    success_rule: INSPECT_SUCCESS_RULE,
    score_key: key,
    world: null,
    logs,
    taken: [
      "success: each sample's score of the scorer named above, by the success rule",
      "tool calls, their arguments and their results (a tool message's error as the call's error) as events",
      "resources: model calls, tokens and cost (when every call has one) of the agent's own model events (a " +
      "scorer's calls left out; model_usage when the log has no model events), time (total_time)",
      "agent_error: the sample's error; confidence: the score's metadata.confidence, when recorded",
    ],
    recomputed: [
      "consistency, pass^k and the other figures across epochs (run = epoch − 1), from the records",
      "trajectory and resource consistency, from the tool calls and resources taken",
      "steps, the first failed call and recovery, from the transcript",
    ],
    null_figures: [
      { figure: "milestones and progress", reason: `no gold milestones: ${noWorld}` },
      { figure: "long-horizon figures", reason: `no long-horizon tasks: ${noWorld}` },
      { figure: "safety (violations, harm)", reason: `the judge compares writes with a world's state: ${noWorld}` },
      { figure: "robustness", reason: "the episodes ran under no ark condition (fault, perturbation, paraphrase)" },
      { figure: "tool-result fidelity", reason: `no world reproduced the recorded results: ${noWorld}` },
      ...(oneRun.length > 0
        ? [{
          figure: `consistency (C_out, R_con) of ${oneRun.join(", ")}`,
          reason: "one run per task: consistency needs at least two",
        }]
        : []),
    ],
  };
}
