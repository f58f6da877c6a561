// The scoring figure of `deno task bench`: a million synthetic records written to a JSON Lines file,
// read back as `deno task score` reads them and scored with 1,000 resamples, in a worker so that the
// main thread can sample the process's memory meanwhile.
import { type EpisodeRecord, scoreRecords } from "../scoring/mod.ts";
import { Rng } from "../envs/mod.ts";
import { readRecords } from "../eval/records_read.ts";

/** Sizes of the synthetic record set. */
export interface SynthOptions {
  /**
   * Task ids.
   * @default {10000}
   */
  tasks?: number;
  /**
   * Agents, each running every task.
   * @default {5}
   */
  agents?: number;
  /**
   * Runs per agent and task: the first half nominal, the rest fault, env and prompt in turn.
   * @default {20}
   */
  runs?: number;
  /**
   * Seed.
   * @default {"bench"}
   */
  seed?: string;
}

const CONDITIONS = ["fault", "env", "prompt"] as const;
// Action names of made-up tools: the bench measures scoring, which reads names as opaque strings.
const TOOLS = ["look_up_customer", "look_up_order", "search", "create", "cancel"];

/**
 * Deterministic synthetic records (`tasks × agents × runs` of them) with every
 * field scoring reads: conditions, confidences (with ties), actions,
 * resources, violations, milestones, tool calls and writes. Arrays that repeat
 * (action variants, milestone tools) are shared between records, as interned
 * strings would be.
 */
export function synthesizeRecords(options: SynthOptions = {}): EpisodeRecord[] {
  return [...synthRecords(options)];
}

/** `synthesizeRecords()` one record at a time, none kept. */
export function* synthRecords(options: SynthOptions = {}): Generator<EpisodeRecord> {
  const { tasks = 10_000, agents = 5, runs = 20, seed = "bench" } = options;
  const rng = new Rng(seed);
  const variants = Array.from(
    { length: 12 },
    (_, v) => Array.from({ length: 3 + (v % 4) }, (_, i) => TOOLS[(v + i) % 5]),
  );
  const lengths = [5, 20, 100].map((n) => Array.from({ length: n }, (_, i) => TOOLS[i % 5]));
  const names = Array.from({ length: agents }, (_, a) => `agent-${a}`);
  for (let t = 0; t < tasks; t++) {
    const task = `synth/${t}`, difficulty = rng.next(), milestoneTools = lengths[t % 3];
    for (let a = 0; a < agents; a++) {
      const skill = 0.55 + 0.4 * a / Math.max(1, agents - 1);
      for (let run = 0; run < runs; run++) {
        const nominal = run < runs / 2;
        const condition = nominal ? "nominal" : CONDITIONS[run % 3];
        const p = Math.max(0, Math.min(1, skill - 0.4 * difficulty - (nominal ? 0 : 0.1)));
        const success = rng.next() < p;
        const actions = variants[(t + (rng.next() < 0.25 ? 1 + (run % 3) : 0)) % variants.length];
        const total = milestoneTools.length;
        const attempted = 1 + (run % 2);
        yield {
          agent: names[a],
          task,
          run,
          condition,
          variant: nominal ? null : `${condition}-${run % 3}`,
          success,
          actions,
          resources: {
            time: 5 + 10 * rng.next(),
            api_calls: actions.length,
            num_actions: actions.length,
            num_errors: rng.next() < 0.3 ? 1 : 0,
            cost: 0.01 * (1 + rng.next()),
          },
          confidence: Math.round(Math.max(0, Math.min(1, p + 0.3 * (rng.next() - 0.5))) * 20) / 20,
          violations: rng.next() < 0.1 ? [{ constraint: "explicit_confirmation", severity: "high", step: 3 }] : [],
          milestones: { total, reached: success ? total : Math.floor(rng.next() * total) },
          milestone_labels: milestoneTools,
          steps: actions.length * 2,
          faults: condition === "fault" ? 1 : 0,
          tool_calls: actions.length,
          invalid_calls: rng.next() < 0.05 ? 1 : 0,
          writes: { attempted, succeeded: success ? attempted : attempted - 1 },
        };
      }
    }
  }
}

