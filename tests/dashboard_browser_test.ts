// The dashboard in a real browser: the app served on a loopback port, headless Chromium driven over
// the DevTools protocol (as report_html_test.ts does) through the experiment list, a live run that
// finishes while the page watches it, a report, a trajectory and a comparison; each page is checked
// for its data and saved as a screenshot. Without Chromium the test is skipped, except under CI
// (CI set), where it fails.
import { assert, assertEquals, assertGreater, assertStringIncludes } from "@std/assert";
import type { ResolvedConfig } from "../eval/mod.ts";
import { dashboardApp } from "../server/mod.ts";
import { type Cdp, findChromium, withChromiumPage, within } from "./fixtures/chromium.ts";
import { ignoreWithout, requireTool } from "./fixtures/ci.ts";
import { dashboardExperiments, runInto } from "./fixtures/dashboard.ts";

const chromium = findChromium();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One browser tab: navigate, read the page, take screenshots. */
class Tab {
  constructor(readonly cdp: Cdp, readonly session: string, readonly shots: string) {}

  async open(url: string): Promise<void> {
    const loaded = this.cdp.next("Page.loadEventFired");
    await this.cdp.send("Page.navigate", { url }, this.session);
    await loaded;
  }

  /** Evaluates an expression in the page; its value, as JSON. */
  async eval<T>(expression: string): Promise<T> {
    const { result } = await this.cdp.send("Runtime.evaluate", {
      expression: `JSON.stringify(${expression})`,
      returnByValue: true,
    }, this.session);
    return JSON.parse((result as { value: string }).value);
  }

  /** Evaluates until the value passes `ok` (a reload in between is waited out); throws after `ms`. */
  async until<T>(expression: string, ok: (v: T) => boolean, ms: number, what: string): Promise<T> {
    const end = Date.now() + ms;
    let last: T | undefined;
    while (Date.now() < end) {
      try {
        last = await this.eval<T>(expression);
        if (ok(last)) return last;
      } catch {
        // the page is between two documents
      }
      await sleep(150);
    }
    throw new Error(`Timed out waiting for ${what}; last seen ${JSON.stringify(last)}`);
  }

  async shot(name: string): Promise<string> {
    const height = Math.min(await this.eval<number>("document.documentElement.scrollHeight"), 3000);
    const shot = await this.cdp.send("Page.captureScreenshot", {
      format: "png",
      captureBeyondViewport: true,
      clip: { x: 0, y: 0, width: 1280, height, scale: 1 },
    }, this.session);
    const path = `${this.shots}/${name}.png`;
    await Deno.writeFile(path, Uint8Array.from(atob(shot.data as string), (c) => c.charCodeAt(0)));
    return path;
  }
}

/** Launches Chromium, opens a tab, runs `use` with it; always kills the browser. */
function withTab<T>(shots: string, use: (tab: Tab) => Promise<T>): Promise<T> {
  return withChromiumPage(chromium!, (cdp, session) => use(new Tab(cdp, session, shots)));
}

const name = (config: ResolvedConfig) => config.out.split("/").pop()!;

