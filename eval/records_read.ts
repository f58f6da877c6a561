/**
 * Reading a JSON Lines stream of episode records (what `deno task score` and `deno task compare`
 * read): chunk by chunk and line by line, each line parsed, checked against the record schema and
 * kept as a record (repeated values shared), so memory holds the records and not the text they came
 * from; and the split of a million records into the first of each cell and the rest.
 *
 * @module
 */
import type { EpisodeRecord } from "../scoring/record.ts";
import { parseEpisodeRecord } from "../scoring/record_schema.ts";
import { jsonErrorWhere, MAX_RECORD_LINE } from "./fs_errors.ts";
import { type CellKey, cellKey, type LooseCellKey } from "./cell.ts";

const CHUNK = 1024 * 1024;

/** A line of a records file that is not a valid record. */
export interface BadLine {
  /** Its number, from 1 (blank lines count). */
  line: number;
  /** What is wrong with it, e.g. `"run": Too small: expected number to be >=0`. */
  problem: string;
}

/**
 * Reads a JSON Lines stream of records line by line; blank lines are ignored.
 * Returns the valid records and the lines that were not (a line over `MAX_RECORD_LINE` characters
 * is not read). Equal agent and task names, equal `actions`, `milestone_labels` and
 * `milestone_tools` lists, equal `milestones`, `writes` and `harm` and empty violation lists are
 * shared between records (a million records repeat them a lot), so treat the records as read-only.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { readRecords } from "./records_read.ts";
 * const text = '{"agent":"a","task":"t/1","run":0,"condition":"nominal","success":true}\n{"agent":1}\n';
 * const { records, bad } = await readRecords(ReadableStream.from([new TextEncoder().encode(text)]));
 * assertEquals([records.length, bad], [1, [{ line: 2, problem: '"agent": Invalid input: expected string, received number' }]]);
 * ```
 */
export async function readRecords(
  stream: ReadableStream<Uint8Array>,
): Promise<{ records: EpisodeRecord[]; bad: BadLine[] }> {
  const records: EpisodeRecord[] = [], bad: BadLine[] = [];
  const keep = sharing();
  let number = 0;
  const take = (line: string) => {
    number++;
    const record = lineRecord(line);
    if (record === null) return;
    if (typeof record === "string") bad.push({ line: number, problem: record });
    else records.push(keep(record));
  };
  const decoder = new TextDecoder();
  let rest = "", cut = false;
  for await (const bytes of chunks(stream)) {
    const text = rest + decoder.decode(bytes, { stream: true });
    let start = 0;
    for (let end = text.indexOf("\n"); end >= 0; end = text.indexOf("\n", start)) {
      // The end of a line already found too long: it was counted when it was cut.
      if (cut) cut = false;
      else take(text.slice(start, end));
      start = end + 1;
    }
    rest = text.slice(start);
    // A line past the limit is not kept whole while its end is looked for (`/dev/zero` has none).
    if (rest.length > MAX_RECORD_LINE && !cut) {
      take(rest);
      rest = "";
      cut = true;
    } else if (cut) rest = "";
  }
  rest += decoder.decode();
  if (rest !== "" && !cut) take(rest);
  return { records, bad };
}

// A file's stream in chunks of a megabyte where it can (a byte stream's own are 64 KB: 16 times the reads).
async function* chunks(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  let reader: ReadableStreamBYOBReader;
  try {
    reader = stream.getReader({ mode: "byob" });
  } catch (err) {
    if (!(err instanceof TypeError)) throw err;
    yield* stream;
    return;
  }
  let buffer = new ArrayBuffer(CHUNK);
  try {
    while (true) {
      const { value, done } = await reader.read(new Uint8Array(buffer));
      if (done || value === undefined) return;
      // The buffer is read into again once the caller is done with this chunk.
      yield value;
      buffer = value.buffer;
    }
  } finally {
    reader.releaseLock();
  }
}

// One line's record, what is wrong with it, or null for a blank line.
function lineRecord(line: string): EpisodeRecord | string | null {
  if (line.trim() === "") return null;
  if (line.length > MAX_RECORD_LINE) return `longer than ${MAX_RECORD_LINE} characters`;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (err) {
    if (!(err instanceof SyntaxError)) throw err;
    return `not JSON${jsonErrorWhere(err)}`;
  }
  const parsed = parseEpisodeRecord(value);
  if (parsed.success) return parsed.data;
  const { path, message } = parsed.issue;
  return `${path.length === 0 ? "the record" : `"${path.join(".")}"`}: ${message}`;
}

