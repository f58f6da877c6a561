/**
 * The `fault` condition: a seeded schedule of injected faults around every tool call, and
 * around every model call of a language-model agent.
 *
 * A tool fault is answered without calling the world (`ok: false`, error code `"fault"`, a
 * message of the fault's kind), so a fault never changes the world and a retry is always safe.
 * A model-call fault of a transient kind is what a resilient client absorbs: the wrapper counts
 * one retry and then answers; an `auth` fault raises `ModelError("auth")`, which the agent sees
 * as a failed call (a language-model agent ends the episode with an agent error).
 * `faultDefinition` seeds both schedules from the cell's seed, on separate streams.
 *
 * @module
 */
import { deriveSeed, type EpisodeCondition, Rng, type ToolResult } from "../../envs/mod.ts";
import {
  type ChatOptions,
  type ChatRequest,
  type ChatResponse,
  type ModelClient,
  ModelError,
} from "../../agents/model/mod.ts";
import { type ConditionDefinition, unchangedSetup } from "./condition.ts";

/** The kinds of fault the condition injects, in a fixed order (the schedule picks among them). */
export const FAULT_KINDS = [
  "timeout",
  "server_error",
  "rate_limit",
  "malformed",
  "partial",
  "empty",
  "auth",
  "dependency_down",
] as const;

/** One kind of injected fault. */
export type FaultKind = typeof FAULT_KINDS[number];

/** Options of the fault schedule. */
export interface FaultOptions {
  /** Seed of the schedule (the cell's); call i's fault depends only on (seed, i). */
  seed: string;
  /** Probability of a fault per call, in [0, 1]. */
  p: number;
}

function checkP(p: number): void {
  if (!(p >= 0 && p <= 1)) throw new RangeError(`Invalid fault probability ${p}: expected a number in [0, 1]`);
}

/**
 * The fault of call `index` (0-based) of a schedule, or `null` for none.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { faultAt } from "./faults.ts";
 * assertEquals(faultAt({ seed: "s", p: 0 }, 0), null);
 * assertEquals(faultAt({ seed: "s", p: 1 }, 0) !== null, true);
 * ```
 */
export function faultAt(options: FaultOptions, index: number): FaultKind | null {
  checkP(options.p);
  const rng = new Rng(deriveSeed(options.seed, index));
  if (!rng.chance(options.p)) return null;
  return rng.pick(FAULT_KINDS);
}

/**
 * What a faulted tool call answers: a message in the style of the fault's kind. A partial
 * response shows the first characters of a JSON body (the call's own arguments; the world is
 * never asked).
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { faultMessage } from "./faults.ts";
 * assertEquals(faultMessage("server_error", { reservation_id: "ZFA04Y" }), "503 service unavailable");
 * assertEquals(faultMessage("partial", { reservation_id: "ZFA04Y" }), 'partial response: {"reserv');
 * ```
 */
export function faultMessage(kind: FaultKind, args: unknown): string {
  switch (kind) {
    case "timeout":
      return "timeout: no response within 30 s";
    case "server_error":
      return "503 service unavailable";
    case "rate_limit":
      return "429 too many requests: retry after 1 s";
    case "malformed":
      return "malformed response: <html><body><h1>502 Bad Gateway</h1></body></html>";
    case "partial":
      return `partial response: ${(JSON.stringify(args ?? {}) ?? "{}").slice(0, 8)}`;
    case "empty":
      return "empty response: the server closed the connection without a body";
    case "auth":
      return "401 unauthorized: authentication failed";
    case "dependency_down":
      return "502 bad gateway: an upstream dependency is down";
  }
}

/**
 * The `fault` condition's dispatcher: call i of the episode is faulted as `faultAt(options, i)`
 * says, answered without calling the world; other calls go through unchanged.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { faultCondition } from "./faults.ts";
 * const condition = faultCondition({ seed: "s", p: 1 });
 * const result = condition.dispatch!({ step: 1, name: "look", args: {} }, () => {
 *   throw new Error("never called");
 * });
 * assertEquals([result.ok, result.error?.code, typeof result.fault], [false, "fault", "string"]);
 * ```
 */
export function faultCondition(options: FaultOptions): EpisodeCondition {
  checkP(options.p);
  let calls = 0;
  return {
    dispatch(call, next) {
      const kind = faultAt(options, calls++);
      if (kind === null) return next(call.name, call.args);
      const result: ToolResult = {
        name: call.name,
        args: call.args,
        ok: false,
        error: { code: "fault", message: faultMessage(kind, call.args) },
      };
      return { ...result, fault: kind };
    },
  };
}

/**
 * A model client with injected faults: model call i is faulted as `faultAt(options, i)` says.
 * Transient kinds count one retry on the answer (`ChatResponse.retries`) and then answer;
 * `auth` throws `ModelError("auth")`. `faults` lists the kinds injected so far.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { FakeModelClient } from "../../agents/model/mod.ts";
 * import { FaultyModel } from "./faults.ts";
 * const model = new FaultyModel(new FakeModelClient([{ content: "Hi" }]), { seed: "s", p: 0 });
 * assertEquals((await model.chat({ messages: [{ role: "user", content: "Hello" }] })).content, "Hi");
 * assertEquals(model.faults, []);
 * ```
 */
export class FaultyModel implements ModelClient {
  /** The wrapped client's provider. */
  readonly provider: string;
  /** The wrapped client's model. */
  readonly model: string;
  /** The kinds of fault injected so far, in call order. */
  readonly faults: FaultKind[] = [];
  readonly #inner: ModelClient;
  readonly #options: FaultOptions;
  #calls = 0;

  /** Wraps a client with the schedule of `options`. */
  constructor(inner: ModelClient, options: FaultOptions) {
    checkP(options.p);
    this.provider = inner.provider;
    this.model = inner.model;
    this.#inner = inner;
    this.#options = options;
  }

  /** One call, perhaps faulted. */
  async chat(request: ChatRequest, options?: ChatOptions): Promise<ChatResponse> {
    const kind = faultAt(this.#options, this.#calls++);
    if (kind !== null) this.faults.push(kind);
    if (kind === "auth") throw new ModelError("auth", `${faultMessage(kind, null)} (injected fault)`);
    const response = await this.#inner.chat(request, options);
    return kind === null ? response : { ...response, retries: response.retries + 1 };
  }
}

/**
 * The `fault` condition: each cell's tool calls and its agent's model calls faulted with
 * probability `p_fault`, on two schedules seeded from the cell's seed alone; the record counts
 * the model faults with the tool faults.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { faultDefinition } from "./faults.ts";
 * assertEquals(faultDefinition.models({ nominal: false, fault: { p_fault: 0.2, runs: 5 }, env: false, prompt: false }), []);
 * ```
 */
export const faultDefinition: ConditionDefinition = {
  name: "fault",
  variants: (c) => c.fault === false ? [] : [[`p${c.fault.p_fault}`, c.fault.runs]],
  models: () => [],
  prepare: ({ conditions }) => ({
    setup(cell, { task }) {
      if (conditions.fault === false) throw new RangeError(`Cannot run "${cell.variant}": the fault condition is off`);
      const p = conditions.fault.p_fault;
      let faulty: FaultyModel | null = null;
      return {
        ...unchangedSetup(task),
        condition: faultCondition({ seed: deriveSeed(cell.seed, "faults", "tools"), p }),
        model(client) {
          faulty = new FaultyModel(client, { seed: deriveSeed(cell.seed, "faults", "model"), p });
          return faulty;
        },
        record: () => ({ modelFaults: faulty?.faults.length ?? 0 }),
      };
    },
  }),
};
