/**
 * The results store: `ResultsStore`, a SQLite file of finished episodes that survives a killed
 * process and lets a re-run resume, one writer at a time. It implements `ResultsSink` (`sink.ts`,
 * with `MemoryResults`, the in-memory fake, re-exported here); its file's format and checks are in
 * `_store_file.ts`, its tables' encoding in `_store_tables.ts`.
 *
 * @module
 */
import denoJson from "../deno.json" with { type: "json" };
import { type EpisodeEvent, type SqlValue, Store } from "../envs/mod.ts";
import { type CellKey, cellKey } from "./cell.ts";
import type { ResolvedConfig } from "./config_types.ts";
import { configIdentity, shownValue } from "./experiment.ts";
import type { EpisodeRecord } from "./records.ts";
import type { FinishedEpisode, ResultsSink } from "./sink.ts";
import { Dictionaries } from "./_store_tables.ts";
import {
  checkFile,
  corrupt,
  damageOf,
  folderOf,
  FORMAT,
  isDamage,
  ResultsStoreError,
  SCHEMA,
  wellFormed,
} from "./_store_file.ts";
import { errorReason, fsReason } from "./fs_errors.ts";
import { StoreLock } from "./_store_lock.ts";

export { type FinishedEpisode, MemoryResults, type ResultsSink } from "./sink.ts";
export { ResultsStoreError } from "./_store_file.ts";
export { changedFields, shownValue } from "./experiment.ts";

/** The version of ark, from `deno.json`. */
export const ARK_VERSION: string = denoJson.version;

/**
 * Results in a SQLite file. Each episode commits in one transaction, in WAL mode,
 * so a killed process loses nothing committed; reopening with another config fails.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { ResultsStore } from "./store.ts";
 * import { resolveConfig } from "./config.ts";
 * const dir = Deno.makeTempDirSync();
 * const config = resolveConfig({ domains: ["airline"], tasks: 3 });
 * {
 *   using store = ResultsStore.open(`${dir}/results.sqlite`, { config });
 *   assertEquals([store.experiment().name, store.finishedKeys().size], [config.experiment, 0]);
 * }
 * Deno.removeSync(dir, { recursive: true });
 * ```
 */
export class ResultsStore implements ResultsSink {
  /** The SQLite file's path. */
  readonly path: string;
  #db: Store;
  #dict: Dictionaries;
  #lock: StoreLock | null = null;

  private constructor(path: string, db: Store) {
    this.path = path;
    this.#db = db;
    this.#dict = new Dictionaries(db);
  }

  /**
   * Opens (or creates) the store of an experiment to write it; throws a `ResultsStoreError` when it
   * cannot be used for it. One process at a time writes a store: another one that opens it meanwhile
   * gets a `"locked"` error naming the writer's process id, at once (the lock goes with the process
   * that holds it, however it ends, so a killed writer's is taken over).
   */
  static open(path: string, options: { config: ResolvedConfig }): ResultsStore {
    let lock: StoreLock | { holder: number | null };
    try {
      lock = StoreLock.take(path);
    } catch (err) {
      const why = fsReason(err);
      if (why === null) throw err;
      throw new ResultsStoreError("unreadable", `Cannot open results store "${path}": ${why}`);
    }
    if (!(lock instanceof StoreLock)) {
      const by = lock.holder === null ? "another process" : `process ${lock.holder}`;
      throw new ResultsStoreError("locked", `"${folderOf(path)}" is being written by ${by}`);
    }
    let store: ResultsStore;
    try {
      store = ResultsStore.#openFile(path, { create: true });
    } catch (err) {
      lock.release();
      throw err;
    }
    store.#lock = lock;
    try {
      store.#claim(options.config);
    } catch (err) {
      store.close();
      throw err;
    }
    return store;
  }

  /**
   * Opens an existing store to read its records and events (e.g. to re-render a report),
   * whatever experiment it holds; throws a `ResultsStoreError` when it is missing or not one.
   */
  static read(path: string): ResultsStore {
    try {
      if (!Deno.statSync(path).isFile) throw new Error("not a file");
    } catch (err) {
      throw new ResultsStoreError("unreadable", `Cannot read results store "${path}": ${errorReason(err)}`);
    }
    return ResultsStore.#openFile(path, { create: false });
  }

  /**
   * Opens an existing store (see `read()`) and reads something from it, e.g. its experiment; when
   * that throws, the store is closed before the error goes on.
   */
  static readWith<T>(path: string, read: (store: ResultsStore) => T): { store: ResultsStore; value: T } {
    const store = ResultsStore.read(path);
    try {
      return { store, value: read(store) };
    } catch (err) {
      store.close();
      throw err;
    }
  }

