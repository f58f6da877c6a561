/**
 * The results store: `ResultsStore`, a SQLite file of finished episodes that survives a killed
 * process and lets a re-run resume, one writer at a time. It implements `ResultsSink` (`sink.ts`,
 * with `MemoryResults`, the in-memory fake, re-exported here); its file's format and checks are in
 * `_store_file.ts`, its tables' encoding in `_store_tables.ts` (and `_store_tables4.ts` for stores
 * an older ark wrote, still read and resumed).
 *
 * Episodes are committed in batches: `add()` encodes an episode at once and keeps it pending, and
 * up to `BATCH` pending episodes are committed together in one transaction, when the batch is full,
 * on `flush()`, before any read and on `close()`. A process killed meanwhile loses only the pending
 * batch, whose cells a resumed run simply runs again; a batch whose commit fails leaves nothing of
 * itself in the file, and its error is thrown.
 *
 * @module
 */
import denoJson from "../deno.json" with { type: "json" };
import { type EpisodeEvent, Store } from "../envs/mod.ts";
import { type CellKey, cellKey } from "./cell.ts";
import type { ResolvedConfig } from "./config_types.ts";
import { configIdentity, shownValue } from "./experiment.ts";
import type { EpisodeRecord } from "./records.ts";
import type { FinishedEpisode, ResultsSink } from "./sink.ts";
import { checkEpisode, type EpisodeRows } from "./_store_rows.ts";
import { Format5Rows } from "./_store_tables.ts";
import { Format4Rows } from "./_store_tables4.ts";
import {
  checkFile,
  corrupt,
  damageOf,
  folderOf,
  FORMAT,
  FORMAT_4,
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

/** How many episodes `ResultsStore` commits together at most. */
export const BATCH = 64;

// How many committed cells' keys a store keeps to answer add() without a query (about 100 bytes each).
const COMMITTED_KEPT = 200_000;

/**
 * Results in a SQLite file, in WAL mode. Added episodes commit in batches (see the module doc), so a
 * killed process loses at most the batch not yet committed; reopening with another config fails.
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
  #rows: EpisodeRows<unknown>;
  #lock: StoreLock | null = null;
  // Added episodes not committed yet, and their cells' keys.
  #pending: unknown[] = [];
  #pendingKeys = new Set<string>();
  // The keys of the episodes this store committed, while they are all it holds (it held none at
  // first): then a cell not there is not stored, without a query. Null when not so.
  #committed: Set<string> | null | undefined;

  private constructor(path: string, db: Store, format: number) {
    this.path = path;
    this.#db = db;
    this.#rows = format === FORMAT_4 ? new Format4Rows(db) : new Format5Rows(db);
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
    let version = 0;
    try {
      db = Store.open(undefined, { path });
      // WAL with synchronous=NORMAL: a commit survives the process being killed (not a power cut). A
      // new file gets 16 KB pages (an existing one keeps its own): a batch's episodes span fewer pages.
      db.exec(
        "PRAGMA page_size = 16384; PRAGMA busy_timeout = 5000; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL",
      );
      version = Number(db.get<{ user_version: number }>("PRAGMA user_version")?.user_version ?? 0);
      const tables = Number(db.get<{ n: number }>("SELECT count(*) AS n FROM sqlite_master")?.n ?? 0);
      if (version === 0 && tables === 0 && options.create) db.transaction(() => db!.exec(SCHEMA));
      else if (version !== FORMAT && version !== FORMAT_4) {
        // An older ark's store: its records were graded and judged otherwise, so they are not mixed with new ones.
        const older = version > 0 && version < FORMAT_4
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
    return new ResultsStore(path, db, version === FORMAT_4 ? FORMAT_4 : FORMAT);
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
    this.flush();
    return this.#intact(() => this.#rows.finishedKeys());
  }

  /**
   * Encodes an episode and keeps it for the next commit; returns false, keeping nothing, when its cell
   * is stored or pending already. Commits the batch when it is full (throwing when that fails).
   */
  add(episode: FinishedEpisode): boolean {
    checkEpisode(episode);
    const key = cellKey(episode.cell);
    this.#committed ??= this.count() === 0 ? new Set() : null;
    const stored = this.#committed === null ? this.#rows.find(episode.cell) !== undefined : this.#committed.has(key);
    if (stored || this.#pendingKeys.has(key)) return false;
    this.#pending.push(this.#rows.prepare(episode));
    this.#pendingKeys.add(key);
    if (this.#pending.length >= BATCH) this.flush();
    return true;
  }

  /** Commits the pending episodes in one transaction; when that fails, none is stored and the error is thrown. */
  flush(): void {
    if (this.#pending.length === 0) return;
    const [batch, keys] = [this.#pending, this.#pendingKeys];
    this.#pending = [];
    this.#pendingKeys = new Set();
    this.#written(() => this.#rows.write(batch));
    if (this.#committed) keys.forEach((key) => this.#committed!.add(key));
    if (this.#committed && this.#committed.size > COMMITTED_KEPT) this.#committed = null;
  }

  // Runs writes in one transaction; after a rollback no cache may hold an id it gave.
  #written<T>(write: () => T): T {
    try {
      return this.#db.transaction(write);
    } catch (err) {
      this.#rows.forget();
      throw err;
    }
  }

  count(): number {
    this.flush();
    return Number(this.#db.get<{ n: number }>("SELECT count(*) AS n FROM episodes")?.n ?? 0);
  }

  updateRecords(updates: readonly { cell: CellKey; record: EpisodeRecord }[]): number {
    this.flush();
    return this.#written(() => {
      let n = 0;
      for (const { cell, record } of updates) {
        const id = this.#rows.find(cell);
        if (id !== undefined) n += this.#rows.setRecord(id, record);
      }
      this.#rows.write([]);
      return n;
    });
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
    this.flush();
    return this.#intact(() => this.#rows.records((decode) => this.#decoded(() => wellFormed(decode()))));
  }

  events(cell: CellKey): EpisodeEvent[] {
    this.flush();
    return this.#intact(() => {
      const id = this.#rows.find(cell);
      return id === undefined ? [] : this.#decoded(() => this.#rows.events(id));
    });
  }

  /** Commits the pending episodes, closes the file, and lets go of the lock a writer holds. */
  close(): void {
    try {
      this.flush();
    } finally {
      this.#closeFile();
    }
  }

  #closeFile(): void {
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
