import { assert, assertEquals, assertStringIncludes } from "@std/assert";
import { serverApp, type ServerOptions } from "./mod.ts";

// The server's app with its refusals logged to a list, closed when the test is done.
async function served(options: ServerOptions = {}) {
  const dir = await Deno.makeTempDir();
  const logged: string[] = [];
  const server = serverApp({ results: dir, log: (line) => logged.push(line), ...options });
  return {
    ...server,
    logged,
    async [Symbol.asyncDispose]() {
      server.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

const start = JSON.stringify({ domain: "airline", task: "airline/0" });
const initialize = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "t", version: "0" } },
});

// A refusal: 403, one line saying why, and one log line.
async function forbidden(res: Response, logged: string[], expected: string) {
  assertEquals(res.status, 403);
  const { error } = await res.json();
  assertStringIncludes(error, expected);
  assertEquals([error.includes("\n"), logged.length, logged.at(-1)!.includes("\n")], [false, 1, false]);
  assertStringIncludes(logged.at(-1)!, expected);
  logged.length = 0;
}

Deno.test("serverApp() without a token refuses a DNS-rebinding Host on every route: API, MCP, dashboard and /health", async () => {
  await using s = await served({ port: 8787 });
  const rebound = { host: "evil.example:8787" };
  const routes: [string, RequestInit][] = [
    ["/v1/episodes", { method: "POST", body: start }],
    ["/v1/episodes/ep_1", { method: "GET" }],
    ["/mcp?domain=airline&task=airline/0", {
      method: "POST",
      body: initialize,
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    }],
    ["/", { method: "GET" }],
    ["/experiments/x/progress.json", { method: "GET" }],
    ["/health", { method: "GET" }],
  ];
  for (const [path, init] of routes) {
    const res = await s.app.request(`http://127.0.0.1:8787${path}`, {
      ...init,
      headers: { ...init.headers as Record<string, string>, ...rebound },
    });
    await forbidden(res, s.logged, 'Host "evil.example:8787" is not this machine');
  }
  assertEquals(s.api.open() + s.mcp.open, 0);
  // Another port of this machine is not the server's either; its own names are.
  await forbidden(await s.app.request("/health", { headers: { host: "localhost:9999" } }), s.logged, "localhost:8787");
  for (const host of ["localhost:8787", "127.0.0.1:8787", "[::1]:8787", "LOCALHOST:8787"]) {
    assertEquals((await s.app.request("/health", { headers: { host } })).status, 200, host);
  }
  assertEquals(s.logged, []);
});

Deno.test("serverApp() without a token refuses an Origin that is null, malformed, foreign or another port with 403, never 500", async () => {
  await using s = await served({ port: 8787 });
  const post = (origin: string) =>
    s.app.request("/v1/episodes", { method: "POST", body: start, headers: { host: "127.0.0.1:8787", origin } });
  for (
    const origin of [
      "null",
      "http://[",
      "not a url",
      "http://evil.example:8787", // a rebinding page whose Host is a loopback one
      "http://localhost:3000", // another site of this machine
      "https://localhost:8787",
      "http://localhost:8787/path",
    ]
  ) {
    await forbidden(await post(origin), s.logged, `requests from Origin ${JSON.stringify(origin)} are not accepted`);
  }
  // The server's own pages, by any of its names.
  for (const origin of ["http://127.0.0.1:8787", "http://localhost:8787"]) {
    const res = await post(origin);
    assertEquals(res.status, 201, origin);
  }
  // A GET is not a request a page can change anything with: its Origin is not checked.
  assertEquals((await s.app.request("/health", { headers: { host: "localhost:8787", origin: "null" } })).status, 200);
  assertEquals(s.logged, []);
});

Deno.test("serverApp() with a token takes any Host, and refuses a null or malformed Origin with 403, not 500", async () => {
  await using s = await served({ token: "t0k", port: 8787 });
  const post = (headers: Record<string, string>) =>
    s.app.request("/v1/episodes", {
      method: "POST",
      body: start,
      headers: { authorization: "Bearer t0k", host: "ark.example:8787", ...headers },
    });
  await forbidden(await post({ origin: "null" }), s.logged, 'requests from Origin "null" are not accepted');
  await forbidden(await post({ origin: "http://[" }), s.logged, 'requests from Origin "http://[" are not accepted');
  await forbidden(await post({ origin: "http://evil.example" }), s.logged, 'expected "http://ark.example:8787"');
  assertEquals((await post({ origin: "http://ark.example:8787" })).status, 201);
  assertEquals((await post({})).status, 201);
  assertEquals(s.logged, []);
});

Deno.test("serverApp() on a real listener: a rebinding Host on the wire gets 403 with one log line", async () => {
  const dir = await Deno.makeTempDir();
  const logged: string[] = [];
  let fetch: (req: Request) => Response | Promise<Response> = () => new Response(null, { status: 503 });
  const listener = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => fetch(req));
  const { port } = listener.addr;
  const server = serverApp({ results: dir, port, log: (line) => logged.push(line) });
  fetch = server.app.fetch;
  try {
    // Raw HTTP/1.1, since fetch() sets the Host itself: what a browser sends for evil.example bound to 127.0.0.1.
    const raw = async (host: string) => {
      const conn = await Deno.connect({ hostname: "127.0.0.1", port });
      await conn.write(new TextEncoder().encode(`GET /health HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`));
      const answer = await new Response(conn.readable).text();
      return answer.split("\r\n")[0];
    };
    assertEquals(await raw(`evil.example:${port}`), "HTTP/1.1 403 Forbidden");
    assertEquals(logged.length, 1);
    assert(logged[0].startsWith(`Refused GET /health: Host "evil.example:${port}" is not this machine`), logged[0]);
    assertEquals(await raw(`127.0.0.1:${port}`), "HTTP/1.1 200 OK");
  } finally {
    server.close();
    await listener.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
