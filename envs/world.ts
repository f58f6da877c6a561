/**
 * A world: one domain's SQLite database, opened from a seeded generated image,
 * with tool dispatch, per-episode reset and the gold change of a task.
 *
 * Gold and episode see the same world: every run of a task (its gold replay, each of its
 * episodes, a replayed transcript) gives the tools `taskContext(task)`, a generator derived from
 * the task id alone and a clock standing at the domain's `now`, so the same calls write the same
 * rows (see `ToolContext`).
 *
 * @module
 */
import { buildScenarios, DEFAULT_PAIRS } from "./scenarios.ts";
import { Store } from "./sqlite.ts";
import type { GoldReplay } from "./grade.ts";
import { Clock } from "./clock.ts";
import { Rng } from "./rng.ts";
import { callTool } from "./call.ts";
import { ToolError } from "./tool.ts";
import type { Domain } from "./domain.ts";
import type { RowChange } from "./changeset.ts";
import type { Task } from "./task.ts";
import type { Tool, ToolContext } from "./tool.ts";
import type { ToolResult } from "./agent.ts";
import { taskId } from "./task_id.ts";

/** The source part of the long suite's task ids: `long:<domain>/<n>` (`World.longTasks()`). */
export const LONG_SOURCE = "long";

/** How to open a world. */
export interface WorldOptions {
  /**
   * Seed of the generated data (and of the default tasks).
   * @default {"0"}
   */
  seed?: string;
  /**
   * Size relative to the domain's default.
   * @default {1}
   */
  scale?: number;
}

/** What `World.beginEpisode()` returns: the changes so far; disposing it undoes them. */
export interface Recording extends Disposable {
  /** The rows changed since the episode began (net, full rows). */
  changes(): RowChange[];
  /**
   * Runs `fn` (one call) and returns what it returned with the rows it changed, net of the call
   * (full rows, sorted by table and key): what `changeDelta()` of the changes before and after
   * gives, without decoding everything the episode changed before.
   */
  during<T>(fn: () => T): { value: T; changes: RowChange[] };
}

interface Image {
  image: Uint8Array;
  data: unknown;
}

/** A generated world as plain data, for another thread (`World.image()`, `World.adopt()`). */
export interface WorldImage {
  /** The domain's name. */
  domain: string;
  /** The seed it was generated from. */
  seed: string;
  /** The scale it was generated at. */
  scale: number;
  /** The world's database image (`Store.snapshot()`) and its generated data. */
  image: { image: Uint8Array; data: unknown };
}

// Whether an image's data structured-clones (`World.shareable()`), found once.
const CLONEABLE = new WeakMap<object, boolean>();

const imageKey = (domain: string, seed: string, scale: number) => `${domain}\u001f${seed}\u001f${scale}`;

// Generating a world takes a while; an image restores in well under a millisecond.
const images = new Map<string, Image>();
/** Scenarios built, by world data, then seed and pairs (`World.scenarios()`). */
const SCENARIOS = new WeakMap<object, Map<string, Task[]>>();
/** Long suites built, by world data, then seed and tasks per class (`World.longTasks()`). */
const LONG = new WeakMap<object, Map<string, Task[]>>();

// Tasks built once per world data and key (worlds of one seed share their data: building generates
// hundreds of tasks, and every run, replay and served episode asks again), handed out as copies.
function builtOnce(
  cache: WeakMap<object, Map<string, Task[]>>,
  data: unknown,
  key: string,
  build: () => Task[],
): Task[] {
  let byKey = cache.get(data as object);
  if (byKey === undefined) cache.set(data as object, byKey = new Map());
  let built = byKey.get(key);
  if (built === undefined) byKey.set(key, built = build());
  return structuredClone(built);
}

/**
 * An open world of a domain.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { getDomain, World } from "@ark/ark/envs";
 * using world = World.open(getDomain("airline"), { seed: "0" });
 * assertEquals(world.defaultTasks(5).map((t) => t.id), ["airline/0", "airline/1", "airline/2", "airline/3", "airline/4"]);
 * ```
 */
export class World {
  /** The domain the world is of. */
  readonly domain: Domain;
  /** The world's database. */
  readonly store: Store;
  /** The domain's data the world was made from (generated, or given to `fromData()`). */
  readonly data: unknown;
  /** The seed of the generated data and of the default tasks. */
  readonly seed: string;
  readonly #tools: Map<string, Tool>;
  readonly #gold = new Map<string, GoldReplay>();

