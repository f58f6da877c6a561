/**
 * The reusable machinery of a domain's scripted playbook (`Domain.solver`), domain-neutral: a
 * playbook is a table of goal handlers, and `playbookSolver()` runs it under the playbook protocol
 * (docs/domains.md "The playbook protocol"). It asks for a missing fact once, looks a call up once
 * and remembers its result, proposes a write once and waits for the user's yes or no, retries a
 * faulted look-up a bounded number of times, and ends politely on anything it cannot use. Handlers
 * decide with `act()`, `refuse()`, `inform()`, `handOver()` and `writeCall()` (`decisions.ts`).
 *
 * @module
 */
import { outcomeUnknown } from "./abnormal.ts";
import type { Abstained, AgentAction, Observation, Solver, SolverOptions, ToolResult } from "./agent.ts";
import {
  act,
  type Decision,
  type Handler,
  inform,
  informing,
  namedArguments,
  type Play,
  type PlaybookSpec,
} from "./decisions.ts";
import { canonicalJson, type Json } from "./json.ts";
import type { ToolCall } from "./tool.ts";

/**
 * Makes a solver that runs a playbook under the playbook protocol: the goal handler of the user's
 * request decides each step; it never throws, and anything unexpected ends the conversation.
 * Throws a `RangeError` for a `maxSteps` or `retries` that is not a whole number in range, and a
 * `TypeError` for options whose `confirm` or `verify` is not a boolean.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { playbookSolver } from "./playbook.ts";
 * import { refuse } from "./decisions.ts";
 * const solver = playbookSolver(
 *   { goals: {}, otherwise: () => refuse("I only lend books") },
 *   { confirm: true, verify: true },
 * );
 * const opening = { role: "user" as const, text: "Hi", intent: { kind: "request" as const, goal: "sell", facts: {} } };
 * const first = solver.next({ step: 0, message: opening });
 * assertEquals(first.type === "message" && first.intent, { kind: "refuse", reason: "I only lend books" });
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

// A call's identity: its name and arguments with keys sorted, as one string; worked out once per
// arguments object and name (an episode asks for the same call's key again and again, and
// arguments are not changed once made).
const KEYS = new WeakMap<object, Map<string, string>>();
function key(call: ToolCall): string {
  const args = call.args as object | null;
  if (args === null || typeof args !== "object") return canonicalJson([call.name, call.args]);
  let byName = KEYS.get(args);
  if (byName === undefined) KEYS.set(args, byName = new Map());
  let k = byName.get(call.name);
  if (k === undefined) byName.set(call.name, k = canonicalJson([call.name, call.args]));
  return k;
}
