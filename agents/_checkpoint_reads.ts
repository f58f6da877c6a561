// What the checkpoint reads of tools, calls and texts: a tool's required fields and enum values, the
// identifiers among a call's arguments or in a text and their shapes, the call a scripted proposal
// names. Private to agents/; checkpoint.ts checks calls with it.
import { type AgentAction, canonicalJson, type Tool, toolParameters } from "../envs/mod.ts";

// What the checks read of a tool's JSON Schema, worked out once per tool.
const SHAPES = new WeakMap<Tool, { required: string[]; enums: string[] }>();
export function shapeOf(tool: Tool): { required: string[]; enums: string[] } {
  let shape = SHAPES.get(tool);
  if (shape === undefined) {
    const schema = toolParameters(tool);
    SHAPES.set(tool, shape = { required: (schema.required as string[] | undefined) ?? [], enums: enumValues(schema) });
  }
  return shape;
}

// The call a scripted agent's proposal names, as canonical JSON; null for a message in free text.
export function proposedCall(action: Extract<AgentAction, { type: "message" }>): string | null {
  return action.intent?.kind === "propose"
    ? canonicalJson({ name: action.intent.call.name, args: action.intent.call.args })
    : null;
}

export const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);

// The identifiers among a call's argument values, each with the argument it is under (the
// innermost key): a string without spaces holding a digit, "_", "@" or "#", or a whole number under
// a key named as an id (`order_id`, `ids`): never an amount the agent worked out, nor a word.
export function identifiers(args: unknown): [key: string, value: string][] {
  const out = new Map<string, [string, string]>();
  const walk = (v: unknown, key: string): void => {
    if (Array.isArray(v)) return v.forEach((x) => walk(x, key));
    if (isObject(v)) return Object.entries(v).forEach(([k, x]) => walk(x, k));
    const id = typeof v === "string" && !/\s/.test(v) && /[0-9_@#]/.test(v)
      ? v
      : typeof v === "number" && Number.isInteger(v) && /(^|_)ids?$/i.test(key)
      ? String(v)
      : null;
    if (id !== null && !out.has(id)) out.set(id, [key, id]);
  };
  walk(args, "");
  return [...out.values()];
}

// The identifier-like tokens of a text: no spaces, holding a digit, "_", "@" or "#" (as `identifiers()`).
export function tokensOf(text: string): string[] {
  return text.split(/[\s,;:!?()"'<>\[\]{}]+/).map((t) => t.replace(/[.]+$/, "")).filter((t) => /[0-9_@#]/.test(t));
}

export const DATE = /^\d{4}-\d{2}-\d{2}/;

// An identifier's shape: letters as "a", digits as "#", the rest kept ("C0412" and "c0999" are "a####").
export function shapeOfId(value: string): string {
  return value.replace(/\p{L}/gu, "a").replace(/\d/g, "#");
}

// Every enum value of a JSON Schema, lower-cased: fixed choices, never invented.
function enumValues(schema: unknown): string[] {
  const out: string[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!isObject(node)) return;
    for (const [k, v] of Object.entries(node)) {
      if (k === "enum" && Array.isArray(v)) {
        out.push(...v.filter((x) => typeof x === "string").map((x) => x.toLowerCase()));
      } else walk(v);
    }
  };
  walk(schema);
  return out;
}
