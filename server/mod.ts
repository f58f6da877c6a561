/**
 * ark's server (`deno task serve`): the episode API for agents in any language
 * (`server/api.ts`), each world's tools over MCP, and the live dashboard of the results folders,
 * on one Hono app. The only library code that imports Hono.
 *
 * @module
 */
import { Hono } from "hono";
import { type EpisodeApi, episodeApi, type EpisodeApiOptions } from "./api.ts";

export { type EpisodeApi, episodeApi, type EpisodeApiOptions } from "./api.ts";
export {
  EpisodeError,
  type EpisodeOpening,
  type EpisodeRequest,
  type EpisodeVerdict,
  type FunctionTool,
  RemoteEpisode,
  type ShownMessage,
  type StepOutcome,
  type TrajectoryItem,
} from "./session.ts";

/** Options of `serverApp()`. */
export interface ServerOptions extends EpisodeApiOptions {
  /**
   * The folder of results folders the dashboard shows.
   * @default {"results"}
   */
  results?: string;
}

/** The whole server: its app and the episode API behind it (to stop it cleanly). */
export interface Server {
  /** The routes: `/health`, `/v1/…`, `/mcp`, and the dashboard under `/`. */
  app: Hono;
  /** The episode API. */
  api: EpisodeApi;
}

/**
 * The server's app: the episode API, MCP and the dashboard, behind the token when one is given.
 *
 * @example
 * ```ts ignore
 * const { app } = serverApp({ token: "t", results: "results" });
 * Deno.serve({ hostname: "127.0.0.1", port: 8787 }, app.fetch);
 * ```
 */
export function serverApp(options: ServerOptions = {}): Server {
  const api = episodeApi(options);
  const app = new Hono();
  app.route("/", api.app);
  return { app, api };
}
