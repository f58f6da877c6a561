/**
 * The episode API of `deno task serve`: an agent in any language drives a world over HTTP, one
 * episode at a time each, under the same conditions as `deno task eval` (`server/session.ts`).
 *
 * - `POST /v1/episodes {domain, task, seed?, condition?, variant?, agent?, run?}` → 201
 *   `{id, policy, tools, messages}` (tools in the OpenAI function shape; messages: the user's opening);
 * - `POST /v1/episodes/:id/tool {name, arguments}` → `{tool: {name, ok, result | error}, ended}`;
 * - `POST /v1/episodes/:id/message {text, intent?}` → `{message: the user's reply, ended}`;
 * - `POST /v1/episodes/:id/end {confidence?}` → `{success, milestones, violations, record}`;
 * - `GET /v1/episodes/:id` → the trajectory so far; `GET /health` → `{ok: true}`.
 *
 * Every body is checked (400 naming the field and what is accepted): a task index past the `tasks`
 * served, tool arguments nested deeper than 64 levels or over 64 KB as JSON (the world's own limits),
 * any body nested deeper than 68, are refused at once. An unknown episode is 404, an action after the
 * end 409, an expired episode 410 saying why (an ended or expired one is remembered for `idleSeconds`,
 * at most `remembered` of them); at most `maxEpisodes` are open at once (429), bodies are at most
 * `maxBodyBytes` (413), and an episode idle for `idleSeconds` expires. The Host, Origin and token are
 * `serverApp()`'s to check (`server/mod.ts`).
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
import { bodyLimit } from "hono/body-limit";
import type { z } from "zod";
import type { Intent, Json } from "../envs/mod.ts";
import { EpisodeError, type EpisodeVerdict, RemoteEpisode } from "./session.ts";
import {
  BODY_WORDS,
  checkRequest,
  EndSchema,
  EpisodeRequestSchema,
  MessageSchema,
  ToolCallSchema,
} from "./_requests.ts";
import { depthProblem, parseBody } from "./_json_body.ts";
import { Remembered } from "./_remembered.ts";

/** Options of `episodeApi()`. */
export interface EpisodeApiOptions {
  /**
   * Episodes open at once.
   * @default {256}
   */
  maxEpisodes?: number;
  /**
   * The largest request body, in bytes.
   * @default {1048576}
   */
  maxBodyBytes?: number;
  /**
   * Seconds without an action after which an episode expires.
   * @default {600}
   */
  idleSeconds?: number;
  /**
   * The world seed of the episodes' worlds.
   * @default {"0"}
   */
  worldSeed?: string;
  /**
   * Each domain's tasks served, as `deno task eval --tasks` plans them: `<domain>/<index>` for an
   * index below it (a larger one is refused at once, before any task is made). At most
   * `MAX_SERVED_TASKS`.
   * @default {50}
   */
  tasks?: number;
  /**
   * Episodes ended or expired whose answer (the record, or why it expired) is kept, each for as long
   * as an open episode may idle; an older one is then unknown (404).
   * @default {1000}
   */
  remembered?: number;
  /**
   * The clock the idle limit reads, in ms (tests pass their own).
   * @default {Date.now}
   */
  now?: () => number;
}

/** The episode API: its Hono app and what it holds. */
export interface EpisodeApi {
  /** The routes (mount under `/` or use `app.fetch`). */
  app: HonoApp;
  /** Episodes open now. */
  open(): number;
  /** Expires every episode idle for longer than the limit; returns how many. */
  sweep(): number;
  /** Expires every open episode (the server is stopping). */
  close(): void;
}

/** The most tasks per domain a server may serve (making task `orders/999` takes seconds). */
export const MAX_SERVED_TASKS = 1000;

/**
 * The `tasks` option checked: `undefined` (the experiments' default) or a whole number from 1 to
 * `MAX_SERVED_TASKS`; a `RangeError` otherwise.
 *
 * @internal
 */
export function servedTasks(tasks: number | undefined): number | undefined {
  if (tasks === undefined || (Number.isInteger(tasks) && tasks >= 1 && tasks <= MAX_SERVED_TASKS)) return tasks;
  throw new RangeError(`Invalid tasks ${JSON.stringify(tasks)}: expected a whole number from 1 to ${MAX_SERVED_TASKS}`);
}

/**
 * The episode API (see the module doc).
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { episodeApi } from "./api.ts";
 * const api = episodeApi({ idleSeconds: 300 });
 * // Served with e.g. `Deno.serve({ port: 8787 }, api.app.fetch)`.
 * const refused = await api.app.request("/v1/episodes", { method: "POST", body: '{"domain": "airline"}' });
 * assertEquals([refused.status, await refused.json()], [400, {
 *   error: 'Missing field "task": expected a task id, "<domain>/<index>"',
 * }]);
 * api.close();
 * ```
 */
