// inspect_ai's log files read as inspect_ai reads them (log/_recorders/eval.py, log/_log.py,
// log/_condense.py): a `.json` log whole, or an `.eval` zip archive (`header.json`, else the
// journal's `_journal/start.json` for a log still running, and `samples/<id>_epoch_<n>.json` or a
// chunked sample's folder), with
// each sample's `attachment://<hash>` strings resolved from its attachments and its model events'
// `input_refs` resolved from the pooled messages (`events_data.messages`, or `message_pool` in
// logs of the versions between). Private to interop/import.
import { z } from "zod";
import { readZip } from "./_zip.ts";

/** A log file that cannot be read as an inspect_ai log; the message is one line. */
export class InspectLogError extends Error {
  /** Makes the error with a one-line message. */
  constructor(message: string) {
    super(message);
    this.name = "InspectLogError";
  }
}

const message = z.looseObject({
  role: z.enum(["system", "user", "assistant", "tool"]),
  content: z.union([z.string(), z.array(z.looseObject({ type: z.string() })), z.null()]).optional(),
  tool_calls: z.array(z.looseObject({
    id: z.string().optional(),
    function: z.string(),
    arguments: z.unknown().optional(),
    parse_error: z.string().nullable().optional(),
  })).nullable().optional(),
  tool_call_id: z.string().nullable().optional(),
  function: z.string().nullable().optional(),
  error: z.looseObject({ type: z.string().optional(), message: z.string().optional() }).nullable().optional(),
});

/** One chat message of an inspect_ai sample (other fields are kept but not read). */
export type InspectMessage = z.infer<typeof message>;

const score = z.looseObject({ value: z.unknown(), metadata: z.record(z.string(), z.unknown()).nullable().optional() });

const sample = z.looseObject({
  id: z.union([z.string(), z.number()]),
  epoch: z.number().int().positive(),
  messages: z.array(message).nullable().optional(),
  scores: z.record(z.string(), score).nullable().optional(),
  events: z.array(z.looseObject({ event: z.string() })).nullable().optional(),
  model_usage: z.record(z.string(), z.looseObject({})).nullable().optional(),
  total_time: z.number().nullable().optional(),
  error: z.looseObject({ message: z.string() }).nullable().optional(),
  attachments: z.record(z.string(), z.string()).nullable().optional(),
});

/** One sample × epoch of a log, its attachments and pooled messages resolved. */
export type InspectSample = z.infer<typeof sample>;

const header = z.looseObject({
  version: z.number().optional(),
  status: z.string().optional(),
  eval: z.looseObject({
    task: z.string(),
    model: z.string(),
    scorers: z.array(z.looseObject({ name: z.string() })).nullable().optional(),
    config: z.looseObject({ epochs: z.number().nullable().optional() }).nullable().optional(),
  }),
  results: z.looseObject({ scores: z.array(z.looseObject({ name: z.string() })).optional() }).nullable().optional(),
});

/** A log's header: its task, model, scorers and status. */
export type InspectHeader = z.infer<typeof header>;

/** A log read: its header and its samples (in file order). */
export interface InspectLog {
  header: InspectHeader;
  samples: InspectSample[];
}

const ZIP_MAGIC = [0x50, 0x4b];

/**
 * Reads a log's bytes (a `.json` log, or an `.eval` zip: told apart by the zip signature, not the
 * name). Throws an `InspectLogError` saying what the file lacks when it is not an inspect_ai log.
 */
export function readInspectBytes(bytes: Uint8Array, file: string): InspectLog {
  const zip = bytes.length >= 2 && bytes[0] === ZIP_MAGIC[0] && bytes[1] === ZIP_MAGIC[1];
  const raw = zip ? readEval(bytes, file) : readJson(bytes, file);
  const parsedHeader = header.safeParse(raw.header);
  if (!parsedHeader.success) {
    throw new InspectLogError(`Cannot import "${file}": ${issue(parsedHeader.error, "the header")}; ${EXPECTED}`);
  }
  // As inspect's populate_scorer_name_for_samples(): the placeholder an older log's single `score`
  // was migrated under takes the name of the log's first scorer.
  const scorerName = parsedHeader.data.results?.scores?.[0]?.name;
  const samples = raw.samples.map((s, i) => {
    const resolved = resolveSample(migrate(s, scorerName));
    const parsed = sample.safeParse(resolved);
    if (!parsed.success) {
      throw new InspectLogError(`Cannot import "${file}": ${issue(parsed.error, `sample ${i + 1}`)}; ${EXPECTED}`);
    }
    return parsed.data;
  });
  return { header: parsedHeader.data, samples };
}