/**
 * Writes `synthesizeRecords()` to a JSON Lines file, a record a line, 10,000 lines at a time (the
 * records are never all held). Returns the number of records.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { writeSynthRecords } from "./_bench_score.ts";
 * const path = Deno.makeTempFileSync({ suffix: ".jsonl" });
 * assertEquals(await writeSynthRecords(path, { tasks: 2, agents: 1, runs: 2 }), 4);
 * assertEquals(Deno.readTextFileSync(path).split("\n").length, 5);
 * Deno.removeSync(path);
 * ```
 */
export async function writeSynthRecords(path: string, options: SynthOptions = {}): Promise<number> {
  using file = await Deno.open(path, { write: true, create: true, truncate: true });
  const encoder = new TextEncoder();
  let lines: string[] = [], n = 0;
  const flush = async () => {
    const bytes = encoder.encode(lines.join(""));
    for (let done = 0; done < bytes.length;) done += await file.write(bytes.subarray(done));
    lines = [];
  };
  for (const record of synthRecords(options)) {
    lines.push(JSON.stringify(record) + "\n");
    n++;
    if (lines.length === 10_000) await flush();
  }
  await flush();
  return n;
}

/** The scoring figures of the bench. */
export interface ScoreBench {
  records: number;
  /** Seconds of reading the records back from their JSON Lines file (`readRecords()`, as `deno task score`). */
  read_s: number;
  /** Seconds of `scoreRecords()` (synthesis and reading excluded). */
  score_s: number;
  /**
   * Peak resident memory of the process while writing, reading and scoring the records, in MB
   * (sampled every 20 ms): the writing holds 10,000 records at a time, so the peak is the reading's
   * and the scoring's, as in `deno task score`.
   */
  rss_mb: number;
}

/**
 * Writes synthetic records to a temporary JSON Lines file (1 GB for a million), reads them back and
 * times `scoreRecords()` on them with 1,000 resamples, in a worker, sampling the process's resident
 * memory meanwhile.
 */
export async function benchScoring(options: SynthOptions = {}): Promise<ScoreBench> {
  const worker = new Worker(import.meta.url, { type: "module" });
  let peak = Deno.memoryUsage().rss;
  const timer = setInterval(() => peak = Math.max(peak, Deno.memoryUsage().rss), 20);
  try {
    const result = await new Promise<Omit<ScoreBench, "rss_mb">>((resolve, reject) => {
      worker.onmessage = (e) => resolve(e.data);
      worker.onerror = (e) => {
        e.preventDefault();
        reject(new Error(`Scoring bench failed: ${e.message}`));
      };
      worker.postMessage(options);
    });
    peak = Math.max(peak, Deno.memoryUsage().rss);
    return { ...result, rss_mb: peak / 2 ** 20 };
  } finally {
    clearInterval(timer);
    worker.terminate();
  }
}

// As a worker: write, read, score, report.
if ("WorkerGlobalScope" in globalThis) {
  const scope = globalThis as unknown as { onmessage: (e: MessageEvent) => void; postMessage(data: unknown): void };
  scope.onmessage = async (e: MessageEvent<SynthOptions>) => {
    const path = await Deno.makeTempFile({ prefix: "ark-bench-", suffix: ".jsonl" });
    try {
      await writeSynthRecords(path, e.data);
      const start = performance.now();
      const file = await Deno.open(path);
      const { records, bad } = await readRecords(file.readable);
      if (bad.length > 0) throw new Error(`Line ${bad[0].line} of the synthetic records is bad: ${bad[0].problem}`);
      const read = performance.now();
      scoreRecords(records, { resamples: 1000 });
      const seconds = (ms: number) => ms / 1000;
      scope.postMessage({
        records: records.length,
        read_s: seconds(read - start),
        score_s: seconds(performance.now() - read),
      });
    } finally {
      await Deno.remove(path);
    }
  };
}
