// What a served request may hold, declared once for the episode API's bodies (`server/api.ts`), the
// MCP endpoint's query and tool arguments (`server/mcp.ts`) and an in-process `RemoteEpisode.open()`
// (`server/session.ts`), with the one-line words that refuse one. What needs the world (the domain, the
// task, a variant of the condition) is the episode's to check.
import { z } from "zod";
import { argsProblem } from "../envs/mod.ts";
import { type Condition, CONDITIONS } from "../vocabulary/mod.ts";

/** What starts an episode: the task and, optionally, the cell it is of in an experiment. */
export interface EpisodeRequest {
  /** A registered domain's name. */
  domain: string;
  /** The task id: `<domain>/<index>`, or `abstention:<domain>/<n>` for an abstention scenario. */
  task: string;
  /**
   * The experiment seed the cell's seed derives from.
   * @default {"0"}
   */
  seed?: string;
  /**
   * The condition: `nominal`, `fault`, `env` or `prompt` (an abstention scenario: `nominal` only,
   * as the plan runs it).
   * @default {"nominal"}
   */
  condition?: Condition;
  /**
   * The condition's variant (`p0.2`, a preset, `j1`…); `null` for nominal.
   * @default {the condition's first variant}
   */
  variant?: string | null;
  /**
   * The agent's name, as records and the cell's seed take it (so a remote run of an agent is the
   * same cell as `deno task eval` would run for it).
   * @default {"remote"}
   */
  agent?: string;
  /**
   * The run index.
   * @default {0}
   */
  run?: number;
}

/** An episode request refused: what was wrong and what is accepted. */
export class EpisodeError extends Error {
  /** Which kind of refusal: a bad request, or an action the episode cannot take now. */
  readonly code: "invalid" | "conflict" | "expired";

  /** Makes the error. */
  constructor(code: "invalid" | "conflict" | "expired", message: string) {
    super(message);
    this.name = "EpisodeError";
    this.code = code;
  }
}

const AGENT_NAME = /^[A-Za-z0-9_.@-]{1,64}$/;
const agentRule = 'expected 1 to 64 letters, digits, "_", ".", "@" or "-"';
const runRule = "expected a whole number of at least 0";
const confidenceRule = "expected a number in [0, 1]";

/** An episode request (`EpisodeRequest`): its seed, given as a number, becomes a string. */
export const EpisodeRequestSchema: z.ZodType<EpisodeRequest, unknown> = z.object({
  domain: z.string({ error: "expected a domain name" }),
  task: z.string({ error: 'expected a task id, "<domain>/<index>"' }),
  seed: z.union([z.string(), z.number()], { error: "expected a seed (string or number)" }).transform(String)
    .optional(),
  condition: z.enum(CONDITIONS, { error: `expected one of ${CONDITIONS.join(", ")}` }).optional(),
  variant: z.string({ error: "expected a variant name or null" }).nullable().optional(),
  agent: z.string({ error: agentRule }).regex(AGENT_NAME, { error: agentRule }).optional(),
  run: z.number({ error: runRule }).int({ error: runRule }).min(0, { error: runRule }).optional(),
}).strict();

/** A tool call: the tool's name and its arguments, held to the world's own limits (`argsProblem()`). */
export const ToolCallSchema = z.object({
  name: z.string({ error: "expected the tool's name" }).min(1, { error: "expected the tool's name" }),
  arguments: z.record(z.string(), z.unknown(), { error: "expected an object of arguments" }).default({})
    .superRefine((args, ctx) => {
      const problem = argsProblem(args);
      if (problem !== null) ctx.addIssue({ code: "custom", message: problem });
    }),
}).strict();

/**
 * A message to the user, with any intent kind (one the scripted user does not answer gets a nudge);
 * `MessageTextSchema` is the same without the intent, for a client that is not told of intents.
 */
export const MessageSchema = z.object({
  text: z.string({ error: "expected the message's text" }).min(1, { error: "expected a non-empty text" }),
  intent: z.object({ kind: z.string({ error: 'expected a string "kind"' }) }, {
    error: 'expected an object with a string "kind"',
  }).passthrough().optional(),
}).strict();

/** A message to the user without an intent (see `MessageSchema`). */
export const MessageTextSchema = MessageSchema.omit({ intent: true }).strict();

/** The end of an episode, with the agent's confidence in [0, 1]. */
export const EndSchema = z.object({
  confidence: z.number({ error: confidenceRule }).min(0, { error: confidenceRule })
    .max(1, { error: confidenceRule }).optional(),
}).strict();

/** How a refusal names where it found the problem: a body's field, or a query's parameter. */
export interface RequestWords {
  /** One named part: `field`, `query parameter`. */
  part: string;
  /** The whole: `body`, `request`. */
  whole: string;
}

/** The words of a JSON body's refusals. */
export const BODY_WORDS: RequestWords = { part: "field", whole: "body" };

/**
 * A value checked against one of the schemas above: the parsed value, or what refuses it in one line
 * naming each part that is wrong, what is accepted and (for a short value) what was given.
 */
export function checkRequest<T>(
  schema: z.ZodType<T, unknown>,
  value: unknown,
  words: RequestWords,
): { value: T } | { error: string } {
  const parsed = schema.safeParse(value, { reportInput: true });
  if (parsed.success) return { value: parsed.data };
  const shape = schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
  return { error: parsed.error.issues.map((issue) => describe(issue, shape, words)).join("; ") };
}

function describe(issue: z.core.$ZodIssue, accepted: readonly string[], words: RequestWords): string {
  if (issue.code === "unrecognized_keys") {
    const keys = issue.keys.map((k) => JSON.stringify(k)).join(", ");
    return `Unknown ${words.part} ${keys}: expected ${accepted.join(", ")}`;
  }
  if (issue.path.length === 0) return `Invalid ${words.whole}: ${issue.message}`;
  const name = `"${issue.path.join(".")}"`;
  if (issue.code === "invalid_type" && issue.input === undefined) {
    return `Missing ${words.part} ${name}: ${issue.message}`;
  }
  return `Invalid ${words.part} ${name}: ${issue.message}${given(issue.input)}`;
}

// What was given, when it is short enough to quote.
function given(input: unknown): string {
  if (!["string", "number", "boolean"].includes(typeof input)) return "";
  const text = JSON.stringify(input);
  return text.length <= 80 ? `, got ${text}` : "";
}
