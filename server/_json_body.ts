// What the server accepts of a JSON body, on every route that reads one (the episode API and MCP): it
// parses and it nests at most `BODY_DEPTH` levels (a tool call's arguments are held to the world's own
// `TOOL_LIMITS` by each route, with `argsProblem()`). Checked before an episode sees the body, so no
// value can overflow the stack of what walks it later (the trajectory's copy, the record, a page).
import { TOOL_LIMITS } from "../envs/mod.ts";

/** How deep a body may nest: a tool call's arguments, and the envelope around them (a JSON-RPC batch puts them three levels down). */
export const BODY_DEPTH: number = TOOL_LIMITS.argsDepth + 4;

const tooDeep = `Invalid body: JSON nested deeper than ${BODY_DEPTH} levels ` +
  `(a tool call's arguments may nest at most ${TOOL_LIMITS.argsDepth})`;

/** The body's value, or what is wrong with it: not JSON (or too deep for the engine's parser). */
export function parseBody(text: string): { value: unknown } | { error: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    // An engine whose parser recurses runs out of stack on deep nesting: the same refusal as below.
    if (err instanceof RangeError) return { error: tooDeep };
    return { error: `Invalid JSON body: ${(err as Error).message}` };
  }
  return { value };
}

/** What is wrong with a body's nesting (deeper than `BODY_DEPTH`), or `null`; walked without recursion. */
export function depthProblem(value: unknown): string | null {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== "object") continue;
    if (depth >= BODY_DEPTH) return tooDeep;
    for (const x of Object.values(v)) stack.push([x, depth + 1]);
  }
  return null;
}