Deno.test({
  name: "dashboardApp() pages render with data in headless Chromium, a live run updating itself",
  ignore: ignoreWithout("Chromium", chromium !== null, "dashboard_browser_test"),
  async fn() {
    requireTool("Chromium", chromium !== null, "apt-get install -y chromium");
    const dir = await Deno.makeTempDir({ prefix: "ark-dashboard-" });
    const shots = await Deno.makeTempDir({ prefix: "ark-dashboard-shots-" });
    const { a, b, running: live } = await dashboardExperiments(dir, { resamples: 100 });
    const app = dashboardApp({ results: dir, resamples: 100 });
    const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, app.fetch);
    const root = `http://127.0.0.1:${server.addr.port}`;
    const saved: string[] = [];
    try {
      await within(
        withTab(shots, async (tab) => {
          // The experiment list: a row per experiment with its episodes and headline.
          await tab.open(`${root}/`);
          const rows = await tab.eval<{ name: string; text: string }[]>(
            `[...document.querySelectorAll("#experiments tbody tr")].map((tr) => ({ name: tr.dataset.experiment, text: tr.innerText }))`,
          );
          assertEquals(rows.map((r) => r.name), [name(a), name(b), name(live)].sort());
          const row = (c: ResolvedConfig) => rows.find((r) => r.name === name(c))!.text;
          assertStringIncludes(row(a), "8 / 8");
          assertStringIncludes(row(b), "12 / 12");
          assertStringIncludes(row(live), "3 / 8");
          assertStringIncludes(row(a), "oracle R "); // the oracle succeeds every time
          assertStringIncludes(row(a).split("oracle R ")[1], "accuracy 1.000");
          saved.push(await tab.shot("1-experiments"));

          // A live run: the page polls progress.json, then reloads itself once the run has finished.
          await tab.open(`${root}/experiments/${encodeURIComponent(name(live))}`);
          const first = await tab.until<{ done: string; rate: string }>(
            `({ done: document.querySelector('[data-field="done"]').textContent,
                rate: document.querySelector('[data-field="rate"]').textContent })`,
            (v) => v.rate.endsWith("episodes/s"),
            5_000,
            "the first poll of progress.json",
          );
          assertEquals(first.done, "3");
          saved.push(await tab.shot("2-live-run"));
          await runInto(live);
          const finished = await tab.until<string | null>(
            `document.getElementById("progress") ? null : document.getElementById("done")?.textContent ?? null`,
            (v) => v !== null,
            8_000,
            "the page to see the run finish",
          );
          assertStringIncludes(finished!, "8 episodes");
          assertEquals(await tab.eval<number>(`document.querySelectorAll("a.episode").length`), 8);

          // The report: every chart of report.html, drawn.
          await tab.open(`${root}/experiments/${encodeURIComponent(name(a))}/report`);
          const charts = await tab.eval<{ name: string; marks: number; height: number }[]>(
            `[...document.querySelectorAll("[data-chart]")].map((el) => ({ name: el.dataset.chart,
              marks: el.querySelectorAll(".mark").length, height: el.getBoundingClientRect().height }))`,
          );
          assertGreater(charts.length, 3);
          for (const chart of charts) assert(chart.height > 100, `chart "${chart.name}" has no size`);
          assert(charts.some((c) => c.marks > 0), "no chart drew a mark");
          saved.push(await tab.shot("3-report"));

          // A trajectory: reckless breaks rules; its violations sit beside the calls.
          const path = ["reckless", "airline/1", "0", "nominal"].map(encodeURIComponent).join("/");
          await tab.open(`${root}/experiments/${encodeURIComponent(name(b))}/episodes/${path}`);
          const trajectory = await tab.eval<{ events: number; calls: number; violations: number; marked: number }>(
            `({ events: document.querySelectorAll("#events > li").length,
                calls: document.querySelectorAll("#events code.call").length,
                violations: document.querySelectorAll("#violations > li").length,
                marked: document.querySelectorAll("#events > li.violated").length })`,
          );
          assertGreater(trajectory.calls, 0);
          assertGreater(trajectory.events, trajectory.calls);
          assertGreater(trajectory.violations, 0);
          assertGreater(trajectory.marked, 0);
          saved.push(await tab.shot("4-trajectory"));

          // The comparison: a table per shared agent with a verdict on every metric.
          await tab.open(`${root}/compare?a=${encodeURIComponent(name(a))}&b=${encodeURIComponent(name(b))}`);
          const compared = await tab.eval<{ tables: number; verdicts: string[]; text: string }>(
            `({ tables: document.querySelectorAll("table.comparison").length,
                verdicts: [...document.querySelectorAll("table.comparison tbody tr td:last-child")].map((td) => td.textContent),
                text: document.body.innerText })`,
          );
          assertEquals(compared.tables, 2);
          assert(compared.verdicts.length > 0 && compared.verdicts.every((v) => v !== ""), "a metric has no verdict");
          assertStringIncludes(compared.text, `Agents only in B, not compared: "reckless"`);
          saved.push(await tab.shot("5-compare"));
        }),
        40_000,
        "driving the dashboard in Chromium",
      );
    } finally {
      await server.shutdown();
      await Deno.remove(dir, { recursive: true });
    }
    console.log(`dashboard_browser_test: screenshots at\n  ${saved.join("\n  ")}`);
  },
});
