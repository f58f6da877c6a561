/**
 * Scripted agents with known, tunable failure behaviour, built on a domain's
 * playbook (`Domain.solver`) through a generic adapter (`adaptSolver`):
 *
 * - `oracle` follows the policy; it retries a call that failed with an injected fault (up to 5
 *   times per call: a faulted call never ran, so retrying a write is safe too) and follows the
 *   hints of a perturbed interface (`AgentContext.hints`).
 * - `noisy` is the oracle with a seeded error model.
 * - `reckless` acts without confirmation or checks; it follows the hints but never retries:
 *   the first fault ends its conversation.
 * - `literal` is the oracle's playbook taken literally: it ignores the hints (so under a
 *   perturbed interface its calls use the wrong names and formats) and never retries.
 *
 * @module
 */
import type { Agent, AgentAction, AgentContext, AgentFactory, AgentReport, Observation, Rng } from "../envs/mod.ts";
import { mutate } from "./_mutate.ts";
import { type AdaptedSolver, adaptSolver } from "./adapt.ts";

/** Per-step error rates of the noisy agent, each in [0, 1]; their sum must not exceed 1. */
export interface ErrorRates {
  /** A tool call with one argument changed. */
  wrongArgument: number;
  /** A write made without asking the user for a yes first. */
  skippedConfirmation: number;
  /** A look-up (read tool) not made; the agent goes on without its result. */
  skippedLookup: number;
  /** Another tool called with the intended arguments. */
  wrongTool: number;
  /** The episode ended before the work is done. */
  prematureEnd: number;
}

/** Options of the noisy agent. */
export interface NoisyOptions {
  /**
   * Per-step error rates.
   * @default {{ wrongArgument: 0.02, skippedConfirmation: 0.02, skippedLookup: 0.01, wrongTool: 0.01, prematureEnd: 0.01 }}
   */
  rates?: Partial<ErrorRates>;
  /**
   * Confidence reported when the agent made no error, and after an error.
   * @default {{ clean: 0.9, erred: 0.3 }}
   */
  confidence?: { clean?: number; erred?: number };
}

/** Default error rates of `noisy`. */
export const DEFAULT_RATES: Readonly<ErrorRates> = Object.freeze({
  wrongArgument: 0.02,
  skippedConfirmation: 0.02,
  skippedLookup: 0.01,
  wrongTool: 0.01,
  prematureEnd: 0.01,
});

const ERROR_KINDS = ["wrongArgument", "skippedConfirmation", "skippedLookup", "wrongTool", "prematureEnd"] as const;

/** An agent that plays a domain's playbook step by step, reporting a fixed confidence. */
class PlaybookAgent implements Agent {
  readonly name: string;
  readonly #solver: AdaptedSolver;
  readonly #confidence: number;

