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
 * Every body is checked (400 naming the field and what is accepted); an unknown episode is 404, an
 * action after the end 409, an expired episode 410 saying why; at most `maxEpisodes` are open at once
 * (429), bodies are at most `maxBodyBytes` (413), and an episode idle for `idleSeconds` expires. The
 * bearer token, when the server has one, is `serverApp()`'s to check (`server/mod.ts`).
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
import { z } from "zod";
import type { Intent, Json } from "../envs/mod.ts";
import { CONDITIONS } from "../eval/config.ts";
import { EpisodeError, type EpisodeVerdict, RemoteEpisode } from "./session.ts";

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

const requestSchema = z.object({
  domain: z.string({ error: "expected a domain name" }),
  task: z.string({ error: 'expected a task id, "<domain>/<index>"' }),
  seed: z.union([z.string(), z.number()], { error: "expected a seed (string or number)" }).transform(String)
    .optional(),
  condition: z.enum(CONDITIONS as unknown as [string, ...string[]], {
    error: `expected one of ${CONDITIONS.join(", ")}`,
  }).optional(),
  variant: z.string({ error: "expected a variant name or null" }).nullable().optional(),
  agent: z.string({ error: "expected an agent name" }).optional(),
  // Whether the run is a whole number of at least 0 is the episode's to check (`RemoteEpisode.open()`).
  run: z.number({ error: "expected a whole number of at least 0" }).optional(),
}).strict();

const toolSchema = z.object({
  name: z.string({ error: "expected the tool's name" }).min(1, { error: "expected the tool's name" }),
  arguments: z.record(z.string(), z.unknown(), { error: "expected an object of arguments" }).default({}),
}).strict();

// Any intent kind, as over MCP: one the scripted user does not answer gets a nudge (`Intent`).
const messageSchema = z.object({
  text: z.string({ error: "expected the message's text" }).min(1, { error: "expected a non-empty text" }),
  intent: z.object({ kind: z.string({ error: 'expected a string "kind"' }) }, {
    error: 'expected an object with a string "kind"',
  }).passthrough().optional(),
}).strict();

const endSchema = z.object({
  confidence: z.number({ error: "expected a number in [0, 1]" }).min(0, { error: "expected a number in [0, 1]" })
    .max(1, { error: "expected a number in [0, 1]" }).optional(),
}).strict();

// What a refused request says: one line naming the field and what is accepted.
function invalid(issues: readonly z.core.$ZodIssue[]): string {
  return issues.map((i) => {
    const field = i.path.length === 0 ? "body" : `field "${i.path.join(".")}"`;
    if (i.code === "unrecognized_keys") return `Invalid body: unknown field ${i.keys.map((k) => `"${k}"`).join(", ")}`;
    return `Invalid ${field}: ${i.message}`;
  }).join("; ");
}

/**
 * The episode API (see the module doc).
 *
 * @example
 * ```ts ignore
 * const api = episodeApi({ idleSeconds: 300 });
 * Deno.serve({ port: 8787 }, api.app.fetch);
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
  const verdicts = new Map<string, EpisodeVerdict>();
  const expired = new Map<string, string>();
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

  // The parsed body, or the response that refuses it.
  const body = async <T>(req: Request, schema: z.ZodType<T>): Promise<{ value: T } | { error: string }> => {
    let raw: unknown;
    const text = await req.text();
    try {
      raw = text.trim() === "" ? {} : JSON.parse(text);
    } catch (err) {
      return { error: `Invalid JSON body: ${(err as Error).message}` };
    }
    const parsed = schema.safeParse(raw);
    return parsed.success ? { value: parsed.data } : { error: invalid(parsed.error.issues) };
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
    const parsed = await body(c.req.raw, requestSchema);
    if ("error" in parsed) return c.json({ error: parsed.error }, 400);
    if (episodes.size >= maxEpisodes) {
      return c.json({ error: `Too many open episodes: at most ${maxEpisodes}; end or let some expire first` }, 429);
    }
    const id = `ep_${++counter}_${crypto.randomUUID().slice(0, 8)}`;
    const request = parsed.value as Parameters<typeof RemoteEpisode.open>[1];
    const { episode, opening } = await RemoteEpisode.open(id, request, {
      ...(options.worldSeed === undefined ? {} : { worldSeed: options.worldSeed }),
    });
    lastActive.set(id, now());
    episodes.set(id, episode);
    return c.json(opening, 201);
  });
  app.post("/v1/episodes/:id/tool", async (c) => {
    const episode = find(c.req.param("id"));
    if (!(episode instanceof RemoteEpisode)) return c.json({ error: episode.error }, episode.status);
    const parsed = await body(c.req.raw, toolSchema);
    if ("error" in parsed) return c.json({ error: parsed.error }, 400);
    touch(episode.id);
    const out = await episode.tool(parsed.value.name, parsed.value.arguments as Json);
    touch(episode.id);
    return c.json(out);
  });
  app.post("/v1/episodes/:id/message", async (c) => {
    const episode = find(c.req.param("id"));
    if (!(episode instanceof RemoteEpisode)) return c.json({ error: episode.error }, episode.status);
    const parsed = await body(c.req.raw, messageSchema);
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
    const parsed = await body(c.req.raw, endSchema);
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
