/**
 * Whether the simulated user could read an agent (docs/metrics.md "The simulated user"): the
 * share of the agent's messages the scripted user read as text (`user_messages`) that it could
 * not read at all (`user_misread`). Above `MISREAD_LIMIT` the episodes measure the simulator, not the
 * agent: reports warn, and a gate refuses to pass on them.
 *
 * @module
 */
import type { EpisodeRecord } from "./record.ts";
import { compareText } from "./_stats.ts";

/** The share of unread messages above which an agent's results are not meaningful. */
export const MISREAD_LIMIT = 0.05;

/** The agent's messages a scripted user read as text, those it could not read, and their share. */
export interface Misread {
  /** The agent's messages the scripted user read as text. */
  messages: number;
  /** Of those, the ones it could not read at all. */
  unread: number;
  /** `unread / messages`. */
  share: number;
}

/**
 * The messages the scripted user read as text over some records and how many it could not read;
 * `null` when it read none as text (an agent that speaks in intents, or a language-model user).
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { userMisread } from "./misread.ts";
 * const r = (m: number, u: number) => ({ agent: "a", task: "t/1", run: 0, condition: "nominal" as const, success: false, user_messages: m, user_misread: u });
 * assertEquals(userMisread([r(4, 1), r(6, 1)]), { messages: 10, unread: 2, share: 0.2 });
 * ```
 */
export function userMisread(records: readonly Pick<EpisodeRecord, "user_messages" | "user_misread">[]): Misread | null {
  let messages = 0, unread = 0;
  for (const r of records) {
    messages += r.user_messages ?? 0;
    unread += r.user_misread ?? 0;
  }
  return messages === 0 ? null : { messages, unread, share: unread / messages };
}

/**
 * The warning for an agent whose messages the simulated user could not read too often (more than
 * `MISREAD_LIMIT` of them), or `null` when it could read them (or read none as text).
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { misreadWarning } from "./misread.ts";
 * assertEquals(
 *   misreadWarning("openai:gpt-4o-mini", { messages: 100, unread: 23, share: 0.23 }),
 *   "the simulated user could not read 23% of openai:gpt-4o-mini's messages (23 of 100): its results are not " +
 *     "meaningful; use --user llm:PROVIDER:MODEL or see docs/users.md",
 * );
 * assertEquals(misreadWarning("oracle", { messages: 100, unread: 5, share: 0.05 }), null);
 * ```
 */
export function misreadWarning(agent: string, misread: Misread | null): string | null {
  if (misread === null || misread.share <= MISREAD_LIMIT) return null;
  const percent = Math.round(misread.share * 100);
  return `the simulated user could not read ${percent}% of ${agent}'s messages (${misread.unread} of ` +
    `${misread.messages}): its results are not meaningful; use --user llm:PROVIDER:MODEL or see docs/users.md`;
}

/**
 * The misread warning of each agent the records hold, by agent name: by agent whatever else the
 * records are grouped by, so one agent's unread messages are neither named as a domain's nor
 * diluted by another agent's.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { misreadWarnings } from "./misread.ts";
 * const r = (agent: string, unread: number) => ({ agent, task: "t/1", run: 0, condition: "nominal" as const, success: false, user_messages: 10, user_misread: unread });
 * assertEquals(misreadWarnings([r("a", 4), r("b", 0)]).length, 1);
 * ```
 */
export function misreadWarnings(
  records: readonly Pick<EpisodeRecord, "agent" | "user_messages" | "user_misread">[],
): string[] {
  const byAgent = new Map<string, (typeof records)[number][]>();
  for (const r of records) {
    const list = byAgent.get(r.agent) ?? [];
    if (list.length === 0) byAgent.set(r.agent, list);
    list.push(r);
  }
  return [...byAgent.keys()].sort(compareText).map((agent) => misreadWarning(agent, userMisread(byAgent.get(agent)!)))
    .filter((w) => w !== null);
}