const EXPECTED = "expected an inspect_ai log ({version, status, eval: {task, model, ...}, samples}, as inspect eval " +
  "writes it: a .json log or an .eval archive)";

function issue(error: z.ZodError, what: string): string {
  const first = error.issues[0];
  const path = first.path.length === 0 ? what : `${what}: ${first.path.map(String).join(".")}`;
  return `${path}: ${first.message}`;
}

function readJson(bytes: Uint8Array, file: string): { header: unknown; samples: unknown[] } {
  let data: unknown;
  try {
    data = JSON.parse(new TextDecoder().decode(bytes));
  } catch (err) {
    if (!(err instanceof SyntaxError)) throw err;
    throw new InspectLogError(`Cannot import "${file}": it is neither JSON nor a zip archive; ${EXPECTED}`);
  }
  if (data === null || typeof data !== "object" || Array.isArray(data) || !("eval" in data)) {
    throw new InspectLogError(`Cannot import "${file}": it is JSON without an "eval" header; ${EXPECTED}`);
  }
  const { samples, ...rest } = data as Record<string, unknown>;
  if (samples !== undefined && samples !== null && !Array.isArray(samples)) {
    throw new InspectLogError(`Cannot import "${file}": its "samples" is not an array; ${EXPECTED}`);
  }
  return { header: rest, samples: (samples as unknown[] | null | undefined) ?? [] };
}

function readEval(bytes: Uint8Array, file: string): { header: unknown; samples: unknown[] } {
  let entries: Record<string, Uint8Array>;
  try {
    // The journal's other members repeat what header.json and the samples hold: left packed.
    entries = readZip(bytes, (name) => !name.startsWith("_journal/") || name === "_journal/start.json");
  } catch (err) {
    throw new InspectLogError(`Cannot import "${file}": it is not a readable zip archive (${(err as Error).message})`);
  }
  const member = (name: string): unknown => {
    try {
      return JSON.parse(new TextDecoder().decode(entries[name]));
    } catch (err) {
      if (!(err instanceof SyntaxError)) throw err;
      throw new InspectLogError(`Cannot import "${file}": its "${name}" is not JSON; ${EXPECTED}`);
    }
  };
  // inspect reads header.json, else the journal's start.json of a log still running or crashed.
  const headerName = "header.json" in entries
    ? "header.json"
    : "_journal/start.json" in entries
    ? "_journal/start.json"
    : null;
  if (headerName === null) {
    throw new InspectLogError(
      `Cannot import "${file}": the zip archive has no header.json (nor _journal/start.json); expected an inspect_ai ` +
        `.eval log`,
    );
  }
  const head = member(headerName);
  if (headerName !== "header.json" && head !== null && typeof head === "object") {
    (head as Record<string, unknown>).status ??= "started";
  }
  // inspect names members `samples/{id}_epoch_{n}.json` with the id unescaped (it may hold "/"):
  // every samples/….json is a sample, except what lies in a chunked sample's folder.
  const shells = Object.keys(entries).filter((n) => /^samples\/.+_epoch_\d+\/sample\.json$/.test(n));
  const folders = shells.map((n) => n.slice(0, -"sample.json".length));
  const names = Object.keys(entries).filter((n) =>
    n.startsWith("samples/") && n.endsWith(".json") && !folders.some((f) => n.startsWith(f))
  );
  return {
    header: head,
    samples: [
      ...names.map(member),
      ...shells.map((n) => chunkedSample(n.slice(0, -"/sample.json".length), entries, member)),
    ],
  };
}

