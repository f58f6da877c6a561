// `deno task serve` (cli/serve.ts) at its edge, as a process on loopback: a busy port is one line and
// exit code 2, the perimeter checks the port it really got (--port 0 picks one), and --tasks is bounded.
import { assertEquals, assertStringIncludes, assertThrows } from "@std/assert";
import { parseServeArgs } from "../cli/serve.ts";
import { MAX_SERVED_TASKS } from "./mod.ts";

const SERVE = new URL("../cli/serve.ts", import.meta.url).pathname;
const ARGS = ["run", "--allow-read", "--allow-write", "--allow-env", "--allow-net=127.0.0.1", SERVE];

Deno.test("deno task serve on a busy port says so in one line and exits 2, with no stack trace", async () => {
  using held = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = held.addr;
  const child = new Deno.Command(Deno.execPath(), {
    args: [...ARGS, "--port", String(port)],
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const killer = setTimeout(() => child.kill("SIGKILL"), 60_000);
  const out = await child.output();
  clearTimeout(killer);
  const stderr = new TextDecoder().decode(out.stderr);
  assertEquals(out.code, 2, stderr);
  assertEquals(stderr, `Port ${port} is in use on 127.0.0.1: choose another with --port (--port 0 picks a free one)\n`);
  assertEquals(new TextDecoder().decode(out.stdout), "");
});

Deno.test({
  name: "deno task serve --port 0 refuses a rebinding Host on the port it got, with one line on stderr",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const child = new Deno.Command(Deno.execPath(), {
      args: [...ARGS, "--port", "0"],
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const killer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    const stderr = new Response(child.stderr).text();
    let stopped = false;
    try {
      const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
      let seen = "";
      while (!/http:\/\/127\.0\.0\.1:\d+\//.test(seen)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`serve ended before it listened: ${seen}`);
        seen += value;
      }
      void reader.cancel();
      const port = Number(seen.match(/http:\/\/127\.0\.0\.1:(\d+)\//)![1]);
      const status = async (host: string) => {
        const conn = await Deno.connect({ hostname: "127.0.0.1", port });
        await conn.write(
          new TextEncoder().encode(`GET /health HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`),
        );
        return (await new Response(conn.readable).text()).split("\r\n")[0];
      };
      assertEquals(await status(`127.0.0.1:${port}`), "HTTP/1.1 200 OK");
      assertEquals(await status(`evil.example:${port}`), "HTTP/1.1 403 Forbidden");
      child.kill("SIGTERM");
      await child.status;
      stopped = true;
      const lines = (await stderr).split("\n").filter((l) => l !== "");
      assertEquals(lines.length, 1, lines.join("\n"));
      assertStringIncludes(lines[0], `Refused GET /health: Host "evil.example:${port}" is not this machine`);
    } finally {
      // Stopped already when the test got that far; the killer stops it for sure otherwise.
      if (!stopped) child.kill("SIGTERM");
      await child.status;
      clearTimeout(killer);
    }
  },
});

Deno.test("parseServeArgs() takes --tasks from 1 to MAX_SERVED_TASKS, the tasks per domain the server serves", () => {
  assertEquals((parseServeArgs(["--tasks", "5"]) as { tasks?: number }).tasks, 5);
  assertEquals((parseServeArgs([]) as { tasks?: number }).tasks, undefined);
  assertThrows(() => parseServeArgs(["--tasks", String(MAX_SERVED_TASKS + 1)]), RangeError, "expected 1 to 1000");
});
