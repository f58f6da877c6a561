// The results store's tables in format 4, which an older ark wrote and this one still reads and
// resumes: names (cell fields and the records' object shapes) and values (each distinct JSON value of
// an event field, once, deflated alone). An episode's events become arrays of value ids, its record
// packed JSON, each deflated alone. The encoding is kept as it was, so that a resumed store of format 4
// stays one an older ark reads. Private to eval/.
import type { EpisodeEvent, SqlValue, Store } from "../envs/mod.ts";
import type { EpisodeRecord } from "./records.ts";
import type { FinishedEpisode } from "./sink.ts";
import { episodeOf, type EpisodeRows, finishedKeysOf } from "./_store_rows.ts";
import { hash53, pack, squeeze, unpack, unsqueeze } from "./_store_codec.ts";
import type { CellKey } from "./cell.ts";

/** The tables of format 4's dictionaries (a part of its schema). */
export const DICTIONARY_SCHEMA_4 = `
CREATE TABLE names (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE
);
-- Each distinct event field value: its JSON as text when short, else deflated. (Packing values like
-- records would put their many one-off key lists, e.g. maps keyed by ids, in names.)
CREATE TABLE vals (
  id INTEGER PRIMARY KEY,
  hash INTEGER NOT NULL,
  data BLOB NOT NULL
);
CREATE INDEX vals_hash ON vals (hash);
`;

// The event fields in the order events are rebuilt; the first two are numbers kept as they are.
const FIELDS = [
  "step",
  "latency_ms",
  "actor",
  "kind",
  "tool",
  "args",
  "result",
  "error",
  "text",
  "intent",
  "confidence",
  "fault",
  "world_args",
  "changes",
] as const;
const KNOWN = new Set<string>(FIELDS);
const ORDER = ["step", "actor", "kind", ...FIELDS.slice(4), "latency_ms"].map((f) =>
  [f, (FIELDS as readonly string[]).indexOf(f)] as const
);
// Values this short stay text: deflating them gains nothing.
const SHORT = 40;
// Caches are dropped whole past this many entries, which bounds memory on a very large store.
const CACHE_LIMIT = 200_000;

/** Names and values of one store, with caches; `forget()` after a rolled-back write. */
export class Dictionaries {
  #db: Store;
  #ids = new Map<string, number>();
  #names = new Map<number, string>();
  #valueIds = new Map<string, number>();
  #values = new Map<number, string>();
  #shapes = new Map<number, string[]>();
  #shapeIds = new Map<string, number>();

  constructor(db: Store) {
    this.#db = db;
  }

  /** Drops every cache (ids written in a rolled-back transaction are not there any more). */
  forget(): void {
    this.#ids.clear();
    this.#names.clear();
    this.#valueIds.clear();
    this.#values.clear();
    this.#shapes.clear();
    this.#shapeIds.clear();
  }

