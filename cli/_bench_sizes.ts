// Tool steps per second by world size for `deno task bench`, on one checkout (`Kit`): the retail's
// and the orders' generated worlds at ×1, ×10 and ×100 their default size, each world's default
// tasks' gold calls made through tool dispatch (`World.call()`, a transaction rolled back per task), as
// the kernel figures are. Each world is built and timed in a worker thread of its own, so that its
// memory goes with it and a world that takes longer than `buildMs` to build (with its tasks) is given
// up: its figure says so. Private to cli/.
import type { Rng, ToolCall, World } from "../envs/mod.ts";
import { domains, type getDomain } from "../envs/mod.ts";
import { type Kit, member } from "./_bench_kit.ts";
import type { Measured } from "./_bench_figures.ts";
import { goldSteps } from "./_bench_world.ts";

/**
 * The domains timed: every registered one. The sizes: ×1 and ×10 (a ×100 world takes minutes to
 * generate, longer than the bench's budget for building one).
 */
export const SIZE_DOMAINS: readonly string[] = Object.keys(domains);
export const SIZES = [1, 10];

/** What a worker is asked. */
interface SizeJob {
  root: string;
  dir: string;
  domain: string;
  scale: number;
  minMs: number;
}

/** Steps per second of one world size. */
export type SizeBench = Measured & { build_s?: number };

/**
 * Tool steps per second on `domain`'s generated world at `scale` times its size, measured for at
 * least `minMs`; a reason when the world (and its tasks) takes over `buildMs` to build, or fails.
 */
export async function benchSize(
  kit: Kit,
  size: { domain: string; scale: number },
  options: { minMs?: number; buildMs?: number } = {},
): Promise<SizeBench> {
  const { domain, scale } = size;
  const job: SizeJob = { root: kit.root.href, dir: kit.dir, domain, scale, minMs: options.minMs ?? 1000 };
  const buildMs = options.buildMs ?? 60_000;
  const worker = new Worker(import.meta.url, { type: "module" });
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await new Promise<SizeBench>((resolve) => {
      worker.onmessage = (e: MessageEvent<SizeBench | { built: true }>) => {
        if ("built" in e.data) clearTimeout(timer);
        else resolve(e.data);
      };
      worker.onerror = (e) => {
        e.preventDefault();
        resolve({ reason: `failed: ${e.message}`, failed: true });
      };
      timer = setTimeout(
        () => resolve({ reason: `the ×${scale} world and its tasks took over ${buildMs / 1000} s to build` }),
        buildMs,
      );
      worker.postMessage(job);
    });
  } finally {
    clearTimeout(timer);
    worker.terminate();
  }
}

async function measure(job: SizeJob, built: () => void): Promise<SizeBench> {
  const kit: Kit = { name: "new", root: new URL(job.root), dir: job.dir };
  const WorldOf = await member<typeof World>(kit, "envs/mod.ts", "World");
  const domainOf = await member<typeof getDomain>(kit, "envs/mod.ts", "getDomain");
  const RngOf = await member<typeof Rng>(kit, "envs/mod.ts", "Rng");
  const start = performance.now();
  using world = WorldOf.open(domainOf(job.domain), { seed: "0", scale: job.scale });
  let golds: ToolCall[][];
  try {
    golds = world.defaultTasks().map((t) => t.gold);
  } catch (err) {
    return { reason: `its ×${job.scale} world's tasks cannot be drawn: ${(err as Error).message.split("\n")[0]}` };
  }
  const build_s = (performance.now() - start) / 1000;
  built();
  const ctx = world.context(new RngOf("bench"));
  const pass = () => goldSteps(world, ctx, golds);
  pass();
  let steps = 0;
  const timed = performance.now();
  while (performance.now() - timed < job.minMs) steps += pass();
  return { value: steps / ((performance.now() - timed) / 1000), build_s };
}

// As a worker: build, time, report.
if ("WorkerGlobalScope" in globalThis) {
  const scope = globalThis as unknown as { onmessage: (e: MessageEvent) => void; postMessage(data: unknown): void };
  scope.onmessage = async (e: MessageEvent<SizeJob>) => {
    try {
      scope.postMessage(await measure(e.data, () => scope.postMessage({ built: true })));
    } catch (err) {
      const message = (err instanceof Error ? err.message : String(err)).split("\n")[0];
      const missing = err instanceof Error && err.name === "Missing";
      scope.postMessage({ reason: missing ? message : `failed: ${message}`, failed: true });
    }
  };
}
