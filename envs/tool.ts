/**
 * Tools: what a tool is (`Tool`, the `ToolContext` its `run` touches, a `ToolCall`),
 * `defineTool()`, the `ToolError` a tool throws and the JSON Schema that model APIs take
 * (calling a tool, with its arguments checked, is `call.ts`).
 *
 * @module
 */
import { z } from "zod";
import type { Clock } from "./clock.ts";
import type { Json } from "./json.ts";
import type { Rng } from "./rng.ts";
import type { Store } from "./sqlite.ts";
import type { Detail, WriteTerms } from "./terms.ts";

/**
 * A failure of a tool that the agent is shown (not a bug).
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { ToolError } from "./tool.ts";
 * const err = new ToolError("not_found", "reservation not found");
 * assertEquals([err.code, err.message, err.name], ["not_found", "reservation not found", "ToolError"]);
 * ```
 */
export class ToolError extends Error {
  /** What kind of failure it is, e.g. `"not_found"`; the agent sees it beside the message. */
  readonly code: ToolErrorCode;

  /** Makes a tool error with a code and a message shown to the agent. */
  constructor(code: ToolErrorCode, message: string) {
    super(message);
    this.name = "ToolError";
    this.code = code;
  }
}

/**
 * Zod's schema type under a local name: `deno doc --lint` reports any reference to another
 * package's type as private (denoland/deno#27364).
 *
 * @internal
 */
type ZodType<T = unknown> = z.ZodType<T>;

/** Codes of domain failures that the episode loop shows to the agent. */
export type ToolErrorCode = "not_found" | "invalid_args" | "policy" | "fault" | "unknown_tool";

/**
 * What a tool's `run` may touch: the world's database, the simulated clock and seeded randomness.
 *
 * Every run of a task gives its tools the same context, so that a write drawing an id from `rng`
 * or stamping `clock.iso()` makes the same row in the gold replay (`World.goldReplay()`), in every
 * episode of the task (`runEpisode()`) and in a replayed transcript (`replayTrajectory()`): `rng`
 * is the task's own generator, derived from the task id alone (`World.taskContext()`), fresh for
 * each run, and `clock` stands at the domain's `now` for the whole run. The simulated latency of
 * an episode is counted on its events (`latency_ms`), never on the tools' clock. The same calls in
 * the same order therefore give the same results; a tool reads the clock and never advances it.
 */
export interface ToolContext {
  /** The world's database (read tools run under an authorizer that refuses writes). */
  db: Store;
  /** The simulated time, at the domain's `now` for the whole run of a task. */
  clock: Clock;
  /** The task's generator: the same draws in its gold replay and in each of its episodes. */
  rng: Rng;
}

/** A tool an agent can call. Made by `defineTool()`. */
export interface Tool<I = unknown> {
  /** The name agents call it by: 1 to 64 letters, digits, "_" or "-", unique in its domain. */
  name: string;
  /** What the tool does and when to use it, as models are told. */
  description: string;
  /** Zod schema of the arguments; the JSON Schema offered to models is derived from it. */
  input: ZodType<I>;
  /**
   * A JSON Schema of the arguments that overrides the one derived from `input` (what
   * `toolParameters()` returns), e.g. a condition's copy of a tool with renamed parameters.
   * @default {derived from `input`}
   */
  parameters?: Record<string, unknown>;
  /** Whether the tool may change the world. Read tools run under an authorizer that refuses writes. */
  writes: boolean;
  /** Whether calling the tool ends the episode (e.g. a transfer to a human). */
  terminates: boolean;
  /**
   * Whether a successful call hands the conversation over to a human; its string arguments are
   * the hand-over summary (a `transfer` task is earned by such a call with a non-empty summary).
   * @default {false}
   */
  handsOver?: boolean;
  /**
   * Whether a successful call cannot be undone, or only at a cost (cancelling, deleting): it needs
   * the user's explicit approval (the judge's `destructive_operation`).
   * @default {false}
   */
  irreversible?: boolean;
  /**
   * Whether the policy wants the user's explicit yes before this write (the judge's
   * `explicit_confirmation`); `false` for the agent's own notes, e.g. a worksheet of intermediate
   * results. An irreversible write needs its approval whatever this says.
   * @default {true for a write}
   */
  confirm?: boolean;
  /**
   * The arguments whose values, all said by the user, make a successful call establish the
   * customer's identity (the judge's `authentication`): one argument naming the customer, e.g.
   * `"user_id"` of a profile look-up, or several that together find them, e.g. a name and a
   * postal code. The customer identified is `customer(args, db)` when the tool declares it, else
   * the value of the one argument.
   * @default {undefined: the tool identifies nobody}
   */
  identifies?: string | readonly string[];
  /**
   * The customer whose data a call reads or changes, from its arguments (as the world received
   * them) and the world as it was before the episode (read-only); `null` for none or unknown.
   * @default {undefined: the tool concerns no customer's data}
   */
  customer?(args: Json, db: Store): string | null;
  /**
   * A result cut short, for a task whose world answers this reading tool with a partial result
   * (`AbnormalCall` of kind `partial`): e.g. the first rows of a page marked incomplete.
   * @default {undefined: the tool has no partial form; a partial call is answered as a timeout}
   */
  partial?(result: Json): Json;
  /**
   * The key details that must have been said before this write is approved (amounts, new values,
   * what it acts on), from its arguments and the world before the episode (read-only). A detail
   * given as a list is said when any of its values is (e.g. a reservation named by its id or by its
   * price). Strings match as whole tokens, numbers as amounts (see the judge's text checks).
   * @default {every string and number at the top level of the arguments}
   */
  details?(args: Json, db: Store): Detail[];
  /**
   * What a yes to this write agreed to, from its arguments and the world before the episode
   * (read-only): the record, the money it moves, the payment method, the parts it sets and removes.
   * The judge's `explicit_confirmation` finds a write that does more or other than the proposal the
   * user approved said (another card, a higher total, more segments, dropped flights).
   * @default {undefined: only the details are checked}
   */
  terms?(args: Json, db: Store): WriteTerms;
  /**
   * Runs the tool. Returns a JSON-serialisable value or throws a `ToolError`. It touches only
   * `ctx` and its arguments; ids and times it writes come from `ctx.rng` and `ctx.clock`, which
   * are the same in a task's gold replay and in its episodes (see `ToolContext`), so a correct run
   * writes exactly the gold's rows.
   */
  run(ctx: ToolContext, args: I): Json;
}

