/**
 * `deno task serve`: ark's server for agents in any language and for people. The episode API at
 * `/v1/episodes` (README "Serving the worlds"), each world's tools over MCP at `/mcp`, and the live
 * dashboard of a results folder at `/`.
 *
 * Without a token (`--token` or `$ARK_TOKEN`) it binds to loopback only and says so; with one,
 * every route but `GET /health` needs `Authorization: Bearer <token>`.
 *
 * Exit codes: 0 stopped; 2 bad flags.
 *
 * @module
 */
import { parsedOr, readEnv, readFlags, wholeFlag } from "./_flags.ts";
import { serverApp } from "../server/mod.ts";

/** What `deno task serve --help` prints. */
export const USAGE = `Usage: deno task serve [--port N] [--host H] [--token T] [--results DIR]

Serves the worlds over HTTP (the episode API, /v1/episodes) and MCP (/mcp), and the
dashboard of the experiments under DIR (/).

  --port N         port to listen on (default 8787; 0 picks a free one)
  --host H         address to bind (default 127.0.0.1; another one needs a token)
  --token T        bearer token every route but /health needs (default $ARK_TOKEN)
  --results DIR    folder of results folders the dashboard shows (default "results")
  --max-episodes N episodes open at once (default 256)
  --idle S         seconds without an action before an episode expires (default 600)
  --help           this text
`;

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1"]);

/** The server's settings from its flags and `$ARK_TOKEN`; throws a `TypeError` or `RangeError` naming the bad one. */
export function parseServeArgs(args: readonly string[], env: { token?: string } = {}): {
  port: number;
  host: string;
  token: string | null;
  results: string;
  maxEpisodes: number;
  idleSeconds: number;
} | "help" {
  const flags = readFlags(args, ["--port", "--host", "--token", "--results", "--max-episodes", "--idle", "--help"]);
  if (flags === "help") return "help";
  const out = {
    port: 8787,
    host: "127.0.0.1",
    token: env.token ?? null as string | null,
    results: "results",
    maxEpisodes: 256,
    idleSeconds: 600,
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
  let server_;
  try {
    server_ = serverApp(parsed);
  } catch (err) {
    if (!(err instanceof TypeError || err instanceof RangeError)) throw err;
    console.error(err.message);
    return 2;
  }
  const { app, api } = server_;
  const sweeper = setInterval(() => api.sweep(), 10_000);
  Deno.unrefTimer(sweeper);
  const server = Deno.serve({
    hostname: parsed.host,
    port: parsed.port,
    onListen: ({ hostname, port }) => {
      console.log(`ark serving on http://${hostname}:${port}/ (episode API /v1/episodes, MCP /mcp, dashboard /)`);
      console.log(
        parsed.token === null
          ? "no token: bound to loopback only; every route is open to this machine"
          : "token required: send Authorization: Bearer <token> (GET /health is open)",
      );
    },
  }, app.fetch);
  const stop = () => {
    server_.close();
    void server.shutdown();
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) Deno.addSignalListener(signal, stop);
  await server.finished;
  clearInterval(sweeper);
  return 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
