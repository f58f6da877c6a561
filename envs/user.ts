/**
 * The scripted user simulator: the user's side of the playbook protocol (`Intent`; docs/domains.md
 * "The playbook protocol"). It plays a task's user from its facts: opens with the task's goal and
 * volunteered facts, answers what the agent asks, confirms only a proposal whose call deep-equals a
 * gold write of the task not confirmed yet, and ends the conversation when done or stuck. Works with
 * any domain: which calls write it learns from the tools' declarations.
 *
 * @module
 */
import { canonicalJson, jsonEqual } from "./json.ts";
import type { Rng } from "./rng.ts";
import type { Intent, Json, Message, Task, Tool, ToolCall, UserSimulator } from "./types.ts";

/** Options of the scripted user. */
export interface ScriptedUserOptions {
  /**
   * Which of the task's opening paraphrases to start with.
   * @default {0}
   */
  opening?: number;
  /**
   * Replies without progress (nudges after a message it cannot use, `unknown`s, `decline`s) the
   * user tolerates: a nudge that would be the `patience`-th is a `stop`, unsatisfied, instead.
   * @default {3}
   */
  patience?: number;
  /** The domain's tools: the user agrees only to the task's gold calls of tools that write. */
  tools: readonly Tool[];
}

const PROVIDE = ["{facts}.", "Sure: {facts}.", "Here you go: {facts}.", "{facts}, if that helps."];
const UNKNOWN = ["I don't know my {fields}.", "Sorry, I don't have the {fields}.", "I'm not sure about the {fields}."];
const YES = ["Yes, please go ahead.", "Yes.", "Yes, that's right, do it.", "Yes, I confirm."];
const NO = ["No, that's not what I want.", "No, please don't do that.", "No, that's not right."];
const THANKS = ["Thanks, that's all.", "Great, thank you!", "Perfect, thanks for your help."];
const GIVE_UP = [
  "Never mind, I'll call back later.",
  "This isn't going anywhere, goodbye.",
  "Forget it, thanks anyway.",
];
const ACCEPT_NO = ["Okay, I understand.", "Alright, thanks for explaining.", "I see. Thanks anyway."];
const NUDGE = ["Okay. Can you help with my request?", "And what about my request?", "Okay, what's next?"];

/**
 * A scripted user for one episode.
 *
 * @example
 * ```ts ignore
 * const user = scriptedUser(task, rng.child("user"), { tools: domain.tools });
 * const hello = user.open();
 * ```
 */
export function scriptedUser(task: Task, rng: Rng, options: ScriptedUserOptions): UserSimulator {
  const patience = options.patience ?? 3;
  const openingIndex = options.opening ?? 0;
  if (!(openingIndex >= 0 && openingIndex < task.openings.length)) {
    throw new RangeError(
      `Cannot open task "${task.id}" with paraphrase ${openingIndex}: it has ${task.openings.length}`,
    );
  }
  // The gold writes the user is to approve (not the agent's own notes, which need no yes).
  const writes = new Set(options.tools.filter((t) => t.writes && t.confirm !== false).map((t) => t.name));
  const pending: ToolCall[] = task.gold.filter((c) => writes.has(c.name));
  const toApprove = pending.length;
  let confirmed = 0;
  let stuck = 0;

  const say = (templates: readonly string[], fill: Record<string, string>, intent: Intent): Message => {
    let text = rng.pick(templates);
    for (const [k, v] of Object.entries(fill)) text = text.replace(`{${k}}`, v);
    return { role: "user", text: text.charAt(0).toUpperCase() + text.slice(1), intent };
  };
  const stop = (templates: readonly string[], satisfied: boolean) => say(templates, {}, { kind: "stop", satisfied });
  const noProgress = (): Message => {
    stuck++;
    return stuck >= patience ? stop(GIVE_UP, false) : say(NUDGE, {}, { kind: "provide", facts: {} });
  };

  return {
    open(): Message {
      const facts: Record<string, Json> = {};
      for (const f of task.volunteered) if (f in task.facts) facts[f] = task.facts[f];
      return { role: "user", text: task.openings[openingIndex], intent: { kind: "request", goal: task.goal, facts } };
    },

    reply(message: Message): Message {
      const intent = message.intent;
      switch (intent?.kind) {
        case "ask": {
          const fields = rng.shuffle(intent.fields);
          const known = fields.filter((f) => f in task.facts);
          const unknown = fields.filter((f) => !(f in task.facts));
          if (known.length === 0) {
            return (stuck++, say(UNKNOWN, { fields: unknown.join(" or ") }, { kind: "unknown", fields: unknown }));
          }
          stuck = 0;
          const facts = Object.fromEntries(known.map((f) => [f, task.facts[f]]));
          const text = known.map((f) => `my ${f.replaceAll("_", " ")} is ${describe(task.facts[f])}`).join(", ");
          return say(PROVIDE, { facts: text }, { kind: "provide", facts });
        }
        case "propose": {
          const i = pending.findIndex((c) => c.name === intent.call.name && jsonEqual(c.args, intent.call.args));
          if (i < 0) return (stuck++, say(NO, {}, { kind: "decline" }));
          pending.splice(i, 1);
          confirmed++;
          stuck = 0;
          return say(YES, {}, { kind: "confirm" });
        }
        case "refuse":
          return stop(ACCEPT_NO, task.expect === "refuse");
        case "transfer":
          return stop(ACCEPT_NO, task.expect === "transfer");
        case "inform":
          if (task.expect === "act" && pending.length === 0 && (confirmed > 0 || toApprove === 0)) {
            return stop(THANKS, true);
          }
          if (task.expect === "inform") return stop(THANKS, true);
          return noProgress();
        default:
          return noProgress();
      }
    },
  };
}

function describe(value: Json): string {
  if (typeof value === "string") return value;
  return canonicalJson(value);
}
