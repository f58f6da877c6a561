/**
 * Records on disk while a run goes: a results sink wrapper that appends each finished episode's
 * record to a JSON Lines file as soon as the sink has it, so a killed process leaves a records
 * file that holds whole lines only (a prefix of what an uninterrupted run writes, in the order the
 * episodes finished). Opening it rewrites the file in canonical order from what the sink already
 * holds (a resumed run); `writeRecordsJsonl()` at the end puts the whole file in canonical order.
 *
 * @module
 */
import { type EpisodeRecord, recordLine, writeRecordsJsonlSync } from "./records.ts";
import type { FinishedEpisode, ResultsSink } from "./store.ts";
import type { CellKey } from "./cell.ts";
import type { EpisodeEvent } from "../envs/mod.ts";

/** A results sink that also appends each added record to a JSON Lines file; close it before rewriting the file. */
export interface AppendingSink extends ResultsSink, Disposable {
  /** The JSON Lines file. */
  readonly path: string;
  /** Closes the file (the sink it wraps stays open); closing twice does nothing. */
  close(): void;
}

/**
 * Wraps a results sink so that each episode it adds has its record appended to `path` at once,
 * one whole line per synchronous write. The file first gets the sink's records in canonical order
 * (written beside it, then renamed), so it always holds whole lines of stored records only.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { appendingSink } from "./records_append.ts";
 * import { MemoryResults } from "./store.ts";
 * const path = await Deno.makeTempFile({ suffix: ".jsonl" });
 * using sink = appendingSink(new MemoryResults(), path);
 * assertEquals([sink.count(), Deno.readTextFileSync(path)], [0, ""]);
 * ```
 */
export function appendingSink(sink: ResultsSink, path: string): AppendingSink {
  writeRecordsJsonlSync(sink, path);
  let file: Deno.FsFile | null = Deno.openSync(path, { append: true });
  const encoder = new TextEncoder();
  const append = (record: EpisodeRecord) => {
    const bytes = encoder.encode(recordLine(record) + "\n");
    for (let done = 0; done < bytes.length;) done += file!.writeSync(bytes.subarray(done));
  };
  const close = () => {
    file?.close();
    file = null;
  };
  return {
    path,
    finishedKeys: (): Set<string> => sink.finishedKeys(),
    add(episode: FinishedEpisode): boolean {
      if (file === null) throw new TypeError(`Cannot add to "${path}": the records file is closed`);
      // The store first: a kill between the two leaves a line missing, never a line the store lacks.
      const added = sink.add(episode);
      if (added) append(episode.record);
      return added;
    },
    count: (): number => sink.count(),
    records: (): EpisodeRecord[] => sink.records(),
    events: (cell: CellKey): EpisodeEvent[] => sink.events(cell),
    updateRecords(updates: readonly { cell: CellKey; record: EpisodeRecord }[]): number {
      const n = sink.updateRecords(updates);
      // Lines already written would be stale: the file is written again from the sink.
      if (n > 0) {
        close();
        writeRecordsJsonlSync(sink, path);
        file = Deno.openSync(path, { append: true });
      }
      return n;
    },
    close,
    [Symbol.dispose]: close,
  };
}
