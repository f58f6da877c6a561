/**
 * A world: one domain's SQLite database, opened from a seeded generated image,
 * with tool dispatch, per-episode reset and the gold change of a task.
 *
 * @module
 */
import { Store } from "./_sqlite.ts";
import { changeDelta, type GoldReplay } from "./grade.ts";
import { Clock } from "./clock.ts";
import { Rng } from "./rng.ts";
import { callTool, ToolError } from "./tool.ts";
import type { Domain, RowChange, Task, Tool, ToolContext, ToolResult } from "./types.ts";

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
  changes(): RowChange[];
}

interface Image {
  image: Uint8Array;
  data: unknown;
}

// Generating a world takes a while; an image restores in well under a millisecond.
const images = new Map<string, Image>();

/**
 * An open world of a domain.
 *
 * @example
 * ```ts ignore
 * import { World } from "./world.ts";
 * import { getDomain } from "./registry.ts";
 * using world = World.open(getDomain("airline"), { seed: "0" });
 * const tasks = world.defaultTasks(50);
 * ```
 */
export class World {
  readonly domain: Domain;
  readonly store: Store;
  readonly data: unknown;
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
    const seed = options.seed ?? "0";
    const scale = options.scale ?? 1;
    if (!(scale > 0)) throw new RangeError(`Cannot open a world at scale ${scale}: the scale must be positive`);
    const key = `${domain.name}\u001f${seed}\u001f${scale}`;
    let cached = images.get(key);
    if (!cached) {
      const data = domain.generate(new Rng(seed).child("world"), scale);
      using store = Store.open(domain.schema);
      store.insert(domain.rows(data));
      cached = { image: store.snapshot(), data };
      images.set(key, cached);
    }
    return new World(domain, Store.fromSnapshot(cached.image), cached.data, seed);
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

  /** A tool by name. */
  tool(name: string): Tool | undefined {
    return this.#tools.get(name);
  }

  /** A fresh tool context for an episode. */
  context(rng: Rng): ToolContext {
    return { db: this.store, clock: new Clock(this.domain.now), rng };
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
    this.store.begin();
    const tracker = this.store.track();
    return {
      changes: () => tracker.changes(),
      [Symbol.dispose]: () => {
        tracker[Symbol.dispose]();
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
   * world with the generator `new Rng(task.id).child("gold")` (terminating tools skipped); cached
   * per task.
   */
  goldReplay(task: Task): GoldReplay {
    const cached = this.#gold.get(task.id);
    if (cached) return cached;
    using episode = this.beginEpisode();
    const ctx = this.context(new Rng(task.id).child("gold"));
    const calls: RowChange[][] = [];
    let before: RowChange[] = [];
    for (const call of task.gold) {
      const tool = this.#tools.get(call.name);
      if (tool && !tool.terminates) this.call(ctx, call.name, call.args);
      if (!tool?.writes) {
        calls.push([]);
        continue;
      }
      const now = episode.changes();
      calls.push(changeDelta(before, now));
      before = now;
    }
    const replay = { all: episode.changes(), calls };
    this.#gold.set(task.id, replay);
    return replay;
  }

  /** Closes the world's database. */
  close(): void {
    this.store.close();
  }

  [Symbol.dispose](): void {
    this.close();
  }
}
