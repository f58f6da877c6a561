/**
 * What a playbook's goal handlers decide and what they may ask of the play (`Play`): the
 * decisions `act()`, `refuse()`, `inform()`, `handOver()` and `writeCall()`, and the table of
 * handlers a domain's playbook is (`PlaybookSpec`), which `playbookSolver()` (`playbook.ts`) runs.
 *
 * @module
 */
import type { AgentAction, SolverOptions } from "./agent.ts";
import type { Json } from "./json.ts";
import type { ToolCall } from "./tool.ts";

/** What a write does and says: made into a `Decision` by `writeCall()`. */
export interface WriteSpec {
  /**
   * The write in words, with its key details (amounts, new values, what it acts on): the proposal
   * the user answers, followed by "Shall I go ahead? Please answer yes or no.".
   */
  propose: string;
  /** What to tell the user once the write succeeded, from its result. */
  done(result: Json): string;
  /**
   * The facts of the outcome for the closing `inform` intent, from the write's result.
   * @default {none: the `inform` intent carries no facts}
   */
  facts?(result: Json): Record<string, Json>;
}

/**
 * A handler's decision: the next action (with `final` when it ends the conversation, e.g. a
 * hand-over), or a write, proposed first when the solver confirms.
 */
export type Decision =
  | { kind: "action"; action: AgentAction; final?: boolean }
  | ({ kind: "write"; call: ToolCall } & WriteSpec);

/** What a goal handler has on hand: the solver's options, the user's goal and facts, and the toolkit. */
export interface Play {
  /** How the playbook behaves: confirm writes, verify before acting. */
  readonly options: SolverOptions;
  /** The goal of the user's opening `request`. */
  readonly goal?: string;
  /** Every fact the user gave so far (volunteered in the request or provided when asked). */
  readonly facts: Readonly<Record<string, Json>>;
  /**
   * The result of a call already made successfully (`{ value }`), or the call as the next decision
   * (`{ action }`): a look-up is made once, and the handler runs again when its result is in.
   */
  lookUp(name: string, args: Record<string, Json>): { value: Json } | { action: Decision };
  /**
   * Asks for the fields not yet known (`ask` intent); `undefined` when all are known, and a polite
   * closing when one of them was asked for already (the user did not know it).
   */
  need(fields: readonly string[]): Decision | undefined;
  /**
   * Fills a fact the user has not given with a value the playbook picked itself from what it saw
   * (the card on file): a careless playbook's habit (`verify` off). A write that uses a guess is
   * stated to the user as a formality and made whatever the answer. A careful playbook fills nothing
   * and asks instead; `false` then, and when the fact is known.
   */
  guess(field: string, value: Json): boolean;
  /** Ends politely without completing the request: `why`, an apology and an offer of further help. */
  close(why: string): Decision;
  /**
   * Stops at a record that is not the one the user described (`field` names it, e.g. its id): says
   * `question` (what differs, and which one they mean) and that nothing was changed, and ends.
   */
  doubt(field: string, question: string): Decision;
}

/**
 * A goal's handler: re-run on every step, it returns the next decision from what is known so
 * far (ask for facts, look up, refuse, hand over, inform, or a write).
 */
export type Handler = (play: Play) => Decision;

/** A domain's playbook, for `playbookSolver()`. */
export interface PlaybookSpec {
  /** The handler of each goal a user can state (the `goal` of the opening `request`). */
  goals: Readonly<Record<string, Handler>>;
  /** The handler of any goal that is not in `goals`. */
  otherwise: Handler;
  /**
   * How each fact is named when the playbook asks for it, e.g. `{ user_id: "user id" }`.
   * @default {the field's name with "_" as spaces}
   */
  fieldNames?: Readonly<Record<string, string>>;
  /**
   * What the playbook says, before the polite closing, when a write it proposed once comes up
   * again: a write is proposed at most once.
   * @default {"I'll leave things as they are"}
   */
  unchanged?: string;
  /**
   * Steps of one conversation before the solver ends it.
   * @default {60}
   */
  maxSteps?: number;
  /**
   * Times a look-up that failed with a fault is retried (a write is never repeated blindly).
   * @default {1}
   */
  retries?: number;
  /**
   * What a careless playbook (`verify` off) makes up for a fact the user could not give, instead
   * of stopping: the compliance bias of abstention scenarios (docs/metrics.md "Abstention"), e.g. an
   * id that looks right. `undefined` for a fact it does not make up.
   * @default {it makes nothing up: it stops like a careful one}
   */
  assume?(field: string): Json | undefined;
}

