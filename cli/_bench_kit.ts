// The code a bench figure is measured with, for `deno task bench --baseline DIR`: this checkout's
// modules or another ark checkout's (an older commit's work tree), loaded by dynamic import from the
// folder's root, so that the same measuring code runs on both. A module or export the folder lacks is
// a `Missing` error naming it, which the figure reports in one line instead of its value. Private to cli/.
import { pathToFileURL } from "node:url";
import type { Measured } from "./_bench_figures.ts";

/** The modules of one ark checkout. */
export interface Kit {
  /** `"new"` (this checkout) or `"before"` (the `--baseline` folder). */
  name: "new" | "before";
  /** The checkout's root, as a directory URL (ending in `/`). */
  root: URL;
  /** The folder as given, for messages. */
  dir: string;
}

/** What a figure needs and the checkout does not have, said in one line. */
export class Missing extends Error {
  override name = "Missing";
}

/** This checkout's modules. */
export function currentKit(): Kit {
  const root = new URL("../", import.meta.url);
  return { name: "new", root, dir: "this checkout" };
}

/**
 * The `--baseline` folder's modules; throws a `TypeError` (its message one line) when the folder does
 * not exist or is not a folder. Whether it is an ark checkout is found figure by figure.
 */
export function baselineKit(dir: string): Kit {
  let real: string;
  try {
    real = Deno.realPathSync(dir);
  } catch (err) {
    const why = err instanceof Deno.errors.NotFound ? "it does not exist" : (err as Error).message;
    throw new TypeError(`Cannot use baseline "${dir}": ${why}`);
  }
  if (!Deno.statSync(real).isDirectory) throw new TypeError(`Cannot use baseline "${dir}": it is not a folder`);
  return { name: "before", root: pathToFileURL(`${real}/`), dir };
}

const loaded = new Map<string, Promise<Record<string, unknown>>>();

/** The module at `path` (relative to the checkout's root), imported once. */
export function kitModule(kit: Kit, path: string): Promise<Record<string, unknown>> {
  const url = new URL(path, kit.root);
  let module = loaded.get(url.href);
  if (module === undefined) {
    module = importOrMissing(kit, path, url);
    loaded.set(url.href, module);
  }
  return module;
}

async function importOrMissing(kit: Kit, path: string, url: URL): Promise<Record<string, unknown>> {
  try {
    Deno.statSync(url);
  } catch {
    throw new Missing(`${kit.dir} has no ${path}`);
  }
  try {
    return await import(url.href);
  } catch (err) {
    const why = (err instanceof Error ? err.message : String(err)).split("\n")[0];
    throw new Missing(`${kit.dir}'s ${path} does not load: ${why}`);
  }
}

/**
 * An export of a module of the checkout, typed as this checkout's; throws `Missing` when the module
 * or the export is not there.
 */
export async function member<T>(kit: Kit, path: string, name: string): Promise<T> {
  const module = await kitModule(kit, path);
  if (!(name in module) || module[name] === undefined) throw new Missing(`${kit.dir} has no ${path} ${name}`);
  return module[name] as T;
}

/** What a measurement gave: its result, or why there is none (see `Measured`). */
export type Outcome<T> = { ok: T } | { reason: string; failed: true };

/** Runs `fn` and gives its result, or why there is none: the `Missing` message, or the error's first line. */
export async function outcome<T>(fn: () => Promise<T> | T): Promise<Outcome<T>> {
  try {
    return { ok: await fn() };
  } catch (err) {
    if (err instanceof Missing) return { reason: err.message, failed: true };
    const message = err instanceof Error ? err.message : String(err);
    return { reason: `failed: ${message.split("\n")[0]}`, failed: true };
  }
}

/** `outcome()` of a number, as a `Measured`. */
export async function attempt(fn: () => Promise<number> | number): Promise<Measured> {
  const got = await outcome(fn);
  return "ok" in got ? { value: got.ok } : got;
}
