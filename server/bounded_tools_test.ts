// A served world stays responsive to SQL that would run for ever: through the episode API of a real
// `deno task serve` process, on loopback, as an agent would send it.
import { assert, assertEquals, assertStringIncludes } from "@std/assert";
import { domains } from "../envs/domains.ts";

const SERVE = new URL("../cli/serve.ts", import.meta.url).pathname;

async function serve(): Promise<{ base: string; child: Deno.ChildProcess }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-read", "--allow-write", "--allow-env", "--allow-net=127.0.0.1", SERVE, "--port", "0"],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  while (!/http:\/\/[\d.]+:\d+\//.test(seen)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`serve ended before it listened: ${seen}`);
    seen += value;
  }
  // Keep reading so the child never blocks on a full pipe.
  (async () => {
    while (!(await reader.read()).done) { /* drain */ }
  })();
  return { base: seen.match(/(http:\/\/[\d.]+:\d+)\//)![1], child };
}

Deno.test({
  name:
    "served: a runaway recursive WITH and a cross join are tool errors at once, /health answers meanwhile, SIGTERM stops it",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const { base, child } = await serve();
    const killer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    try {
      const post = async (path: string, body: unknown) =>
        await (await fetch(`${base}${path}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        })).json();
      const opened = await post("/v1/episodes", { domain: "orders", task: "orders/0" });
      assert(typeof opened.id === "string", JSON.stringify(opened).slice(0, 300));
      const sql = (query: string) => post(`/v1/episodes/${opened.id}/tool`, { name: "run_sql", arguments: { query } });
      // /health is asked while each query runs, and must answer.
      const withHealth = async (query: string) => {
        const [answer, health] = await Promise.all([sql(query), fetch(`${base}/health`)]);
        assertEquals(health.status, 200);
        await health.body?.cancel();
        return answer;
      };
      const recursive = await withHealth(
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c",
      );
      assertEquals([recursive.tool.ok, recursive.tool.error.code], [false, "invalid_args"]);
      assertStringIncludes(recursive.tool.error.message, "recursive");
      const cross = await withHealth("SELECT count(*) FROM orders a, order_items b, payments c");
      assertEquals([cross.tool.ok, cross.tool.error.code], [false, "invalid_args"]);
      assertStringIncludes(cross.tool.error.message, "rows from tables");
      // The world's date, the same on every asking.
      const date = "SELECT date('now') AS today, random() AS r";
      const a = await sql(date), b = await sql(date);
      assert(a.tool.ok, JSON.stringify(a));
      assertEquals(a.tool.result.rows[0][0], domains.orders.now.slice(0, 10));
      assertEquals(b.tool.result.rows[0][0], a.tool.result.rows[0][0]);
    } finally {
      child.kill("SIGTERM");
      const status = await child.status;
      clearTimeout(killer);
      // Stopped by SIGTERM itself (the killer's SIGKILL would show as signal 9).
      assert(status.signal !== "SIGKILL", `serve did not stop on SIGTERM: ${JSON.stringify(status)}`);
    }
  },
});
