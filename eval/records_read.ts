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
  const keep = sharing(), parse = repeatedLists();
  let number = 0;
  const take = (line: string) => {
    number++;
    const record = lineRecord(line, parse);
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
function lineRecord(line: string, parse: (line: string) => unknown): EpisodeRecord | string | null {
  if (line.trim() === "") return null;
  if (line.length > MAX_RECORD_LINE) return `longer than ${MAX_RECORD_LINE} characters`;
  let value: unknown;
  try {
    value = parse(line);
  } catch (err) {
    if (!(err instanceof SyntaxError)) throw err;
    return `not JSON${jsonErrorWhere(err)}`;
  }
  const parsed = parseEpisodeRecord(value);
  if (parsed.success) return parsed.data;
  const { path, message } = parsed.issue;
  return `${path.length === 0 ? "the record" : `"${path.join(".")}"`}: ${message}`;
}

// The record fields whose lists lines repeat whole, line after line (a task's milestones): most of a
// records file's text. (Actions repeat too, but their short lists cost less to parse than to look for.)
const LISTS = ["milestone_labels", "milestone_tools"] as const;

/**
 * `JSON.parse()` of lines that repeat lists: where a line holds, under a field of `LISTS`, the very
 * text of that field's list on the last line that had one (as `JSON.stringify()` writes it), that
 * text is cut out of the line before parsing (a 0 in its place, so the keys keep their order) and
 * the list parsed then is put back. A JSON value is read to its end and no further, so the text
 * parses to an equal list; a field whose key the line holds twice, or that is not the parsed
 * object's own key (one nested deeper), is not cut, and a line that does not parse once cut is parsed
 * whole, for its own error. The same values as `JSON.parse()`, with lists shared between records.
 */
export function repeatedLists(): (line: string) => unknown {
  const keys = LISTS.map((f) => `"${f}":`);
  const texts: (string | null)[] = LISTS.map(() => null), lists: unknown[] = LISTS.map(() => null);
  const remember = (value: unknown, cut: number) => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return;
    const record = value as Record<string, unknown>;
    for (let f = 0; f < LISTS.length; f++) {
      const list = record[LISTS[f]];
      if ((cut & (1 << f)) === 0 && Array.isArray(list)) texts[f] = JSON.stringify(list), lists[f] = list;
    }
  };
  const cuts: number[] = [];
  return (line) => {
    let cut = 0;
    cuts.length = 0;
    for (let f = 0; f < LISTS.length; f++) {
      const known = texts[f];
      if (known === null) continue;
      const at = line.indexOf(keys[f]);
      if (at < 0) continue;
      const from = at + keys[f].length, to = from + known.length;
      // (A slice compares as fast as memory does; startsWith() goes character by character.)
      if (line.slice(from, to) !== known || line.indexOf(keys[f], to) >= 0) continue;
      cuts.push(from, to);
      cut |= 1 << f;
    }
    if (cut !== 0) {
      // The line without the lists' texts, a 0 in the place of each: built once.
      const order = Array.from({ length: cuts.length / 2 }, (_, i) => i).sort((a, b) => cuts[2 * a] - cuts[2 * b]);
      let text: string | null = "", last = 0;
      for (const i of order) {
        // A key inside another list's text (a list of objects) is no list of the record's own: no cut.
        if (cuts[2 * i] < last) text = null;
        if (text === null) break;
        text += line.slice(last, cuts[2 * i]) + "0";
        last = cuts[2 * i + 1];
      }
      let value: unknown;
      try {
        value = text === null ? undefined : JSON.parse(text + line.slice(last));
      } catch {
        value = undefined;
      }
      if (typeof value === "object" && value !== null && !Array.isArray(value)) {
        const record = value as Record<string, unknown>;
        let all = true;
        for (let f = 0; f < LISTS.length; f++) if ((cut & (1 << f)) !== 0 && record[LISTS[f]] !== 0) all = false;
        if (all) {
          for (let f = 0; f < LISTS.length; f++) if ((cut & (1 << f)) !== 0) record[LISTS[f]] = lists[f];
          remember(record, cut);
          return record;
        }
      }
    }
    const value = JSON.parse(line);
    remember(value, 0);
    return value;
  };
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
  // A trie of the objects kept: a key's node, then its value's node, key after key, ending in the
  // object (looked up by key and number, with no text made for each object).
  interface Node {
    next: Map<string | number, Node>;
    kept?: object;
  }
  const root: Node = { next: new Map() };
  let size = 0;
  const step = (node: Node, at: string | number): Node => {
    let next = node.next.get(at);
    if (next === undefined) node.next.set(at, next = { next: new Map() });
    return next;
  };
  return <T extends object>(o: T): T => {
    let node: Node | undefined = root;
    for (const k in o) {
      const v: unknown = o[k];
      if (typeof v !== "number" || Object.is(v, -0)) return o;
      // Past the objects kept, only those already in the trie are looked for.
      if (size >= SHARED_VALUES) node = node?.next.get(k)?.next.get(v);
      else node = step(step(node!, k), v);
    }
    if (node === undefined) return o;
    if (node.kept !== undefined) return node.kept as T;
    if (size < SHARED_VALUES) node.kept = o, size++;
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
