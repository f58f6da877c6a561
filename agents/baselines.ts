/**
 * Sanity baselines (docs/metrics.md "Grading"): agents that must score 0 on every task of every domain
 * under every condition. A task one of them passes is a broken task: its verdict can be earned by
 * doing nothing, by failing every call, or by apologising.
 *
 * - `idle` ends the episode at once.
 * - `apologist` says "Sorry, something went wrong on my side" and ends.
 * - `broken` makes three tool calls whose arguments are malformed (not even an object), then ends
 *   politely.
 *
 * None states a confidence, so predictability is `null` for them.
 *
 * @module
 */
import type { Agent, AgentAction, AgentContext, AgentFactory, Observation } from "../envs/mod.ts";

/** The apologist's one message. */
export const APOLOGY = "Sorry, something went wrong on my side";

/** The broken agent's polite closing. */
export const POLITE_CLOSING = "Thank you for your patience. Have a nice day!";

/**
 * The idle baseline: ends at once.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { idle } from "./baselines.ts";
 * const agent = idle()({} as never);
 * assertEquals(agent.step({ step: 1 }), { type: "end" });
 * ```
 */
export function idle(): AgentFactory {
  return () => ({ name: "idle", start() {}, step: (): AgentAction => ({ type: "end" }) });
}

/**
 * The apologist baseline: apologises once, then ends.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { APOLOGY, apologist } from "./baselines.ts";
 * const agent = apologist()({} as never);
 * agent.start({} as never);
 * assertEquals([agent.step({ step: 1 }), agent.step({ step: 2 })], [{ type: "message", text: APOLOGY }, { type: "end" }]);
 * ```
 */
export function apologist(): AgentFactory {
  return () => {
    let said = false;
    return {
      name: "apologist",
      start() {
        said = false;
      },
      step(): AgentAction {
        if (said) return { type: "end" };
        said = true;
        return { type: "message", text: APOLOGY };
      },
    };
  };
}

/** Malformed tool calls the broken agent makes before it closes. */
const BROKEN_CALLS = 3;

/**
 * The broken baseline: calls the first three tools it is shown (by name) with arguments that are
 * not an object, then closes politely and ends.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { broken } from "./baselines.ts";
 * const agent = broken()({} as never);
 * agent.start({ tools: [{ name: "look" }] } as never);
 * assertEquals(agent.step({ step: 1 }), { type: "tool", name: "look", args: "malformed" });
 * ```
 */
export function broken(): AgentFactory {
  return () => new BrokenAgent();
}

class BrokenAgent implements Agent {
  readonly name = "broken";
  #tools: string[] = [];
  #step = 0;

  start(ctx: AgentContext): void {
    this.#tools = ctx.tools.map((t) => t.name).sort();
    this.#step = 0;
  }

  step(_obs: Observation): AgentAction {
    const i = this.#step++;
    const calls = Math.min(BROKEN_CALLS, this.#tools.length);
    if (i < calls) return { type: "tool", name: this.#tools[i], args: "malformed" };
    if (i === calls) return { type: "message", text: POLITE_CLOSING };
    return { type: "end" };
  }
}
