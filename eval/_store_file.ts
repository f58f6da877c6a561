// A results store's file as SQLite holds it: its schema and format, the checks that a file is one
// before SQLite reads it, and the errors of a store that cannot be used. Private to eval/.
import type { EpisodeRecord } from "./records.ts";
import { DICTIONARY_SCHEMA_4 } from "./_store_tables4.ts";

/** A results store that cannot be used; `code` says why. */
export class ResultsStoreError extends Error {
  /**
   * Why: `"unreadable"`, the file is missing or cannot be opened; `"not_results"`, it is not an ark
   * results store of this format; `"mismatch"`, it holds another experiment than the config's;
   * `"corrupt"`, the file is empty or damaged (not SQLite's, pages that do not check, a record that
   * does not decode); `"locked"`, another process is writing it.
   */
  readonly code: "unreadable" | "not_results" | "mismatch" | "corrupt" | "locked";

  /** Makes an error with a code and a one-line message. */
  constructor(code: ResultsStoreError["code"], message: string) {
    super(message);
    this.name = "ResultsStoreError";
    this.code = code;
  }
}

// 2: events carry the fault a condition injected. 3: events carry the arguments that reached the
// world and the rows a call changed (what the judge reads); records carry outcome grading. 4: compact
// (about 7x smaller): cell fields and the records' key lists in a names table, each distinct event
// field value stored once, records and events packed and deflated (eval/_store_tables4.ts). 5: the
// same tables, but an episode is one text deflated once, which holds the values it was the first to
// hold (eval/_store_tables.ts): a quarter of format 4's work to add an episode. A store of format 4
// is still read and resumed (in format 4).
export const FORMAT = 5;

/** The older format this ark still reads and writes. */
export const FORMAT_4 = 4;

const EXPERIMENT_TABLE = `
CREATE TABLE experiment (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  name TEXT NOT NULL,
  config TEXT NOT NULL,
  seed TEXT NOT NULL,
  ark_version TEXT NOT NULL
);`;

// The columns of an episode row that both formats have, before its encoded data.
const EPISODE_COLUMNS = `
  id INTEGER PRIMARY KEY,
  agent INTEGER NOT NULL,
  task INTEGER NOT NULL,
  run INTEGER NOT NULL,
  condition INTEGER NOT NULL,
  variant INTEGER,
  seed TEXT NOT NULL,
  success INTEGER NOT NULL,
  steps INTEGER NOT NULL,
  n_events INTEGER NOT NULL,`;

const EPISODE_VIEWS = `
-- NULLs are distinct in a plain UNIQUE constraint; a missing variant must count as one value.
CREATE UNIQUE INDEX episodes_cell ON episodes (agent, task, run, condition, ifnull(variant, 0));
-- One row per event (episode and index), for counting with SQL; the events themselves are in episodes.
CREATE VIEW events AS WITH RECURSIVE ev (episode_id, idx) AS (
  SELECT id, 0 FROM episodes WHERE n_events > 0
  UNION ALL
  SELECT ev.episode_id, ev.idx + 1 FROM ev JOIN episodes ep ON ep.id = ev.episode_id WHERE ev.idx + 1 < ep.n_events
) SELECT episode_id, idx FROM ev;
CREATE TABLE notes (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);`;

export const SCHEMA = `${EXPERIMENT_TABLE}
CREATE TABLE names (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE
);
-- Each distinct event field value: the episode whose data holds its JSON, and its place among the
-- values that episode was the first to hold. No index on the hash: a writer reads them all once, when
-- it resumes a store (random inserts into an index cost more than the rest of the row).
CREATE TABLE vals (
  id INTEGER PRIMARY KEY,
  hash INTEGER NOT NULL,
  episode INTEGER NOT NULL,
  slot INTEGER NOT NULL
);
-- agent, task, condition and variant are ids in names; data is the episode's text (eval/_store_tables.ts),
-- deflated when that makes it shorter.
CREATE TABLE episodes (${EPISODE_COLUMNS}
  data BLOB NOT NULL
);${EPISODE_VIEWS}
PRAGMA user_version = ${FORMAT};
`;

/** Format 4's schema, as an older ark made it. */
export const SCHEMA_4 = `${EXPERIMENT_TABLE}
${DICTIONARY_SCHEMA_4}
-- agent, task, condition and variant are ids in names; record and events are packed and deflated.
CREATE TABLE episodes (${EPISODE_COLUMNS}
  record BLOB NOT NULL,
  events BLOB NOT NULL
);${EPISODE_VIEWS}
PRAGMA user_version = ${FORMAT_4};
`;

// The folder a store's file is in, as a message names it.
export function folderOf(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash < 0 ? "." : slash === 0 ? "/" : path.slice(0, slash);
}

export function corrupt(path: string, why: string, verb: "open" | "read" = "open"): ResultsStoreError {
  return new ResultsStoreError(
    "corrupt",
    `Cannot ${verb} results store "${path}": not an ark store (${why}); move it away`,
  );
}

// SQLite's words for a file that is not a database or whose pages do not hold together.
const DAMAGE = /not a database|malformed|corrupt|file is encrypted|the file is damaged|no such (column|table)/i;
export function isDamage(err: unknown): boolean {
  return err instanceof Error && DAMAGE.test(err.message);
}
// What SQLite says of the damage, without what it quotes of the file (a damaged schema's text).
export function damageOf(err: unknown): string {
  return /not a database|encrypted/i.test((err as Error).message)
    ? "it is not a SQLite database"
    : "its pages are damaged";
}

const SQLITE_HEADER = "SQLite format 3\0";

// A decoded record whose cell is not one: deflate keeps no checksum, so flipped bytes may inflate to
// other JSON, and the cell is what every reader of a record relies on.
export function wellFormed(record: EpisodeRecord): EpisodeRecord {
  const r = record as unknown as Record<string, unknown> | null;
  const cell = typeof r === "object" && r !== null && typeof r.agent === "string" && typeof r.task === "string" &&
    Number.isInteger(r.run) && typeof r.condition === "string" && typeof r.success === "boolean";
  if (!cell) throw new TypeError("Not an episode record");
  return record;
}

/**
 * Whether a store's file is there, once it is known not to be empty or another kind of file: SQLite
 * would take an empty file for a new store (an experiment's results gone unnoticed), and read any
 * file as a damaged one. A file with a write-ahead log beside it is SQLite's to read.
 */
export function checkFile(path: string): boolean {
  let info: Deno.FileInfo;
  try {
    info = Deno.statSync(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return false;
    throw err;
  }
  if (!info.isFile) {
    throw new ResultsStoreError("unreadable", `Cannot open results store "${path}": it is not a regular file`);
  }
  let wal = 0;
  try {
    wal = Deno.statSync(`${path}-wal`).size;
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  if (info.size === 0 && wal === 0) throw corrupt(path, "the file is empty");
  if (info.size > 0) {
    using file = Deno.openSync(path, { read: true });
    const head = new Uint8Array(SQLITE_HEADER.length);
    const n = file.readSync(head) ?? 0;
    if (n < head.length || new TextDecoder().decode(head) !== SQLITE_HEADER) {
      throw corrupt(path, "the file is corrupt: it is not a SQLite database");
    }
  }
  return true;
}
