/**
 * Tools: `defineTool()`, the `ToolError` a tool throws, argument validation and
 * the JSON Schema that model APIs take.
 *
 * @module
 */
import { z } from "zod";
import type { SqlEnv, Store } from "./sqlite.ts";
import type { Json, Tool, ToolContext, ToolErrorCode } from "./types.ts";
import type { Detail, WriteTerms } from "./constraints.ts";

/**
 * A failure of a tool that the agent is shown (not a bug).
 *
 * @example
 * ```ts
 * import { ToolError } from "./tool.ts";
 * const err = new ToolError("not_found", "reservation not found");
 * err.code; // "not_found"
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
type ZodType = z.ZodType;

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
 * import { z } from "zod";
 * import { defineTool } from "./tool.ts";
 * const think = defineTool({
 *   name: "think",
 *   description: "Think out loud; changes nothing.",
 *   input: z.object({ thought: z.string() }),
 *   writes: false,
 *   run: () => "",
 * });
 * think.terminates; // false
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

function describeIssue(issue: z.core.$ZodIssue): string {
  const path = issue.path.map((p, i) => typeof p === "number" ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`).join(
    "",
  );
  return path ? `"${path}": ${issue.message}` : issue.message;
}

/**
 * The arguments whose values identify the customer of a tool's call (`Tool.identifies` as a
 * list); empty when the tool identifies nobody.
 *
 * @example
 * ```ts
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
 * identifyingArgs(lookUp); // ["user_id"]
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
 * import { z } from "zod";
 * import { defineTool, needsYes } from "./tool.ts";
 * const note = defineTool({ name: "note", description: "A note.", input: z.object({}), writes: true, confirm: false, run: () => "" });
 * const refund = defineTool({ name: "refund", description: "Refunds.", input: z.object({}), writes: true, run: () => "" });
 * [needsYes(note), needsYes(refund)]; // [false, true]
 * ```
 */
export function needsYes(tool: Pick<Tool, "writes" | "confirm" | "irreversible">): boolean {
  return tool.writes && (tool.confirm !== false || tool.irreversible === true);
}

/**
 * Checks a tool's arguments against its schema; throws a `ToolError` with code
 * `invalid_args` naming the first wrong field.
 *
 * @example
 * ```ts
 * import { z } from "zod";
 * import { defineTool, parseArgs } from "./tool.ts";
 * const echo = defineTool({ name: "echo", description: "", input: z.object({ n: z.number() }), writes: false, run: (_c, a) => a.n });
 * parseArgs(echo, { n: 1 }); // { n: 1 }
 * ```
 */
export function parseArgs<I>(tool: Tool<I>, args: unknown): I {
  const parsed = tool.input.safeParse(args ?? {});
  if (!parsed.success) {
    const issues = parsed.error.issues;
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : "";
    throw new ToolError("invalid_args", `Invalid arguments for "${tool.name}": ${describeIssue(issues[0])}${more}`);
  }
  return parsed.data;
}

/**
 * Validates the arguments and runs the tool; read tools run with writes refused.
 * Errors other than `ToolError` are bugs and propagate.
 */
export function callTool<I>(ctx: ToolContext, tool: Tool<I>, args: unknown): Json {
  const problem = argsProblem(args);
  if (problem !== null) throw new ToolError("invalid_args", `Invalid arguments for "${tool.name}": ${problem}`);
  const parsed = parseArgs(tool, args);
  const run = () => tool.writes ? tool.run(ctx, parsed) : ctx.db.readOnly(() => tool.run(ctx, parsed));
  const result = ctx.db.withEnv(sqlEnv(ctx), run);
  const size = jsonSize(result, TOOL_LIMITS.resultBytes);
  if (size > TOOL_LIMITS.resultBytes) {
    throw new ToolError(
      "invalid_args",
      `The answer of "${tool.name}" is over ${TOOL_LIMITS.resultBytes} bytes; ask for less (a narrower range or filter)`,
    );
  }
  return result;
}

/**
 * What the world accepts of every tool call, whoever wrote the tool: arguments nested at most
 * `argsDepth` levels and at most `argsBytes` long as JSON, and an answer at most `resultBytes` long.
 * A call past them is an `invalid_args` error the agent sees; the tool never runs on such arguments.
 */
export const TOOL_LIMITS: Readonly<{ argsDepth: number; argsBytes: number; resultBytes: number }> = {
  argsDepth: 64,
  argsBytes: 64 * 1024,
  resultBytes: 1024 * 1024,
};

/**
 * Why a call's arguments are past `TOOL_LIMITS` (too deep or too long), or `null`. It walks the
 * value without recursion, so arguments nested 200,000 levels deep are answered, not a stack overflow.
 *
 * @example
 * ```ts
 * import { argsProblem } from "./tool.ts";
 * argsProblem({ order_id: 1 }); // null
 * let deep: unknown = 1;
 * for (let i = 0; i < 100; i++) deep = { x: deep };
 * argsProblem(deep); // "they nest deeper than 64 levels"
 * ```
 */
export function argsProblem(args: unknown): string | null {
  // Counting stops past the cap, so the walk below reads at most about that much.
  if (jsonSize(args, TOOL_LIMITS.argsBytes) > TOOL_LIMITS.argsBytes) {
    return `they are over ${TOOL_LIMITS.argsBytes} bytes as JSON`;
  }
  const stack: [unknown, number][] = [[args, 0]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (value === null || typeof value !== "object") continue;
    if (depth >= TOOL_LIMITS.argsDepth) return `they nest deeper than ${TOOL_LIMITS.argsDepth} levels`;
    for (const v of Object.values(value)) stack.push([v, depth + 1]);
  }
  return null;
}

// About how long a value is as JSON, counted without recursion; it stops counting once past `cap`.
function jsonSize(value: unknown, cap: number): number {
  let size = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && size <= cap) {
    const v = stack.pop();
    if (typeof v === "string") size += v.length + 2;
    else if (typeof v === "number" || typeof v === "boolean") size += String(v).length;
    else if (v === null || v === undefined) size += 4;
    else if (typeof v === "object") {
      const entries = Object.entries(v);
      size += 2 + entries.length;
      for (const [k, x] of entries) {
        if (!Array.isArray(v)) size += k.length + 3;
        stack.push(x);
      }
    }
  }
  return size;
}

// What SQL reads for 'now' and random() during a call: the context's clock, and a generator of its
// own drawn from the context's seed, so SQL's draws never move the ids a write draws.
const sqlEnvs = new WeakMap<ToolContext, SqlEnv>();

function sqlEnv(ctx: ToolContext): SqlEnv {
  let env = sqlEnvs.get(ctx);
  if (!env) {
    const rng = ctx.rng.child("sql");
    env = { now: () => ctx.clock.iso().replace("T", " "), random: () => rng.next() };
    sqlEnvs.set(ctx, env);
  }
  return env;
}

/**
 * JSON Schema of a tool's arguments: the tool's own `parameters` when it has them, else zod v4's
 * `z.toJSONSchema` of its `input`, without the `$schema` key. Returns a fresh copy.
 *
 * @example
 * ```ts
 * import { z } from "zod";
 * import { defineTool, toolParameters } from "./tool.ts";
 * const echo = defineTool({ name: "echo", description: "", input: z.object({ n: z.number() }), writes: false, run: () => 0 });
 * toolParameters(echo).properties; // { n: { type: "number" } }
 * toolParameters({ ...echo, parameters: { type: "object", properties: { N: { type: "number" } } } }).properties;
 * // { N: { type: "number" } }
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