/**
 * A decision to take an action as it is.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { act } from "./decisions.ts";
 * const look = { type: "tool" as const, name: "look_up", args: { id: "b1" } };
 * assertEquals(act(look), { kind: "action", action: look });
 * ```
 */
export function act(action: AgentAction): Decision {
  return { kind: "action", action };
}

/**
 * A decision to refuse the request, naming the rule (`refuse` intent); it ends the conversation.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { refuse } from "./decisions.ts";
 * const d = refuse("a book can be borrowed for at most 30 days");
 * assertEquals(
 *   d.kind === "action" && d.action.type === "message" && d.action.text,
 *   "I'm sorry, but I can't do that: a book can be borrowed for at most 30 days.",
 * );
 * ```
 */
export function refuse(reason: string): Decision {
  return act({ type: "message", text: refusalText(reason), intent: { kind: "refuse", reason } });
}

/**
 * The words of a playbook's refusal for a reason (`refuse()`): a closing that reports several requests
 * holds each one's as a paragraph of its own.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { refusalText } from "./decisions.ts";
 * assertEquals(
 *   refusalText("only pending orders can be cancelled"),
 *   "I'm sorry, but I can't do that: only pending orders can be cancelled.",
 * );
 * ```
 */
export function refusalText(reason: string): string {
  return `I'm sorry, but I can't do that: ${reason}.`;
}

/**
 * A decision to tell the user the outcome or the facts asked for (`inform` intent); it ends the
 * conversation.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { inform } from "./decisions.ts";
 * const d = inform("Book b1 is due on 2024-06-01.", { due: "2024-06-01" });
 * assertEquals(d.kind === "action" && d.action.type === "message" && d.action.intent, {
 *   kind: "inform",
 *   facts: { due: "2024-06-01" },
 * });
 * ```
 */
export function inform(text: string, facts?: Record<string, Json>): Decision {
  return act(informing(text, facts));
}

/** The message of an `inform()` decision: the text, with the `inform` intent and its facts. */
export function informing(text: string, facts?: Record<string, Json>): Extract<AgentAction, { type: "message" }> {
  return { type: "message", text, intent: { kind: "inform", ...(facts ? { facts } : {}) } };
}

/**
 * A decision to call a tool that hands the conversation over to a human (a tool declared
 * `handsOver`, its string arguments the summary); the playbook says nothing after it.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { handOver } from "./decisions.ts";
 * const d = handOver({ name: "call_librarian", args: { summary: "wants a rare book" } });
 * assertEquals(d.kind === "action" && d.action, {
 *   type: "tool",
 *   name: "call_librarian",
 *   args: { summary: "wants a rare book" },
 * });
 * ```
 */
export function handOver(call: ToolCall): Decision {
  return { kind: "action", action: { type: "tool", name: call.name, args: call.args }, final: true };
}

/**
 * A decision to make a write: proposed first (and made on the user's yes) when the solver
 * confirms, made at once when it does not; once it succeeded the playbook informs the user.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { writeCall } from "./decisions.ts";
 * const d = writeCall(
 *   { name: "borrow", args: { book_id: "b1" } },
 *   { propose: "I will lend you book b1.", done: () => "Book b1 is yours for 30 days." },
 * );
 * assertEquals(d.kind === "write" && d.call, { name: "borrow", args: { book_id: "b1" } });
 * ```
 */
export function writeCall(call: ToolCall, spec: WriteSpec): Decision {
  return { kind: "write", call, ...spec };
}

/**
 * Whether a handler's step gave a decision (to return as it is) rather than a value to go on with.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { isDecision, refuse } from "./decisions.ts";
 * assertEquals([isDecision(refuse("no")), isDecision({ bookId: "b1" })], [true, false]);
 * ```
 */
export function isDecision<T extends object>(x: Decision | T): x is Decision {
  const kind = (x as { kind?: unknown }).kind;
  return (kind === "action" && "action" in x) || (kind === "write" && "call" in x);
}

/**
 * What a call is about, as the user would name it ("your reservation id"): the names of its
 * arguments (by `name`, by default the key with "_" read as a space), never their values (an email
 * said back before the customer is verified is a leak); "the details" for a call without any.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { namedArguments } from "./decisions.ts";
 * assertEquals(namedArguments({ reservation_id: "ZH45RN", email: "a@b.c" }), "your reservation id and your email");
 * assertEquals(namedArguments({}), "the details");
 * ```
 */
export function namedArguments(
  args: unknown,
  name: (field: string) => string = (field) => field.replaceAll("_", " "),
): string {
  const keys = args !== null && typeof args === "object" && !Array.isArray(args) ? Object.keys(args) : [];
  return keys.length === 0 ? "the details" : keys.map((k) => `your ${name(k)}`).join(" and ");
}
