// What an episode looks like to an MCP client: its tools (the world's, as the condition shows them,
// plus the two that talk to the user and end the episode), its instructions and its resources, and
// how each tool call becomes an action of the episode.
import type { Intent, Json } from "../envs/mod.ts";
import type { CallToolResult, McpTool } from "./_mcp_sdk.ts";
import type { EpisodeOpening, RemoteEpisode } from "./session.ts";
import { EndSchema, EpisodeError, MessageSchema, MessageTextSchema } from "./_requests.ts";

/** The tool that says something to the user. */
export const SEND_MESSAGE = "send_message_to_user";
/** The tool that ends the episode and gives its grade. */
export const END_EPISODE = "end_episode";

const ENDED_HINT = `call ${END_EPISODE} for the grade and the record`;

/** The tools an episode offers: the world's, then the two of the protocol. */
export function episodeTools(opening: EpisodeOpening, options: { intents: boolean }): McpTool[] {
  const world = opening.tools.map(({ function: f }): McpTool => {
    if (f.name === SEND_MESSAGE || f.name === END_EPISODE) {
      throw new Error(`World tool "${f.name}" has the name of an MCP protocol tool`);
    }
    return { name: f.name, description: f.description, inputSchema: objectSchema(f.parameters) };
  });
  const text = { type: "string", minLength: 1, description: "What to say to the user." };
  const intent = {
    type: "object",
    properties: { kind: { type: "string" } },
    required: ["kind"],
    description: "The playbook protocol's structured meaning of the message, for scripted agents.",
  };
  return [
    ...world,
    {
      name: SEND_MESSAGE,
      description: "Say something to the user; returns the user's reply, or says that the user ended the conversation.",
      inputSchema: {
        type: "object",
        properties: options.intents ? { text, intent } : { text },
        required: ["text"],
        additionalProperties: false,
      },
    },
    {
      name: END_EPISODE,
      description: "End the episode (when the conversation is over) and get its grade, violations, milestones " +
        "and record as JSON.",
      inputSchema: {
        type: "object",
        properties: {
          confidence: { type: "number", minimum: 0, maximum: 1, description: "How sure you are the task was done." },
        },
        additionalProperties: false,
      },
    },
  ];
}

// MCP wants every input schema to be an object schema; a world's tools always take an object.
function objectSchema(parameters: Record<string, unknown>): McpTool["inputSchema"] {
  return { ...parameters, type: "object" } as McpTool["inputSchema"];
}

/** The server's instructions: the policy, the user's opening message and how to talk and end. */
export function episodeInstructions(opening: EpisodeOpening): string {
  const said = opening.messages.map((m) => m.text.split("\n").map((line) => `> ${line}`).join("\n"));
  const hints = opening.hints === undefined
    ? []
    : ["", "Notes on this interface:", "```json", JSON.stringify(opening.hints, null, 2), "```"];
  return [
    opening.policy.trimEnd(),
    "",
    "---",
    "",
    "The user's opening message:",
    "",
    ...said,
    "",
    `Answer the user with ${SEND_MESSAGE}; when the conversation is over, ${ENDED_HINT}.`,
    ...hints,
  ].join("\n");
}

/** The resources an episode offers: its policy, its opening and its trajectory so far. */
export const RESOURCES = [
  { uri: "ark://episode/policy", name: "policy", description: "The domain's policy", mimeType: "text/markdown" },
  {
    uri: "ark://episode/opening",
    name: "opening",
    description: "The user's opening message, and the interface's notes when the condition gives any",
    mimeType: "application/json",
  },
  {
    uri: "ark://episode/trajectory",
    name: "trajectory",
    description: "The conversation and tool calls so far",
    mimeType: "application/json",
  },
] as const;

