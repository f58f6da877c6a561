/**
 * `deno task export DIR --format csv|otlp [--out FILE]`: an experiment's records as CSV for
 * spreadsheets and pandas (`interop/export/csv.ts`), or its trajectories as OpenTelemetry traces in
 * OTLP/JSON following the GenAI semantic conventions (`interop/export/otlp.ts`), to FILE or stdout.
 * Records come from the results store `DIR/results.sqlite`, or from `DIR/records.jsonl` when there is
 * no store (CSV only: the trajectories are in the store alone).
 *
 * Exit codes: 0 written, 1 DIR cannot be read or FILE cannot be written, 2 bad arguments.
 *
 * @module
 */
import { parsedOr, readDirArgs } from "./_flags.ts";
import type { EpisodeEvent } from "../envs/mod.ts";
import { ResultsStore, ResultsStoreError } from "../eval/store.ts";
import { type AnyRecord, recordsCsv } from "../interop/export/csv.ts";
import { otlpLines } from "../interop/export/otlp.ts";
import { sortRecords } from "../eval/records.ts";
import { errorReason, MAX_WHOLE_BYTES } from "../eval/fs_errors.ts";

/** Usage text of `deno task export`. */
export const USAGE = `Usage: deno task export DIR --format csv|otlp [--out FILE]

Writes the experiment in DIR (its results store DIR/results.sqlite, or DIR/records.jsonl
when there is no store) to FILE, or to stdout:
  csv    one row per record, a header row, RFC 4180 quoting (for spreadsheets and pandas)
  otlp   one OpenTelemetry trace per episode in OTLP/JSON, one ExportTraceServiceRequest
         per line, spans named as the GenAI semantic conventions say (needs the store)

Flags:
  --format csv|otlp   what to write (required)
  --out FILE          where to write it (default: stdout)
  --help              show this help
`;

/** The formats `deno task export` writes. */
export const EXPORT_FORMATS: readonly ("csv" | "otlp")[] = ["csv", "otlp"];

/** The resolved arguments of `deno task export`. */
export interface ExportArgs {
  /** The results folder. */
  dir: string;
  /** What to write. */
  format: "csv" | "otlp";
  /** Where to write it; `null` for stdout. */
  out: string | null;
}

/**
 * Parses the arguments of `deno task export` (or returns `"help"`); bad ones throw a `TypeError`
 * or `RangeError` saying what is accepted.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { parseExportArgs } from "./export.ts";
 * assertEquals(parseExportArgs(["results/x", "--format", "csv"]), { dir: "results/x", format: "csv", out: null });
 * ```
 */
export function parseExportArgs(args: readonly string[]): ExportArgs | "help" {
  const read = readDirArgs(args, ["--format", "--out", "--help"]);
  if (read === "help") return "help";
  let format: ExportArgs["format"] | null = null, out: string | null = null;
  for (const [flag, value] of read.flags) {
    if (flag === "--out") out = value;
    else if ((EXPORT_FORMATS as readonly string[]).includes(value)) format = value as ExportArgs["format"];
    else throw new RangeError(`Unknown format "${value}": expected one of ${EXPORT_FORMATS.join(", ")}`);
  }
  if (format === null) throw new TypeError(`Missing --format: expected one of ${EXPORT_FORMATS.join(", ")}`);
  return { dir: read.dir, format, out };
}

class ExportError extends Error {}

// Text written in chunks of about a megabyte, to a file or to stdout.
class Output {
  #file: Deno.FsFile | typeof Deno.stdout;
  #name: string;
  #chunks: string[] = [];
  #size = 0;
  #encoder = new TextEncoder();

  constructor(file: Deno.FsFile | typeof Deno.stdout, name: string) {
    this.#file = file;
    this.#name = name;
  }

