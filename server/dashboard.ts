/**
 * The live dashboard over a results folder: server-rendered pages (no CDN, works offline, small
 * inline scripts only) listing the experiments found under it, one experiment's live progress
 * while it runs (read from its results store), its report (the charts of `report.html`), the
 * trajectory of any stored episode, and the comparison of two experiments (the table of
 * `deno task compare`, with significance). A name never leaves the results folder.
 *
 * @module
 */
import { Hono } from "hono";
import type { Context } from "hono";
import { type CellKey, type Condition, CONDITIONS, type ResultsStore, ResultsStoreError } from "../eval/mod.ts";
import { compareRecords, REPORT_FILES } from "../report/mod.ts";
import { buildReport, renderHtml } from "../report/mod.ts";
import { type ExperimentView, RateMeter, ResultsFolder, unsafeName } from "./_dashboard_data.ts";
import { messagePage, page } from "./_dashboard_html.ts";
import { compareForm, comparisonBody, experimentPage, indexPage } from "./_dashboard_pages.ts";
import { episodePage } from "./_dashboard_episode.ts";

/** Options of `dashboardApp()`. */
export interface DashboardOptions {
  /** The folder whose subfolders are experiments (each holding a `results.sqlite`). */
  results: string;
  /**
   * Bootstrap resamples of a report rendered from the records (one whose `report.json` is
   * missing or older than its store) and of a comparison.
   * @default {1000}
   */
  resamples?: number;
  /**
   * The time in milliseconds since the epoch, for the rate and ETA of a running experiment.
   * @default {Date.now}
   */
  now?: () => number;
}

/**
 * Hono's app type under a local name: `deno doc --lint` reports any reference to another
 * package's type as private (denoland/deno#27364).
 *
 * @internal
 */
type HonoApp = Hono;

const NAME_RULE = 'expected the name of a folder right under the results folder (no "/", no "..")';

/**
 * The dashboard as a Hono app; every route is a GET: `/`, `/experiments/:name`,
 * `/experiments/:name/progress.json`, `/experiments/:name/report`,
 * `/experiments/:name/episodes/:agent/:task/:run/:condition[/:variant]` (each segment
 * URL-encoded) and `/compare?a=NAME&b=NAME`. Unknown experiments and episodes are 404s, names
 * that would leave the results folder 400s, each with a one-line message. Throws a `TypeError`
 * when `results` is not a string or names something that is not a folder.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { dashboardApp } from "./dashboard.ts";
 * const app = dashboardApp({ results: await Deno.makeTempDir() });
 * assertEquals((await app.request("/")).status, 200);
 * ```
 */
export function dashboardApp(options: DashboardOptions): HonoApp {
  const state = resolve(options);
  const app = new Hono();
  app.get("/", (c) => c.html(indexPage(state.results, state.folder.list(), state.now())));
  app.get("/experiments/:name", (c) =>
    experiment(state, c, (store, view) => {
      const progress = state.meter.progress(view.name, view, state.now());
      return c.html(experimentPage(view, { progress, records: store.records(), now: state.now() }));
    }));
  app.get(
    "/experiments/:name/progress.json",
    (c) => experiment(state, c, (_store, view) => c.json(state.meter.progress(view.name, view, state.now()))),
  );
  app.get(
    "/experiments/:name/report",
    (c) => experiment(state, c, (store, view, dir) => c.html(reportHtml(state, { store, view, dir }))),
  );
  app.get(
    "/experiments/:name/episodes/:agent/:task/:run/:condition/:variant?",
    (c) => experiment(state, c, (store, view) => episode(c, { store, view })),
  );
  app.get("/compare", (c) => compare(state, c));
  app.notFound((c) => missing(c, `No page at "${c.req.path}": see the experiments at /`));
  return app;
}

// What every route shares: the options, the folder's reader, the rate meter and the reports rendered.
interface State {
  results: string;
  resamples: number;
  now: () => number;
  folder: ResultsFolder;
  meter: RateMeter;
  reports: Map<string, { count: number; html: string }>;
}

