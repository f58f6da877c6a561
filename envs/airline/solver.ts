/**
 * The airline's scripted playbook: a policy-following agent that acts on observations only
 * (the user's structured messages and tool results), one action per step.
 *
 * @module
 */
import type { AgentAction, Json, Observation, Solver, SolverOptions, ToolCall, ToolResult } from "../types.ts";
import { closing, FIELD_TEXT } from "./_solver_text.ts";
import type { Decision, Play } from "./_solver_goals.ts";
import { GOALS } from "./_solver_more.ts";

/** The most steps one conversation may take before the solver gives up. */
const MAX_STEPS = 60;
const END: AgentAction = { type: "end" };

/**
 * Makes the airline playbook. With `confirm` it proposes every write and waits for a yes; with
 * `verify` it looks up the user and reservation and applies the policy before acting.
 *
 * @example
 * ```ts
 * import { airlineSolver } from "./solver.ts";
 * const solver = airlineSolver({ confirm: true, verify: true });
 * const action = solver.next({ step: 0, message: { role: "user", text: "Hi", intent: { kind: "request", goal: "add_bags", facts: {} } } });
 * action.type; // "message"
 * ```
 */
export function airlineSolver(options: SolverOptions): Solver {
  const playbook = new Playbook(options);
  return { next: (obs) => playbook.next(obs) };
}

class Playbook implements Play {
  readonly options: SolverOptions;
  goal?: string;
  facts: Record<string, Json> = {};
  asked = new Set<string>();
  #results = new Map<string, ToolResult>();
  #steps = 0;
  #pending?: ToolCall;
  #write?: Extract<Decision, { kind: "write" }>;
  #proposed = new Set<string>();
  #retried = new Set<string>();
  #awaitingAnswer = false;
  #done = false;
  #greeted = false;

  constructor(options: SolverOptions) {
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
    if (++this.#steps > MAX_STEPS || this.#done) return END;
    if (obs.tool) {
      const call = this.#pending;
      this.#pending = undefined;
      if (!obs.tool.ok) {
        // A transient fault of a look-up is worth one retry; a write is never repeated blindly.
        const isWrite = call !== undefined && this.#write !== undefined && key(call) === key(this.#write.call);
        if (call && !isWrite && obs.tool.error?.code === "fault" && !this.#retried.has(key(call))) {
          this.#retried.add(key(call));
          return this.#call(call);
        }
        return this.#close(`I'm sorry, that did not work (${obs.tool.error?.message ?? "unknown error"})`);
      }
      if (call) this.#results.set(key(call), obs.tool);
      if (call && this.#write && key(call) === key(this.#write.call)) {
        const { text, facts } = this.#write.after(obs.tool.result ?? null);
        this.#done = true;
        return { type: "message", text, intent: { kind: "inform", ...(facts ? { facts } : {}) } };
      }
    }
    const intent = obs.message?.intent;
    if (intent?.kind === "stop") return END;
    if (this.#awaitingAnswer) {
      this.#awaitingAnswer = false;
      if (intent?.kind === "confirm" && this.#write) return this.#call(this.#write.call);
      return this.#close("Understood, I have not made any change");
    }
    if (intent?.kind === "request" && typeof intent.goal === "string") {
      this.goal = intent.goal;
      this.#learn(intent.facts);
    } else if (intent?.kind === "provide") {
      this.#learn(intent.facts);
    }
    if (this.goal === undefined) {
      if (this.#greeted) return this.#close("I could not understand the request");
      this.#greeted = true;
      return { type: "message", text: "Hello! How can I help you today?" };
    }
    const handler = GOALS[this.goal] ?? GOALS.unknown;
    return this.#decide(handler(this));
  }

  #decide(decision: Decision): AgentAction {
    if (decision.kind === "action") {
      const a = decision.action;
      if (a.type === "message" && (a.intent?.kind === "refuse" || a.intent?.kind === "inform")) this.#done = true;
      if (a.type === "tool") this.#pending = { name: a.name, args: a.args as Record<string, Json> };
      if (a.type === "tool" && a.name === "transfer_to_human_agents") this.#done = true;
      return a;
    }
    this.#write = decision;
    if (!this.options.confirm) return this.#call(decision.call);
    const k = key(decision.call);
    if (this.#proposed.has(k)) return this.#close("I'll leave the reservation as it is");
    this.#proposed.add(k);
    this.#awaitingAnswer = true;
    return {
      type: "message",
      text: `${decision.propose} Shall I go ahead? Please answer yes or no.`,
      intent: { kind: "propose", call: decision.call },
    };
  }

  #learn(facts: unknown): void {
    if (facts && typeof facts === "object" && !Array.isArray(facts)) Object.assign(this.facts, facts);
  }

  #call(call: ToolCall): AgentAction {
    this.#pending = call;
    return { type: "tool", name: call.name, args: call.args };
  }

  #close(why: string): AgentAction {
    return this.#decide(this.close(why));
  }

  /** The result of a call already made, or the call itself as the next action. */
  fetch(name: string, args: Record<string, Json>): { value: Json } | { action: Decision } {
    const got = this.#results.get(key({ name, args }));
    if (got) return { value: got.result ?? null };
    return { action: { kind: "action", action: { type: "tool", name, args } } };
  }

  /** Asks for the fields not yet known; `undefined` when all are known, a closing when asked in vain. */
  need(fields: string[]): Decision | undefined {
    const missing = fields.filter((f) => this.facts[f] === undefined || this.facts[f] === null);
    if (missing.length === 0) return undefined;
    if (missing.some((f) => this.asked.has(f))) {
      return this.close(`I can't continue without your ${missing.map((f) => FIELD_TEXT[f] ?? f).join(" and ")}`);
    }
    for (const f of missing) this.asked.add(f);
    const names = missing.map((f) => FIELD_TEXT[f] ?? f.replaceAll("_", " "));
    const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
    return {
      kind: "action",
      action: { type: "message", text: `Could you give me your ${list}?`, intent: { kind: "ask", fields: missing } },
    };
  }

  close(why: string): Decision {
    return {
      kind: "action",
      action: { type: "message", text: closing(why), intent: { kind: "inform", facts: { outcome: "not_done" } } },
    };
  }
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value).sort().map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

function key(call: ToolCall): string {
  return JSON.stringify([call.name, sortKeys(call.args)]);
}
