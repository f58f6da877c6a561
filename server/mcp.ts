/**
 * Each world's tools served over MCP (Streamable HTTP), one MCP session per episode, with the
 * official MCP SDK's web-standard transport: `mcpHandler()` gives a `(Request) => Promise<Response>`
 * to mount at a path (e.g. `app.all("/mcp", (c) => mcp(c.req.raw))`).
 *
 * - The episode is chosen by the endpoint URL's query parameters, read on the client's `initialize`:
 *   `/mcp?domain=airline&task=airline/3&seed=0&condition=nominal&variant=…&agent=…&run=0` (`domain`
 *   and `task` required; the rest as `RemoteEpisode.open()` defaults them). A bad request fails the
 *   `initialize` with HTTP 400 and a one-line JSON-RPC error saying what was wrong.
 * - The MCP session id is the episode's id. The tools are the world's (as the condition shows them,
 *   with their JSON Schema input), plus `send_message_to_user {text}` (returns the user's reply) and
 *   `end_episode {confidence?}` (returns the grade, violations, milestones and record as JSON).
 * - The server's `instructions` hold the domain's policy and the user's opening message; the
 *   resources `ark://episode/policy`, `ark://episode/opening` and `ark://episode/trajectory` hold
 *   the same and the trajectory so far.
 * - Deleting the MCP session, or leaving it idle longer than the limit, expires the episode; a later
 *   request with its id gets 404 saying so.
 * - Every POST body is read here before the SDK sees it: over `maxBodyBytes` is 413; not JSON, a
 *   `tools/call` whose arguments nest deeper than 64 levels or are over 64 KB as JSON (the world's own
 *   limits), or any body nested deeper than 68 levels is 400 with a one-line JSON-RPC error.
 *
 * @module
 */
import {
  type CallToolRequest,
  CallToolRequestSchema,
  ErrorCode,
  isInitializeRequest,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  type ReadResourceRequest,
  ReadResourceRequestSchema,
  Server,
  WebStandardStreamableHTTPServerTransport,
} from "./_mcp_sdk.ts";
import { callTool, episodeInstructions, episodeTools, readResource, RESOURCES } from "./_mcp_tools.ts";
import { depthProblem, parseBody } from "./_json_body.ts";
import { Remembered } from "./_remembered.ts";
import { argsProblem } from "../envs/mod.ts";
import { type EpisodeOpening, RemoteEpisode } from "./session.ts";
import { checkRequest, EpisodeError, type EpisodeRequest, EpisodeRequestSchema } from "./_requests.ts";
import type { ExperimentConfig } from "../eval/mod.ts";

/** Options of the MCP endpoint. */
export interface McpOptions {
  /**
   * The most MCP sessions (episodes) open at once; an `initialize` past it gets 503.
   * @default {100}
   */
  maxSessions?: number;
  /**
   * Seconds a session may go without a request before its episode expires.
   * @default {600}
   */
  idleSeconds?: number;
  /**
   * The largest request body accepted, in bytes (413 past it).
   * @default {1048576}
   */
  maxBodyBytes?: number;
  /**
   * Whether `send_message_to_user` takes the playbook protocol's `intent` too, for scripted agents
   * (language agents never see intents in-process, so it is off for them).
   * @default {false}
   */
  intents?: boolean;
  /** Passed to `RemoteEpisode.open()`: the world seed and experiment settings episodes run with. */
  episodes?: { worldSeed?: string; config?: Partial<ExperimentConfig> };
  /**
   * Makes a new session's (and episode's) id.
   * @default {crypto.randomUUID}
   */
  newId?: () => string;
  /**
   * The clock for the idle limit, in milliseconds.
   * @default {Date.now}
   */
  now?: () => number;
}

/** The MCP endpoint: a request handler that also tells how many sessions are open and closes them. */
export interface McpHandler {
  /** Answers one HTTP request to the endpoint (any path: the mount decides). */
  (req: Request): Promise<Response>;
  /** How many sessions are open. */
  readonly open: number;
  /** Expires every open episode and closes its session. */
  close(): Promise<void>;
  /** Same as `close()`. */
  [Symbol.asyncDispose](): Promise<void>;
}

interface Session {
  episode: RemoteEpisode;
  transport: WebStandardStreamableHTTPServerTransport;
  server: Server;
  lastSeen: number;
  // Tool calls of one session run one after another: an episode takes one action at a time, and a
  // call made while another waits (e.g. on a model-backed user's reply) would be refused otherwise.
  queue: Promise<unknown>;
}

// How many ended sessions are remembered (each for as long as a session may idle), to tell a late
// request why its session is gone.
const REMEMBERED = 1000;

/**
 * Makes the MCP endpoint (see the module doc). Throws a `RangeError` for an option out of range.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { mcpHandler } from "./mcp.ts";
 * await using mcp = mcpHandler({ maxSessions: 10 });
 * // Mounted with e.g. `app.all("/mcp", (c) => mcp(c.req.raw))`; a GET opens no session.
 * const res = await mcp(new Request("http://localhost/mcp?domain=airline&task=airline/0"));
 * assertEquals([res.status, mcp.open], [405, 0]);
 * ```
 */