function resolve(options: DashboardOptions): State {
  const { results, resamples = 1000, now = Date.now } = options;
  if (typeof results !== "string" || results === "") {
    throw new TypeError(`Invalid results folder ${JSON.stringify(results)}: expected a folder path`);
  }
  try {
    if (!Deno.statSync(results).isDirectory) {
      throw new TypeError(`Invalid results folder "${results}": it is a file, expected a folder of experiments`);
    }
  } catch (err) {
    // A folder not made yet lists no experiment, and says so.
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  if (!(Number.isSafeInteger(resamples) && resamples >= 1)) {
    throw new RangeError(`Invalid resamples "${resamples}": expected a whole number of at least 1`);
  }
  return { results, resamples, now, folder: new ResultsFolder(results), meter: new RateMeter(), reports: new Map() };
}

const missing = (c: Context, what: string) => c.html(messagePage("Not found", what), 404);
const refused = (c: Context, what: string) => c.html(messagePage("Bad request", what), 400);
const noExperiment = (state: State, name: string) =>
  `No experiment "${name}" under the results folder "${state.results}"`;

// Opens the experiment the route names and runs `read` on its store; the right page otherwise.
function experiment(
  state: State,
  c: Context,
  read: (store: ResultsStore, view: ExperimentView, dir: string) => Response,
): Response {
  const name = c.req.param("name") ?? "";
  if (unsafeName(name)) return refused(c, `Invalid experiment name "${name}": ${NAME_RULE}`);
  try {
    const out = state.folder.with(name, (store, dir) => read(store, state.folder.view(name, store, dir), dir));
    return out ?? missing(c, noExperiment(state, name));
  } catch (err) {
    if (!(err instanceof ResultsStoreError)) throw err;
    return c.html(messagePage("Unreadable experiment", err.message), 500);
  }
}

// report.html as written when its report.json covers every stored episode; else rendered from the
// records (and kept until another episode is stored).
function reportHtml(state: State, at: { store: ResultsStore; view: ExperimentView; dir: string }): string {
  const { store, view, dir } = at;
  if (view.source === "report.json") {
    try {
      return Deno.readTextFileSync(`${dir}/${REPORT_FILES.html}`);
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound)) throw err;
    }
  }
  const cached = state.reports.get(view.name);
  if (cached !== undefined && cached.count === view.done) return cached.html;
  const records = store.records();
  if (records.length === 0) return page(view.name, `<p class="muted">no episode stored yet</p>`);
  const report = buildReport(records, { seed: view.seed, resamples: state.resamples, title: view.experiment });
  const html = renderHtml(report, { records, events: store });
  state.reports.set(view.name, { count: view.done, html });
  return html;
}

function episode(c: Context, at: { store: ResultsStore; view: ExperimentView }): Response {
  const cell = episodeCell(c.req.param());
  if (typeof cell === "string") return refused(c, cell);
  const record = at.store.records().find((r) =>
    r.agent === cell.agent && r.task === cell.task && r.run === cell.run && r.condition === cell.condition &&
    (r.variant ?? null) === cell.variant
  );
  if (record === undefined) {
    const variant = cell.variant === null ? "" : ` (${cell.variant})`;
    const what = `"${cell.agent}" on "${cell.task}" run ${cell.run} ${cell.condition}${variant}`;
    return missing(c, `No episode of ${what} in "${at.view.name}"`);
  }
  return c.html(episodePage(at.view.name, record, at.store.events(cell)));
}

function compare(state: State, c: Context): Response {
  const a = c.req.query("a"), b = c.req.query("b");
  const names = state.folder.list().map((x) => x.name);
  if (a === undefined && b === undefined) {
    return c.html(page("Compare", compareForm(names, null, null) || `<p class="muted">fewer than two experiments</p>`));
  }
  if (a === undefined || b === undefined || a === "" || b === "") {
    return refused(c, `Missing experiment ${a ? "b" : "a"}: expected /compare?a=NAME&b=NAME`);
  }
  for (const name of [a, b]) {
    if (unsafeName(name)) return refused(c, `Invalid experiment name "${name}": ${NAME_RULE}`);
    if (state.folder.dirOf(name) === null) return missing(c, noExperiment(state, name));
  }
  try {
    const recordsA = state.folder.with(a, (s) => s.records())!, recordsB = state.folder.with(b, (s) => s.records())!;
    const comparison = compareRecords(recordsA, recordsB, { resamples: state.resamples });
    return c.html(page(`Compare ${a} and ${b}`, compareForm(names, a, b) + comparisonBody(a, b, comparison)));
  } catch (err) {
    if (!(err instanceof ResultsStoreError)) throw err;
    return c.html(messagePage("Unreadable experiment", err.message), 500);
  }
}

// The cell an episode route names, or what is wrong with it.
function episodeCell(params: Record<string, string | undefined>): CellKey | string {
  const { agent = "", task = "", run = "", condition = "", variant } = params;
  if (!/^\d+$/.test(run) || !Number.isSafeInteger(Number(run))) {
    return `Invalid run "${run}": expected a whole number from 0`;
  }
  if (!(CONDITIONS as readonly string[]).includes(condition)) {
    return `Invalid condition "${condition}": expected one of ${CONDITIONS.map((x) => `"${x}"`).join(", ")}`;
  }
  return { agent, task, run: Number(run), condition: condition as Condition, variant: variant ?? null };
}
