/**
 * `deno task serve`: ark's server for agents in any language and for people. The episode API at
 * `/v1/episodes` (README "Serving the worlds"), each world's tools over MCP at `/mcp`, and the live
 * dashboard of a results folder at `/`.
 *
 * Without a token (`--token` or `$ARK_TOKEN`) it binds to loopback only and says so, and answers
 * only requests naming this machine (a loopback Host on its port: `server/perimeter.ts`); with one,
 * every route but `GET /health` needs `Authorization: Bearer <token>`. (A token made up and printed
 * by default, as Jupyter does, was considered and left out: it would change how every client runs it.)
 *
 * Exit codes: 0 stopped; 2 bad flags, or the port cannot be had (in use, not this machine's).
 *
 * @module
 */
import { parsedOr, readEnv, readFlags, wholeFlag } from "./_flags.ts";
import { LOOPBACK_NAMES, MAX_SERVED_TASKS, serverApp } from "../server/mod.ts";

/** What `deno task serve --help` prints. */
export const USAGE = `Usage: deno task serve [--port N] [--host H] [--token T] [--results DIR] [--tasks N]

Serves the worlds over HTTP (the episode API, /v1/episodes) and MCP (/mcp), and the
dashboard of the experiments under DIR (/).

  --port N         port to listen on (default 8787; 0 picks a free one)
  --host H         address to bind (default 127.0.0.1; another one needs a token)
  --token T        bearer token every route but /health needs (default $ARK_TOKEN)
  --results DIR    folder of results folders the dashboard shows (default "results")
  --tasks N        tasks per domain served, <domain>/0 to <domain>/N-1 (default 50, as eval;
                   at most ${MAX_SERVED_TASKS})
  --max-episodes N episodes open at once (default 256)
  --idle S         seconds without an action before an episode expires (default 600)
  --help           this text
`;

const LOOPBACK = new Set<string>(LOOPBACK_NAMES);

/** The server's settings from its flags and `$ARK_TOKEN`; throws a `TypeError` or `RangeError` naming the bad one. */
export function parseServeArgs(args: readonly string[], env: { token?: string } = {}): {
  port: number;
  host: string;
  token: string | null;
  results: string;
  maxEpisodes: number;
  idleSeconds: number;
  tasks?: number;
} | "help" {
  const flags = readFlags(args, [
    "--port",
    "--host",
    "--token",
    "--results",
    "--max-episodes",
    "--idle",
    "--tasks",
    "--help",
  ]);
  if (flags === "help") return "help";
  const out = {
    port: 8787,
    host: "127.0.0.1",
    token: env.token ?? null as string | null,
    results: "results",
    maxEpisodes: 256,
    idleSeconds: 600,
    tasks: undefined as number | undefined,
  };
  for (const [flag, value] of flags) {
    if (flag === "--port") {
      out.port = wholeFlag(flag, value, 0);
      if (out.port > 65535) throw new RangeError(`Invalid --port "${value}": expected 0 to 65535`);
    } else if (flag === "--host") out.host = value;
    else if (flag === "--token") out.token = value;
    else if (flag === "--results") out.results = value;
    else if (flag === "--max-episodes") out.maxEpisodes = wholeFlag(flag, value, 1);
    else if (flag === "--idle") out.idleSeconds = wholeFlag(flag, value, 1);
    else if (flag === "--tasks") {
      out.tasks = wholeFlag(flag, value, 1);
      if (out.tasks > MAX_SERVED_TASKS) {
        throw new RangeError(`Invalid value "${value}" for --tasks: expected 1 to ${MAX_SERVED_TASKS}`);
      }
    }
  }
  if (out.token === null && !LOOPBACK.has(out.host)) {
    throw new TypeError(
      `Refusing to serve on ${out.host} without a token: give --token (or $ARK_TOKEN), or bind to 127.0.0.1`,
    );
  }
  return out;
}

/** Runs the server until it is stopped (Ctrl-C); returns the exit code. */
export async function main(args: readonly string[]): Promise<number> {
  const parsed = parsedOr(() => parseServeArgs(args, { token: readEnv("ARK_TOKEN") }), USAGE);
  if (typeof parsed === "number") return parsed;
  // Listening first: the app checks each request's Host against the port it got (--port 0 picks one).
  let fetch: (req: Request) => Response | Promise<Response> = () => new Response(null, { status: 503 });
  const server = listen(parsed, (req) => fetch(req));
  if (typeof server === "number") return server;
  let served;
  try {
    served = serverApp({ ...parsed, port: server.addr.port });
  } catch (err) {
    await server.shutdown();
    if (!(err instanceof TypeError || err instanceof RangeError)) throw err;
    console.error(err.message);
    return 2;
  }
  const { app, api } = served;
  fetch = app.fetch;
  const { hostname, port } = server.addr;
  const at = `http://${hostname.includes(":") ? `[${hostname}]` : hostname}:${port}/`;
  console.log(`ark serving on ${at} (episode API /v1/episodes, MCP /mcp, dashboard /)`);
  console.log(
    parsed.token === null
      ? "no token: bound to loopback only; every route is open to this machine"
      : "token required: send Authorization: Bearer <token> (GET /health is open)",
  );
  const sweeper = setInterval(() => api.sweep(), 10_000);
  Deno.unrefTimer(sweeper);
  const stop = () => {
    served.close();
    void server.shutdown();
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) Deno.addSignalListener(signal, stop);
  await server.finished;
  clearInterval(sweeper);
  return 0;
}

// The server listening at the flags' address, or exit code 2 with one line saying why it cannot.
function listen(
  at: { host: string; port: number },
  handler: (req: Request) => Response | Promise<Response>,
): Deno.HttpServer<Deno.NetAddr> | 2 {
  try {
    return Deno.serve({ hostname: at.host, port: at.port, onListen: () => {} }, handler);
  } catch (err) {
    const problem = bindProblem(err, at);
    if (problem === null) throw err;
    console.error(problem);
    return 2;
  }
}

// Why the address cannot be had, in one line, or `null` for an error that is not about it.
function bindProblem(err: unknown, at: { host: string; port: number }): string | null {
  if (err instanceof Deno.errors.AddrInUse) {
    return `Port ${at.port} is in use on ${at.host}: choose another with --port (--port 0 picks a free one)`;
  }
  if (err instanceof Deno.errors.AddrNotAvailable) {
    return `Cannot bind to ${at.host}: it is not an address of this machine; choose another with --host`;
  }
  if (err instanceof Deno.errors.PermissionDenied) {
    return `Cannot bind to port ${at.port} on ${at.host}: permission denied; choose a port from 1024 with --port`;
  }
  return null;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