export function mcpHandler(options: McpOptions = {}): McpHandler {
  const sessions = new Sessions(options);
  return Object.defineProperties((req: Request) => sessions.handle(req), {
    open: { get: () => sessions.open },
    close: { value: () => sessions.close() },
    [Symbol.asyncDispose]: { value: () => sessions.close() },
  }) as McpHandler;
}

// The open sessions, each one episode, and the requests to them.
class Sessions {
  readonly #maxSessions: number;
  readonly #idleMs: number;
  readonly #maxBodyBytes: number;
  readonly #intents: boolean;
  readonly #options: McpOptions;
  readonly #now: () => number;
  readonly #open = new Map<string, Session>();
  // Sessions being opened, counted against the limit while their episode starts.
  #opening = 0;
  // Why each session that ended is gone, for a late request with its id.
  readonly #gone: Remembered<string>;

  constructor(options: McpOptions) {
    this.#maxSessions = positiveInteger("maxSessions", options.maxSessions ?? 100);
    this.#idleMs = positiveInteger("idleSeconds", options.idleSeconds ?? 600) * 1000;
    this.#maxBodyBytes = positiveInteger("maxBodyBytes", options.maxBodyBytes ?? 1_048_576);
    this.#intents = options.intents ?? false;
    this.#now = options.now ?? Date.now;
    this.#options = options;
    this.#gone = new Remembered({ size: REMEMBERED, ms: this.#idleMs, now: this.#now });
  }

  get open(): number {
    return this.#open.size;
  }

  async handle(req: Request): Promise<Response> {
    await this.#sweep();
    const id = req.headers.get("mcp-session-id");
    if (id === null) {
      if (req.method !== "POST") {
        return rpcError(405, ErrorCode.InvalidRequest, `Method ${req.method} needs an MCP session: expected POST`);
      }
      return await this.#start(req);
    }
    const session = this.#open.get(id);
    if (!session) {
      const why = this.#gone.get(id);
      const message = why === undefined
        ? `Unknown MCP session ${JSON.stringify(id)}: initialize a new one`
        : `MCP session ${JSON.stringify(id)} expired: ${why}`;
      return rpcError(404, ErrorCode.InvalidRequest, message);
    }
    session.lastSeen = this.#now();
    // No server-initiated messages: no standing SSE stream (the spec's 405 for GET).
    if (req.method === "GET") return rpcError(405, ErrorCode.InvalidRequest, "No SSE stream: expected POST or DELETE");
    if (req.method !== "POST") return await session.transport.handleRequest(req);
    // Read here, to hold it to the limits before the SDK or the episode walks it.
    const body = await readBody(req, this.#maxBodyBytes);
    if (body instanceof Response) return body;
    return await session.transport.handleRequest(req, { parsedBody: body });
  }

  async close(): Promise<void> {
    for (const id of [...this.#open.keys()]) await this.#drop(id, "the server closed");
  }

  // An initialize request: opens the episode its URL asks for, and the session that serves it.
  async #start(req: Request): Promise<Response> {
    const body = await readBody(req, this.#maxBodyBytes);
    if (body instanceof Response) return body;
    if (!isInitializeRequest(body)) {
      return rpcError(400, ErrorCode.InvalidRequest, "No mcp-session-id header: expected an initialize request");
    }
    if (this.#open.size + this.#opening >= this.#maxSessions) {
      const message = `Too many open MCP sessions (${this.#maxSessions}): close one (DELETE) or wait for one to expire`;
      return rpcError(503, ErrorCode.InternalError, message);
    }
    this.#opening++;
    let session: Session;
    try {
      const request = episodeRequest(new URL(req.url).searchParams);
      const opened = await RemoteEpisode.open(this.#newId(), request, this.#options.episodes);
      session = await connect(opened, {
        intents: this.#intents,
        maxBodyBytes: this.#maxBodyBytes,
        lastSeen: this.#now(),
        onClosed: (id) => void this.#drop(id, "the client closed the MCP session"),
      }).catch((err) => {
        opened.episode.expire("the MCP session could not start");
        throw err;
      });
    } catch (err) {
      if (err instanceof EpisodeError) return rpcError(400, ErrorCode.InvalidParams, err.message);
      throw err;
    } finally {
      this.#opening--;
    }
    this.#open.set(session.episode.id, session);
    return await session.transport.handleRequest(req, { parsedBody: body });
  }

  #newId(): string {
    return this.#options.newId?.() ?? crypto.randomUUID();
  }

  // Expires idle sessions' episodes (checked on each request: an idle endpoint holds only memory).
  async #sweep(): Promise<void> {
    const t = this.#now();
    for (const [id, session] of [...this.#open]) {
      if (t - session.lastSeen > this.#idleMs) await this.#drop(id, `idle for more than ${this.#idleMs / 1000} s`);
    }
  }

  async #drop(id: string, reason: string): Promise<void> {
    const session = this.#open.get(id);
    if (!session) return;
    this.#open.delete(id);
    this.#gone.set(id, reason);
    session.episode.expire(reason);
    // The episode's record is made (and its world closed) once it has ended.
    await session.episode.end().catch(() => {});
    await session.server.close();
  }
}

// One MCP server and transport for one open episode.
async function connect(
  { episode, opening }: { episode: RemoteEpisode; opening: EpisodeOpening },
  options: { intents: boolean; maxBodyBytes: number; lastSeen: number; onClosed: (id: string) => void },
): Promise<Session> {
  const tools = episodeTools(opening, options);
  // The low-level server: the world's tools come as JSON Schema, and their arguments are the world's
  // to check (McpServer would validate them itself with zod and change what the episode records).
  const server = new Server(
    { name: "ark", version: "0.2.0" },
    { capabilities: { tools: {}, resources: {} }, instructions: episodeInstructions(opening) },
  );
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: () => episode.id,
    enableJsonResponse: true,
    maxRequestBodySize: options.maxBodyBytes,
    onsessionclosed: options.onClosed,
  });
  const session: Session = { episode, transport, server, lastSeen: options.lastSeen, queue: Promise.resolve() };
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, (request: CallToolRequest) => {
    const run = session.queue.then(() => callTool(episode, request.params.name, request.params.arguments, options));
    session.queue = run.catch(() => {});
    return run;
  });
  server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: [...RESOURCES] }));
  server.setRequestHandler(ReadResourceRequestSchema, (request: ReadResourceRequest) => {
    const { uri } = request.params;
    const text = readResource(uri, episode, opening, options);
    if (text === undefined) {
      throw new Error(
        `Unknown resource ${JSON.stringify(uri)}: expected one of ${RESOURCES.map((r) => r.uri).join(", ")}`,
      );
    }
    return { contents: [{ uri, mimeType: RESOURCES.find((r) => r.uri === uri)!.mimeType, text }] };
  });
  await server.connect(transport);
  return session;
}

