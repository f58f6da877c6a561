// A tool step's cost for `deno task bench`, on one checkout (`Kit`): episodes (`runEpisode()`) of
// the airline's and the retail's default tasks in which an agent makes the task's gold calls one per
// step; a step's time runs from the agent handing over its call to the episode asking it for the next
// one (dispatch, the world's call, change capture, the event), split by whether the tool writes.
// Medians over every step. Beside them, the floors: what SQLite alone takes for a point select, a
// point update, an empty commit and a commit of one row to a file (through `Store`, envs/sqlite.ts: a cached prepared statement on
// node:sqlite's `DatabaseSync`). Private to cli/.
import { domains, Store } from "../envs/mod.ts";
import type { Agent, getDomain, Rng, runEpisode, scriptedUser, World } from "../envs/mod.ts";
import { attempt, type Kit, member } from "./_bench_kit.ts";
import type { Measured } from "./_bench_figures.ts";

/** The domains whose gold calls are timed: every registered one. */
export const STEP_DOMAINS: readonly string[] = Object.keys(domains);

/** A step's cost, on one checkout. */
export interface StepBench {
  /** Steps timed, of writing tools and of reading ones. */
  writes: number;
  reads: number;
  /** Median microseconds of a step calling a writing tool, and a reading one. */
  write_us: Measured;
  read_us: Measured;
}

/** Median of a list of numbers (sorted in place). */
export function median(values: number[]): number {
  if (values.length === 0) return NaN;
  values.sort((a, b) => a - b);
  const mid = values.length >> 1;
  return values.length % 2 === 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

/** Times the steps of gold-replaying episodes on `kit`, for at least `minMs` per domain after a warm-up. */
export async function benchSteps(
  kit: Kit,
  options: { minMs?: number; domains?: readonly string[]; tasks?: number } = {},
): Promise<StepBench> {
  const writes: number[] = [], reads: number[] = [];
  const done = await attempt(async () => {
    const mod = "envs/mod.ts";
    const WorldOf = await member<typeof World>(kit, mod, "World");
    const domainOf = await member<typeof getDomain>(kit, mod, "getDomain");
    const RngOf = await member<typeof Rng>(kit, mod, "Rng");
    const episode = await member<typeof runEpisode>(kit, mod, "runEpisode");
    const user = await member<typeof scriptedUser>(kit, mod, "scriptedUser");
    for (const name of options.domains ?? STEP_DOMAINS) {
      const domain = domainOf(name);
      using world = WorldOf.open(domain, { seed: "0" });
      const tasks = world.defaultTasks(options.tasks ?? 50);
      let timing = false;
      const onStep = (tool: string, ms: number) => {
        if (timing) (world.tool(tool)?.writes ? writes : reads).push(ms * 1000);
      };
      const round = async () => {
        for (const task of tasks) {
          const rng = new RngOf(`bench-steps/${task.id}`);
          await episode(world, {
            task,
            agent: goldAgent(task.gold, onStep),
            user: user(task, rng.child("user"), { tools: domain.tools, vocabulary: domain.vocabulary }),
            rng: rng.child("episode"),
            maxSteps: task.gold.length + 1,
          });
        }
      };
      await round();
      timing = true;
      const start = performance.now();
      while (performance.now() - start < (options.minMs ?? 1500)) await round();
    }
    return writes.length + reads.length;
  });
  if (!("value" in done)) return { writes: 0, reads: 0, write_us: done, read_us: done };
  const none = (kind: string) => ({ reason: `no ${kind} step among the gold calls` });
  return {
    writes: writes.length,
    reads: reads.length,
    write_us: writes.length === 0 ? none("writing") : { value: median(writes) },
    read_us: reads.length === 0 ? none("reading") : { value: median(reads) },
  };
}

/** An agent making the given calls one per step, then ending; `onStep` gets each call's step time. */
function goldAgent(
  gold: readonly { name: string; args: unknown }[],
  onStep: (tool: string, ms: number) => void,
): Agent {
  let next = 0, sent: string | null = null, at = 0;
  return {
    name: "gold",
    start: () => {
      next = 0;
      sent = null;
    },
    step: () => {
      const now = performance.now();
      if (sent !== null) onStep(sent, now - at);
      if (next >= gold.length) return { type: "end", confidence: 1 };
      const call = gold[next++];
      sent = call.name;
      at = performance.now();
      return { type: "tool", name: call.name, args: call.args };
    },
  };
}

/** What SQLite alone takes, in microseconds (medians of five batches). */
export interface Floors {
  /** `SELECT * FROM t WHERE id = ?` on a 10,000-row table in memory. */
  select_us: number;
  /** `UPDATE t SET name = ? WHERE id = ?` on it, inside an open transaction. */
  update_us: number;
  /** `BEGIN; COMMIT` with nothing between, in memory. */
  commit_memory_us: number;
  /**
   * `BEGIN; INSERT` of one small row `; COMMIT` on a temporary file in WAL mode with synchronous=NORMAL
   * (the results store's settings): what a commit that writes costs.
   */
  commit_file_us: number;
}

/** Measures the floors; `calls` per batch. */
export function benchFloors(options: { calls?: number } = {}): Floors {
  const calls = options.calls ?? 20_000;
  const batch = (fn: (i: number) => void) => {
    const times: number[] = [];
    for (let b = 0; b < 6; b++) {
      const start = performance.now();
      for (let i = 0; i < calls; i++) fn(i);
      if (b > 0) times.push((performance.now() - start) * 1000 / calls); // the first batch warms up
    }
    return median(times);
  };
  const rows = 10_000;
  using db = Store.open("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT NOT NULL)");
  db.transaction(() => {
    for (let i = 0; i < rows; i++) db.run("INSERT INTO t VALUES (?, ?, ?)", i, `name ${i}`, `user${i}@example.com`);
  });
  const select_us = batch((i) => db.get("SELECT * FROM t WHERE id = ?", (i * 7919) % rows));
  db.begin();
  const update_us = batch((i) => db.run("UPDATE t SET name = ? WHERE id = ?", `renamed ${i}`, (i * 7919) % rows));
  db.rollback();
  const commit_memory_us = batch(() => db.transaction(() => {}));
  const dir = Deno.makeTempDirSync({ prefix: "ark-bench-floor-" });
  try {
    using file = Store.open(undefined, { path: `${dir}/floor.sqlite` });
    file.exec(
      "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)",
    );
    let id = 0;
    const commit_file_us = batch(() => file.transaction(() => file.run("INSERT INTO t VALUES (?, ?)", id++, "x")));
    return { select_us, update_us, commit_memory_us, commit_file_us };
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}