  private constructor(domain: Domain, store: Store, data: unknown, seed: string) {
    this.domain = domain;
    this.store = store;
    this.data = data;
    this.seed = seed;
    this.#tools = new Map(domain.tools.map((t) => [t.name, t]));
  }

  /** Opens the generated world of a domain for a seed and scale. */
  static open(domain: Domain, options: WorldOptions = {}): World {
    const { seed, image } = World.image(domain, options);
    return new World(domain, Store.fromSnapshot(image.image), image.data, seed);
  }

  /**
   * The generated world of a domain for a seed and scale as plain data (its database's image and
   * its data), generated once per thread: another thread given it by `World.adopt()` opens the
   * same world without generating it again.
   *
   * @example
   * ```ts
   * import { assertEquals } from "@std/assert";
   * import { getDomain, World } from "@ark/ark/envs";
   * const shared = World.image(getDomain("orders"), { seed: "7" });
   * assertEquals(World.shareable([shared]), [shared]);
   * World.adopt([structuredClone(shared)]);
   * using world = World.open(getDomain("orders"), { seed: "7" });
   * assertEquals(world.store.snapshot().length, shared.image.image.length);
   * ```
   */
  static image(domain: Domain, options: WorldOptions = {}): WorldImage {
    const seed = options.seed ?? "0";
    const scale = options.scale ?? 1;
    if (!(scale > 0)) throw new RangeError(`Cannot open a world at scale ${scale}: the scale must be positive`);
    const key = imageKey(domain.name, seed, scale);
    let cached = images.get(key);
    if (!cached) {
      const data = domain.generate(new Rng(seed).child("world"), scale);
      using store = Store.open(domain.schema);
      store.insert(domain.rows(data));
      cached = { image: store.snapshot(), data };
      images.set(key, cached);
    }
    return { domain: domain.name, seed, scale, image: cached };
  }

  /**
   * The images of `shared` that can cross to another thread: those whose data structured-clones (a
   * domain's data may hold values that cannot, e.g. `JSON.rawJSON` numbers: such a world is
   * generated again where it is opened).
   */
  static shareable(shared: readonly WorldImage[]): WorldImage[] {
    return shared.filter(({ image }) => {
      let ok = CLONEABLE.get(image);
      if (ok === undefined) {
        try {
          structuredClone(image.data);
          ok = true;
        } catch {
          ok = false;
        }
        CLONEABLE.set(image, ok);
      }
      return ok;
    });
  }

  /**
   * Takes generated worlds made by `World.image()` in another thread (structured-cloned), so that
   * `World.open()` restores them instead of generating them; a world this thread has is kept.
   */
  static adopt(shared: readonly WorldImage[]): void {
    for (const { domain, seed, scale, image } of shared) {
      const key = imageKey(domain, seed, scale);
      if (!images.has(key)) images.set(key, image);
    }
  }

  /** Opens a world from given data (e.g. τ-bench's db.json). */
  static fromData<D>(domain: Domain<D>, data: D, options: { seed?: string } = {}): World {
    const store = Store.open(domain.schema);
    store.insert(domain.rows(data));
    return new World(domain as Domain, store, data, options.seed ?? "0");
  }

  /** The domain's tasks drawn from this world's seed. */
  defaultTasks(count = 50): Task[] {
    return this.domain.tasks(new Rng(this.seed).child("tasks"), count, this.data);
  }

  /**
   * The domain's abstention scenarios drawn from this world's seed (`buildScenarios()`): `pairs`
   * pairs per template, hazardous then safe; none when the domain has no templates.
   */
  scenarios(pairs: number = DEFAULT_PAIRS): Task[] {
    return builtOnce(
      SCENARIOS,
      this.data,
      `${this.seed}\u001f${pairs}`,
      () => buildScenarios(this.domain, this.data, new Rng(this.seed).child("scenarios"), pairs),
    );
  }