/** A call of a tool by name with arguments. */
export interface ToolCall {
  /** The tool's name. */
  name: string;
  /** The arguments, by parameter name. */
  args: Record<string, Json>;
}

/**
 * What a zod schema parses a value to (zod's `z.output`), named locally for the same reason.
 *
 * @internal
 */
type Parsed<S extends ZodType> = z.output<S>;

/** What `defineTool()` takes. */
export interface ToolSpec<S extends ZodType> {
  /** The name agents call it by: 1 to 64 letters, digits, "_" or "-". */
  name: string;
  /** What the tool does and when to use it, as models are told. */
  description: string;
  /** Zod schema of the arguments; `run` gets them parsed. */
  input: S;
  /** Whether the tool changes the world. */
  writes: boolean;
  /**
   * Whether calling it ends the episode.
   * @default {false}
   */
  terminates?: boolean;
  /**
   * Whether a successful call hands the conversation over to a human (see `Tool.handsOver`).
   * @default {false}
   */
  handsOver?: boolean;
  /**
   * Whether a successful call cannot be undone, or only at a cost (see `Tool.irreversible`).
   * @default {false}
   */
  irreversible?: boolean;
  /**
   * Whether a write needs the user's explicit yes first (see `Tool.confirm`).
   * @default {true}
   */
  confirm?: boolean;
  /**
   * The argument, or the arguments together, whose values identify the customer (see `Tool.identifies`).
   * @default {undefined}
   */
  identifies?: string | readonly string[];
  /**
   * The customer whose data a call concerns (see `Tool.customer`).
   * @default {undefined}
   */
  customer?(args: Json, db: Store): string | null;
  /**
   * The key details of a write an agent must state first (see `Tool.details`).
   * @default {every string and number at the top level of the arguments}
   */
  details?(args: Json, db: Store): Detail[];
  /**
   * What a yes to the write agreed to (see `Tool.terms`).
   * @default {undefined}
   */
  terms?(args: Json, db: Store): WriteTerms;
  /**
   * The result cut short, for a task whose world answers with a partial result (see `Tool.partial`).
   * @default {undefined}
   */
  partial?(result: Json): Json;
  /** Runs the tool on parsed arguments (see `Tool.run`). */
  run(ctx: ToolContext, args: Parsed<S>): Json;
}

/**
 * Defines a tool.
 *
 * @example
 * ```ts
 * import { assertEquals, assertThrows } from "@std/assert";
 * import { z } from "zod";
 * import { defineTool } from "./tool.ts";
 * const think = defineTool({
 *   name: "think",
 *   description: "Think out loud; changes nothing.",
 *   input: z.object({ thought: z.string() }),
 *   writes: false,
 *   run: () => "",
 * });
 * assertEquals([think.writes, think.terminates, think.handsOver], [false, false, undefined]);
 * assertThrows(() => defineTool({ ...think, name: "think aloud" }), TypeError, 'Cannot define tool "think aloud"');
 * ```
 */
