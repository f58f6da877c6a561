import { assertEquals, assertRejects } from "@std/assert";
import { resolveConfig } from "./config.ts";
import { isLoopback, preflight, PreflightError } from "./preflight.ts";

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

Deno.test("isLoopback() knows localhost, 127.0.0.0/8 and ::1 from other hosts", () => {
  const urls = ["http://localhost:11434/v1", "http://127.0.0.2/v1", "http://[::1]:8080", "http://ollama.localhost/v1"];
  assertEquals(urls.map(isLoopback), [true, true, true, true]);
  assertEquals(["https://api.openai.com/v1", "http://10.0.0.2/v1", "http://127.example.com"].map(isLoopback), [
    false,
    false,
    false,
  ]);
});

Deno.test("preflight() wants a key for a remote endpoint and none for a local one", async () => {
  const remote = resolveConfig({ agents: ["oracle", "openai:gpt-4o-mini"] });
  const err = await assertRejects(() => preflight(remote), PreflightError);
  assertEquals([err.code, err.message], ["no_key", 'Cannot run "openai:gpt-4o-mini": OPENAI_API_KEY is not set']);
  const user = resolveConfig({ agents: ["oracle"], user: "llm:anthropic:claude-3-5-haiku-latest" });
  await assertRejects(() => preflight(user, { env: () => undefined }), PreflightError, "ANTHROPIC_API_KEY is not set");
  await preflight(resolveConfig({ agents: ["oracle"] })); // no model, nothing to check
});

Deno.test("preflight() takes any HTTP answer as reachable and says why an endpoint is not", async () => {
  const paths: string[] = [];
  await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    paths.push(new URL(request.url).pathname);
    return new Response("no", { status: 401 });
  });
  const base = `http://127.0.0.1:${server.addr.port}`;
  const config = resolveConfig({
    agents: ["openai:m", "anthropic:m"],
    baseUrl: `${base}/openai/v1`,
    anthropicBaseUrl: `${base}/anthropic`,
  });
  await preflight(config);
  assertEquals(paths.sort(), ["/anthropic/v1/models", "/openai/v1/models"]);

  const down = `http://127.0.0.1:${freePort()}/v1`;
  const err = await assertRejects(
    () => preflight(resolveConfig({ agents: ["openai:x"], baseUrl: down })),
    PreflightError,
  );
  assertEquals([err.code, err.message], ["unreachable", `Cannot reach "${down}" for "openai:x": connection refused`]);
});

Deno.test("preflight() gives up on a silent endpoint after the timeout", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const held: Deno.Conn[] = [];
  const accepting = (async () => {
    for await (const conn of listener) held.push(conn);
  })();
  const base = `http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}/v1`;
  await assertRejects(
    () => preflight(resolveConfig({ agents: ["openai:x"], baseUrl: base }), { timeoutMs: 200 }),
    PreflightError,
    "no answer within 0.2 s",
  );
  listener.close();
  for (const conn of held) conn.close();
  await accepting.catch(() => {});
});

Deno.test("preflight() pings every agent server, behind the checkpoint too, and names one that does not answer", async () => {
  const pings: unknown[] = [];
  await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    pings.push([request.method, new URL(request.url).pathname, await request.json()]);
    return new Response("teapot", { status: 418 });
  });
  const url = `http://127.0.0.1:${server.addr.port}/agent`;
  await preflight(resolveConfig({ agents: ["oracle", url, `checkpoint:${url}`] }));
  assertEquals(pings, [["POST", "/agent", { type: "ping" }]]);

  const down = `http://127.0.0.1:${freePort()}/agent`;
  const err = await assertRejects(
    () => preflight(resolveConfig({ agents: [url, `checkpoint:${down}`] })),
    PreflightError,
  );
  assertEquals([err.code, err.message], ["unreachable", `Cannot reach agent server "${down}": connection refused`]);
});