  /**
   * The domain's long-horizon suite drawn from this world's seed (`Domain.longTasks`): `perClass`
   * tasks of each length × dependency class, ids `long:<domain>/<i>` (apart from the domain's own
   * tasks, whose long ones are one per class); none when the domain has no long task families.
   */
  longTasks(perClass: number): Task[] {
    const make = this.domain.longTasks;
    if (make === undefined) return [];
    return builtOnce(
      LONG,
      this.data,
      `${this.seed}\u001f${perClass}`,
      () =>
        make(new Rng(this.seed).child("long-suite"), perClass, this.data)
          .map((t, i) => ({ ...t, id: taskId(this.domain.name, i, { source: LONG_SOURCE }) })),
    );
  }

  /** A tool by name. */
  tool(name: string): Tool | undefined {
    return this.#tools.get(name);
  }

  /** A fresh tool context with the given generator and a clock at the domain's `now`. */
  context(rng: Rng): ToolContext {
    return { db: this.store, clock: new Clock(this.domain.now), rng };
  }

  /**
   * The tool context of every run of a task, fresh each time: the generator
   * `new Rng(task.id).child("tools")` (the task id alone, so not the run, the agent or the
   * condition) and a clock at the domain's `now`. The gold replay, each episode and each replayed
   * transcript of the task take it, so a write drawing an id or stamping the time makes the same
   * row in all of them.
   *
   * @example
   * ```ts
   * import { assertEquals } from "@std/assert";
   * import { getDomain, World } from "@ark/ark/envs";
   * using world = World.open(getDomain("airline"), { seed: "0" });
   * const task = { id: "airline/0" };
   * const a = world.taskContext(task), b = world.taskContext(task);
   * assertEquals([a.rng.next(), a.rng.next(), a.clock.iso()], [b.rng.next(), b.rng.next(), "2024-05-15T15:00:00"]);
   * ```
   */
  taskContext(task: Pick<Task, "id">): ToolContext {
    return this.context(new Rng(task.id).child("tools"));
  }

  /**
   * Calls a tool as an agent would: unknown tools and `ToolError`s become
   * failed results; any other error is a bug and propagates.
   */
  call(ctx: ToolContext, name: string, args: unknown): ToolResult {
    const tool = this.#tools.get(name);
    if (!tool) {
      return { name, args, ok: false, error: { code: "unknown_tool", message: `Unknown tool "${name}"` } };
    }
    try {
      return { name, args, ok: true, result: callTool(ctx, tool, args) };
    } catch (err) {
      if (err instanceof ToolError) return { name, args, ok: false, error: { code: err.code, message: err.message } };
      throw err;
    }
  }

  /** Starts an episode: every change from here on is recorded and undone by `endEpisode()`. */
  beginEpisode(): Recording {
    if (this.store.inTransaction) throw new Error("Cannot begin an episode: another episode is still open");
    // Captured by triggers (`Store.capture()`): a stretch costs next to nothing to open, and a call's
    // own changes are read without decoding the episode's. Opened before the transaction, so that the
    // triggers, made at the first, outlive its rollback.
    const episode = this.store.capture();
    this.store.begin();
    return {
      changes: () => episode.changes(),
      during: (fn) => {
        using call = this.store.capture();
        const value = fn();
        return { value, changes: call.changes() };
      },
      [Symbol.dispose]: () => {
        episode[Symbol.dispose]();
        this.store.rollback();
      },
    };
  }

  /** The change a task's gold calls make on a fresh world (terminating tools skipped), cached per task. */
  goldChanges(task: Task): RowChange[] {
    return this.goldReplay(task).all;
  }

  /**
   * The gold change of a task and the rows each of its gold calls changes, replayed on a fresh
   * world with the task's tool context, `taskContext(task)`, as its episodes have it (terminating
   * tools skipped); cached per task.
   */
  goldReplay(task: Task): GoldReplay {
    const cached = this.#gold.get(task.id);
    if (cached) return cached;
    using episode = this.beginEpisode();
    const ctx = this.taskContext(task);
    const calls: RowChange[][] = [];
    for (const call of task.gold) {
      const tool = this.#tools.get(call.name);
      const run = () => tool && !tool.terminates ? this.call(ctx, call.name, call.args) : null;
      if (!tool?.writes) {
        run();
        calls.push([]);
        continue;
      }
      calls.push(episode.during(run).changes);
    }
    const replay = { all: episode.changes(), calls };
    this.#gold.set(task.id, replay);
    return replay;
  }

  /** Closes the world's database. */
  close(): void {
    this.store.close();
  }

  /** Closes the world's database (`using world = World.open(...)`). */
  [Symbol.dispose](): void {
    this.close();
  }
}
