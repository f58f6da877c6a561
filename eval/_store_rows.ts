// What the results store's formats share: the interface of a format's episode rows, and the cells'
// names (agent, task, condition, variant) as ids in the names table. Private to eval/.
import type { EpisodeEvent, Store } from "../envs/mod.ts";
import { type CellKey, cellKey } from "./cell.ts";
import type { EpisodeRecord } from "./records.ts";
import type { FinishedEpisode } from "./sink.ts";

/** One format's episode rows as the results store reads and writes them; `P` is what `add()` keeps. */
export interface EpisodeRows<P> {
  /** The stored episode of a cell, when there is one (a batch not yet written is not looked at). */
  find(cell: CellKey): number | undefined;
  /** What is kept of an episode until its batch is written: later changes to its objects are not seen. */
  prepare(episode: FinishedEpisode): P;
  /** Writes a batch, with the names and values it needs, inside the caller's transaction. */
  write(batch: readonly P[]): void;
  /** Keys of the stored episodes. */
  finishedKeys(): Set<string>;
  /** Every stored record in the order added, each decoded through `decoded`. */
  records(decoded: (decode: () => EpisodeRecord) => EpisodeRecord): EpisodeRecord[];
  /** The events of a stored episode. */
  events(id: number): EpisodeEvent[];
  /** Replaces a stored episode's record; returns 1. */
  setRecord(id: number, record: EpisodeRecord): number;
  /** Drops every cache, after a rolled-back transaction. */
  forget(): void;
}

/** What a store looks names up in. */
export interface NameSource {
  id(name: string, options: { add: boolean }): number | undefined;
  name(id: number): string;
}

/** The stored episode of a cell, when there is one. */
export function episodeOf(db: Store, names: NameSource, cell: CellKey): number | undefined {
  const look = { add: false };
  const agent = names.id(cell.agent, look), task = names.id(cell.task, look);
  const condition = names.id(cell.condition, look);
  const variant = cell.variant === null || cell.variant === undefined ? 0 : names.id(cell.variant, look);
  if (agent === undefined || task === undefined || condition === undefined || variant === undefined) return undefined;
  const row = db.get<{ id: number }>(
    "SELECT id FROM episodes WHERE agent = ? AND task = ? AND run = ? AND condition = ? AND ifnull(variant, 0) = ?",
    agent,
    task,
    cell.run,
    condition,
    variant,
  );
  return row === undefined ? undefined : Number(row.id);
}

/** The keys of every stored episode. */
export function finishedKeysOf(db: Store, names: NameSource): Set<string> {
  type Row = { agent: number; task: number; run: number; condition: number; variant: number | null };
  const rows = db.all<Row>("SELECT agent, task, run, condition, variant FROM episodes");
  const name = (id: number) => names.name(Number(id));
  return new Set(rows.map((r) =>
    cellKey({
      agent: name(r.agent),
      task: name(r.task),
      run: Number(r.run),
      condition: name(r.condition) as CellKey["condition"],
      variant: r.variant === null ? null : name(r.variant),
    })
  ));
}

/** Caches are dropped whole past this many entries (when a batch is written), which bounds memory. */
export const CACHE_LIMIT = 200_000;

/** The names table of format 5: ids given at once, rows written with the batch (`write()`). */
export class Names implements NameSource {
  #db: Store;
  #ids = new Map<string, number>();
  #names = new Map<number, string>();
  #next: number | undefined;
  #pending: [number, string][] = [];

  constructor(db: Store) {
    this.#db = db;
  }

  id(name: string, options: { add: boolean }): number | undefined {
    const known = this.#ids.get(name);
    if (known !== undefined) return known;
    const row = this.#db.get<{ id: number }>("SELECT id FROM names WHERE name = ?", name);
    let id = row === undefined ? undefined : Number(row.id);
    if (id === undefined && options.add) {
      this.#next ??= Number(this.#db.get<{ n: number }>("SELECT ifnull(max(id), 0) AS n FROM names")!.n) + 1;
      id = this.#next++;
      this.#pending.push([id, name]);
      this.#names.set(id, name);
    }
    if (id !== undefined) this.#ids.set(name, id);
    return id;
  }

  name(id: number): string {
    let name = this.#names.get(id);
    if (name === undefined) {
      for (const row of this.#db.all<{ id: number; name: string }>("SELECT id, name FROM names")) {
        this.#names.set(Number(row.id), row.name);
      }
      name = this.#names.get(id);
      if (name === undefined) throw new RangeError(`Results store has no name ${id}: the file is damaged`);
    }
    return name;
  }

  write(): void {
    for (const [id, name] of this.#pending) this.#db.run("INSERT INTO names (id, name) VALUES (?, ?)", id, name);
    this.#pending = [];
    if (this.#ids.size > CACHE_LIMIT || this.#names.size > CACHE_LIMIT) this.forget();
  }

  forget(): void {
    this.#ids.clear();
    this.#names.clear();
    this.#next = undefined;
    this.#pending = [];
  }
}

// What SQLite would refuse only when the batch commits, refused at once instead (a bug of the caller's
// should not cost the batch's other episodes).
export function checkEpisode({ cell, record, events }: FinishedEpisode): void {
  const bad = typeof cell.seed !== "string"
    ? "its cell's seed is not a string"
    : !Number.isInteger(cell.run)
    ? "its cell's run is not an integer"
    : typeof record.steps !== "number"
    ? "its record's steps are not a number"
    : !Array.isArray(events)
    ? "its events are not an array"
    : null;
  if (bad !== null) throw new TypeError(`Cannot store an episode of "${cell.task}": ${bad}`);
}
