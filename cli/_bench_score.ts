// The scoring figure of `deno task bench`: a million synthetic records scored with 1,000
// resamples, in a worker so that the main thread can sample the process's memory meanwhile.
import { type EpisodeRecord, scoreRecords } from "../scoring/mod.ts";
import { Rng } from "../envs/mod.ts";

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
  const { tasks = 10_000, agents = 5, runs = 20, seed = "bench" } = options;
  const rng = new Rng(seed);
  const variants = Array.from(
    { length: 12 },
    (_, v) => Array.from({ length: 3 + (v % 4) }, (_, i) => TOOLS[(v + i) % 5]),
  );
  const lengths = [5, 20, 100].map((n) => Array.from({ length: n }, (_, i) => TOOLS[i % 5]));
  const names = Array.from({ length: agents }, (_, a) => `agent-${a}`);
  const out: EpisodeRecord[] = [];
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
        out.push({
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
        });
      }
    }
  }
  return out;
}

/** The scoring figures of the bench. */
export interface ScoreBench {
  records: number;
  /** Seconds of `scoreRecords()` (synthesis excluded). */
  score_s: number;
  /** Peak resident memory of the process while synthesizing and scoring, in MB (sampled every 20 ms). */
  rss_mb: number;
}

/**
 * Synthesizes records and times `scoreRecords()` on them with 1,000 resamples
 * in a worker, sampling the process's resident memory meanwhile.
 */
export async function benchScoring(options: SynthOptions = {}): Promise<ScoreBench> {
  const worker = new Worker(import.meta.url, { type: "module" });
  let peak = Deno.memoryUsage().rss;
  const timer = setInterval(() => peak = Math.max(peak, Deno.memoryUsage().rss), 20);
  try {
    const result = await new Promise<{ records: number; score_s: number }>((resolve, reject) => {
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

// As a worker: synthesize, score, report.
if ("WorkerGlobalScope" in globalThis) {
  const scope = globalThis as unknown as { onmessage: (e: MessageEvent) => void; postMessage(data: unknown): void };
  scope.onmessage = (e: MessageEvent<SynthOptions>) => {
    const records = synthesizeRecords(e.data);
    const start = performance.now();
    scoreRecords(records, { resamples: 1000 });
    scope.postMessage({ records: records.length, score_s: (performance.now() - start) / 1000 });
  };
}