  write(text: string): void {
    this.#chunks.push(text);
    this.#size += text.length;
    if (this.#size >= 1 << 20) this.flush();
  }

  flush(): void {
    let bytes = this.#encoder.encode(this.#chunks.join(""));
    this.#chunks = [];
    this.#size = 0;
    try {
      while (bytes.length > 0) bytes = bytes.subarray(this.#file.writeSync(bytes));
    } catch (err) {
      throw new ExportError(`Cannot write ${this.#name}: ${errorReason(err)}`);
    }
  }
}

// The records of records.jsonl, for a folder without a store.
function readJsonl(path: string): AnyRecord[] {
  let text: string;
  try {
    // Read whole: a device would be read for ever, a file past a string's size not at all.
    const info = Deno.statSync(path);
    if (!info.isFile) throw new ExportError(`Cannot read "${path}": it is not a regular file`);
    if (info.size > MAX_WHOLE_BYTES) {
      throw new ExportError(`Cannot read "${path}": it holds more than the 512 MB export reads at once`);
    }
    text = Deno.readTextFileSync(path);
  } catch (err) {
    if (err instanceof ExportError) throw err;
    throw new ExportError(`Cannot read "${path}": ${errorReason(err)}`);
  }
  return text.split("\n").flatMap((line, i) => {
    if (line.trim() === "") return [];
    try {
      return [JSON.parse(line) as AnyRecord];
    } catch {
      throw new ExportError(`Cannot read "${path}": line ${i + 1} is not JSON`);
    }
  });
}

/** Writes what `args` asks for to the output `open()` gives; returns how many records (csv) or traces (otlp) it wrote. */
function exportTo(args: ExportArgs, store: ResultsStore | null, open: () => Output): number {
  if (store === null) {
    if (args.format === "otlp") {
      throw new ExportError(
        `Cannot export traces from "${args.dir}": it has no results store results.sqlite (records.jsonl holds no trajectories)`,
      );
    }
    const records = readJsonl(`${args.dir}/records.jsonl`);
    const output = open();
    output.write(recordsCsv(records));
    output.flush();
    return records.length;
  }
  const { name, seed } = store.experiment();
  // recordsCsv() sorts what it writes; the traces follow the same order.
  const records = args.format === "csv" ? store.records() : sortRecords(store.records());
  const output = open();
  if (args.format === "csv") output.write(recordsCsv(records));
  else {
    const episodes = function* (): Generator<{ record: AnyRecord; events: EpisodeEvent[] }> {
      for (const record of records) {
        yield { record, events: store.events({ ...record, variant: record.variant ?? null }) };
      }
    };
    const resource = { "ark.experiment": name, "ark.seed": seed };
    for (const line of otlpLines(episodes(), { resource })) output.write(line);
  }
  output.flush();
  return records.length;
}

/** Runs the CLI and returns its exit code (see the module doc). */
export function main(args: readonly string[]): number {
  const parsed = parsedOr(() => parseExportArgs(args), USAGE);
  if (typeof parsed === "number") return parsed;
  let file: Deno.FsFile | null = null;
  let store: ResultsStore | null = null;
  try {
    try {
      if (!Deno.statSync(parsed.dir).isDirectory) throw new Deno.errors.NotADirectory("not a folder");
    } catch (err) {
      const why = err instanceof Deno.errors.NotADirectory ? "it is not a folder" : errorReason(err);
      throw new ExportError(`Cannot read "${parsed.dir}": ${why}`);
    }
    const storePath = `${parsed.dir}/results.sqlite`;
    let hasStore = false;
    try {
      hasStore = Deno.statSync(storePath).isFile;
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound)) {
        throw new ExportError(`Cannot read "${storePath}": ${errorReason(err)}`);
      }
    }
    if (hasStore) store = ResultsStore.read(storePath);
    const open = () => {
      if (parsed.out === null) return new Output(Deno.stdout, "to stdout");
      try {
        file = Deno.openSync(parsed.out, { write: true, create: true, truncate: true });
      } catch (err) {
        throw new ExportError(`Cannot write "${parsed.out}": ${errorReason(err)}`);
      }
      return new Output(file, `"${parsed.out}"`);
    };
    const n = exportTo(parsed, store, open);
    if (parsed.out !== null) {
      console.log(`Wrote ${parsed.out} (${n} ${parsed.format === "csv" ? "records" : "traces"})`);
    }
    return 0;
  } catch (err) {
    if (!(err instanceof ExportError || err instanceof ResultsStoreError)) throw err;
    console.error(err.message);
    return 1;
  } finally {
    (file as Deno.FsFile | null)?.close();
    store?.close();
  }
}

if (import.meta.main) Deno.exit(main(Deno.args));
