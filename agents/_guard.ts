// Private helpers of the model-driven agent and user: a meter of model usage, and the
// guard that notices when a simulated user leaves its script.
import type { Json, Task } from "../envs/mod.ts";
import { addCost } from "./model/prices.ts";
import type { ChatResponse } from "./model/types.ts";

/** Resources of docs/metrics.md that model calls use. */
export interface ModelResources {
  api_calls: number;
  tokens: number;
  /** Dollars; `null` when a call's model has no price. */
  cost: number | null;
  /** Mean latency of the calls that answered, in ms; absent when none did. */
  call_latency?: number;
}

/** Counts model calls: every attempt is an API call; tokens, cost and latency come from answers. */
export class UsageMeter {
  #calls = 0;
  #tokens = 0;
  #cost: number | null = 0;
  #latency = 0;
  #answered = 0;
  #retries = 0;

  /** Records one call: its answer, or `null` when it failed. */
  record(response: ChatResponse | null): void {
    this.#calls++;
    if (!response) return;
    this.#answered++;
    this.#retries += response.retries;
    this.#tokens += response.usage.inputTokens + response.usage.outputTokens;
    this.#cost = addCost(this.#cost, response.cost);
    this.#latency += response.latencyMs;
  }

  /** Failed attempts the client retried before its answers. */
  retries(): number {
    return this.#retries;
  }

  resources(): ModelResources {
    const out: ModelResources = { api_calls: this.#calls, tokens: this.#tokens, cost: this.#cost };
    if (this.#answered > 0) out.call_latency = this.#latency / this.#answered;
    return out;
  }
}

// Tokens that look like identifiers or dates. A six-character code must hold a digit, so that
// a shouted word ("PLEASE") is not taken for a reservation id.
const ID_PATTERNS = [
  /\b(?=[A-Z]*\d)[A-Z0-9]{6}\b/g,
  /\b[a-z]+_[a-z]+_\d+\b/g,
  /\b\d{4}-\d{2}-\d{2}\b/g,
  /\b(?:credit_card|gift_card|certificate)_\d+\b/g,
];

/**
 * Words that name a kind of request. Each pattern stands for one kind; synonyms share a
 * pattern, so "change" is allowed when the goal says "update".
 */
export const GOAL_KEYWORDS: readonly RegExp[] = [
  /\bcancel\w*/i,
  /\bbook\b/i,
  /\b(?:chang(?:e|es|ing)|updat\w*|modif\w*|move|moving)\b/i,
  /\bbag\w*/i,
  /\binsur\w*/i,
  /\bcompensat\w*/i,
  /\bpassenger\w*/i,
];

// A sentence that asks for something.
const REQUEST = /\b(?:want|wants|like|need|needs|could you|can you|would you|please|also)\b/i;

/** Watches a simulated user's replies for the first sign that it left its script. */
export class ScriptGuard {
  readonly #task: Task;
  readonly #told: string;
  readonly #context: string;
  #agentSaid = "";
  #replies = 0;
  #error: string | null = null;

  constructor(task: Task) {
    this.#task = task;
    this.#told = [JSON.stringify(task.facts), ...task.openings].join("\n").toLowerCase();
    this.#context = [task.goal.replaceAll("_", " "), Object.keys(task.facts).join(" "), this.#told].join("\n");
  }

  /** The first reason the user left its script, if it did. */
  get error(): string | null {
    return this.#error;
  }

  /** Checks one reply of the user to an agent message; `stopped` when it carried the stop marker. */
  check(agentText: string, reply: string, stopped: boolean): void {
    this.#agentSaid += `\n${agentText.toLowerCase()}`;
    this.#replies++;
    this.#error ??= this.#revealed(reply) ?? this.#changedGoal(reply) ??
      (stopped && this.#replies === 1
        ? "user ended the conversation on its first reply, before the agent could help"
        : null);
  }

  // (a) An identifier or date that neither the task nor the agent gave the user.
  #revealed(reply: string): string | null {
    for (const pattern of ID_PATTERNS) {
      for (const [token] of reply.matchAll(pattern)) {
        const t = token.toLowerCase();
        if (!this.#told.includes(t) && !this.#agentSaid.includes(t)) {
          return `user revealed "${token}", which its task does not give it`;
        }
      }
    }
    return null;
  }

  // (b) A request of another kind: a goal keyword in a sentence that asks for something, where
  // the keyword (or a synonym) is in none of the goal, the facts, the openings, or what the agent said.
  #changedGoal(reply: string): string | null {
    for (const sentence of reply.split(/[.!?\n]+/)) {
      if (!REQUEST.test(sentence)) continue;
      for (const keyword of GOAL_KEYWORDS) {
        const hit = sentence.match(keyword);
        if (hit && !keyword.test(this.#context) && !keyword.test(this.#agentSaid)) {
          return `user changed its goal: it asked about "${
            hit[0]
          }", which its task "${this.#task.goal}" does not mention`;
        }
      }
    }
    return null;
  }
}

/** A fact's value as the user would say it. */
export function describeFact(value: Json): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}
