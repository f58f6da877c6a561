/**
 * A generic adapter around a domain's playbook (`Solver`): it retries tool calls that failed
 * with an injected fault, and it follows the hints of a perturbed interface (renamed arguments,
 * another date format, wrapped results, formatted numbers, renamed result keys), translating the
 * playbook's canonical arguments out and the perturbed results back in. It is driven only by
 * observations and `AgentContext.hints`, never by domain or tool names.
 *
 * @module
 */
import type { AgentAction, Json, Observation, Solver, ToolResult } from "../envs/mod.ts";

/**
 * What an `env` condition tells an agent about its perturbed tools, as
 * `AgentContext.hints.perturbation` (JSON). Canonical names and ISO dates are the domain's own.
 */
export interface PerturbationHints {
  /** Argument names, canonical → shown (at any depth); names not listed are unchanged. */
  names: Record<string, string>;
  /** The date format of arguments and results when not ISO 8601 (`YYYY-MM-DD`). */
  dates: "MM/DD/YYYY" | null;
  /** Whether results come wrapped as `{ status: "ok", data: <result> }`. */
  wrapped: boolean;
  /** Whether numbers in results come as strings with thousands separators, e.g. `"1,234.5"`. */
  numbers: "formatted" | null;
  /** Keys of results, canonical → shown (at any depth); keys not listed are unchanged. */
  columns: Record<string, string>;
  /** Whether the keys of results and schemas come in another order (nothing to undo). */
  reordered: boolean;
}

/** Options of `adaptSolver()`. */
export interface AdaptOptions {
  /**
   * Retry a tool call that failed with error code `"fault"` (an injected fault never ran, so a
   * retry is safe for reads and writes alike). Without it the agent gives up at the first fault.
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
   * Retries of one call before giving up.
   * @default {3}
   */
  maxRetries?: number;
}

/** A playbook wrapped by `adaptSolver()`: told the episode's hints at the start. */
export interface AdaptedSolver extends Solver {
  start(hints?: Record<string, Json>): void;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?=$|[T ])/;
const US_DATE = /^(\d{2})\/(\d{2})\/(\d{4})(?=$|[T ])/;
const FORMATTED_NUMBER = /^-?\d{1,3}(?:,\d{3})*(?:\.\d+)?$/;

/**
 * The hints of a perturbed interface in an episode's `AgentContext.hints`, or `null` when there are none.
 *
 * @example
 * ```ts
 * import { perturbationHints } from "./adapt.ts";
 * perturbationHints({}); // null
 * ```
 */
export function perturbationHints(hints: Record<string, Json> | undefined): PerturbationHints | null {
  const p = hints?.perturbation;
  if (p === null || typeof p !== "object" || Array.isArray(p)) return null;
  const map = (v: Json | undefined): Record<string, string> =>
    v !== null && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).filter((e): e is [string, string] => typeof e[1] === "string"))
      : {};
  return {
    names: map(p.names),
    dates: p.dates === "MM/DD/YYYY" ? "MM/DD/YYYY" : null,
    wrapped: p.wrapped === true,
    numbers: p.numbers === "formatted" ? "formatted" : null,
    columns: map(p.columns),
    reordered: p.reordered === true,
  };
}

/**
 * Canonical tool arguments in the shown interface: names renamed, ISO dates in the shown format.
 *
 * @example
 * ```ts
 * import { encodeArgs } from "./adapt.ts";
 * const hints = { names: { user_id: "userId" }, dates: "MM/DD/YYYY" as const, wrapped: false, numbers: null, columns: {}, reordered: false };
 * encodeArgs({ user_id: "mia_li_3668", date: "2024-05-16" }, hints); // { userId: "mia_li_3668", date: "05/16/2024" }
 * ```
 */
export function encodeArgs(args: unknown, hints: PerturbationHints): unknown {
  if (Array.isArray(args)) return args.map((a) => encodeArgs(a, hints));
  if (args !== null && typeof args === "object") {
    return Object.fromEntries(
      Object.entries(args).map(([k, v]) => [hints.names[k] ?? k, encodeArgs(v, hints)]),
    );
  }
  if (typeof args === "string" && hints.dates !== null) return args.replace(ISO_DATE, "$2/$3/$1");
  return args;
}

/**
 * A perturbed tool result back in the canonical interface: unwrapped, keys renamed back, dates
 * in ISO 8601, formatted numbers as numbers.
 *
 * @example
 * ```ts
 * import { decodeResult } from "./adapt.ts";
 * const hints = { names: {}, dates: null, wrapped: true, numbers: "formatted" as const, columns: { flight_number: "flightNo" }, reordered: true };
 * decodeResult({ status: "ok", data: { price: "1,234", flightNo: "HAT001" } }, hints); // { price: 1234, flight_number: "HAT001" }
 * ```
 */
export function decodeResult(result: Json, hints: PerturbationHints): Json {
  let value = result;
  if (hints.wrapped && value !== null && typeof value === "object" && !Array.isArray(value) && "data" in value) {
    value = value.data;
  }
  const columns = new Map(Object.entries(hints.columns).map(([canonical, shown]) => [shown, canonical]));
  const date = (s: string) => hints.dates === null ? s : s.replace(US_DATE, "$3-$1-$2");
  const walk = (v: Json): Json => {
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === "object") {
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [date(columns.get(k) ?? k), walk(x)]));
    }
    if (typeof v !== "string") return v;
    if (hints.numbers !== null && FORMATTED_NUMBER.test(v)) return Number(v.replaceAll(",", ""));
    return date(v);
  };
  return walk(value);
}

const END: AgentAction = { type: "end" };

/**
 * Wraps a playbook so that it retries faulted calls and follows a perturbed interface's hints.
 * A fault the adapter will not retry (retries off, or `maxRetries` spent) makes the agent tell
 * the user it cannot go on and end: the playbook never sees an error with code `"fault"`.
 *
 * @example
 * ```ts
 * import { adaptSolver } from "./adapt.ts";
 * const solver = adaptSolver({ next: () => ({ type: "tool", name: "look", args: { user_id: "u1" } }) });
 * solver.start({ perturbation: { names: { user_id: "userId" } } });
 * solver.next({ step: 0 }); // { type: "tool", name: "look", args: { userId: "u1" } }
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

  constructor(solver: Solver, options: AdaptOptions) {
    this.#solver = solver;
    this.#retry = options.retry ?? true;
    this.#adapt = options.adapt ?? true;
    this.#maxRetries = options.maxRetries ?? 3;
    if (!(Number.isInteger(this.#maxRetries) && this.#maxRetries >= 0)) {
      throw new RangeError(`Invalid maxRetries ${options.maxRetries}: expected a whole number of at least 0`);
    }
  }

  start(hints?: Record<string, Json>): void {
    this.#hints = this.#adapt ? perturbationHints(hints) : null;
    this.#last = null;
    this.#retries = 0;
    this.#gaveUp = false;
  }

  next(obs: Observation): AgentAction {
    if (this.#gaveUp) return END;
    let seen = obs;
    if (obs.tool) {
      if (!obs.tool.ok && obs.tool.error?.code === "fault") {
        if (this.#retry && this.#last !== null && this.#retries < this.#maxRetries) {
          this.#retries++;
          return this.#last.action;
        }
        this.#gaveUp = true;
        return {
          type: "message",
          text: `I'm sorry, our system is not responding right now (${obs.tool.error.message}). ` +
            "Please try again later.",
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