/** A resource's text, or `undefined` for a URI the episode has not. */
export function readResource(
  uri: string,
  episode: RemoteEpisode,
  opening: EpisodeOpening,
  options: { intents: boolean },
): string | undefined {
  // Without intents, a client sees what a language agent sees in-process: the text alone.
  const shown = <T extends { intent?: unknown }>(m: T) => options.intents ? m : { ...m, intent: undefined };
  if (uri === RESOURCES[0].uri) return opening.policy;
  if (uri === RESOURCES[1].uri) {
    const messages = opening.messages.map(shown);
    return JSON.stringify({ messages, ...(opening.hints ? { hints: opening.hints } : {}) });
  }
  if (uri === RESOURCES[2].uri) {
    return JSON.stringify(episode.trajectory().map((item) => "role" in item ? shown(item) : item));
  }
  return undefined;
}

/**
 * Runs one tool call on the episode: a protocol tool's, or the world's (any other name, so an unknown
 * tool is the world's to refuse, as in-process). A refused call or bad arguments give `isError`.
 */
export async function callTool(
  episode: RemoteEpisode,
  name: string,
  args: Record<string, unknown> | undefined,
  options: { intents: boolean },
): Promise<CallToolResult> {
  try {
    if (name === SEND_MESSAGE) return await sendMessage(episode, args ?? {}, options);
    if (name === END_EPISODE) return await endEpisode(episode, args ?? {});
    const outcome = await episode.tool(name, (args ?? {}) as Json);
    const content: CallToolResult["content"] = [];
    if (outcome.tool) {
      const { ok, result, error } = outcome.tool;
      content.push({ type: "text", text: JSON.stringify(ok ? result ?? null : { error }) });
    }
    if (outcome.ended) content.push({ type: "text", text: `The episode has ended: ${ENDED_HINT}` });
    return { content, ...(outcome.tool?.ok === false ? { isError: true } : {}) };
  } catch (err) {
    if (!(err instanceof EpisodeError)) throw err;
    // The episode's own wording names the HTTP route; over MCP the way on is end_episode.
    const text = err.code === "conflict" ? `The episode has ended: ${ENDED_HINT}` : err.message;
    return refused(text);
  }
}

async function sendMessage(
  episode: RemoteEpisode,
  args: Record<string, unknown>,
  options: { intents: boolean },
): Promise<CallToolResult> {
  const accepted = options.intents ? "{text: string, intent?: {kind: string, ...}}" : "{text: string}";
  // The HTTP API's schema; the refusal keeps the tool's own words (what the arguments were, in full).
  const parsed = (options.intents ? MessageSchema : MessageTextSchema).safeParse(args);
  if (!parsed.success) {
    if (parsed.error.issues.every((i) => i.path[0] === "intent")) {
      return refused(`Invalid intent ${JSON.stringify(args.intent)}: expected an object with a string "kind"`);
    }
    return refused(`Invalid ${SEND_MESSAGE} arguments ${JSON.stringify(args)}: expected ${accepted}`);
  }
  const { text, intent } = parsed.data as { text: string; intent?: Intent };
  const outcome = await episode.message(text, intent);
  if (outcome.message) {
    const { message } = outcome;
    // A scripted agent reads the reply's intent; `structuredContent` carries it beside the text.
    const structured = options.intents && message.intent ? { structuredContent: { ...message } } : {};
    return { content: [{ type: "text", text: message.text }], ...structured };
  }
  return { content: [{ type: "text", text: `The user ended the conversation: ${ENDED_HINT}` }] };
}

async function endEpisode(episode: RemoteEpisode, args: Record<string, unknown>): Promise<CallToolResult> {
  const parsed = EndSchema.safeParse(args);
  if (!parsed.success) {
    return refused(
      `Invalid ${END_EPISODE} arguments ${JSON.stringify(args)}: expected {confidence?: number in [0, 1]}`,
    );
  }
  const verdict = await episode.end(parsed.data.confidence);
  return { content: [{ type: "text", text: JSON.stringify(verdict) }] };
}

function refused(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}
