/**
 * The reusable machinery of a domain's scripted playbook (`Domain.solver`), domain-neutral: a
 * playbook is a table of goal handlers, and `playbookSolver()` runs it under the playbook protocol
 * (docs/domains.md "The playbook protocol"). It asks for a missing fact once, looks a call up once
 * and remembers its result, proposes a write once and waits for the user's yes or no, retries a
 * faulted look-up a bounded number of times, and ends politely on anything it cannot use. Handlers
 * decide with `act()`, `refuse()`, `inform()`, `handOver()` and `writeCall()`.
 *
 * @module
 */
import { outcomeUnknown } from "./abnormal.ts";
import { canonicalJson } from "./json.ts";
import type { Abstained, AgentAction, Observation, Solver, SolverOptions, ToolResult } from "./agent.ts";
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
 * import { act } from "./playbook.ts";
 * act({ type: "tool", name: "look_up", args: { id: "b1" } }).kind; // "action"
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
 * import { refuse } from "./playbook.ts";
 * const d = refuse("a book can be borrowed for at most 30 days");
 * d.kind === "action" && d.action.type === "message" && d.action.text;
 * // "I'm sorry, but I can't do that: a book can be borrowed for at most 30 days."
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
 * import { refusalText } from "./playbook.ts";
 * refusalText("only pending orders can be cancelled"); // "I'm sorry, but I can't do that: only pending orders can be cancelled."
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
 * import { inform } from "./playbook.ts";
 * const d = inform("Book b1 is due on 2024-06-01.", { due: "2024-06-01" });
 * d.kind === "action" && d.action.type === "message" && d.action.intent; // { kind: "inform", facts: { due: "2024-06-01" } }
 * ```
 */
export function inform(text: string, facts?: Record<string, Json>): Decision {
  return act(informing(text, facts));
}

function informing(text: string, facts?: Record<string, Json>): Extract<AgentAction, { type: "message" }> {
  return { type: "message", text, intent: { kind: "inform", ...(facts ? { facts } : {}) } };
}

/**
 * A decision to call a tool that hands the conversation over to a human (a tool declared
 * `handsOver`, its string arguments the summary); the playbook says nothing after it.
 *
 * @example
 * ```ts
 * import { handOver } from "./playbook.ts";
 * handOver({ name: "call_librarian", args: { summary: "wants a rare book" } }).kind; // "action"
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
 * import { writeCall } from "./playbook.ts";
 * const d = writeCall(
 *   { name: "borrow", args: { book_id: "b1" } },
 *   { propose: "I will lend you book b1.", done: () => "Book b1 is yours for 30 days." },
 * );
 * d.kind; // "write"
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
 * import { isDecision, refuse } from "./playbook.ts";
 * [isDecision(refuse("no")), isDecision({ bookId: "b1" })]; // [true, false]
 * ```
 */
export function isDecision<T extends object>(x: Decision | T): x is Decision {
  const kind = (x as { kind?: unknown }).kind;
  return (kind === "action" && "action" in x) || (kind === "write" && "call" in x);
}

/**
 * Makes a solver that runs a playbook under the playbook protocol: the goal handler of the user's
 * request decides each step; it never throws, and anything unexpected ends the conversation.
 * Throws a `RangeError` for a `maxSteps` or `retries` that is not a whole number in range, and a
 * `TypeError` for options whose `confirm` or `verify` is not a boolean.
 *
 * @example
 * ```ts
 * import { playbookSolver, refuse } from "./playbook.ts";
 * const solver = playbookSolver(
 *   { goals: {}, otherwise: () => refuse("I only lend books") },
 *   { confirm: true, verify: true },
 * );
 * const opening = { role: "user" as const, text: "Hi", intent: { kind: "request" as const, goal: "sell", facts: {} } };
 * solver.next({ step: 0, message: opening }).type; // "message"
 * ```
 */
export function playbookSolver(spec: PlaybookSpec, options: SolverOptions): Solver {
  const resolved = resolveSpec(spec);
  for (const name of ["confirm", "verify"] as const) {
    if (typeof options[name] !== "boolean") {
      throw new TypeError(`Invalid solver option ${name} ${JSON.stringify(options[name])}: expected true or false`);
    }
  }
  const playbook = new Playbook(resolved, { confirm: options.confirm, verify: options.verify });
  return { next: (obs) => playbook.next(obs), abstained: () => playbook.abstained };
}

/**
 * The label and precondition a checkpoint's block names at the start of its message (agents/
 * checkpoint.ts): `"<label>: …"`; `null` for any other error.
 */
const BLOCK = /^(grounding_warning|blocked_constraint|blocked_commitment): /;

type Resolved = Required<PlaybookSpec>;
type WriteDecision = Extract<Decision, { kind: "write" }>;

function resolveSpec(spec: PlaybookSpec): Resolved {
  const resolved = {
    goals: spec.goals,
    otherwise: spec.otherwise,
    fieldNames: spec.fieldNames ?? {},
    unchanged: spec.unchanged ?? "I'll leave things as they are",
    maxSteps: spec.maxSteps ?? 60,
    retries: spec.retries ?? 1,
    assume: spec.assume ?? (() => undefined),
  };
  if (!(Number.isInteger(resolved.maxSteps) && resolved.maxSteps >= 1)) {
    throw new RangeError(`Invalid playbook maxSteps ${spec.maxSteps}: expected a whole number of at least 1`);
  }
  if (!(Number.isInteger(resolved.retries) && resolved.retries >= 0)) {
    throw new RangeError(`Invalid playbook retries ${spec.retries}: expected a whole number of at least 0`);
  }
  return resolved;
}

const END: AgentAction = { type: "end" };

class Playbook implements Play {
  /** Its own copy: a checkpoint's message can make a careless playbook careful (see `#heed`). */
  readonly options: SolverOptions;
  /** Why it stopped short of the request, once it did. */
  abstained: Abstained | null = null;
  readonly #spec: Resolved;
  goal?: string;
  facts: Record<string, Json> = {};
  #asked = new Set<string>();
  #results = new Map<string, ToolResult>();
  #steps = 0;
  #pending?: ToolCall;
  #write?: WriteDecision;
  #proposed = new Set<string>();
  #retried = new Map<string, number>();
  #guessed = new Set<string>();
  // A write that ran but whose answer was lost (its outcome unknown), once one was.
  #lost?: ToolCall;
  #awaitingAnswer = false;
  // Awaiting an answer it will not heed: a careless playbook's proposal of a write with a guess.
  #asForm = false;
  #done = false;
  #greeted = false;
  // Further requests of the opening not yet handled, and what it said of those it ended (each a
  // closing message, said with the last one).
  #queue: { goal: string; facts: Record<string, Json> }[] = [];
  #told: Extract<AgentAction, { type: "message" }>[] = [];
  // Whether a write of an earlier request was made.
  #wrote = false;

  constructor(spec: Resolved, options: SolverOptions) {
    this.#spec = spec;
    this.options = options;
  }

  next(obs: Observation): AgentAction {
    try {
      return this.#next(obs);
    } catch {
      // A solver never throws: anything unexpected ends the conversation.
      this.#done = true;
      return END;
    }
  }

  #next(obs: Observation): AgentAction {
    if (++this.#steps > this.#spec.maxSteps || this.#done) return END;
    if (obs.tool) {
      const answered = this.#result(obs.tool);
      if (answered) return answered;
    }
    const intent = obs.message?.intent;
    if (intent?.kind === "stop") return END;
    if (this.#awaitingAnswer) {
      this.#awaitingAnswer = false;
      // The user's corrections, if the no came with any: a later decision uses them.
      const corrected = intent?.kind === "decline" && intent.facts !== undefined && this.#learn(intent.facts);
      if (this.#asForm && this.#write) {
        this.#asForm = false;
        return this.#call(this.#write.call);
      }
      if (intent?.kind === "confirm" && this.#write) return this.#call(this.#write.call);
      // Told what is right, it proposes once more with it (the same write again it never proposes).
      if (corrected && this.goal !== undefined) return this.#decide(this.#handler()(this));
      this.abstained ??= { label: "blocked_commitment", reason: "approval" };
      return this.#close(
        `Understood: without your approval I have not made ${
          this.#wrote ? "the change I just proposed" : "any change"
        }`,
      );
    }
    if (intent?.kind === "request" && typeof intent.goal === "string") {
      this.goal = intent.goal;
      this.#learn(intent.facts);
      this.#queue = Array.isArray(intent.also) ? [...intent.also] : [];
    } else if (intent?.kind === "provide") {
      this.#learn(intent.facts);
    }
    if (this.goal === undefined) {
      if (this.#greeted) return this.#close("I could not understand the request");
      this.#greeted = true;
      return { type: "message", text: "Hello! How can I help you today?" };
    }
    return this.#decide(this.#handler()(this));
  }

  #handler(): Handler {
    const goals = this.#spec.goals;
    return this.goal !== undefined && Object.hasOwn(goals, this.goal) ? goals[this.goal] : this.#spec.otherwise;
  }

  // A tool result: a retry, a closing, or the report of a write made; `undefined` to go on deciding.
  #result(tool: ToolResult): AgentAction | undefined {
    const call = this.#pending;
    this.#pending = undefined;
    const write = call && this.#write && key(call) === key(this.#write.call) ? this.#write : undefined;
    if (!tool.ok && call && write && outcomeUnknown(tool)) {
      // The write ran but its answer was lost: a careless playbook makes it again (once); a careful
      // one says the outcome is unknown rather than risk making it twice.
      const again = this.#lost === undefined && !this.options.verify;
      this.#lost = call;
      return again ? this.#call(call) : this.#unconfirmed(call, tool.error?.message ?? "unknown outcome");
    }
    if (!tool.ok) {
      // A transient fault of a look-up is worth a retry; a write is never repeated blindly.
      const tries = call ? this.#retried.get(key(call)) ?? 0 : 0;
      if (call && !write && tool.error?.code === "fault" && tries < this.#spec.retries) {
        this.#retried.set(key(call), tries + 1);
        return this.#call(call);
      }
      const block = tool.error?.code === "policy" ? BLOCK.exec(tool.error.message) : null;
      if (block !== null && this.#heed(block[1])) {
        // Made careful after a write whose outcome is unknown: it says so rather than make it again.
        return this.#lost === undefined ? undefined : this.#unconfirmed(this.#lost, tool.error?.message ?? "");
      }
      // A look-up or write that did not work leaves the state unconfirmed; a block it cannot get past
      // is the checkpoint's to account for, not its own.
      if (block === null) {
        this.abstained ??= { label: "blocked_constraint", reason: Object.keys(call?.args ?? {}).join(", ") };
      }
      const error = tool.error?.message ?? "unknown error";
      // A look-up that failed: say what could not be confirmed, so the user knows what is missing.
      if (call && !write && block === null && tool.error?.code === "fault") {
        return this.#close(
          `I could not verify ${this.#what(call)} (${error}), so I have not made ${
            this.#wrote ? "the change for it" : "any change"
          }`,
        );
      }
      return this.#close(`I'm sorry, that did not work (${error})`);
    }
    if (call) this.#results.set(key(call), tool);
    if (write) {
      const result = tool.result ?? null;
      this.#done = true;
      this.#wrote = true;
      return this.#ending(informing(write.done(result), write.facts?.(result)));
    }
    return undefined;
  }

  // A checkpoint stopped a call: told to look things up, it verifies from now on; told to get the
  // user's yes, it asks for one; the decision is then made again. False when it cannot comply.
  #heed(label: string): boolean {
    if (label === "blocked_constraint" && !this.options.verify) return this.options.verify = true;
    if (label === "blocked_commitment" && !this.options.confirm) return this.options.confirm = true;
    return false;
  }

  #decide(decision: Decision): AgentAction {
    if (decision.kind === "action") {
      const a = decision.action;
      if (a.type === "message" && (a.intent?.kind === "refuse" || a.intent?.kind === "inform")) this.#done = true;
      if (a.type === "message" && a.intent?.kind === "refuse") {
        this.abstained ??= { label: "blocked_constraint", reason: a.intent.reason };
      }
      if (a.type === "tool") this.#pending = { name: a.name, args: a.args as Record<string, Json> };
      if (decision.final) this.#done = true;
      return this.#done && a.type === "message" ? this.#ending(a) : a;
    }
    this.#write = decision;
    // A careless playbook acts at once, but says what it picked itself first (and does not listen).
    if (!this.options.confirm && this.#guessed.size === 0) return this.#call(decision.call);
    const k = key(decision.call);
    if (this.#proposed.has(k)) return this.#close(this.#spec.unchanged);
    this.#proposed.add(k);
    this.#awaitingAnswer = true;
    this.#asForm = !this.options.confirm;
    return {
      type: "message",
      text: `${decision.propose} Shall I go ahead? Please answer yes or no.`,
      intent: { kind: "propose", call: decision.call },
    };
  }

  // A request's closing message: with further requests of the opening left, it is kept and the next
  // one is handled (from the facts known, its own over them); the last is said with those kept, its
  // intent a refusal when one of them refused, else a closing when one of them was not done.
  #ending(a: Extract<AgentAction, { type: "message" }>): AgentAction {
    const next = this.#queue.shift();
    if (next !== undefined) {
      this.#told.push(a);
      this.goal = next.goal;
      this.#learn(next.facts);
      this.#write = this.#lost = undefined;
      this.#proposed = new Set();
      this.#asked = new Set();
      this.#guessed = new Set();
      this.#awaitingAnswer = this.#asForm = this.#done = false;
      return this.#decide(this.#handler()(this));
    }
    if (this.#told.length === 0) return a;
    const all = [...this.#told, a];
    this.#told = [];
    const refusals = all.flatMap((m) => m.intent?.kind === "refuse" ? [m.intent.reason] : []);
    const undone = all.some((m) => m.intent?.kind === "inform" && m.intent.facts?.outcome === "not_done");
    const facts = Object.assign({}, ...all.map((m) => m.intent?.kind === "inform" ? m.intent.facts ?? {} : {}));
    return {
      type: "message",
      text: all.map((m) => m.text).join("\n\n"),
      intent: refusals.length > 0
        ? { kind: "refuse", reason: refusals.join("; ") }
        : { kind: "inform", facts: undone ? { outcome: "not_done" } : facts },
    };
  }

  // Takes the facts given; whether there were any.
  #learn(facts: unknown): boolean {
    if (!facts || typeof facts !== "object" || Array.isArray(facts)) return false;
    Object.assign(this.facts, facts);
    return Object.keys(facts).length > 0;
  }

  #call(call: ToolCall): AgentAction {
    this.#pending = call;
    return { type: "tool", name: call.name, args: call.args };
  }

  // Stops after a write whose outcome is unknown, naming what could not be confirmed.
  #unconfirmed(call: ToolCall, error: string): AgentAction {
    this.abstained ??= { label: "blocked_constraint", reason: Object.keys(call.args ?? {}).join(", ") };
    return this.#close(
      `I could not confirm whether the change for ${this.#what(call)} went through (${error}), and I have not ` +
        `tried it again so that it is not made twice`,
    );
  }

  #close(why: string): AgentAction {
    return this.#decide(this.close(why));
  }

  #what(call: ToolCall): string {
    return namedArguments(call.args, (k) => this.#name(k));
  }

  #name(field: string): string {
    return this.#spec.fieldNames[field] ?? field.replaceAll("_", " ");
  }

  lookUp(name: string, args: Record<string, Json>): { value: Json } | { action: Decision } {
    const got = this.#results.get(key({ name, args }));
    if (got) return { value: got.result ?? null };
    return { action: act({ type: "tool", name, args }) };
  }

  need(fields: readonly string[]): Decision | undefined {
    const absent = (f: string) => this.facts[f] === undefined || this.facts[f] === null;
    if (!this.options.verify) {
      // Careless: what the user could not give, it makes up (when the playbook says how).
      for (const f of fields) {
        const guess = absent(f) && this.#asked.has(f) ? this.#spec.assume(f) : undefined;
        if (guess !== undefined) this.facts[f] = guess;
      }
    }
    const missing = fields.filter(absent);
    if (missing.length === 0) return undefined;
    if (missing.some((f) => this.#asked.has(f))) {
      this.abstained ??= { label: "grounding_warning", reason: missing.join(", ") };
      return this.close(`I can't continue without your ${missing.map((f) => this.#name(f)).join(" and ")}`);
    }
    for (const f of missing) this.#asked.add(f);
    const names = missing.map((f) => this.#name(f));
    const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
    return act({ type: "message", text: `Could you give me your ${list}?`, intent: { kind: "ask", fields: missing } });
  }

  guess(field: string, value: Json): boolean {
    if (this.options.verify || (this.facts[field] !== undefined && this.facts[field] !== null)) return false;
    this.facts[field] = value;
    this.#guessed.add(field);
    return true;
  }

  doubt(field: string, question: string): Decision {
    this.abstained ??= { label: "grounding_warning", reason: field };
    return inform(`${question} I have not changed anything.`, { outcome: "not_done" });
  }

  close(why: string): Decision {
    return inform(
      `${why}. I'm sorry I could not complete this for you. Is there anything else I can help with?`,
      { outcome: "not_done" },
    );
  }
}

// A call's identity: its name and arguments with keys sorted, as one string.
function key(call: ToolCall): string {
  return canonicalJson([call.name, call.args]);
}

/**
 * What a call is about, as the user would name it ("your reservation id"): the names of its
 * arguments (by `name`, by default the key with "_" read as a space), never their values (an email
 * said back before the customer is verified is a leak); "the details" for a call without any.
 *
 * @example
 * ```ts
 * import { namedArguments } from "./playbook.ts";
 * namedArguments({ reservation_id: "ZH45RN", email: "a@b.c" }); // "your reservation id and your email"
 * ```
 */
export function namedArguments(
  args: unknown,
  name: (field: string) => string = (field) => field.replaceAll("_", " "),
): string {
  const keys = args !== null && typeof args === "object" && !Array.isArray(args) ? Object.keys(args) : [];
  return keys.length === 0 ? "the details" : keys.map((k) => `your ${name(k)}`).join(" and ");
}
