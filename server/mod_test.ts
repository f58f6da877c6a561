import { assertEquals, assertStringIncludes } from "@std/assert";
import { serverApp } from "./mod.ts";

Deno.test("serverApp(): with a token, agents send it as a bearer header and a browser once as ?token=, then by cookie", async () => {
  const dir = await Deno.makeTempDir();
  const { app, api } = serverApp({ token: "t0k", results: dir });
  try {
    assertEquals((await app.request("/health")).status, 200);
    const denied = await app.request("/");
    assertEquals(denied.status, 401);
    assertStringIncludes((await denied.json()).error, "open /?token=<token>");
    assertEquals((await app.request("/?token=wrong")).status, 401);
    const opened = await app.request("/?token=t0k");
    assertEquals(opened.status, 200);
    const cookie = opened.headers.get("set-cookie")!.split(";")[0];
    assertEquals(cookie, "ark_token=t0k");
    assertEquals((await app.request("/", { headers: { cookie } })).status, 200);
    const start = (headers: Record<string, string>) =>
      app.request("/v1/episodes", {
        method: "POST",
        headers,
        body: JSON.stringify({ domain: "airline", task: "airline/0" }),
      });
    assertEquals((await start({})).status, 401);
    assertEquals((await start({ authorization: "Bearer wrong" })).status, 401);
    assertEquals((await start({ authorization: "Bearer t0k" })).status, 201);
    // Without a token every route is open (the server then binds to loopback only).
    assertEquals((await serverApp({ results: dir }).app.request("/")).status, 200);
  } finally {
    api.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("serverApp(): MCP is mounted at /mcp, and a page of another site may not post to the server", async () => {
  const dir = await Deno.makeTempDir();
  const { app, close } = serverApp({ results: dir, log: () => {} });
  try {
    const mcp = await app.request("/mcp?domain=airline&task=airline/0", { method: "GET" });
    assertEquals(mcp.status, 405); // a standing SSE stream is not offered: the endpoint is there
    const foreign = await app.request("http://127.0.0.1:8787/v1/episodes", {
      method: "POST",
      headers: { origin: "http://evil.example" },
      body: JSON.stringify({ domain: "airline", task: "airline/0" }),
    });
    assertEquals(foreign.status, 403);
    assertStringIncludes((await foreign.json()).error, 'requests from Origin "http://evil.example" are not accepted');
    const same = await app.request("http://127.0.0.1:8787/v1/episodes", {
      method: "POST",
      headers: { origin: "http://127.0.0.1:8787" },
      body: JSON.stringify({ domain: "airline", task: "airline/0" }),
    });
    assertEquals(same.status, 201);
  } finally {
    close();
    await Deno.remove(dir, { recursive: true });
  }
});
