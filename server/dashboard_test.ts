// The dashboard over a results folder of three small experiments: two finished (one with its
// report.json, one without) and one half-run, read through `app.request()` with no port.
import { assert, assertEquals, assertStringIncludes, assertThrows } from "@std/assert";
import { type EpisodeRecord, resolveConfig, type ResolvedConfig, ResultsStore } from "../eval/mod.ts";
import { dashboardApp } from "./dashboard.ts";
import { DASHBOARD_BASE as BASE, dashboardConfig, dashboardExperiments, runInto } from "../tests/fixtures/dashboard.ts";

interface Fixture {
  dir: string;
  a: ResolvedConfig;
  b: ResolvedConfig;
  running: ResolvedConfig;
}

async function fixture(): Promise<Fixture> {
  const dir = await Deno.makeTempDir({ prefix: "ark-dashboard-" });
  // B has reckless too: it breaks rules (violations to show), and it is an agent only B has.
  const { a, b, running } = await dashboardExperiments(`${dir}/results`, { resamples: 50 });
  // A results store beside the results folder: no name may reach it.
  await runInto({ ...dashboardConfig(`${dir}/results`, "3"), out: `${dir}/outside` });
  return { dir, a, b, running };
}

const read = (config: ResolvedConfig): EpisodeRecord[] => {
  using store = ResultsStore.read(`${config.out}/results.sqlite`);
  return store.records();
};
// Text as the pages escape it.
const h = (text: string) =>
  text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
const nameOf = (config: ResolvedConfig) => config.out.split("/").pop()!;
const accuracy = (records: readonly EpisodeRecord[], agent: string) => {
  const mine = records.filter((r) => r.agent === agent);
  return mine.filter((r) => r.success).length / mine.length;
};

