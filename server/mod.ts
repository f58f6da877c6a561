/**
 * ark's server (`deno task serve`): the episode API for agents in any language
 * (`server/api.ts`), each world's tools over MCP, and the live dashboard of the results folders,
 * on one Hono app. The only library code that imports Hono.
 *
 * @module
 */
import { Hono } from "hono";

/**
 * Hono's app type under a local name: `deno doc --lint` reports any reference to another
 * package's type as private (denoland/deno#27364).
 *
 * @internal
 */
type HonoApp = Hono;
import { getCookie, setCookie } from "hono/cookie";
import { type EpisodeApi, episodeApi, type EpisodeApiOptions, servedTasks } from "./api.ts";
import { perimeter } from "./perimeter.ts";
import { dashboardApp } from "./dashboard.ts";
import { type McpHandler, mcpHandler } from "./mcp.ts";

export { dashboardApp, type DashboardOptions } from "./dashboard.ts";
export { type McpHandler, mcpHandler, type McpOptions } from "./mcp.ts";

export { type EpisodeApi, episodeApi, type EpisodeApiOptions, MAX_SERVED_TASKS } from "./api.ts";
export { LOOPBACK_NAMES } from "./perimeter.ts";
export {
  EpisodeError,
  type EpisodeOpening,
  type EpisodeRequest,
  type EpisodeVerdict,
  type FunctionTool,
  type RemoteAction,
  remoteActions,
  RemoteEpisode,
  type ShownMessage,
  type StepOutcome,
  type TrajectoryItem,
} from "./session.ts";

/** Options of `serverApp()`. */
export interface ServerOptions extends EpisodeApiOptions {
  /**
   * The token every route but `/health` needs (a bearer header, or a browser's cookie). None: only
   * this machine may talk to the server, so every route refuses (403) a Host other than a loopback
   * name on `port`, and a request other than GET whose Origin is not a loopback page on that port.
   * @default {null}
   */
  token?: string | null;
  /**
   * The port the server listens on, which a request without a token must name in its Host (and
   * Origin); `null`: any port, the names alone are checked.
   * @default {null}
   */
  port?: number | null;
  /**
   * Where each request refused at the perimeter (403) is told, in one line.
   * @default {console.warn}
   */
  log?: (line: string) => void;
  /**
   * The folder of results folders the dashboard shows.
   * @default {"results"}
   */
  results?: string;
}

/** The whole server: its app and the episode API behind it (to stop it cleanly). */
export interface Server {
  /** The routes: `/health`, `/v1/…`, `/mcp`, and the dashboard under `/`. */
  app: HonoApp;
  /** The episode API. */
  api: EpisodeApi;
  /** The MCP endpoint (one MCP session per episode). */
  mcp: McpHandler;
  /** Expires every open episode and MCP session (the server is stopping). */
  close(): void;
}

/**
 * The server's app: the episode API, MCP and the dashboard, behind the token when one is given.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { serverApp } from "./mod.ts";
 * const server = serverApp({ token: "t", results: "results" });
 * // Served with e.g. `Deno.serve({ hostname: "127.0.0.1", port: 8787 }, server.app.fetch)`.
 * const health = await server.app.request("http://localhost/health");
 * const anonymous = await server.app.request("http://localhost/v1/episodes", { method: "POST", body: "{}" });
 * assertEquals([health.status, anonymous.status], [200, 401]);
 * server.close();
 * ```
 */
export function serverApp(options: ServerOptions = {}): Server {
  const token = options.token ?? null;
  const api = episodeApi(options);
  const app = new Hono();
  // First: without a token only this machine may talk to the server (a loopback Host on the bound
  // port, on every route), and a browser's page only from its own origin (DNS rebinding).
  app.use("*", perimeter({ token, port: options.port ?? null, log: options.log ?? console.warn }));
  if (token !== null) {
    // Every route but /health needs the token: as a bearer header (agents), or as the cookie a
    // browser gets by opening any page once with ?token=T (the dashboard and its live script).
    app.use("*", async (c, next) => {
      if (c.req.path === "/health") return await next();
      if (c.req.header("authorization") === `Bearer ${token}` || getCookie(c, COOKIE) === token) return await next();
      if (c.req.method === "GET" && c.req.query("token") === token) {
        setCookie(c, COOKIE, token, { httpOnly: true, sameSite: "Strict", path: "/" });
        return await next();
      }
      return c.json({
        error: "Unauthorized: send the header Authorization: Bearer <token> (a browser: open /?token=<token>)",
      }, 401);
    });
  }
  const tasks = servedTasks(options.tasks);
  const mcp = mcpHandler({
    ...(options.maxEpisodes === undefined ? {} : { maxSessions: options.maxEpisodes }),
    ...(options.idleSeconds === undefined ? {} : { idleSeconds: options.idleSeconds }),
    ...(options.maxBodyBytes === undefined ? {} : { maxBodyBytes: options.maxBodyBytes }),
    ...(options.now === undefined ? {} : { now: options.now }),
    episodes: {
      ...(options.worldSeed === undefined ? {} : { worldSeed: options.worldSeed }),
      ...(tasks === undefined ? {} : { config: { tasks } }),
    },
  });
  app.all("/mcp", (c) => mcp(c.req.raw));
  app.route("/", api.app);
  app.route("/", dashboardApp({ results: options.results ?? "results" }));
  return {
    app,
    api,
    mcp,
    close() {
      api.close();
      mcp.close();
    },
  };
}

const COOKIE = "ark_token";