  /** The id of a name, added when `add` and not there; `undefined` when not there and not added. */
  id(name: string, options: { add: boolean }): number | undefined {
    const known = this.#ids.get(name);
    if (known !== undefined) return known;
    let row = this.#db.get<{ id: number }>("SELECT id FROM names WHERE name = ?", name);
    if (row === undefined && options.add) {
      // Another process may have added it meanwhile: then it is there.
      this.#db.run("INSERT INTO names (name) VALUES (?) ON CONFLICT (name) DO NOTHING", name);
      row = this.#db.get<{ id: number }>("SELECT id FROM names WHERE name = ?", name);
    }
    if (row === undefined) return undefined;
    const id = Number(row.id);
    if (this.#ids.size > CACHE_LIMIT) this.#ids.clear();
    this.#ids.set(name, id);
    return id;
  }

  /** The name of an id. */
  name(id: number): string {
    let name = this.#names.get(id);
    if (name === undefined) {
      if (this.#names.size > CACHE_LIMIT) this.#names.clear();
      for (const row of this.#db.all<{ id: number; name: string }>("SELECT id, name FROM names")) {
        this.#names.set(Number(row.id), row.name);
      }
      name = this.#names.get(id);
      if (name === undefined) throw new RangeError(`Results store has no name ${id}: the file is damaged`);
    }
    return name;
  }

  #shape = (keys: string[]): number => {
    const key = keys.join("\u0000");
    let id = this.#shapeIds.get(key);
    if (id === undefined) {
      id = this.id(JSON.stringify(keys), { add: true })!;
      if (this.#shapeIds.size > CACHE_LIMIT) this.#shapeIds.clear();
      this.#shapeIds.set(key, id);
    }
    return id;
  };

  #keys = (id: number): string[] => {
    let keys = this.#shapes.get(id);
    if (keys === undefined) {
      keys = JSON.parse(this.name(id)) as string[];
      if (this.#shapes.size > CACHE_LIMIT) this.#shapes.clear();
      this.#shapes.set(id, keys);
    }
    return keys;
  };

  /** A record packed and deflated. */
  encodeRecord(record: EpisodeRecord): Uint8Array {
    return squeeze(JSON.stringify(pack(record, this.#shape)));
  }

  /** The record `encodeRecord()` made. */
  decodeRecord(data: SqlValue): EpisodeRecord {
    return unpack(JSON.parse(unsqueeze(data as Uint8Array)), this.#keys) as EpisodeRecord;
  }

  /** Events as arrays of value ids (0 for an absent field), deflated; other fields go in a last slot. */
  encodeEvents(events: readonly EpisodeEvent[]): Uint8Array {
    const rows = events.map((event) => {
      const e = event as unknown as Record<string, unknown>;
      const row: unknown[] = [e.step, e.latency_ms];
      for (let i = 2; i < FIELDS.length; i++) row.push(this.#value(e[FIELDS[i]]));
      let extra: Record<string, unknown> | undefined;
      for (const key of Object.keys(e)) {
        if (!KNOWN.has(key) && e[key] !== undefined) (extra ??= {})[key] = e[key];
      }
      row.push(extra === undefined ? 0 : this.#value(extra));
      while (row.length > 2 && row[row.length - 1] === 0) row.pop();
      return row;
    });
    return squeeze(JSON.stringify(rows));
  }

  /** The events `encodeEvents()` made. */
  decodeEvents(data: SqlValue): EpisodeEvent[] {
    const rows = JSON.parse(unsqueeze(data as Uint8Array)) as number[][];
    return rows.map((row) => {
      const event: Record<string, unknown> = {};
      for (const [field, slot] of ORDER) {
        if (slot < 2) event[field] = row[slot];
        else if (slot < row.length && row[slot] !== 0) event[field] = this.#valueOf(row[slot]);
      }
      const last = FIELDS.length;
      if (last < row.length && row[last] !== 0) Object.assign(event, this.#valueOf(row[last]));
      return event as unknown as EpisodeEvent;
    });
  }

  // The id of a JSON value, stored once; 0 for `undefined` (an absent field).
  #value(value: unknown): number {
    if (value === undefined) return 0;
    const text = JSON.stringify(value);
    if (text === undefined) return 0;
    const known = this.#valueIds.get(text);
    if (known !== undefined) return known;
    const hash = hash53(text);
    let id: number | undefined;
    for (const row of this.#db.all<{ id: number; data: SqlValue }>("SELECT id, data FROM vals WHERE hash = ?", hash)) {
      if (textOf(row.data) === text) id = Number(row.id);
    }
    if (id === undefined) {
      const squeezed = text.length > SHORT ? squeeze(text) : undefined;
      const data = squeezed !== undefined && squeezed.length < text.length ? squeezed : text;
      const row = this.#db.get<{ id: number }>("INSERT INTO vals (hash, data) VALUES (?, ?) RETURNING id", hash, data);
      id = Number(row!.id);
    }
    if (this.#valueIds.size > CACHE_LIMIT) this.#valueIds.clear();
    this.#valueIds.set(text, id);
    return id;
  }

  // A fresh copy of a stored value (callers may change what they get).
  #valueOf(id: number): unknown {
    let text = this.#values.get(id);
    if (text === undefined) {
      const row = this.#db.get<{ data: SqlValue }>("SELECT data FROM vals WHERE id = ?", id);
      if (row === undefined) throw new RangeError(`Results store has no value ${id}: the file is damaged`);
      text = textOf(row.data);
      if (this.#values.size > CACHE_LIMIT) this.#values.clear();
      this.#values.set(id, text);
    }
    return JSON.parse(text);
  }
}

// A stored value's JSON: kept as text when short, else deflated.
function textOf(data: SqlValue): string {
  return typeof data === "string" ? data : unsqueeze(data as Uint8Array);
}

/** Format 4's episode rows: each episode encoded when its batch is written, as an older ark did. */
export class Format4Rows implements EpisodeRows<FinishedEpisode> {
  #db: Store;
  #dict: Dictionaries;

  constructor(db: Store) {
    this.#db = db;
    this.#dict = new Dictionaries(db);
  }

  find(cell: CellKey): number | undefined {
    return episodeOf(this.#db, this.#dict, cell);
  }

  // A JSON copy: what the encoder reads of it anyway, and no later change of the caller's is seen.
  prepare(episode: FinishedEpisode): FinishedEpisode {
    return JSON.parse(JSON.stringify(episode));
  }

  write(batch: readonly FinishedEpisode[]): void {
    for (const { cell, record, events } of batch) {
      const id = (name: string) => this.#dict.id(name, { add: true })!;
      this.#db.run(
        `INSERT INTO episodes (agent, task, run, condition, variant, seed, success, steps, n_events, record, events)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        id(cell.agent),
        id(cell.task),
        cell.run,
        id(cell.condition),
        cell.variant === null || cell.variant === undefined ? null : id(cell.variant),
        cell.seed,
        record.success ? 1 : 0,
        record.steps,
        events.length,
        this.#dict.encodeRecord(record),
        this.#dict.encodeEvents(events),
      );
    }
  }

  finishedKeys(): Set<string> {
    return finishedKeysOf(this.#db, this.#dict);
  }

  records(decoded: (decode: () => EpisodeRecord) => EpisodeRecord): EpisodeRecord[] {
    return this.#db.all<{ record: SqlValue }>("SELECT record FROM episodes ORDER BY id").map((r) =>
      decoded(() => this.#dict.decodeRecord(r.record))
    );
  }

  events(id: number): EpisodeEvent[] {
    const row = this.#db.get<{ events: SqlValue }>("SELECT events FROM episodes WHERE id = ?", id);
    return this.#dict.decodeEvents(row!.events);
  }

  setRecord(id: number, record: EpisodeRecord): number {
    return this.#db.run(
      "UPDATE episodes SET record = ?, success = ? WHERE id = ?",
      this.#dict.encodeRecord(record),
      record.success ? 1 : 0,
      id,
    );
  }

  forget(): void {
    this.#dict.forget();
  }
}