// A chunked sample (newer inspect's per-sample shape): a shell `sample.json` and index-addressed
// sequences `messages/`, `events/`, `calls/`, `attachments/<start>.json`; the final conversation is
// `message_refs` ([start, end) ranges) into the messages, which are also the model events' pool, and
// attachments are referenced as `attachment://<index>`.
function chunkedSample(
  prefix: string,
  entries: Record<string, Uint8Array>,
  member: (name: string) => unknown,
): unknown {
  const sequence = (name: string): unknown[] => {
    const at = `${prefix}/${name}/`;
    const starts = Object.keys(entries).filter((n) => n.startsWith(at) && /^\d+\.json$/.test(n.slice(at.length)))
      .map((n) => Number(n.slice(at.length, -5))).sort((a, b) => a - b);
    return starts.flatMap((start) => {
      const chunk = member(`${at}${start}.json`);
      return Array.isArray(chunk) ? chunk : [];
    });
  };
  const shell = member(`${prefix}/sample.json`) as Record<string, unknown>;
  const pool = sequence("messages");
  const refs = Array.isArray(shell?.message_refs) ? shell.message_refs : [];
  const metadata = `${prefix}/metadata.json` in entries ? member(`${prefix}/metadata.json`) : undefined;
  return {
    ...shell,
    ...(metadata !== undefined ? { metadata } : {}),
    messages: refs.flatMap((r) => Array.isArray(r) ? pool.slice(Number(r[0]), Number(r[1])) : []),
    events: sequence("events"),
    events_data: { messages: pool, calls: sequence("calls") },
    attachments: Object.fromEntries(sequence("attachments").map((text, i) => [String(i), text])),
  };
}

// Older logs' `score` (one scorer) and `transcript` ({events, content}) as inspect migrates them.
function migrate(raw: unknown, scorerName: string | undefined): unknown {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) return raw;
  const s = { ...(raw as Record<string, unknown>) };
  if ("score" in s && !("scores" in s)) s.scores = { "88F74D2C": s.score };
  const scores = s.scores as Record<string, unknown> | null | undefined;
  if (scorerName !== undefined && scores !== null && typeof scores === "object" && "88F74D2C" in scores) {
    const { "88F74D2C": placeholder, ...rest } = scores;
    s.scores = { ...rest, [scorerName]: placeholder };
  }
  const transcript = s.transcript as { events?: unknown; content?: unknown } | undefined;
  if (transcript !== null && typeof transcript === "object") {
    s.events ??= transcript.events;
    s.attachments ??= transcript.content;
    delete s.transcript;
  }
  return s;
}

// Every `attachment://<hash>` (or the older `tc://<hash>`) string resolved from the sample's
// attachments (an unknown hash stays as it is, as inspect leaves it); then each model event's
// `input_refs` ([start, end) ranges) expanded from the pooled messages into its `input`.
function resolveSample(raw: unknown): unknown {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) return raw;
  const s = raw as Record<string, unknown>;
  const attachments = (s.attachments ?? {}) as Record<string, unknown>;
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") {
      const ref = v.startsWith("attachment://") ? v.slice(13) : v.startsWith("tc://") ? v.slice(5) : null;
      const found = ref === null ? undefined : attachments[ref];
      return typeof found === "string" ? found : v;
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === "object") {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) out[k] = walk(x);
      return out;
    }
    return v;
  };
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(s)) out[k] = k === "attachments" ? v : walk(v);
  const data = out.events_data as { messages?: unknown } | null | undefined;
  const pool = Array.isArray(data?.messages) ? data.messages : Array.isArray(out.message_pool) ? out.message_pool : [];
  if (Array.isArray(out.events)) {
    out.events = out.events.map((e) => {
      const refs = (e as { input_refs?: unknown })?.input_refs;
      if (!Array.isArray(refs)) return e;
      const input = refs.flatMap((r) => Array.isArray(r) ? pool.slice(Number(r[0]), Number(r[1])) : []);
      return { ...(e as object), input, input_refs: null };
    });
  }
  return out;
}
