/**
 * Why a file or folder cannot be used, in a few words, for the one-line errors of every command:
 * never Deno's own advice to run again with `--allow-all`.
 *
 * @module
 */

/**
 * The reason of a file-system error in a few words, or `null` when `err` is not one.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { fsReason } from "./fs_errors.ts";
 * assertEquals(fsReason(new Deno.errors.NotFound("open '/x'")), "no such file or folder");
 * assertEquals(fsReason(new TypeError("not a file-system error")), null);
 * ```
 */
export function fsReason(err: unknown): string | null {
  if (err instanceof Deno.errors.NotFound) return "no such file or folder";
  if (err instanceof Deno.errors.PermissionDenied) return "permission denied";
  // Deno refuses system paths (/proc, /sys, /dev) to a program without --allow-all.
  if (err instanceof Deno.errors.NotCapable) return "a system path ark may not use";
  if (err instanceof Deno.errors.IsADirectory) return "it is a folder";
  if (err instanceof Deno.errors.NotADirectory) return "a part of the path is a file, not a folder";
  if (err instanceof Deno.errors.AlreadyExists) return "a file is in the way";
  if (err instanceof Deno.errors.FilesystemLoop) return "the path loops through its own links";
  if (err instanceof Error && /read-only file system|no space left/i.test(err.message)) {
    return /no space/i.test(err.message) ? "no space left on the device" : "a read-only file system";
  }
  return null;
}

/**
 * `fsReason(err)`, or the first line of any other error's message.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { errorReason } from "./fs_errors.ts";
 * assertEquals(errorReason(new Error("bad\nmore")), "bad");
 * ```
 */
export function errorReason(err: unknown): string {
  return fsReason(err) ?? (err instanceof Error ? err.message : String(err)).split("\n")[0];
}

/**
 * Creates an output folder (and its parents): `null` when it is there, else the one-line message
 * saying why it cannot be (`flag` names the argument to change). Other errors are thrown.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { createOutputFolder } from "./fs_errors.ts";
 * assertEquals(
 *   await createOutputFolder("/proc/x", "--out"),
 *   'Cannot create output folder "/proc/x": a system path ark may not use; choose another --out',
 * );
 * ```
 */
export async function createOutputFolder(path: string, flag: string): Promise<string | null> {
  try {
    await Deno.mkdir(path, { recursive: true });
    return null;
  } catch (err) {
    const why = fsReason(err);
    if (why === null) throw err;
    return `Cannot create output folder "${path}": ${why}; choose another ${flag}`;
  }
}

/** The most bytes a config or price file may hold: far more than any real one, little enough to read at once. */
export const MAX_CONFIG_BYTES = 64 * 1024 * 1024;

/** The most bytes a records file (JSON Lines) may hold: a million records are about 1 GB. */
export const MAX_RECORDS_BYTES = 4 * 1024 * 1024 * 1024;

/** The most bytes a file read whole (one to import) may hold: a string holds at most about 512 MB. */
export const MAX_WHOLE_BYTES = 512 * 1024 * 1024;

/** The most characters one line of a records file may hold: a record of a long task is some 100 KB. */
export const MAX_RECORD_LINE = 1024 * 1024;

/** An input file that cannot be read; `code` says why. */
export class InputFileError extends Error {
  /**
   * Why: `"unreadable"`, missing or not allowed; `"not_regular"`, a folder, device, pipe or socket;
   * `"too_big"`, more bytes than the limit for its kind.
   */
  readonly code: "unreadable" | "not_regular" | "too_big";
  /** Why, in a few words, without the file's name (`"it is a folder"`), for a message of the caller's own. */
  readonly reason: string;

  /** Makes an error with a code, a one-line message (`${what} "${path}": ${reason}`) and its reason. */
  constructor(code: InputFileError["code"], message: string, reason: string) {
    super(message);
    this.name = "InputFileError";
    this.code = code;
    this.reason = reason;
  }
}

function refused(code: InputFileError["code"], path: string, options: { what: string }, reason: string) {
  return new InputFileError(code, `Cannot read ${options.what} "${path}": ${reason}`, reason);
}

const megabytes = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

