// The results store's tables in format 5. Names: cell fields and the records' key lists. Values: each
// distinct JSON value of an event field, once. An episode is one text, deflated once: its record
// packed, its events as rows of value ids, then the JSON of the values it was the first to hold, one a
// line; a value's row in `vals` says which episode's text holds it, and where. Ids of names and values
// are given when an episode is added (its text needs them) and their rows written with the episodes
// of the batch, in its transaction. Private to eval/.
import type { EpisodeEvent, SqlValue, Store } from "../envs/mod.ts";
import type { Cell, CellKey } from "./cell.ts";
import type { EpisodeRecord } from "./records.ts";
import type { FinishedEpisode } from "./sink.ts";
import { hash53, inflate, pack, squeezedOr, unpack } from "./_store_codec.ts";
import { CACHE_LIMIT, episodeOf, type EpisodeRows, finishedKeysOf, Names } from "./_store_rows.ts";

/** An episode as `add()` keeps it in format 5: its cell and its encoded row. */
export interface Encoded {
  cell: Cell;
  ids: { agent: number; task: number; condition: number; variant: number | null };
  success: boolean;
  steps: number;
  events: number;
  data: SqlValue;
  /** The values this episode is the first to hold: id and hash, by place among its new values. */
  values: { id: number; hash: number }[];
}

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
// Each field's slot in a row (step and latency_ms included, which are kept as they are).
const SLOTS: Record<string, number> = Object.assign(
  Object.create(null),
  Object.fromEntries(FIELDS.map((f, i) => [f, i])),
);
const ORDER = ["step", "actor", "kind", ...FIELDS.slice(4), "latency_ms"].map((f) =>
  [f, (FIELDS as readonly string[]).indexOf(f)] as const
);
// Key lists as a tree of their keys, each list's name id at its last key.
type ShapeNode = { id?: number; next: Map<string, ShapeNode> };
// How many episodes' texts are kept decoded for the values they hold.
const TEXTS_KEPT = 256;

const decoder = new TextDecoder();

/** Format 5's episode rows (see the file's comment). */
export class Format5Rows implements EpisodeRows<Encoded> {
  #db: Store;
  #names: Names;
  // Every value's JSON given an id (stored or in a batch) → its id; strings by themselves too.
  #texts = new Map<string, number>();
  #strings = new Map<string, number>();
  // Whether #texts holds every stored value (so a value not there is new): the store had none at first.
  #complete: boolean | undefined;
  // Else the ids of the stored values by hash, read once.
  #hashes: Map<number, number | number[]> | undefined;
  #next: number | undefined;
  #shapeIds: ShapeNode = { next: new Map() };
  #shapeCount = 0;
  #shapes = new Map<number, string[]>();
  // Reading: values' JSON by id, and episodes' texts split in lines.
  #values = new Map<number, string>();
  #lines = new Map<number, string[]>();
  // An event's fields by slot while its row is made (all undefined between rows).
  #found: unknown[] = new Array(FIELDS.length).fill(undefined);

  constructor(db: Store) {
    this.#db = db;
    this.#names = new Names(db);
  }