Deno.test("dashboardApp() serves the experiments, their progress, reports, trajectories and comparisons", async (t) => {
  const fx = await fixture();
  let clock = 1_000_000;
  const app = dashboardApp({ results: `${fx.dir}/results`, resamples: 50, now: () => clock });
  const get = async (path: string) => {
    const res = await app.request(path);
    return { status: res.status, text: await res.text(), type: res.headers.get("content-type") ?? "" };
  };
  const [a, b, running] = [nameOf(fx.a), nameOf(fx.b), nameOf(fx.running)];

  try {
    await t.step("/ lists every experiment with its episodes, agents, headline and a link", async () => {
      const { status, text, type } = await get("/");
      assertEquals(status, 200);
      assertStringIncludes(type, "text/html");
      for (const name of [a, b, running]) assertStringIncludes(text, `href="/experiments/${name}"`);
      assert(!text.includes("outside"), "a store outside the results folder is listed");
      const row = (name: string) => text.split(`data-experiment="${name}"`)[1].split("</tr>")[0];
      assertStringIncludes(row(a), "8 / 8");
      assertStringIncludes(row(b), "12 / 12");
      assertStringIncludes(row(running), "3 / 8");
      assertStringIncludes(row(a), "oracle, noisy");
      // A's headline is its report.json's; B's is worked out from its records.
      const report = JSON.parse(await Deno.readTextFile(`${fx.a.out}/report.json`));
      assertStringIncludes(row(a), `R ${report.agents.noisy.overall.R.toFixed(3)}`);
      assertStringIncludes(row(a), "from report.json");
      assertStringIncludes(row(b), `accuracy ${accuracy(read(fx.b), "noisy").toFixed(3)}`);
      assertStringIncludes(row(b), "from records");
      assertStringIncludes(text, `action="/compare"`);
    });

    await t.step("/experiments/:name of a finished experiment shows its headline, report and episodes", async () => {
      const { status, text } = await get(`/experiments/${a}`);
      assertEquals(status, 200);
      assert(!text.includes(`id="progress"`), "a finished experiment shows live progress");
      assertStringIncludes(text, `<iframe title="report" src="/experiments/${a}/report"`);
      assertEquals(text.split(`class="episode"`).length - 1, 8);
      assertStringIncludes(text, `href="/experiments/${a}/episodes/oracle/airline%2F0/0/nominal"`);
      assertStringIncludes(text, `<th scope="row">noisy</th>`);
    });

    await t.step("/experiments/:name of a running experiment polls its progress", async () => {
      const { status, text } = await get(`/experiments/${running}`);
      assertEquals(status, 200);
      assertStringIncludes(text, `data-url="/experiments/${running}/progress.json"`);
      assertStringIncludes(text, `<span data-field="done">3</span> / <span data-field="total">8</span>`);
      assertStringIncludes(text, "setInterval(poll, 2000)");
      assert(
        !/<script[^>]+src=/.test(text) && !text.includes("http://") && !text.includes("https://"),
        "loads from the network",
      );
    });

    await t.step("/experiments/:name/progress.json gives done, total, rate, ETA and failures", async () => {
      const first = JSON.parse((await get(`/experiments/${running}/progress.json`)).text);
      const failed = read(fx.running).filter((r) => !r.success).length;
      assertEquals(first, {
        done: 3,
        total: 8,
        rate: null, // the only polls so far (the page and this one) came at the same time
        eta_s: null,
        failures: failed,
        agent_errors: 0,
        state: "running",
      });
      // Two more episodes finish over 4 s: 0.5 episodes/s, 3 left, 6 s to go.
      await runInto(fx.running, { stopAfter: 2 });
      clock += 4000;
      const second = JSON.parse((await get(`/experiments/${running}/progress.json`)).text);
      assertEquals([second.done, second.total, second.rate, second.eta_s], [5, 8, 0.5, 6]);
      assertEquals(second.failures, read(fx.running).filter((r) => !r.success).length);
    });

    await t.step("/experiments/:name/report renders the report's charts, written or from the records", async () => {
      for (const name of [a, b]) {
        const { status, text } = await get(`/experiments/${name}/report`);
        assertEquals(status, 200);
        assertStringIncludes(text, `data-chart="dimensions"`);
        assertStringIncludes(text, "noisy");
      }
      assertEquals((await get(`/experiments/${a}/report`)).text, await Deno.readTextFile(`${fx.a.out}/report.html`));
    });

    await t.step("/experiments/:name/episodes/... shows messages, tool calls, results and milestones", async () => {
      const record = read(fx.a).find((r) => r.agent === "oracle" && r.task === "airline/0" && r.run === 1)!;
      using store = ResultsStore.read(`${fx.a.out}/results.sqlite`);
      const events = store.events({ ...record, variant: null });
      const { status, text } = await get(
        `/experiments/${a}/episodes/oracle/${encodeURIComponent("airline/0")}/1/nominal`,
      );
      assertEquals(status, 200);
      assertStringIncludes(text, `Trajectory: ${events.length} events`);
      assertEquals(text.split(`class="ev `).length - 1, events.length);
      for (const tool of record.actions) assertStringIncludes(text, `<code class="call">${tool}</code>`);
      const said = events.find((e) => e.actor === "user" && e.kind === "message")!.text!;
      assertStringIncludes(text, h(said));
      assertStringIncludes(text, `${record.milestones.reached} of ${record.milestones.total} reached in order`);
      assertStringIncludes(text, record.violations!.length === 0 ? "judge: no violation" : `id="violations"`);
    });

    await t.step("an episode's violations are shown with their evidence beside their call", async () => {
      const bad = read(fx.b).find((r) => r.agent === "reckless" && (r.violations?.length ?? 0) > 0)!;
      const path = [bad.agent, bad.task, String(bad.run), bad.condition].map(encodeURIComponent).join("/");
      const { status, text } = await get(`/experiments/${b}/episodes/${path}`);
      assertEquals(status, 200);
      const listed = text.split(`id="violations"`)[1].split("</ul>")[0];
      for (const v of bad.violations!) {
        assertStringIncludes(listed, `${h(v.constraint)} × ${v.severity}</span> at step ${v.step}`);
        assertStringIncludes(listed, h(v.evidence!));
      }
      assert(text.includes(`class="ev tool violated"`), "no call is marked with its violation");
    });

    await t.step("/compare?a&b shows the paired comparison with significance", async () => {
      const { status, text } = await get(`/compare?a=${a}&b=${b}`);
      assertEquals(status, 200);
      assertStringIncludes(text, h(`"noisy": 2 paired tasks, 4 records in A, 4 in B`));
      assertStringIncludes(text, "<th>95% CI of Δ</th>");
      assertStringIncludes(text, "Paired bootstrap: 50 resamples");
      assertStringIncludes(text, h(`Agents only in B, not compared: "reckless"`));
      const row = text.split(h(`"noisy": 2 paired`))[1].split(`<th scope="row">accuracy</th>`)[1].split("</tr>")[0];
      const [accA, accB] = [accuracy(read(fx.a), "noisy"), accuracy(read(fx.b), "noisy")];
      assertStringIncludes(row, `<td class="n">${accA.toFixed(3)}</td><td class="n">${accB.toFixed(3)}</td>`);
      assert(/no significant change|better|worse|– \(/.test(row), `no verdict in ${row}`);
    });

    await t.step("unknown experiments, episodes and pages are 404 pages with a one-line message", async () => {
      const cases: [string, string][] = [
        ["/experiments/nope", `No experiment "nope" under the results folder`],
        ["/experiments/nope/progress.json", `No experiment "nope"`],
        [`/experiments/${a}/episodes/oracle/${encodeURIComponent("airline/0")}/9/nominal`, `No episode of "oracle"`],
        [
          `/experiments/${a}/episodes/nobody/${encodeURIComponent("airline/0")}/0/nominal/p0.2`,
          `No episode of "nobody"`,
        ],
        [`/compare?a=${a}&b=nope`, `No experiment "nope"`],
        ["/nowhere", `No page at "/nowhere"`],
      ];
      for (const [path, message] of cases) {
        const { status, text } = await get(path);
        assertEquals(status, 404, path);
        assertStringIncludes(text, h(message));
      }
    });

    await t.step("a name that would leave the results folder is refused", async () => {
      for (const path of ["/experiments/..%2Foutside", "/experiments/%2Fetc", `/compare?a=..%2Foutside&b=${a}`]) {
        const { status, text } = await get(path);
        assertEquals(status, 400, path);
        assertStringIncludes(text, "Invalid experiment name");
        assert(!text.includes("Trajectory") && !text.includes("Headline"), path);
      }
      assertEquals((await get("/experiments/..%2Foutside/report")).status, 400);
    });

    await t.step("bad episode coordinates and half a comparison get a 400 saying what is accepted", async () => {
      const bad = await get(`/experiments/${a}/episodes/oracle/${encodeURIComponent("airline/0")}/x/nominal`);
      assertEquals([bad.status, bad.text.includes(h(`Invalid run "x": expected a whole number from 0`))], [400, true]);
      const cond = await get(`/experiments/${a}/episodes/oracle/${encodeURIComponent("airline/0")}/0/sunny`);
      assertEquals([cond.status, cond.text.includes(h(`Invalid condition "sunny": expected one of "nominal"`))], [
        400,
        true,
      ]);
      const half = await get(`/compare?a=${a}`);
      assertEquals([half.status, half.text.includes(h("Missing experiment b: expected /compare?a=NAME&b=NAME"))], [
        400,
        true,
      ]);
    });
  } finally {
    await Deno.remove(fx.dir, { recursive: true });
  }
});

Deno.test("dashboardApp() refuses a results path that is a file, and lists a missing folder as empty", async () => {
  const file = await Deno.makeTempFile();
  try {
    assertThrows(() => dashboardApp({ results: file }), TypeError, "expected a folder of experiments");
    const res = await dashboardApp({ results: `${file}-missing` }).request("/");
    assertEquals(res.status, 200);
    assertStringIncludes(await res.text(), "the folder does not exist");
  } finally {
    await Deno.remove(file);
  }
});

Deno.test("dashboardApp() lists a folder whose results.sqlite is not a results store with the reason", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ark-dashboard-" });
  try {
    await Deno.mkdir(`${dir}/junk`);
    await Deno.writeTextFile(`${dir}/junk/results.sqlite`, "not a database at all, just text");
    const app = dashboardApp({ results: dir });
    const list = await app.request("/");
    assertEquals(list.status, 200);
    const row = (await list.text()).split(`class="broken"`)[1].split("</tr>")[0];
    assertStringIncludes(row, `href="/experiments/junk"`);
    assertStringIncludes(row, h(`Cannot open results store "${dir}/junk/results.sqlite"`));
    const one = await app.request("/experiments/junk");
    assertEquals(one.status, 500);
    assertStringIncludes(await one.text(), "Cannot open results store");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("dashboardApp() shows an episode of a condition with a variant at the path with its variant", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ark-dashboard-" });
  try {
    const config = resolveConfig({
      ...BASE,
      agents: ["oracle"],
      tasks: 1,
      runs: 1,
      conditions: { fault: { p_fault: 0.5 }, env: false, prompt: false },
      out: `${dir}/faults`,
    });
    await runInto(config);
    const faulted = read(config).find((r) => r.condition === "fault")!;
    assertEquals(faulted.variant, "p0.5");
    const app = dashboardApp({ results: dir });
    const list = await (await app.request("/experiments/faults")).text();
    const path = `/experiments/faults/episodes/oracle/${encodeURIComponent(faulted.task)}/0/fault/p0.5`;
    assertStringIncludes(list, `href="${path}"`);
    const res = await app.request(path);
    assertEquals(res.status, 200);
    const text = await res.text();
    assertStringIncludes(text, "condition <b>fault (p0.5)</b>");
    assertEquals(text.split("fault injected:").length - 1, faulted.faults);
    assertEquals((await app.request(path.replace("/p0.5", "/p0.9"))).status, 404);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