// Shares equal names and name lists between records.
function sharing(): (record: EpisodeRecord) => EpisodeRecord {
  const names = new Map<string, string>();
  const name = (s: string) => names.get(s) ?? (names.set(s, s), s);
  const [actions, labels, tools] = [lists(), lists(), lists()];
  const counts = values();
  return (r) => {
    r.agent = name(r.agent);
    r.task = name(r.task);
    if (r.actions !== undefined) r.actions = actions(r.actions);
    if (r.milestone_labels !== undefined) r.milestone_labels = labels(r.milestone_labels);
    if (r.milestone_tools !== undefined) r.milestone_tools = tools(r.milestone_tools);
    // Counts of a few values each, and empty lists: a third of a record's memory when not shared.
    if (r.milestones !== undefined) r.milestones = counts(r.milestones);
    if (r.writes !== undefined) r.writes = counts(r.writes);
    if (r.harm !== undefined) r.harm = counts(r.harm);
    if (r.violations?.length === 0) r.violations = NONE;
    if (r.near_misses?.length === 0) r.near_misses = NONE;
    if (r.llm_violations?.length === 0) r.llm_violations = NONE;
    return r;
  };
}

const NONE: never[] = [];

// One object of numbers shared by all records that hold an equal one: the same keys in the same
// order and the same values (-0 apart, which prints as 0 but is not). The first `SHARED_VALUES`
// distinct objects are kept to share: values that seldom repeat (amounts of money) are not worth it.
const SHARED_VALUES = 4096;
function values(): <T extends object>(o: T) => T {
  const seen = new Map<string, object>();
  return <T extends object>(o: T): T => {
    let key = "";
    for (const k in o) {
      const v: unknown = o[k];
      if (typeof v !== "number" || Object.is(v, -0)) return o;
      key += `${k}:${v},`;
    }
    const found = seen.get(key);
    if (found !== undefined) return found as T;
    if (seen.size < SHARED_VALUES) seen.set(key, o);
    return o;
  };
}

// One list of names shared by all records that hold an equal one. Records come task by task, so the
// last list is looked at first: comparing it costs less than the text that keys the others.
function lists(): (xs: string[]) => string[] {
  const seen = new Map<string, string[]>();
  let last: string[] = [];
  const same = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);
  return (xs) => {
    if (same(xs, last)) return last;
    const key = JSON.stringify(xs);
    last = seen.get(key) ?? (seen.set(key, xs), xs);
    return last;
  };
}

/**
 * `splitDuplicates()` (eval/records.ts) for a million records: the same split, the first record of
 * each cell kept, in order, and the rest dropped, without holding every record's cell key. It keeps
 * a 30-bit hash of each key with the first record that had it and builds a key again only where two
 * hashes meet; a key whose hash another key holds is kept whole. About 30 MB for a million records,
 * where a set of their keys takes 150 MB.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { splitDuplicateRecords } from "./records_read.ts";
 * const r = (run: number, success: boolean) => ({ agent: "a", task: "t/0", run, condition: "nominal" as const, success });
 * const { kept, dropped } = splitDuplicateRecords([r(0, true), r(1, true), r(0, false)]);
 * assertEquals([kept.length, dropped], [2, [r(0, false)]]);
 * ```
 */
export function splitDuplicateRecords<R extends LooseCellKey>(
  records: readonly R[],
  options: { hash?: (key: string) => number } = {},
): { kept: R[]; dropped: R[] } {
  const hash = options.hash ?? fnv1a;
  const first = new Map<number, R>(), others = new Set<string>(), kept: R[] = [], dropped: R[] = [];
  for (const r of records) {
    // cellKey() reads an absent variant as none, as `null`.
    const key = cellKey(r as CellKey);
    const h = hash(key);
    const holder = first.get(h);
    if (holder === undefined) first.set(h, r);
    else if (cellKey(holder as CellKey) === key || others.has(key)) {
      dropped.push(r);
      continue;
    } else others.add(key);
    kept.push(r);
  }
  return { kept, dropped };
}

// FNV-1a over UTF-16 code units, cut to 30 bits (a small integer: no number boxed per key).
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h & 0x3fffffff;
}