/**
 * The episode the endpoint URL's query asks for, checked as an HTTP body is (`EpisodeRequestSchema`),
 * a run given as digits read as a number; an `EpisodeError` for a malformed query.
 */
function episodeRequest(query: URLSearchParams): EpisodeRequest {
  for (const key of new Set(query.keys())) {
    if (query.getAll(key).length > 1) {
      throw new EpisodeError("invalid", `Query parameter ${JSON.stringify(key)} is given twice: expected it once`);
    }
  }
  const asked: Record<string, unknown> = Object.fromEntries(query);
  if (typeof asked.run === "string" && /^\d{1,9}$/.test(asked.run)) asked.run = Number(asked.run);
  const checked = checkRequest(EpisodeRequestSchema, asked, { part: "query parameter", whole: "query" });
  if ("error" in checked) throw new EpisodeError("invalid", checked.error);
  return checked.value;
}

// A POST's body, parsed (the transport then takes it as parsed), or the response refusing it: too
// long, not JSON, a tool call's arguments past the world's limits, or nested too deep.
async function readBody(req: Request, maxBytes: number): Promise<unknown | Response> {
  const tooLarge = () => rpcError(413, ErrorCode.InvalidRequest, `Request body over ${maxBytes} bytes: expected less`);
  if (Number(req.headers.get("content-length") ?? 0) > maxBytes) return tooLarge();
  const text = await req.text();
  if (new TextEncoder().encode(text).length > maxBytes) return tooLarge();
  const parsed = parseBody(text);
  if ("error" in parsed) return rpcError(400, ErrorCode.ParseError, `${parsed.error}: expected a JSON-RPC message`);
  // The arguments first, for the words on their own limits; then any nesting elsewhere.
  for (const message of Array.isArray(parsed.value) ? parsed.value : [parsed.value]) {
    const call = toolCall(message);
    const problem = call && argsProblem(call.arguments);
    if (call && problem) {
      const text = `Invalid arguments for tool ${JSON.stringify(String(call.name).slice(0, 100))}: ${problem}`;
      return rpcError(400, ErrorCode.InvalidParams, text, call.id);
    }
  }
  const problem = depthProblem(parsed.value);
  return problem === null ? parsed.value : rpcError(400, ErrorCode.InvalidRequest, problem);
}

// A `tools/call` request's name, arguments and id, or `null` for any other message.
function toolCall(message: unknown): { name: unknown; arguments: unknown; id: unknown } | null {
  if (typeof message !== "object" || message === null) return null;
  const { method, params, id } = message as {
    method?: unknown;
    params?: { name?: unknown; arguments?: unknown };
    id?: unknown;
  };
  if (method !== "tools/call" || typeof params !== "object" || params === null) return null;
  return { name: params.name, arguments: params.arguments, id };
}

// An HTTP error as the SDK's transport words its own: a JSON-RPC error (with the request's id when
// it is about one request).
function rpcError(status: number, code: number, message: string, id: unknown = null): Response {
  const ok = typeof id === "string" || typeof id === "number";
  return Response.json({ jsonrpc: "2.0", error: { code, message }, id: ok ? id : null }, { status });
}

function positiveInteger(name: string, value: number): number {
  if (!(Number.isInteger(value) && value > 0)) {
    throw new RangeError(`Invalid ${name} ${JSON.stringify(value)}: expected a whole number of at least 1`);
  }
  return value;
}