export function episodeApi(options: EpisodeApiOptions = {}): EpisodeApi {
  const now = options.now ?? Date.now;
  const maxEpisodes = options.maxEpisodes ?? 256, idleMs = (options.idleSeconds ?? 600) * 1000;
  const episodes = new Map<string, RemoteEpisode>();
  // When each open episode last saw an action, on the injected clock, for the idle limit.
  const lastActive = new Map<string, number>();
  const touch = (id: string) => {
    if (episodes.has(id)) lastActive.set(id, now());
  };
  // Ended and expired episodes, kept for as long as an open one may idle.
  const remembered = { size: options.remembered ?? 1000, ms: idleMs, now };
  const verdicts = new Remembered<EpisodeVerdict>(remembered);
  const expired = new Remembered<string>(remembered);
  const tasks = servedTasks(options.tasks);
  const episodeOptions = {
    ...(options.worldSeed === undefined ? {} : { worldSeed: options.worldSeed }),
    ...(tasks === undefined ? {} : { config: { tasks } }),
  };
  let counter = 0;

  const sweep = (): number => {
    let n = 0;
    for (const [id, episode] of episodes) {
      if (now() - lastActive.get(id)! <= idleMs) continue;
      const reason = `idle for more than ${idleMs / 1000} s`;
      episode.expire(reason);
      episodes.delete(id);
      lastActive.delete(id);
      expired.set(id, reason);
      void episode.end().catch(() => {});
      n++;
    }
    return n;
  };

  const app = new Hono();
  app.onError((err, c) => {
    if (err instanceof EpisodeError) {
      const status = err.code === "invalid" ? 400 : err.code === "conflict" ? 409 : 410;
      return c.json({ error: err.message }, status);
    }
    return c.json({ error: `Internal error: ${(err as Error).message}` }, 500);
  });
  app.get("/health", (c) => c.json({ ok: true }));
  app.use("*", async (_c, next) => {
    sweep();
    await next();
  });
  app.use(
    "*",
    bodyLimit({
      maxSize: options.maxBodyBytes ?? 1 << 20,
      onError: (c) =>
        c.json({ error: `Request body too large: at most ${options.maxBodyBytes ?? 1 << 20} bytes` }, 413),
    }),
  );

  // The parsed body, or what refuses it. The schema goes first, for its words on a field (the
  // arguments' own limits); it reads no deeper than the top level, and the nesting check then covers
  // what it let through (a message's intent).
  const body = async <T>(req: Request, schema: z.ZodType<T, unknown>): Promise<{ value: T } | { error: string }> => {
    const text = await req.text();
    const raw = text.trim() === "" ? { value: {} } : parseBody(text);
    if ("error" in raw) return raw;
    const parsed = checkRequest(schema, raw.value, BODY_WORDS);
    if ("error" in parsed) return parsed;
    const problem = depthProblem(raw.value);
    return problem === null ? parsed : { error: problem };
  };
  const find = (id: string): RemoteEpisode | { status: 404 | 409 | 410; error: string } => {
    const episode = episodes.get(id);
    if (episode !== undefined) return episode;
    if (verdicts.has(id)) {
      return { status: 409, error: `Episode ${id} has ended: GET /v1/episodes/${id} for its record` };
    }
    if (expired.has(id)) return { status: 410, error: `Episode ${id} expired: ${expired.get(id)}` };
    return { status: 404, error: `Unknown episode "${id}": start one with POST /v1/episodes` };
  };

  app.post("/v1/episodes", async (c) => {
    const parsed = await body(c.req.raw, EpisodeRequestSchema);
    if ("error" in parsed) return c.json({ error: parsed.error }, 400);
    if (episodes.size >= maxEpisodes) {
      return c.json({ error: `Too many open episodes: at most ${maxEpisodes}; end or let some expire first` }, 429);
    }
    const id = `ep_${++counter}_${crypto.randomUUID().slice(0, 8)}`;
    const { episode, opening } = await RemoteEpisode.open(id, parsed.value, episodeOptions);
    lastActive.set(id, now());
    episodes.set(id, episode);
    return c.json(opening, 201);
  });
  app.post("/v1/episodes/:id/tool", async (c) => {
    const episode = find(c.req.param("id"));
    if (!(episode instanceof RemoteEpisode)) return c.json({ error: episode.error }, episode.status);
    const parsed = await body(c.req.raw, ToolCallSchema);
    if ("error" in parsed) return c.json({ error: parsed.error }, 400);
    touch(episode.id);
    const out = await episode.tool(parsed.value.name, parsed.value.arguments as Json);
    touch(episode.id);
    return c.json(out);
  });
  app.post("/v1/episodes/:id/message", async (c) => {
    const episode = find(c.req.param("id"));
    if (!(episode instanceof RemoteEpisode)) return c.json({ error: episode.error }, episode.status);
    const parsed = await body(c.req.raw, MessageSchema);
    if ("error" in parsed) return c.json({ error: parsed.error }, 400);
    touch(episode.id);
    const out = await episode.message(parsed.value.text, parsed.value.intent as Intent | undefined);
    touch(episode.id);
    return c.json(out);
  });
  app.post("/v1/episodes/:id/end", async (c) => {
    const id = c.req.param("id");
    if (verdicts.has(id)) return c.json(verdicts.get(id));
    const episode = find(id);
    if (!(episode instanceof RemoteEpisode)) return c.json({ error: episode.error }, episode.status);
    const parsed = await body(c.req.raw, EndSchema);
    if ("error" in parsed) return c.json({ error: parsed.error }, 400);
    const verdict = await episode.end(parsed.value.confidence);
    episodes.delete(id);
    lastActive.delete(id);
    verdicts.set(id, verdict);
    return c.json(verdict);
  });
  app.get("/v1/episodes/:id", (c) => {
    const id = c.req.param("id");
    const verdict = verdicts.get(id);
    if (verdict !== undefined) return c.json({ id, ended: true, record: verdict.record });
    const episode = find(id);
    if (!(episode instanceof RemoteEpisode)) return c.json({ error: episode.error }, episode.status);
    return c.json({ id, cell: episode.cell, ended: episode.ended, trajectory: episode.trajectory() });
  });

  return {
    app,
    open: () => episodes.size,
    sweep,
    close() {
      for (const [id, episode] of episodes) {
        episode.expire("the server stopped");
        expired.set(id, "the server stopped");
        void episode.end().catch(() => {});
      }
      episodes.clear();
      lastActive.clear();
    },
  };
}