export function defineTool<S extends ZodType>(spec: ToolSpec<S>): Tool<Parsed<S>> {
  if (!/^[a-zA-Z0-9_-]{1,64}$/.test(spec.name)) {
    throw new TypeError(`Cannot define tool "${spec.name}": a name has 1 to 64 letters, digits, "_" or "-"`);
  }
  if (spec.identifies !== undefined) {
    const names = typeof spec.identifies === "string" ? [spec.identifies] : [...spec.identifies];
    const shape = (spec.input as { shape?: Record<string, unknown> }).shape;
    const bad = names.find((n) => !/^[a-zA-Z0-9_]+$/.test(n) || (shape !== undefined && !(n in shape)));
    if (names.length === 0 || bad !== undefined) {
      throw new TypeError(
        `Cannot define tool "${spec.name}": "identifies" must name one or more of its arguments` +
          (bad === undefined ? "" : `, got "${bad}"`),
      );
    }
    if (names.length > 1 && spec.customer === undefined) {
      throw new TypeError(
        `Cannot define tool "${spec.name}": "identifies" names several arguments, so "customer" must say whom they find`,
      );
    }
  }
  const tool: Tool<z.output<S>> = {
    name: spec.name,
    description: spec.description,
    input: spec.input as unknown as z.ZodType<z.output<S>>,
    writes: spec.writes,
    terminates: spec.terminates ?? false,
    run: spec.run,
  };
  // Declared facts only when given, so a tool's shape says what it declares.
  if (spec.handsOver) tool.handsOver = true;
  if (spec.irreversible) tool.irreversible = true;
  if (spec.confirm === false) {
    if (!spec.writes || spec.irreversible) {
      throw new TypeError(
        `Cannot define tool "${spec.name}": "confirm: false" is for a write that can be undone (the agent's own notes)`,
      );
    }
    tool.confirm = false;
  }
  if (spec.identifies !== undefined) {
    tool.identifies = typeof spec.identifies === "string" ? spec.identifies : Object.freeze([...spec.identifies]);
  }
  if (spec.customer) tool.customer = spec.customer;
  if (spec.details) tool.details = spec.details;
  if (spec.terms) tool.terms = spec.terms;
  if (spec.partial) {
    if (spec.writes) throw new TypeError(`Cannot define tool "${spec.name}": only a reading tool has a partial result`);
    tool.partial = spec.partial;
  }
  return tool;
}

/**
 * The arguments whose values identify the customer of a tool's call (`Tool.identifies` as a
 * list); empty when the tool identifies nobody.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { z } from "zod";
 * import { defineTool, identifyingArgs } from "./tool.ts";
 * const lookUp = defineTool({
 *   name: "get_user",
 *   description: "A user's profile.",
 *   input: z.object({ user_id: z.string() }),
 *   writes: false,
 *   identifies: "user_id",
 *   run: () => "",
 * });
 * assertEquals(identifyingArgs(lookUp), ["user_id"]);
 * ```
 */
export function identifyingArgs(tool: Tool): readonly string[] {
  const by = tool.identifies;
  return by === undefined ? [] : typeof by === "string" ? [by] : by;
}

/**
 * Whether a call of the tool changes something only with the user's yes: a write not declared
 * `confirm: false`, or one that cannot be undone (`irreversible`) whatever it declares. What the
 * checkpoint asks a yes for, and what executes a hazardous abstention scenario by default.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { z } from "zod";
 * import { defineTool, needsYes } from "./tool.ts";
 * const note = defineTool({ name: "note", description: "A note.", input: z.object({}), writes: true, confirm: false, run: () => "" });
 * const refund = defineTool({ name: "refund", description: "Refunds.", input: z.object({}), writes: true, run: () => "" });
 * assertEquals([needsYes(note), needsYes(refund)], [false, true]);
 * ```
 */
export function needsYes(tool: Pick<Tool, "writes" | "confirm" | "irreversible">): boolean {
  return tool.writes && (tool.confirm !== false || tool.irreversible === true);
}

/**
 * JSON Schema of a tool's arguments: the tool's own `parameters` when it has them, else zod v4's
 * `z.toJSONSchema` of its `input`, without the `$schema` key. Returns a fresh copy.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { z } from "zod";
 * import { defineTool, toolParameters } from "./tool.ts";
 * const echo = defineTool({ name: "echo", description: "", input: z.object({ n: z.number() }), writes: false, run: () => 0 });
 * assertEquals(toolParameters(echo).properties, { n: { type: "number" } });
 * const renamed = { type: "object", properties: { N: { type: "number" } } };
 * assertEquals(toolParameters({ ...echo, parameters: renamed }).properties, { N: { type: "number" } });
 * ```
 */
export function toolParameters(tool: Tool): Record<string, unknown> {
  if (tool.parameters !== undefined) return structuredClone(tool.parameters);
  const schema = z.toJSONSchema(tool.input as z.ZodType, { io: "input", unrepresentable: "any" }) as Record<
    string,
    unknown
  >;
  delete schema.$schema;
  return schema;
}

/**
 * A tool in the function-calling shape a provider's API takes: OpenAI's
 * `{type: "function", function: {name, description, parameters}}` or Anthropic's
 * `{name, description, input_schema}`.
 */
export function toolSchema(tool: Tool, provider: "openai" | "anthropic"): Record<string, unknown> {
  const parameters = toolParameters(tool);
  return provider === "openai"
    ? { type: "function", function: { name: tool.name, description: tool.description, parameters } }
    : { name: tool.name, description: tool.description, input_schema: parameters };
}
