// report.html in a real browser: headless Chromium over the DevTools protocol opens the page a
// small experiment wrote, checks that every chart rendered with data, and saves a screenshot.
// Without Chromium the test is skipped, except under CI (CI set), where it fails.
import { assert, assertEquals } from "@std/assert";
import { MemoryResults, resolveConfig, runExperiment } from "../eval/mod.ts";
import { writeReports } from "../eval/report/mod.ts";
import { Cdp, devToolsEndpoint, findChromium, within } from "./fixtures/chromium.ts";

const TIMEOUT_MS = 60_000;

const chromium = findChromium();
const inCi = Deno.env.get("CI") !== undefined && Deno.env.get("CI") !== "";
if (chromium === null && !inCi) {
  console.log("report_html_test: Chromium not found, skipping (install it: apt-get install chromium)");
}

/** Launches Chromium, opens a page, runs `use` with the client and session; always kills the browser. */
async function withPage<T>(use: (cdp: Cdp, session: string) => Promise<T>): Promise<T> {
  const profile = await Deno.makeTempDir({ prefix: "ark-chromium-" });
  const child = new Deno.Command(chromium!, {
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--hide-scrollbars",
      `--user-data-dir=${profile}`,
      "--remote-debugging-port=0",
      "about:blank",
    ],
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  let cdp: Cdp | undefined;
  try {
    const endpoint = await within(devToolsEndpoint(profile), 20_000, "Chromium's DevToolsActivePort");
    cdp = await Cdp.connect(endpoint);
    const { targetId } = await cdp.send("Target.createTarget", { url: "about:blank" });
    const { sessionId } = await cdp.send("Target.attachToTarget", { targetId, flatten: true });
    return await use(cdp, sessionId as string);
  } finally {
    await cdp?.send("Browser.close").catch(() => {});
    await cdp?.close();
    try {
      child.kill("SIGKILL");
    } catch {
      // already gone
    }
    await child.status;
    await Deno.remove(profile, { recursive: true }).catch(() => {});
  }
}

/** A small experiment under every condition, judged: reckless breaks rules and moves money wrongly. */
async function experiment(): Promise<{ sink: MemoryResults; seed: string; title: string }> {
  const config = resolveConfig({ suite: "tasks", tasks: 4, runs: 2 });
  const sink = new MemoryResults();
  await runExperiment(config, { sink });
  return { sink, seed: config.seed, title: config.experiment };
}

const CHECK = `JSON.stringify({
  charts: [...document.querySelectorAll("[data-chart]")].map((el) => {
    const box = el.getBoundingClientRect(), svg = el.querySelector("svg");
    return { name: el.dataset.chart, points: Number(el.dataset.points), marks: el.querySelectorAll(".mark").length,
      width: box.width, height: box.height, svgHeight: svg ? svg.getBoundingClientRect().height : 0 };
  }),
  scripts: document.querySelectorAll("script, link, img, iframe").length,
  resources: performance.getEntriesByType("resource").length,
  brokenLinks: [...document.querySelectorAll('a[href^="#"]')].filter((a) => !document.getElementById(a.getAttribute("href").slice(1))).length,
  trajectories: document.querySelectorAll("section.task").length,
  height: document.documentElement.scrollHeight,
})`;

Deno.test({
  name: "report.html renders every chart with data in headless Chromium",
  ignore: chromium === null && !inCi,
  sanitizeResources: true,
  async fn() {
    if (chromium === null) {
      throw new Error("Chromium is missing under CI: install it (apt-get install -y chromium) or put it on PATH");
    }
    const dir = await Deno.makeTempDir({ prefix: "ark-report-" });
    const { sink, seed, title } = await experiment();
    await writeReports(dir, { records: sink.records(), store: sink, seed, resamples: 200, title });
    const url = new URL(`file://${dir}/report.html`).href;
    const page = await within(
      withPage(async (cdp, session) => {
        await cdp.send("Page.enable", {}, session);
        await cdp.send("Emulation.setDeviceMetricsOverride", {
          width: 1280,
          height: 900,
          deviceScaleFactor: 1,
          mobile: false,
        }, session);
        const loaded = cdp.next("Page.loadEventFired");
        await cdp.send("Page.navigate", { url }, session);
        await loaded;
        const { result } = await cdp.send("Runtime.evaluate", { expression: CHECK, returnByValue: true }, session);
        const found = JSON.parse((result as { value: string }).value);
        const height = Math.min(found.height, 4200);
        const shot = await cdp.send("Page.captureScreenshot", {
          format: "png",
          captureBeyondViewport: true,
          clip: { x: 0, y: 0, width: 1280, height, scale: 1 },
        }, session);
        await Deno.writeFile(`${dir}/report.png`, Uint8Array.from(atob(shot.data as string), (c) => c.charCodeAt(0)));
        return found;
      }),
      TIMEOUT_MS,
      "rendering report.html in Chromium",
    );
    console.log(`report_html_test: screenshot at ${dir}/report.png`);
    const names = page.charts.map((c: { name: string }) => c.name);
    assertEquals(names, [
      "dimensions",
      "pass-hat-k",
      "decay",
      "calibration",
      "violations",
      "exceedance",
      "conditions",
    ]);
    for (const chart of page.charts) {
      assert(
        chart.width > 100 && chart.height > 100,
        `chart "${chart.name}" has no size: ${chart.width}×${chart.height}`,
      );
      assert(chart.points > 0, `chart "${chart.name}" drew no data`);
      assertEquals(chart.marks, chart.points, `chart "${chart.name}" marks`);
      assert(chart.svgHeight > 100, `chart "${chart.name}" has no drawing`);
    }
    assertEquals([page.scripts, page.resources, page.brokenLinks], [0, 0, 0]);
    assert(page.trajectories > 0, "no trajectory shown");
    const { experiment: e } = JSON.parse(await Deno.readTextFile(`${dir}/report.json`));
    assert(e.conditions.length > 1, "the experiment ran one condition only");
    const bars = page.charts.find((c: { name: string }) => c.name === "conditions").points;
    assertEquals(bars, e.agents.length * e.conditions.length, "a bar per agent and condition");
  },
});
