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
 * import { fsReason } from "./fs_errors.ts";
 * fsReason(new Deno.errors.NotFound("open '/x'")); // "no such file or folder"
 * fsReason(new TypeError("not a file-system error")); // null
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
 * import { errorReason } from "./fs_errors.ts";
 * errorReason(new Error("bad\nmore")); // "bad"
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
 * import { createOutputFolder } from "./fs_errors.ts";
 * await createOutputFolder("/proc/x", "--out");
 * // 'Cannot create output folder "/proc/x": a system path ark may not use; choose another --out'
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
