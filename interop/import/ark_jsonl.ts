/**
 * ark's transcript format, for any harness: JSON Lines, one episode per line,
 * `{agent, task, run, messages, tau_reward?, confidence?, resources?}`, where `messages` are
 * OpenAI-style chat messages (user, assistant with `tool_calls`, tool results) and `task` is an
 * ark task id: `tau-bench:<domain>/<i>` (τ-bench's test task i, on τ-bench's data) or
 * `<domain>/<i>` (task i of ark's generated world). The README has a complete example.
 *
 * @module
 */
import { z } from "zod";
import { parseTaskId } from "../../envs/mod.ts";
import { chatMessages } from "./chat.ts";
import type { ImportedEpisode } from "./episodes.ts";
import { jsonErrorWhere } from "../../eval/fs_errors.ts";

const line = z.object({
  agent: z.string().min(1),
  task: z.string().refine((id) => parseTaskId(id) !== null, {
    error: 'expected a task id "<domain>/<i>" or "tau-bench:<domain>/<i>"',
  }),
  run: z.number().int().nonnegative(),
  condition: z.literal("nominal", { error: 'only "nominal" episodes can be imported' }).optional(),
  messages: chatMessages,
  tau_reward: z.number().min(0).max(1).optional(),
  confidence: z.number().min(0).max(1).nullable().optional(),
  resources: z.object({
    cost: z.number().nonnegative().optional(),
    time: z.number().nonnegative().optional(),
    retry_wait: z.number().nonnegative().optional(),
    tokens: z.number().nonnegative().optional(),
    api_calls: z.number().nonnegative().optional(),
    call_latency: z.number().nonnegative().optional(),
  }).optional(),
});

/**
 * The episodes of an ark transcript file's text; lines that are not episodes are listed as
 * unreadable (blank lines are skipped), each naming its line and what is wrong.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { readArkTranscripts } from "./ark_jsonl.ts";
 * const text = '{"agent": "a", "task": "airline/0", "run": 0, "messages": [{"role": "user", "content": "Hi"}]}\n';
 * assertEquals(readArkTranscripts(text).episodes[0].where, "line 1");
 * ```
 */
export function readArkTranscripts(
  text: string,
): { episodes: ImportedEpisode[]; unreadable: { where: string; reason: string }[] } {
  const episodes: ImportedEpisode[] = [], unreadable: { where: string; reason: string }[] = [];
  text.split("\n").forEach((source, i) => {
    const where = `line ${i + 1}`;
    if (source.trim() === "") return;
    let raw: unknown;
    try {
      raw = JSON.parse(source);
    } catch (err) {
      if (!(err instanceof SyntaxError)) throw err;
      unreadable.push({ where, reason: `not JSON${jsonErrorWhere(err)}; expected one episode object per line` });
      return;
    }
    const parsed = line.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const path = issue.path.length === 0 ? "the line" : issue.path.map(String).join(".");
      unreadable.push({ where, reason: `${path}: ${issue.message}; expected {agent, task, run, messages, ...}` });
      return;
    }
    const e = parsed.data;
    episodes.push({
      where,
      agent: e.agent,
      task: e.task,
      run: e.run,
      messages: e.messages,
      ...(e.tau_reward !== undefined ? { tau_reward: e.tau_reward } : {}),
      ...(e.confidence !== undefined ? { confidence: e.confidence } : {}),
      ...(e.resources !== undefined ? { resources: e.resources } : {}),
    });
  });
  return { episodes, unreadable };
}