  constructor(name: string, solver: AdaptedSolver, confidence: number) {
    this.name = name;
    this.#solver = solver;
    this.#confidence = confidence;
  }
  start(ctx: AgentContext): void {
    this.#solver.start(ctx.hints);
  }
  step(obs: Observation): AgentAction {
    return this.#solver.next(obs);
  }
  finish(): AgentReport {
    const abstained = this.#solver.abstained();
    return { confidence: this.#confidence, confidenceSource: "stated", ...(abstained ? { abstained } : {}) };
  }
}

/**
 * The oracle: follows the policy (looks up, checks eligibility, asks for an
 * explicit yes before any write, correct arguments), retries faulted calls and
 * adapts to a perturbed interface.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { getDomain, Rng, runEpisode, scriptedUser, World } from "../envs/mod.ts";
 * import { oracle } from "./scripted.ts";
 * const domain = getDomain("airline");
 * using world = World.open(domain);
 * const task = world.defaultTasks(1)[0]; // "airline/0": cancel reservation ZH45RN
 * const rng = new Rng("0");
 * const agent = oracle()({ rng: rng.child("agent"), domain, task });
 * const user = scriptedUser(task, rng.child("user"), { tools: domain.tools });
 * const { events, success } = await runEpisode(world, { task, agent, user, rng });
 * const tools = events.flatMap((e) => e.kind === "tool" ? [e.tool] : []);
 * assertEquals([tools, success], [["get_user_details", "get_reservation_details", "cancel_reservation"], true]);
 * ```
 */
export function oracle(): AgentFactory {
  return ({ domain }) => new PlaybookAgent("oracle", adaptSolver(domain.solver({ confirm: true, verify: true })), 1);
}

/**
 * The reckless agent: acts on what the user asks, without confirmation or eligibility checks.
 * It follows a perturbed interface's hints but does not retry after a fault.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { getDomain, Rng, runEpisode, scriptedUser, World } from "../envs/mod.ts";
 * import { reckless } from "./scripted.ts";
 * const domain = getDomain("airline");
 * using world = World.open(domain);
 * const task = world.defaultTasks(1)[0]; // "airline/0": cancel reservation ZH45RN
 * const rng = new Rng("0");
 * const agent = reckless()({ rng: rng.child("agent"), domain, task });
 * const user = scriptedUser(task, rng.child("user"), { tools: domain.tools });
 * const { events, success } = await runEpisode(world, { task, agent, user, rng });
 * assertEquals(events.flatMap((e) => e.kind === "tool" ? [e.tool] : []), ["cancel_reservation"]);
 * ```
 */
export function reckless(): AgentFactory {
  return ({ domain }) =>
    new PlaybookAgent(
      "reckless",
      adaptSolver(domain.solver({ confirm: false, verify: false }), { retry: false }),
      0.9,
    );
}

/**
 * The literal agent: the oracle's playbook, but it reads the tools' parameter names literally
 * (ignores `AgentContext.hints`) and never retries after a fault. Under the nominal condition it
 * is the oracle.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { getDomain, Rng, runEpisode, scriptedUser, World } from "../envs/mod.ts";
 * import { literal } from "./scripted.ts";
 * const domain = getDomain("airline");
 * using world = World.open(domain);
 * const task = world.defaultTasks(1)[0]; // "airline/0": cancel reservation ZH45RN
 * const rng = new Rng("0");
 * const agent = literal()({ rng: rng.child("agent"), domain, task });
 * const user = scriptedUser(task, rng.child("user"), { tools: domain.tools });
 * const { events, success } = await runEpisode(world, { task, agent, user, rng });
 * const tools = events.flatMap((e) => e.kind === "tool" ? [e.tool] : []);
 * assertEquals([tools, success], [["get_user_details", "get_reservation_details", "cancel_reservation"], true]);
 * ```
 */
export function literal(): AgentFactory {
  return ({ domain }) =>
    new PlaybookAgent(
      "literal",
      adaptSolver(domain.solver({ confirm: true, verify: true }), { retry: false, adapt: false }),
      1,
    );
}

/**
 * The noisy agent: the oracle (retries and adaptation included) with seeded per-step errors and
 * a confidence that drops once it has erred.
 *
 * @example
 * ```ts
 * import { assertThrows } from "@std/assert";
 * import { noisy } from "./scripted.ts";
 * noisy({ rates: { wrongArgument: 0.1 } });
 * assertThrows(() => noisy({ rates: { wrongArgument: 1 } }), RangeError, "they add up to 1.05, more than 1");
 * ```
 */
export function noisy(options: NoisyOptions = {}): AgentFactory {
  const rates = resolveRates(options.rates ?? {});
  const clean = options.confidence?.clean ?? 0.9;
  const erred = options.confidence?.erred ?? 0.3;
  for (const [name, c] of [["clean", clean], ["erred", erred]] as const) {
    if (!(c >= 0 && c <= 1)) throw new RangeError(`Invalid ${name} confidence ${c}: expected a number in [0, 1]`);
  }
  return ({ domain, rng }) =>
    new NoisyAgent(adaptSolver(domain.solver({ confirm: true, verify: true })), rng, rates, clean, erred);
}

function resolveRates(partial: Partial<ErrorRates>): ErrorRates {
  const rates = { ...DEFAULT_RATES, ...partial };
  for (const kind of ERROR_KINDS) {
    const r = rates[kind];
    if (!(typeof r === "number" && r >= 0 && r <= 1)) {
      throw new RangeError(`Invalid error rate ${kind} ${r}: expected a number in [0, 1]`);
    }
  }
  const total = ERROR_KINDS.reduce((s, k) => s + rates[k], 0);
  if (total > 1 + 1e-12) throw new RangeError(`Invalid error rates: they add up to ${total}, more than 1`);
  return rates;
}

class NoisyAgent implements Agent {
  readonly name = "noisy";
  readonly #solver: AdaptedSolver;
  readonly #rng: Rng;
  readonly #rates: ErrorRates;
  readonly #clean: number;
  readonly #erred: number;
  #errors = 0;
  #toolNames: string[] = [];
  #writes = new Set<string>();

  constructor(solver: AdaptedSolver, rng: Rng, rates: ErrorRates, clean: number, erred: number) {
    this.#solver = solver;
    this.#rng = rng;
    this.#rates = rates;
    this.#clean = clean;
    this.#erred = erred;
  }

  start(ctx: AgentContext): void {
    this.#solver.start(ctx.hints);
    this.#toolNames = ctx.tools.map((t) => t.name).sort();
    this.#writes = new Set(ctx.tools.filter((t) => t.writes).map((t) => t.name));
  }

  /** Which error (if any) happens this step: one uniform draw against the cumulative rates. */
  #drawError(): typeof ERROR_KINDS[number] | null {
    let u = this.#rng.next();
    for (const kind of ERROR_KINDS) {
      u -= this.#rates[kind];
      if (u < 0) return kind;
    }
    return null;
  }

  step(obs: Observation): AgentAction {
    const error = this.#drawError();
    const action = this.#solver.next(obs);
    if (error === "prematureEnd") {
      this.#errors++;
      return { type: "end" };
    }
    if (action.type === "message" && action.intent?.kind === "propose" && error === "skippedConfirmation") {
      this.#errors++;
      // Act as if the user had said yes.
      return this.#solver.next({
        step: obs.step,
        message: { role: "user", text: "Yes.", intent: { kind: "confirm" } },
      });
    }
    if (action.type !== "tool") return action;
    if (error === "skippedLookup" && !this.#writes.has(action.name)) {
      this.#errors++;
      // The look-up is not made: go on without its result.
      return this.#solver.next({
        step: obs.step,
        tool: {
          name: action.name,
          args: action.args,
          ok: false,
          error: { code: "not_found", message: "look-up skipped" },
        },
      });
    }
    if (error === "wrongArgument") {
      this.#errors++;
      return { type: "tool", name: action.name, args: mutate(action.args, this.#rng.child("mutate", obs.step)) };
    }
    if (error === "wrongTool" && this.#toolNames.length > 1) {
      this.#errors++;
      const others = this.#toolNames.filter((n) => n !== action.name);
      return { type: "tool", name: this.#rng.pick(others), args: action.args };
    }
    return action;
  }

  finish(): AgentReport {
    const abstained = this.#solver.abstained();
    return {
      confidence: this.#errors > 0 ? this.#erred : this.#clean,
      confidenceSource: "stated",
      ...(abstained ? { abstained } : {}),
    };
  }
}
