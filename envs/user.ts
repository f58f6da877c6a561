/**
 * The scripted user simulator: a customer who knows only what the task's customer knows (its goal
 * and facts, never the gold calls) and who understands both sides of the playbook protocol (`Intent`;
 * docs/domains.md "The playbook protocol") and plain text, read with the domain's vocabulary
 * (`readAgentMessage()`). It opens with the task's goal and volunteered facts, gives the facts asked
 * for (and says it does not know the others), approves a proposal whose change is the one it asked
 * for and whose details match what it knows, declines one that states a detail otherwise (or that it
 * cannot check, a value it does not have), asks when a proposal says nothing it can recognise, and
 * ends when the agent says the request was done or answered, refuses, hands over, gives up, or when
 * its patience runs out. A message it cannot read at all counts as misread (`finish().misread`).
 *
 * User fallibility is a seeded knob (`trust`): a trusting user approves, at that rate, a proposal of
 * the change it asked for whose details are wrong or unknown to it, as real customers sometimes do.
 *
 * The customer is envs/_customer.ts; its requests and words are envs/_user_replies.ts.
 *
 * @module
 */
import type { Rng } from "./rng.ts";
import { type Vocabulary, vocabularyOf } from "./vocabulary.ts";
import type { Message } from "./message.ts";
import type { Task } from "./task.ts";
import type { Tool } from "./tool.ts";
import type { UserReport, UserSimulator } from "./user_sim.ts";
import { Customer } from "./_customer.ts";

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
  /** The domain's tools: which calls a proposal may make, and the vocabulary's defaults. */
  tools: readonly Tool[];
  /**
   * The domain's vocabulary, to read the agent's text and check its proposals with.
   * @default {one made from the tools (`vocabularyOf()`)}
   */
  vocabulary?: Vocabulary;
  /**
   * The chance, in [0, 1], that the user approves a proposal of the change it asked for whose
   * details are wrong or that it cannot check (a trusting customer); drawn from its own generator.
   * @default {0: it approves only what matches its request}
   */
  trust?: number;
}

/**
 * A scripted user for one episode.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { domains } from "./domains.ts";
 * import { Rng } from "./rng.ts";
 * import { scriptedUser } from "./user.ts";
 * import { World } from "./world.ts";
 * const { airline } = domains;
 * using world = World.open(airline, { seed: "0" });
 * const [task] = world.defaultTasks(1);
 * const options = { tools: airline.tools, vocabulary: airline.vocabulary };
 * const user = scriptedUser(task, new Rng("0").child("user"), options);
 * assertEquals(user.open().text, task.openings[0]);
 * ```
 */
export function scriptedUser(task: Task, rng: Rng, options: ScriptedUserOptions): ScriptedUser {
  const patience = options.patience ?? 3;
  const openingIndex = options.opening ?? 0;
  const trust = options.trust ?? 0;
  if (!(openingIndex >= 0 && openingIndex < task.openings.length)) {
    throw new RangeError(
      `Cannot open task "${task.id}" with paraphrase ${openingIndex}: it has ${task.openings.length}`,
    );
  }
  if (!(typeof trust === "number" && trust >= 0 && trust <= 1)) {
    throw new RangeError(`Invalid user trust ${trust}: expected a number in [0, 1]`);
  }
  return new Customer(task, rng, {
    patience,
    opening: task.openings[openingIndex],
    trust,
    vocabulary: vocabularyOf({ tools: options.tools, vocabulary: options.vocabulary }),
  });
}

/** The scripted user: a user simulator that answers at once. */
export interface ScriptedUser extends UserSimulator {
  /** The opening message. */
  open(): Message;
  /** The reply to an agent message, or a message whose intent is `stop`. */
  reply(message: Message): Message;
  /** The agent's messages it read as text and could not read, when it read any as text. */
  finish(): UserReport;
}
