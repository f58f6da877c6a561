/**
 * `deno task judge DIR`: grades and judges every episode of a finished experiment again, from its
 * stored trajectories (no agent runs), with the rules judge and, with `--judge llm:PROVIDER:MODEL`,
 * an LLM judge; then rewrites the records in `DIR/results.sqlite`, `DIR/records.jsonl` and the
 * reports. The LLM judge's answers are kept in `DIR/model_cache.sqlite`, so judging again (or
 * `--replay`) gives the same records byte for byte.
 *
 * Exit codes: 0 judged; 1 the results store or model cache cannot be used, a key or endpoint is
 * missing, or a replay lacks an answer; 2 bad flags.
 *
 * @module
 */
import { ModelError, type PriceTable } from "../agents/model/mod.ts";
import { readPrices } from "./_prices.ts";
import { InputFileError } from "../eval/fs_errors.ts";
import { modelSpec } from "../agents/mod.ts";
import { parsedOr, readDirArgs, readEnv } from "./_flags.ts";
import { judgeSpec, type ResolvedConfig } from "../eval/config.ts";
import { MODEL_CACHE_FILE, replayCachePath, RunModels } from "../eval/models.ts";
import { preflight, PreflightError } from "../eval/preflight.ts";
import { writeRecordsJsonl } from "../eval/records.ts";
import { rejudge, storedConfig } from "../eval/rejudge.ts";
import { REPORT_FILES, writeReports } from "../report/mod.ts";
import { ResultsStore, ResultsStoreError } from "../eval/store.ts";
import { IMPORT_NOTE, type ImportSummary } from "../interop/import/mod.ts";
import { formatDollars } from "../eval/usage.ts";

/** Usage text of `deno task judge`. */
export const USAGE = `Usage: deno task judge DIR [flags]

Grades and judges every episode of the experiment in DIR again from its stored
trajectories (no agent is run), then rewrites DIR/results.sqlite, DIR/records.jsonl,
DIR/report.json and DIR/report.html. Use it after changing the judge or its
version, or to add an LLM judge to a finished experiment.

Flags:
  --judge J          "rules" (the rules judge alone) or "llm:PROVIDER:MODEL" (the rules
                     judge and an LLM judge, e.g. "llm:openai:gpt-4o-mini"); default:
                     the judge the experiment was run with
  --replay CACHE     answer the LLM judge from a model cache (a file, or a results
                     folder holding ${MODEL_CACHE_FILE}); contacts no endpoint
  --base-url URL     API root of an openai: judge (default $OPENAI_BASE_URL, then
                     "https://api.openai.com/v1")
  --anthropic-base-url URL
                     API root of an anthropic: judge (default $ANTHROPIC_BASE_URL,
                     then "https://api.anthropic.com")
  --prices FILE      JSON prices over the built-in table
  --concurrency N    LLM judge calls in flight at once (default 1)
  --help             show this help

Keys come from OPENAI_API_KEY and ANTHROPIC_API_KEY only and are never stored.

Exit codes: 0 judged; 1 the results store or model cache cannot be used, a key
or endpoint is missing, or a replay lacks an answer; 2 bad flags.
`;

/** Parsed arguments of `deno task judge`. */
export interface JudgeArgs {
  dir: string;
  judge: string | null;
  replay: string | null;
  baseUrl: string | null;
  anthropicBaseUrl: string | null;
  prices: string | null;
  concurrency: number;
}

const FLAGS = ["--judge", "--replay", "--base-url", "--anthropic-base-url", "--prices", "--concurrency", "--help"];

/**
 * Parses the arguments of `deno task judge` (or `"help"`); bad ones throw a `TypeError` or
 * `RangeError` saying what is accepted.
 *
 * @example
 * ```ts
 * import { assert, assertEquals } from "@std/assert";
 * import { parseJudgeArgs } from "./judge.ts";
 * const args = parseJudgeArgs(["results/x", "--judge", "llm:openai:gpt-4o-mini"]);
 * assert(args !== "help");
 * assertEquals([args.dir, args.judge], ["results/x", "llm:openai:gpt-4o-mini"]);
 * ```
 */
export function parseJudgeArgs(args: readonly string[]): JudgeArgs | "help" {
  const read = readDirArgs(args, FLAGS);
  if (read === "help") return "help";
  const { dir, flags } = read;
  const out: JudgeArgs = {
    dir,
    judge: null,
    replay: null,
    baseUrl: null,
    anthropicBaseUrl: null,
    prices: null,
    concurrency: 1,
  };
  for (const [flag, value] of flags) {
    if (flag === "--judge") {
      judgeSpec(value);
      out.judge = value;
    } else if (flag === "--replay") out.replay = value;
    else if (flag === "--prices") out.prices = value;
    else if (flag === "--concurrency") {
      if (!/^\d+$/.test(value) || Number(value) < 1 || !Number.isSafeInteger(Number(value))) {
        throw new RangeError(`Invalid value "${value}" for --concurrency: expected a whole number of at least 1`);
      }
      out.concurrency = Number(value);
    } else {
      if (!URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol)) {
        throw new TypeError(`Invalid value "${value}" for ${flag}: expected an http(s) URL`);
      }
      if (flag === "--base-url") out.baseUrl = value;
      else out.anthropicBaseUrl = value;
    }
  }
  return out;
}