  static #openFile(path: string, options: { create: boolean }): ResultsStore {
    const existed = checkFile(path);
    let db: Store | undefined;
    try {
      db = Store.open(undefined, { path });
      // WAL with synchronous=NORMAL: a commit survives the process being killed (not a power cut).
      db.exec("PRAGMA busy_timeout = 5000; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL");
      const version = Number(db.get<{ user_version: number }>("PRAGMA user_version")?.user_version ?? 0);
      const tables = Number(db.get<{ n: number }>("SELECT count(*) AS n FROM sqlite_master")?.n ?? 0);
      if (version === 0 && tables === 0 && options.create) db.transaction(() => db!.exec(SCHEMA));
      else if (version !== FORMAT) {
        // An older ark's store: its records were graded and judged otherwise, so they are not mixed with new ones.
        const older = version > 0 && version < FORMAT
          ? ` (it is of format ${version}, written by an older ark: run the experiment again into another --out)`
          : "";
        throw new ResultsStoreError(
          "not_results",
          `Cannot open results store "${path}": it is not an ark results store of format ${FORMAT}${older}`,
        );
      }
      // A writer checks every page first: one it finds damaged half-way would leave the run half-done.
      if (existed && options.create) {
        const check = db.get<{ quick_check: string }>("PRAGMA quick_check(1)")?.quick_check;
        if (check !== "ok") throw corrupt(path, "the file is corrupt: some pages do not check");
      }
    } catch (err) {
      db?.close();
      if (err instanceof ResultsStoreError) throw err;
      if (isDamage(err)) throw corrupt(path, `the file is corrupt: ${damageOf(err)}`);
      const reason = err instanceof Error ? err.message : String(err);
      throw new ResultsStoreError("unreadable", `Cannot open results store "${path}": ${reason}`);
    }
    return new ResultsStore(path, db);
  }

  // A read of the file whose failure from damage (SQLite's words for it, or a name id that is not
  // there) becomes one `"corrupt"` error instead of a stack trace; "database is locked" stays itself.
  #intact<T>(read: () => T): T {
    try {
      return read();
    } catch (err) {
      if (err instanceof ResultsStoreError) throw err;
      if (isDamage(err)) throw corrupt(this.path, `the file is corrupt: ${damageOf(err)}`, "read");
      throw err;
    }
  }

  // Stored bytes decoded (inflated, parsed, unpacked): any failure but the file system's means they
  // are not what was stored.
  #decoded<T>(decode: () => T): T {
    try {
      return decode();
    } catch (err) {
      if (!(err instanceof Error) || err instanceof ResultsStoreError || err.name in Deno.errors) throw err;
      throw corrupt(this.path, "the file is corrupt: a stored value cannot be read back", "read");
    }
  }

  /** The experiment's name and seed as stored. */
  experiment(): { name: string; seed: string } {
    const row = this.#intact(() => this.#db.get<{ name: string; seed: string }>("SELECT name, seed FROM experiment"));
    if (!row) throw new ResultsStoreError("not_results", `Results store "${this.path}" holds no experiment`);
    return { name: String(row.name), seed: String(row.seed) };
  }

  // Records the experiment in a new store, or checks that an existing one holds the same experiment.
  #claim(config: ResolvedConfig): void {
    const identity: Record<string, unknown> = { ...configIdentity(config), "ark version": ARK_VERSION };
    const row = this.#db.get<{ config: string; ark_version: string }>("SELECT config, ark_version FROM experiment");
    if (!row) {
      const { "ark version": _, ...stored } = identity;
      this.#db.run(
        "INSERT INTO experiment (id, name, config, seed, ark_version) VALUES (1, ?, ?, ?, ?)",
        config.experiment,
        JSON.stringify(stored),
        config.seed,
        ARK_VERSION,
      );
      return;
    }
    const there: Record<string, unknown> = {
      ...this.#decoded(() => JSON.parse(row.config)),
      "ark version": row.ark_version,
    };
    for (const [field, here] of Object.entries(identity)) {
      if (JSON.stringify(there[field]) !== JSON.stringify(here)) {
        throw new ResultsStoreError(
          "mismatch",
          `Cannot use results store "${this.path}" for this experiment: "${field}" is ${
            shownValue(there[field])
          } there, ${shownValue(here)} here`,
        );
      }
    }
  }

  finishedKeys(): Set<string> {
    return this.#intact(() => {
      type Row = { agent: number; task: number; run: number; condition: number; variant: number | null };
      const rows = this.#db.all<Row>("SELECT agent, task, run, condition, variant FROM episodes");
      const name = (id: number) => this.#dict.name(Number(id));
      return new Set(rows.map((r) =>
        cellKey({
          agent: name(r.agent),
          task: name(r.task),
          run: Number(r.run),
          condition: name(r.condition) as CellKey["condition"],
          variant: r.variant === null ? null : name(r.variant),
        })
      ));
    });
  }

  add(episode: FinishedEpisode): boolean {
    const { cell, record, events } = episode;
    try {
      return this.#db.transaction(() => {
        const ids = this.#cellIds(cell, { add: true })!;
        if (this.#episodeId(cell, ids) !== undefined) return false;
        this.#db.run(
          `INSERT INTO episodes (agent, task, run, condition, variant, seed, success, steps, n_events, record, events)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          ids.agent,
          ids.task,
          cell.run,
          ids.condition,
          ids.variant,
          cell.seed,
          record.success ? 1 : 0,
          record.steps,
          events.length,
          this.#dict.encodeRecord(record),
          this.#dict.encodeEvents(events),
        );
        return true;
      });
    } catch (err) {
      this.#dict.forget();
      throw err;
    }
  }

  // The name ids of a cell's fields; `undefined` when one is not there (and not added).
  #cellIds(cell: CellKey, options: { add: boolean }): CellIds | undefined {
    const agent = this.#dict.id(cell.agent, options);
    const task = this.#dict.id(cell.task, options);
    const condition = this.#dict.id(cell.condition, options);
    const variant = cell.variant === null || cell.variant === undefined ? null : this.#dict.id(cell.variant, options);
    if (agent === undefined || task === undefined || condition === undefined || variant === undefined) return undefined;
    return { agent, task, condition, variant };
  }

  // The stored episode of a cell, when there is one.
  #episodeId(cell: CellKey, ids: CellIds): number | undefined {
    const row = this.#db.get<{ id: number }>(
      "SELECT id FROM episodes WHERE agent = ? AND task = ? AND run = ? AND condition = ? AND ifnull(variant, 0) = ?",
      ids.agent,
      ids.task,
      cell.run,
      ids.condition,
      ids.variant ?? 0,
    );
    return row === undefined ? undefined : Number(row.id);
  }

  count(): number {
    return Number(this.#db.get<{ n: number }>("SELECT count(*) AS n FROM episodes")?.n ?? 0);
  }

  updateRecords(updates: readonly { cell: CellKey; record: EpisodeRecord }[]): number {
    try {
      return this.#db.transaction(() => {
        let n = 0;
        for (const { cell, record } of updates) {
          const ids = this.#cellIds(cell, { add: false });
          const id = ids === undefined ? undefined : this.#episodeId(cell, ids);
          if (id === undefined) continue;
          n += this.#db.run(
            "UPDATE episodes SET record = ?, success = ? WHERE id = ?",
            this.#dict.encodeRecord(record),
            record.success ? 1 : 0,
            id,
          );
        }
        return n;
      });
    } catch (err) {
      this.#dict.forget();
      throw err;
    }
  }

  /** Changes the stored config's field (e.g. the judge after `deno task judge`); the experiment stays the same. */
  setConfigField(field: string, value: unknown): void {
    const row = this.#db.get<{ config: string }>("SELECT config FROM experiment");
    if (!row) throw new ResultsStoreError("not_results", `Results store "${this.path}" holds no experiment`);
    const config = JSON.parse(row.config) as Record<string, unknown>;
    if (value === undefined) delete config[field];
    else config[field] = value;
    this.#db.run("UPDATE experiment SET config = ?", JSON.stringify(config));
  }

  /**
   * A note kept beside the experiment (e.g. an import's fidelity figures, for the reports), parsed;
   * `undefined` when there is none.
   */
  note(key: string): unknown {
    const table = this.#db.get<{ n: number }>("SELECT count(*) AS n FROM sqlite_master WHERE name = 'notes'");
    if (Number(table?.n ?? 0) === 0) return undefined;
    const row = this.#db.get<{ value: string }>("SELECT value FROM notes WHERE key = ?", key);
    return row === undefined ? undefined : JSON.parse(row.value);
  }

  /** Keeps a note beside the experiment (JSON), replacing any of the same key. */
  setNote(key: string, value: unknown): void {
    this.#db.exec("CREATE TABLE IF NOT EXISTS notes (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
    this.#db.run(
      "INSERT INTO notes (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
      key,
      JSON.stringify(value),
    );
  }

  /** The stored config (the experiment's identity, as JSON). */
  config(): Record<string, unknown> {
    const row = this.#intact(() => this.#db.get<{ config: string }>("SELECT config FROM experiment"));
    if (!row) throw new ResultsStoreError("not_results", `Results store "${this.path}" holds no experiment`);
    return this.#decoded(() => JSON.parse(row.config));
  }

  records(): EpisodeRecord[] {
    return this.#intact(() =>
      this.#db.all<{ record: SqlValue }>("SELECT record FROM episodes ORDER BY id").map((r) =>
        this.#decoded(() => wellFormed(this.#dict.decodeRecord(r.record)))
      )
    );
  }

  events(cell: CellKey): EpisodeEvent[] {
    return this.#intact(() => {
      const ids = this.#cellIds(cell, { add: false });
      const id = ids === undefined ? undefined : this.#episodeId(cell, ids);
      if (id === undefined) return [];
      const row = this.#db.get<{ events: SqlValue }>("SELECT events FROM episodes WHERE id = ?", id);
      return this.#decoded(() => this.#dict.decodeEvents(row!.events));
    });
  }

  /** Closes the file, and lets go of the lock a writer holds. */
  close(): void {
    try {
      this.#db.close();
    } finally {
      this.#lock?.release();
      this.#lock = null;
    }
  }

  /** Closes the file (`using store = ResultsStore.open(...)`). */
  [Symbol.dispose](): void {
    this.close();
  }
}

type CellIds = { agent: number; task: number; condition: number; variant: number | null };
