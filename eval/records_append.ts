/**
 * Records on disk while a run goes: a results sink wrapper that appends finished episodes' records
 * to a JSON Lines file once the sink has stored them, so a killed process leaves a records file of
 * whole lines of stored records only (it may lack the last ones, never holds one the sink lacks).
 * Lines are appended when the wrapper is flushed (`flush()`, which a runner calls every so often,
 * or a full batch) and before every read. Opening it writes the file in canonical order from what the
 * sink already holds (a resumed run); `finish()` at the end writes it again only when its lines are not
 * in canonical order already, so a run whose episodes were added in canonical order writes each line
 * once, and it hands back every record without decoding again what it was given.
 *
 * @module
 */
import { type EpisodeRecord, recordLine, sortRecords } from "./records.ts";
import { BATCH, type FinishedEpisode, type ResultsSink } from "./store.ts";
import { type CellKey, compareCells, type LooseCellKey } from "./cell.ts";
import type { EpisodeEvent } from "../envs/mod.ts";

/** A results sink that also appends each stored record to a JSON Lines file. */
export interface AppendingSink extends ResultsSink, Disposable {
  /** The JSON Lines file. */
  readonly path: string;
  /**
   * Whether the file, once flushed, holds every record the sink holds in canonical order, as
   * `recordsJsonl()` writes them: false after an episode added out of that order or a failed flush.
   */
  readonly inOrder: boolean;
  /**
   * Flushes, closes the file and writes it again in canonical order unless it is so already; returns
   * every record, in the sink's order (as `records()` gives them).
   */
  finish(): EpisodeRecord[];
  /** Flushes and closes the file (the sink it wraps stays open); closing twice does nothing. */
  close(): void;
}

/**
 * Wraps a results sink so that each episode it stores has its record appended to `path`, one whole
 * line each; every episode must be added through the wrapper. The file first gets the sink's records
 * in canonical order (written beside it, then renamed).
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { appendingSink } from "./records_append.ts";
 * import { MemoryResults } from "./store.ts";
 * const path = await Deno.makeTempFile({ suffix: ".jsonl" });
 * using sink = appendingSink(new MemoryResults(), path);
 * assertEquals([sink.count(), Deno.readTextFileSync(path), sink.inOrder], [0, "", true]);
 * ```
 */
export function appendingSink(sink: ResultsSink, path: string): AppendingSink {
  return new Appending(sink, path);
}

const encoder = new TextEncoder();

class Appending implements AppendingSink {
  readonly path: string;
  #sink: ResultsSink;
  #file: Deno.FsFile | null = null;
  // Lines of records the sink took and may not have stored yet.
  #pending: string[] = [];
  // The records the file holds or will, as the sink gave them at first and as JSON of those added
  // since; null once they may differ from what the sink holds.
  #kept: { read: EpisodeRecord[]; added: string[] } | null = null;
  #last: LooseCellKey | undefined;
  #inOrder = true;

  constructor(sink: ResultsSink, path: string) {
    this.path = path;
    this.#sink = sink;
    this.#rewrite(sink.records());
  }

  get inOrder(): boolean {
    return this.#inOrder;
  }

  // Writes the file anew from these records, in canonical order, and goes on appending to it.
  #rewrite(records: EpisodeRecord[]): void {
    this.#file?.close();
    this.#file = null;
    const sorted = sortRecords(records);
    const tmp = `${this.path}.tmp`;
    Deno.writeTextFileSync(tmp, sorted.map((r) => recordLine(r) + "\n").join(""));
    Deno.renameSync(tmp, this.path);
    this.#file = Deno.openSync(this.path, { append: true });
    this.#pending = [];
    this.#kept = { read: records, added: [] };
    this.#last = sorted.at(-1);
    this.#inOrder = true;
  }

  // After the sink threw, its pending episodes may be lost: no line of theirs may be written, and the
  // file must be written from the sink at the end.
  #lost(): void {
    this.#pending = [];
    this.#kept = null;
    this.#inOrder = false;
  }

  #sinkDid<T>(call: () => T): T {
    try {
      return call();
    } catch (err) {
      this.#lost();
      throw err;
    }
  }

  add(episode: FinishedEpisode): boolean {
    if (this.#file === null) throw new TypeError(`Cannot add to "${this.path}": the records file is closed`);
    const { record } = episode;
    if (!this.#sinkDid(() => this.#sink.add(episode))) return false;
    this.#pending.push(recordLine(record) + "\n");
    this.#kept?.added.push(JSON.stringify(record));
    if (this.#last !== undefined && compareCells(this.#last, record) >= 0) this.#inOrder = false;
    this.#last = {
      agent: record.agent,
      task: record.task,
      run: record.run,
      condition: record.condition,
      variant: record.variant,
    };
    if (this.#pending.length >= BATCH) this.flush();
    return true;
  }

  /** Stores the sink's pending episodes, then appends their lines (in one write). */
  flush(): void {
    this.#sinkDid(() => this.#sink.flush());
    if (this.#pending.length === 0 || this.#file === null) return;
    const bytes = encoder.encode(this.#pending.join(""));
    this.#pending = [];
    for (let done = 0; done < bytes.length;) done += this.#file.writeSync(bytes.subarray(done));
  }

  finishedKeys(): Set<string> {
    this.flush();
    return this.#sink.finishedKeys();
  }

  count(): number {
    this.flush();
    return this.#sink.count();
  }

  records(): EpisodeRecord[] {
    this.flush();
    return this.#sink.records();
  }

  events(cell: CellKey): EpisodeEvent[] {
    this.flush();
    return this.#sink.events(cell);
  }

  updateRecords(updates: readonly { cell: CellKey; record: EpisodeRecord }[]): number {
    this.flush();
    const n = this.#sinkDid(() => this.#sink.updateRecords(updates));
    // Lines already written would be stale: the file is written again from the sink.
    if (n > 0) this.#rewrite(this.#sink.records());
    return n;
  }

  finish(): EpisodeRecord[] {
    this.close();
    const kept = this.#kept;
    this.#kept = null;
    let records = kept === null ? this.#sink.records() : [...kept.read, ...kept.added.map((r) => JSON.parse(r))];
    // Only a wrapper every episode was added through holds all of them.
    if (records.length !== this.#sink.count()) {
      records = this.#sink.records();
      this.#inOrder = false;
    }
    if (!this.#inOrder) {
      this.#rewrite(records);
      this.close();
      this.#kept = null;
    }
    return records;
  }

  close(): void {
    try {
      if (this.#file !== null) this.flush();
    } finally {
      this.#file?.close();
      this.#file = null;
    }
  }

  [Symbol.dispose](): void {
    this.close();
  }
}
