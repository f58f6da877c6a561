/**
 * A generic adapter around a domain's playbook (`Solver`): it retries tool calls that failed
 * with an injected fault, and it follows the hints of a perturbed interface (renamed arguments,
 * another date format, wrapped results, formatted numbers, renamed result keys), translating the
 * playbook's canonical arguments out and the perturbed results back in (with the agent's side of
 * `perturbation.ts`). It is driven only by observations and `AgentContext.hints`, never by domain
 * or tool names.
 *
 * @module
 */
import {
  type Abstained,
  type AgentAction,
  type Json,
  namedArguments,
  type Observation,
  outcomeUnknown,
  type Solver,
  type ToolResult,
} from "../envs/mod.ts";
import { type PerturbationHints, perturbationHints } from "./perturbation.ts";
import { decodeResult, encodeArgs } from "./perturbation_codec.ts";

/** Options of `adaptSolver()`. */
export interface AdaptOptions {
  /**
   * Retry a tool call that failed with error code `"fault"` (an injected fault never ran, so a
   * retry is safe for reads and writes alike). Without it the agent gives up at the first fault.
   * A call whose outcome is unknown (it ran, its answer was lost: `outcomeUnknown()`) is never
   * retried here: the playbook is shown it and decides.
   * @default {true}
   */
  retry?: boolean;
  /**
   * Follow `hints.perturbation`: translate arguments and normalise results. Without it the
   * playbook's argument names and formats are used literally.
   * @default {true}
   */
  adapt?: boolean;
  /**
   * Retries of one call before giving up. Five: under the default `fault` condition (p = 0.2)
   * four faults in a row on one call come once in 625 calls, and the default experiment makes
   * thousands; six in a row come once in 15,625.
   * @default {5}
   */
  maxRetries?: number;
}

/** A playbook wrapped by `adaptSolver()`: told the episode's hints at the start. */
export interface AdaptedSolver extends Solver {
  /** Starts an episode: takes its condition's hints (`AgentContext.hints`), if any, and forgets the last one. */
  start(hints?: Record<string, Json>): void;
  /** Why it stopped short of the request, if it did: its own giving up on a fault, else the playbook's. */
  abstained(): Abstained | null;
}

const END: AgentAction = { type: "end" };

/**
 * Wraps a playbook so that it retries faulted calls and follows a perturbed interface's hints.
 * A fault the adapter will not retry (retries off, or `maxRetries` spent) makes the agent tell
 * the user it cannot go on and end: the playbook never sees an error with code `"fault"`, but for
 * one whose outcome is unknown (the call ran), which it is shown as it is.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { adaptSolver } from "./adapt.ts";
 * const solver = adaptSolver({ next: () => ({ type: "tool", name: "look", args: { user_id: "u1" } }) });
 * solver.start({ perturbation: { names: { user_id: "userId" } } });
 * assertEquals(solver.next({ step: 0 }), { type: "tool", name: "look", args: { userId: "u1" } });
 * ```
 */
export function adaptSolver(solver: Solver, options: AdaptOptions = {}): AdaptedSolver {
  return new Adapter(solver, options);
}

class Adapter implements AdaptedSolver {
  readonly #solver: Solver;
  readonly #retry: boolean;
  readonly #adapt: boolean;
  readonly #maxRetries: number;
  #hints: PerturbationHints | null = null;
  /** The last tool call made: as shown, and the playbook's own arguments. */
  #last: { action: AgentAction; canonical: unknown } | null = null;
  #retries = 0;
  #gaveUp = false;
  #abstained: Abstained | null = null;

  constructor(solver: Solver, options: AdaptOptions) {
    this.#solver = solver;
    this.#retry = options.retry ?? true;
    this.#adapt = options.adapt ?? true;
    this.#maxRetries = options.maxRetries ?? 5;
    if (!(Number.isInteger(this.#maxRetries) && this.#maxRetries >= 0)) {
      throw new RangeError(`Invalid maxRetries ${options.maxRetries}: expected a whole number of at least 0`);
    }
  }

  start(hints?: Record<string, Json>): void {
    this.#hints = this.#adapt ? perturbationHints(hints) : null;
    this.#last = null;
    this.#retries = 0;
    this.#gaveUp = false;
    this.#abstained = null;
  }

  abstained(): Abstained | null {
    return this.#abstained ?? this.#solver.abstained?.() ?? null;
  }

  next(obs: Observation): AgentAction {
    if (this.#gaveUp) return END;
    let seen = obs;
    if (obs.tool) {
      if (!obs.tool.ok && obs.tool.error?.code === "fault" && !outcomeUnknown(obs.tool)) {
        if (this.#retry && this.#last !== null && this.#retries < this.#maxRetries) {
          this.#retries++;
          return this.#last.action;
        }
        this.#gaveUp = true;
        // It could not confirm what the call reads or does: a state left unverified.
        const args = this.#last?.canonical;
        const reason = args !== null && typeof args === "object" ? Object.keys(args).join(", ") : obs.tool.name;
        this.#abstained = { label: "blocked_constraint", reason };
        return {
          type: "message",
          text: `I'm sorry, our system is not responding right now (${obs.tool.error.message}), so I could not ` +
            `verify ${namedArguments(args)} and I have not made any change. Please try again later.`,
          intent: { kind: "inform", facts: { outcome: "not_done" } },
        };
      }
      seen = { ...obs, tool: this.#canonical(obs.tool) };
    }
    this.#retries = 0;
    const action = this.#solver.next(seen);
    if (action.type !== "tool") return action;
    const shown: AgentAction = this.#hints ? { ...action, args: encodeArgs(action.args, this.#hints) } : action;
    this.#last = { action: shown, canonical: action.args };
    return shown;
  }

  // A tool result as the playbook expects it: its own arguments, the result normalised.
  #canonical(tool: ToolResult): ToolResult {
    const args = this.#last?.canonical ?? tool.args;
    if (!tool.ok || this.#hints === null) return { ...tool, args };
    return { ...tool, args, result: decodeResult(tool.result ?? null, this.#hints) };
  }
}
