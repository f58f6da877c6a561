// report.html in a real browser: headless Chromium over the DevTools protocol opens the page a
// small experiment wrote, checks that every chart rendered with data, and saves a screenshot.
// Without Chromium the test is skipped, except under CI (CI set), where it fails.
import { assert, assertEquals } from "@std/assert";
import { MemoryResults, resolveConfig, runExperiment } from "../eval/mod.ts";
import { writeReports } from "../report/mod.ts";
import { findChromium, withChromiumPage, within } from "./fixtures/chromium.ts";
import { ignoreWithout, requireTool } from "./fixtures/ci.ts";

const TIMEOUT_MS = 60_000;

const chromium = findChromium();

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
  ignore: ignoreWithout("Chromium", chromium !== null, "report_html_test"),
  sanitizeResources: true,
  async fn() {
    requireTool("Chromium", chromium !== null, "apt-get install -y chromium");
    const dir = await Deno.makeTempDir({ prefix: "ark-report-" });
    const { sink, seed, title } = await experiment();
    await writeReports(dir, { records: sink.records(), store: sink, seed, resamples: 200, title });
    const url = new URL(`file://${dir}/report.html`).href;
    const page = await within(
      withChromiumPage(chromium!, async (cdp, session) => {
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