// The config the model layer sees: the judge's model only (the agents' and the user's are not called).
function judgeOnly(config: ResolvedConfig, args: JudgeArgs): ResolvedConfig {
  return {
    ...config,
    agents: config.agents.filter((a) => modelSpec(a) === null),
    user: "scripted",
    replay: args.replay,
    baseUrl: args.baseUrl ?? readEnv("OPENAI_BASE_URL") ?? config.baseUrl,
    anthropicBaseUrl: args.anthropicBaseUrl ?? readEnv("ANTHROPIC_BASE_URL") ?? config.anthropicBaseUrl,
    concurrency: args.concurrency,
  };
}

async function openJudgeModel(config: ResolvedConfig, args: JudgeArgs): Promise<RunModels | null | string> {
  const spec = judgeSpec(config.judge);
  if (spec === null) return null;
  let prices: PriceTable | undefined;
  try {
    if (args.prices !== null) prices = await readPrices(args.prices);
    if (args.replay === null) await preflight(config, { env: readEnv });
    const cachePath = args.replay === null ? `${args.dir}/${MODEL_CACHE_FILE}` : await replayCachePath(args.replay);
    return RunModels.open(config, { cachePath, env: readEnv, prices });
  } catch (err) {
    if (
      err instanceof PreflightError || err instanceof Deno.errors.NotFound || err instanceof SyntaxError ||
      err instanceof TypeError || err instanceof RangeError || err instanceof InputFileError ||
      (err instanceof Error && err.message.startsWith("Cannot open model cache"))
    ) return (err as Error).message.split("\n")[0];
    throw err;
  }
}

/** Runs the CLI and returns its exit code (see the module doc). */
export async function main(args: readonly string[]): Promise<number> {
  const parsed = parsedOr(() => parseJudgeArgs(args), USAGE);
  if (typeof parsed === "number") return parsed;
  let store: ResultsStore;
  let config: ResolvedConfig;
  const given: JudgeArgs = parsed;
  try {
    ({ store, value: config } = ResultsStore.readWith(
      `${given.dir}/results.sqlite`,
      (s) => judgeOnly(storedConfig(s, { out: given.dir, judge: given.judge ?? undefined }), given),
    ));
  } catch (err) {
    if (!(err instanceof ResultsStoreError)) throw err;
    console.error(err.message);
    return 1;
  }
  using _store = store;
  const models = await openJudgeModel(config, parsed);
  if (typeof models === "string") {
    console.error(models);
    return 1;
  }
  using _models = models ?? undefined;
  const spec = judgeSpec(config.judge);
  let summary: Awaited<ReturnType<typeof rejudge>>;
  try {
    summary = await rejudge(store, config, {
      model: spec === null ? undefined : models!.client(`${spec.provider}:${spec.model}`),
      concurrency: parsed.concurrency,
    });
  } catch (err) {
    if (!(err instanceof ModelError || err instanceof ResultsStoreError)) throw err;
    console.error(err.message.replace(/\s*\n\s*/g, " "));
    return 1;
  }
  store.setConfigField("judge", config.judge === "rules" ? undefined : config.judge);
  const written = await writeRecordsJsonl(store, `${parsed.dir}/records.jsonl`);
  const experiment = store.experiment();
  console.log(
    await writeReports(parsed.dir, {
      records: store.records(),
      store,
      seed: experiment.seed,
      title: experiment.name,
      imported: store.note(IMPORT_NOTE) as ImportSummary | undefined,
    }),
  );
  const { violating, successChanged, judgeErrors, cost } = summary;
  console.log(
    `Judged ${summary.episodes} episodes with "${config.judge}": ${violating.after} with violations (before: ` +
      `${violating.before}), ${successChanged} changed success${
        judgeErrors > 0 ? `, ${judgeErrors} LLM judge errors` : ""
      }` +
      `${
        spec === null
          ? ""
          : cost === null
          ? `, LLM judge calls of unknown cost ("${spec.provider}:${spec.model}" has no price; give one with --prices FILE.json)`
          : `, ${formatDollars(cost)} of LLM judge calls`
      }`,
  );
  console.log(
    `Wrote ${parsed.dir}/results.sqlite, ${parsed.dir}/records.jsonl, ${parsed.dir}/${REPORT_FILES.json} and ` +
      `${parsed.dir}/${REPORT_FILES.html} (${written} episodes)`,
  );
  return 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
