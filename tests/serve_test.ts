// `deno task serve` as a user runs it: a Python client, in its standard library only, completes
// episodes over the episode API with the decisions the oracle made in-process, and gets the records
// the oracle got; the server refuses to bind beyond loopback without a token.
import { assertEquals, assertStringIncludes } from "@std/assert";
import { MemoryResults, resolveConfig, runExperiment } from "../eval/mod.ts";
import { remoteActions } from "../server/mod.ts";
import { hasPython, ignoreWithout, requireTool } from "./fixtures/ci.ts";

const SERVE = new URL("../cli/serve.ts", import.meta.url).pathname;
const CLIENT = new URL("../examples/episode_client.py", import.meta.url).pathname;

const python = hasPython();

Deno.test({
  name: "a Python stdlib client completes episodes over the episode API and gets the oracle's in-process records",
  ignore: ignoreWithout("python3", python, "serve_test"),
}, async () => {
  requireTool("python3", python, "apt-get install -y python3");
  const sink = new MemoryResults();
  const config = resolveConfig({
    suite: "tasks",
    domains: ["airline"],
    agents: ["oracle"],
    tasks: 2,
    runs: 1,
    conditions: { fault: false, env: false, prompt: false },
  });
  await runExperiment(config, { sink });
  const server = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", SERVE, "--port", "0"],
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const dir = await Deno.makeTempDir();
  try {
    const reader = server.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let seen = "";
    while (seen.split("\n").length < 3) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the server did not start: ${seen}`);
      seen += value;
    }
    const port = seen.match(/http:\/\/[^:]+:(\d+)\//)![1];
    assertStringIncludes(seen, "no token: bound to loopback only");
    for (const r of sink.records()) {
      const file = `${dir}/${r.task.replace("/", "_")}.json`;
      await Deno.writeTextFile(file, JSON.stringify(remoteActions(sink.events(r), r.confidence)));
      const out = await new Deno.Command("python3", {
        args: [
          CLIENT,
          "--server",
          `http://127.0.0.1:${port}`,
          "--domain",
          "airline",
          "--task",
          r.task,
          "--agent",
          "oracle",
          "--decisions",
          file,
        ],
        stdout: "piped",
        stderr: "piped",
      }).output();
      const text = new TextDecoder();
      assertEquals(out.code, 0, text.decode(out.stderr));
      const verdict = JSON.parse(text.decode(out.stdout));
      assertEquals(verdict.record, r, r.task);
      assertEquals(verdict.success, true);
    }
    void reader.cancel();
  } finally {
    server.kill("SIGTERM");
    await server.status;
    await server.stderr.cancel().catch(() => {});
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("deno task serve refuses to bind beyond loopback without a token, and names bad flags", async () => {
  const run = async (args: string[]) => {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", SERVE, ...args],
      stdout: "piped",
      stderr: "piped",
      env: { ARK_TOKEN: "" },
    }).output();
    return {
      code: out.code,
      stderr: new TextDecoder().decode(out.stderr),
      stdout: new TextDecoder().decode(out.stdout),
    };
  };
  const open = await run(["--host", "0.0.0.0"]);
  assertEquals(open.code, 2);
  assertEquals(
    open.stderr.trim(),
    "Refusing to serve on 0.0.0.0 without a token: give --token (or $ARK_TOKEN), or bind to 127.0.0.1",
  );
  const port = await run(["--port", "http"]);
  assertEquals([port.code, port.stderr.trim()], [
    2,
    'Invalid value "http" for --port: expected a whole number of at least 0',
  ]);
  const help = await run(["--help"]);
  assertEquals(help.code, 0);
  assertStringIncludes(help.stdout, "Usage: deno task serve");
});
