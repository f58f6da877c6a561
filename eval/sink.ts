/**
 * Where finished episodes go, as the runner sees it: the `ResultsSink` interface and
 * `MemoryResults`, its in-memory fake. `ResultsStore` (`store.ts`) is the real one; both pass one
 * contract test.
 *
 * @module
 */
import type { EpisodeEvent } from "../envs/mod.ts";
import { type Cell, type CellKey, cellKey } from "./cell.ts";
import type { EpisodeRecord } from "./records.ts";

/** A finished episode: its cell, its record and its events in order. */
export interface FinishedEpisode {
  /** The cell of the plan it ran. */
  cell: Cell;
  /** Its episode record (METRICS.md). */
  record: EpisodeRecord;
  /** Its trajectory, in order. */
  events: readonly EpisodeEvent[];
}

/** What the runner needs from a results store. */
export interface ResultsSink {
  /** Keys (`cellKey()`) of the episodes already finished. */
  finishedKeys(): Set<string>;
  /**
   * Adds a finished episode (all or nothing); returns false and changes nothing when its cell is
   * already there, stored or pending. A sink may keep it pending until `flush()`.
   */
  add(episode: FinishedEpisode): boolean;
  /**
   * Stores the pending episodes (`ResultsStore` commits them in one transaction); when that fails,
   * none of them is stored and the error is thrown. Reads flush first.
   */
  flush(): void;
  /** How many episodes are stored. */
  count(): number;
  /** Every stored record, in the order added. */
  records(): EpisodeRecord[];
  /** The events of one episode, in order; empty when the episode is not stored. */
  events(cell: CellKey): EpisodeEvent[];
  /**
   * Replaces the records of stored episodes (e.g. judged again), all or none; returns how many were
   * stored (episodes not stored are skipped).
   */
  updateRecords(updates: readonly { cell: CellKey; record: EpisodeRecord }[]): number;
}

/**
 * The in-memory fake of `ResultsStore`: same behaviour, nothing on disk.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { MemoryResults } from "./sink.ts";
 * const sink = new MemoryResults();
 * const cell = { agent: "oracle", task: "airline/0", run: 0, condition: "nominal" as const, variant: null };
 * assertEquals([sink.count(), sink.finishedKeys().size, sink.events(cell), sink.updateRecords([])], [0, 0, [], 0]);
 * ```
 */
export class MemoryResults implements ResultsSink {
  #episodes = new Map<string, FinishedEpisode>();

  finishedKeys(): Set<string> {
    return new Set(this.#episodes.keys());
  }

  add(episode: FinishedEpisode): boolean {
    const key = cellKey(episode.cell);
    if (this.#episodes.has(key)) return false;
    // A JSON copy, exactly what the SQLite store gives back (undefined fields dropped, later edits not seen).
    this.#episodes.set(key, JSON.parse(JSON.stringify(episode)));
    return true;
  }

  /** Does nothing: every added episode is stored at once. */
  flush(): void {}

  count(): number {
    return this.#episodes.size;
  }

  records(): EpisodeRecord[] {
    return [...this.#episodes.values()].map((e) => JSON.parse(JSON.stringify(e.record)));
  }

  events(cell: CellKey): EpisodeEvent[] {
    return JSON.parse(JSON.stringify(this.#episodes.get(cellKey(cell))?.events ?? []));
  }

  updateRecords(updates: readonly { cell: CellKey; record: EpisodeRecord }[]): number {
    const copies = updates.map(({ cell, record }) => ({
      key: cellKey(cell),
      record: JSON.parse(JSON.stringify(record)),
    }));
    let n = 0;
    for (const { key, record } of copies) {
      const episode = this.#episodes.get(key);
      if (episode === undefined) continue;
      episode.record = record;
      n++;
    }
    return n;
  }
}