  find(cell: CellKey): number | undefined {
    return episodeOf(this.#db, this.#names, cell);
  }

  prepare(episode: FinishedEpisode): Encoded {
    const { cell, record, events } = episode;
    const names = this.#names, add = { add: true };
    const ids = {
      agent: names.id(cell.agent, add)!,
      task: names.id(cell.task, add)!,
      condition: names.id(cell.condition, add)!,
      variant: cell.variant === null || cell.variant === undefined ? null : names.id(cell.variant, add)!,
    };
    const lines = [JSON.stringify(pack(record, this.#shape)), ""];
    const values: Encoded["values"] = [];
    const next = this.#next;
    try {
      const rows: unknown[][] = new Array(events.length);
      for (let i = 0; i < events.length; i++) rows[i] = this.#row(events[i], lines, values);
      lines[1] = JSON.stringify(rows);
    } catch (err) {
      // The values given ids here are not stored after all: later episodes must not point at them.
      for (let i = 2; i < lines.length; i++) this.#texts.delete(lines[i]);
      this.#strings.clear();
      this.#next = next;
      this.#found.fill(undefined);
      throw err;
    }
    const text = lines.length === 2 ? lines[0] + "\n" + lines[1] : lines.join("\n");
    return {
      cell: { ...cell },
      ids,
      success: Boolean(record.success),
      steps: record.steps,
      events: events.length,
      data: squeezedOr(text),
      values,
    };
  }

  // An event as value ids (0 for an absent field), other fields in a last slot; a value no episode
  // held before goes on a line of this one's text.
  #row(event: EpisodeEvent, lines: string[], values: Encoded["values"]): unknown[] {
    const e = event as unknown as Record<string, unknown>;
    // The event's fields by slot (its own keys read once), then the others.
    const found = this.#found;
    let extra: Record<string, unknown> | undefined;
    const keys = Object.keys(e);
    for (let k = 0; k < keys.length; k++) {
      const key = keys[k], slot = SLOTS[key], value = e[key];
      if (slot !== undefined) {
        if (slot > 1) found[slot] = value;
      } else if (value !== undefined) (extra ??= {})[key] = value;
    }
    const row: unknown[] = [e.step, e.latency_ms];
    let last = 1;
    for (let slot = 2; slot < FIELDS.length; slot++) {
      const value = found[slot];
      if (value === undefined) {
        row.push(0);
        continue;
      }
      found[slot] = undefined;
      const id = this.#value(value, lines, values);
      row.push(id);
      if (id !== 0) last = slot;
    }
    if (extra !== undefined) {
      const id = this.#value(extra, lines, values);
      row.push(id);
      if (id !== 0) last = FIELDS.length;
    }
    row.length = last + 1;
    return row;
  }

  // The id of a JSON value, stored once; 0 for `undefined` (an absent field).
  #value(value: unknown, lines: string[], values: Encoded["values"]): number {
    if (typeof value === "string") {
      let id = this.#strings.get(value);
      if (id === undefined) {
        const text = JSON.stringify(value);
        id = this.#texts.get(text) ?? this.#added(text, lines, values);
        this.#strings.set(value, id);
      }
      return id;
    }
    if (value === undefined) return 0;
    const text = JSON.stringify(value);
    if (text === undefined) return 0;
    return this.#texts.get(text) ?? this.#added(text, lines, values);
  }

  // The id of a JSON text not seen yet: a stored value's, or a new one this episode's text holds.
  #added(text: string, lines: string[], values: Encoded["values"]): number {
    this.#complete ??= this.#db.get("SELECT 1 FROM vals LIMIT 1") === undefined;
    const hash = hash53(text);
    let id = this.#complete ? undefined : this.#stored(text, hash);
    if (id === undefined) {
      this.#next ??= Number(this.#db.get<{ n: number }>("SELECT ifnull(max(id), 0) AS n FROM vals")!.n) + 1;
      id = this.#next++;
      values.push({ id, hash });
      lines.push(text);
    }
    this.#texts.set(text, id);
    return id;
  }

  // The stored value of a JSON text, when there is one.
  #stored(text: string, hash: number): number | undefined {
    if (this.#hashes === undefined) {
      this.#hashes = new Map();
      for (const row of this.#db.all<{ id: number; hash: number }>("SELECT id, hash FROM vals")) {
        const [id, known] = [Number(row.id), this.#hashes.get(Number(row.hash))];
        this.#hashes.set(Number(row.hash), known === undefined ? id : [known, id].flat());
      }
    }
    const ids = this.#hashes.get(hash);
    for (const id of ids === undefined ? [] : typeof ids === "number" ? [ids] : ids) {
      if (this.#valueText(id) === text) return id;
    }
    return undefined;
  }

  // A key list's name id, found key by key (no string made of the list).
  #shape = (keys: string[]): number => {
    let node = this.#shapeIds;
    for (const key of keys) {
      let next = node.next.get(key);
      if (next === undefined) {
        node.next.set(key, next = { next: new Map() });
        this.#shapeCount++;
      }
      node = next;
    }
    node.id ??= this.#names.id(JSON.stringify(keys), { add: true })!;
    return node.id;
  };

  #keys = (id: number): string[] => {
    let keys = this.#shapes.get(id);
    if (keys === undefined) {
      keys = JSON.parse(this.#names.name(id)) as string[];
      if (this.#shapes.size > CACHE_LIMIT) this.#shapes.clear();
      this.#shapes.set(id, keys);
    }
    return keys;
  };

  write(batch: readonly Encoded[]): void {
    this.#names.write();
    if (batch.length === 0) return;
    let id = Number(this.#db.get<{ n: number }>("SELECT ifnull(max(id), 0) AS n FROM episodes")!.n);
    for (const episode of batch) {
      const { cell, ids } = episode;
      this.#db.run(
        `INSERT INTO episodes (id, agent, task, run, condition, variant, seed, success, steps, n_events, data)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        ++id,
        ids.agent,
        ids.task,
        cell.run,
        ids.condition,
        ids.variant,
        cell.seed,
        episode.success ? 1 : 0,
        episode.steps,
        episode.events,
        episode.data,
      );
      episode.values.forEach((value, slot) =>
        this.#db.run("INSERT INTO vals (id, hash, episode, slot) VALUES (?, ?, ?, ?)", value.id, value.hash, id, slot)
      );
    }
    if (this.#texts.size > CACHE_LIMIT) {
      this.#texts.clear();
      this.#strings.clear();
      this.#complete = false;
      this.#hashes = undefined;
    }
    if (this.#shapeCount > CACHE_LIMIT) this.#forgetShapes();
  }

  finishedKeys(): Set<string> {
    return finishedKeysOf(this.#db, this.#names);
  }

  records(decoded: (decode: () => EpisodeRecord) => EpisodeRecord): EpisodeRecord[] {
    return this.#db.all<{ data: SqlValue }>("SELECT data FROM episodes ORDER BY id").map((r) =>
      decoded(() => {
        const text = typeof r.data === "string" ? r.data : firstLine(inflate(r.data as Uint8Array));
        return unpack(JSON.parse(text.slice(0, lineEnd(text))), this.#keys) as EpisodeRecord;
      })
    );
  }

  events(id: number): EpisodeEvent[] {
    const lines = this.#linesOf(id);
    const rows = JSON.parse(lines[1]) as number[][];
    return rows.map((row) => {
      const event: Record<string, unknown> = {};
      for (const [field, slot] of ORDER) {
        if (slot < 2) event[field] = row[slot];
        else if (slot < row.length && row[slot] !== 0) event[field] = JSON.parse(this.#valueText(row[slot]));
      }
      const last = FIELDS.length;
      if (last < row.length && row[last] !== 0) Object.assign(event, JSON.parse(this.#valueText(row[last])));
      return event as unknown as EpisodeEvent;
    });
  }

  setRecord(id: number, record: EpisodeRecord): number {
    const lines = [...this.#linesOf(id)];
    lines[0] = JSON.stringify(pack(record, this.#shape));
    this.#lines.delete(id);
    return this.#db.run(
      "UPDATE episodes SET data = ?, success = ? WHERE id = ?",
      squeezedOr(lines.join("\n")),
      record.success ? 1 : 0,
      id,
    );
  }

  // A stored episode's text in lines (kept for the next few reads).
  #linesOf(id: number): string[] {
    let lines = this.#lines.get(id);
    if (lines === undefined) {
      const row = this.#db.get<{ data: SqlValue }>("SELECT data FROM episodes WHERE id = ?", id);
      if (row === undefined) throw new RangeError(`Results store has no episode ${id}: the file is damaged`);
      const text = typeof row.data === "string" ? row.data : decoder.decode(inflate(row.data as Uint8Array));
      lines = text.split("\n");
      if (lines.length < 2) throw new RangeError(`Results store's episode ${id} has no events: the file is damaged`);
      if (this.#lines.size >= TEXTS_KEPT) this.#lines.clear();
      this.#lines.set(id, lines);
    }
    return lines;
  }

  // A stored value's JSON, from the text of the episode that holds it.
  #valueText(id: number): string {
    let text = this.#values.get(id);
    if (text === undefined) {
      const row = this.#db.get<{ episode: number; slot: number }>("SELECT episode, slot FROM vals WHERE id = ?", id);
      text = row === undefined ? undefined : this.#linesOf(Number(row.episode))[2 + Number(row.slot)];
      if (text === undefined) throw new RangeError(`Results store has no value ${id}: the file is damaged`);
      if (this.#values.size > CACHE_LIMIT) this.#values.clear();
      this.#values.set(id, text);
    }
    return text;
  }

  #forgetShapes(): void {
    this.#shapeIds = { next: new Map() };
    this.#shapeCount = 0;
  }

  forget(): void {
    this.#names.forget();
    this.#texts.clear();
    this.#strings.clear();
    this.#complete = undefined;
    this.#hashes = undefined;
    this.#next = undefined;
    this.#forgetShapes();
    this.#shapes.clear();
    this.#values.clear();
    this.#lines.clear();
  }
}

// The first line of a text's bytes, decoded (a record without the rest of its episode's text).
function firstLine(bytes: Uint8Array): string {
  const end = bytes.indexOf(10);
  return decoder.decode(end < 0 ? bytes : bytes.subarray(0, end));
}

function lineEnd(text: string): number {
  const end = text.indexOf("\n");
  return end < 0 ? text.length : end;
}