function checkedInfo(info: Deno.FileInfo, path: string, options: { what: string; limit: number }): void {
  if (info.isDirectory) throw refused("not_regular", path, options, "it is a folder");
  if (!info.isFile) {
    throw refused("not_regular", path, options, "it is not a regular file (a device, pipe or socket)");
  }
  if (info.size > options.limit) {
    const why = `it holds ${megabytes(info.size)}, more than the ${megabytes(options.limit)} a ${options.what} may`;
    throw refused("too_big", path, options, why);
  }
}

/**
 * Opens an input file to read, once it is known to be a regular file of at most `options.limit`
 * bytes: a device (`/dev/zero`), pipe or folder is refused before it is opened, so nothing waits
 * on it. Throws an `InputFileError` whose one-line message names the file and `options.what`.
 *
 * @example
 * ```ts
 * import { assertRejects } from "@std/assert";
 * import { InputFileError, openInputFile } from "./fs_errors.ts";
 * await assertRejects(() => openInputFile("/dev/null", { what: "config file", limit: 100 }), InputFileError, "not a regular file");
 * ```
 */
export async function openInputFile(path: string, options: { what: string; limit: number }): Promise<Deno.FsFile> {
  let file: Deno.FsFile | undefined;
  try {
    checkedInfo(await Deno.stat(path), path, options);
    file = await Deno.open(path, { read: true });
    // The file may have been swapped for another since the stat: what is read is what counts.
    checkedInfo(await file.stat(), path, options);
    return file;
  } catch (err) {
    file?.close();
    if (err instanceof InputFileError) throw err;
    const why = fsReason(err);
    if (why === null) throw err;
    throw refused("unreadable", path, options, why);
  }
}

/**
 * The bytes of an input file (`openInputFile()`), read up to `options.limit`: one that grows past
 * the limit while it is read is refused too.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { readInputBytes } from "./fs_errors.ts";
 * const path = await Deno.makeTempFile();
 * await Deno.writeTextFile(path, "ab");
 * assertEquals(await readInputBytes(path, { what: "transcript file", limit: 100 }), new Uint8Array([97, 98]));
 * ```
 */
export async function readInputBytes(path: string, options: { what: string; limit: number }): Promise<Uint8Array> {
  using file = await openInputFile(path, options);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of file.readable) {
    size += chunk.length;
    if (size > options.limit) {
      throw refused(
        "too_big",
        path,
        options,
        `it holds more than the ${megabytes(options.limit)} a ${options.what} may`,
      );
    }
    chunks.push(chunk);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) bytes.set(chunk, (at += chunk.length) - chunk.length);
  return bytes;
}

/**
 * The text of an input file (`readInputBytes()`).
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { readInputText } from "./fs_errors.ts";
 * const path = await Deno.makeTempFile();
 * await Deno.writeTextFile(path, "{}");
 * assertEquals(await readInputText(path, { what: "config file", limit: 100 }), "{}");
 * ```
 */
export async function readInputText(path: string, options: { what: string; limit: number }): Promise<string> {
  return new TextDecoder().decode(await readInputBytes(path, options));
}

/**
 * Where a `JSON.parse()` error says the text went wrong, as ` at line L, column C` or ` at the
 * end`, or `""` when it does not say: never the text itself, which V8's messages quote (a file
 * that is not JSON may be anything, e.g. a password file).
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { jsonErrorWhere } from "./fs_errors.ts";
 * const where = (text: string) => {
 *   try {
 *     JSON.parse(text);
 *     return null;
 *   } catch (err) {
 *     return jsonErrorWhere(err as SyntaxError);
 *   }
 * };
 * assertEquals([where('{"a": 1,}'), where('{"a": '), where("root:x:0:0")], [" at line 1, column 9", " at the end", ""]);
 * ```
 */
export function jsonErrorWhere(err: SyntaxError): string {
  const line = /\(line (\d+) column (\d+)\)/.exec(err.message);
  if (line !== null) return ` at line ${line[1]}, column ${line[2]}`;
  const position = /at position (\d+)/.exec(err.message);
  if (position !== null) return ` at character ${Number(position[1]) + 1}`;
  return /end of JSON input/.test(err.message) ? " at the end" : "";
}
