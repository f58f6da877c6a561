/**
 * Calling a tool: its arguments checked against its schema and the size limits, a reading tool run
 * under SQLite's authorizer (writes refused), SQL's `'now'` and `random()` answered from the task's
 * clock and generator, and the result bounded.
 *
 * @module
 */
import type { z } from "zod";
import type { Json } from "./json.ts";
import type { SqlEnv } from "./query.ts";
import { type Tool, type ToolContext, ToolError } from "./tool.ts";

/**
 * Checks a tool's arguments against its schema; throws a `ToolError` with code
 * `invalid_args` naming the first wrong field.
 *
 * @example
 * ```ts
 * import { assertEquals, assertThrows } from "@std/assert";
 * import { z } from "zod";
 * import { defineTool, ToolError } from "./tool.ts";
 * import { parseArgs } from "./call.ts";
 * const echo = defineTool({ name: "echo", description: "", input: z.object({ n: z.number() }), writes: false, run: (_c, a) => a.n });
 * assertEquals(parseArgs(echo, { n: 1 }), { n: 1 });
 * assertThrows(() => parseArgs(echo, { n: "one" }), ToolError, 'Invalid arguments for "echo": "n": ');
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
 * import { assertEquals } from "@std/assert";
 * import { argsProblem } from "./call.ts";
 * assertEquals(argsProblem({ order_id: 1 }), null);
 * let deep: unknown = 1;
 * for (let i = 0; i < 100; i++) deep = { x: deep };
 * assertEquals(argsProblem(deep), "they nest deeper than 64 levels");
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

// How long a number is as text (`String(v).length`), without making the text for small integers.
function numberLength(v: number): number {
  if (Number.isInteger(v) && v > -1e9 && v < 1e9) {
    let n = v < 0 ? 2 : 1;
    for (let a = Math.abs(v); a >= 10; a = Math.floor(a / 10)) n++;
    return n;
  }
  return String(v).length;
}

// About how long a value is as JSON, counted without recursion; it stops counting once past `cap`.
function jsonSize(value: unknown, cap: number): number {
  let size = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && size <= cap) {
    const v = stack.pop();
    if (typeof v === "string") size += v.length + 2;
    else if (typeof v === "number") size += numberLength(v);
    else if (typeof v === "boolean") size += v ? 4 : 5;
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

function describeIssue(issue: z.core.$ZodIssue): string {
  const path = issue.path.map((p, i) => typeof p === "number" ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`).join(
    "",
  );
  return path ? `"${path}": ${issue.message}` : issue.message;
}
