// What the CLIs share in reading their input: flags (`--flag value` or `--flag=value`, and `--help`)
// and environment variables.

/** An environment variable's value when reading it is allowed and it is not empty; never prompts. */
export function readEnv(name: string): string | undefined {
  if (Deno.permissions.querySync({ name: "env", variable: name }).state !== "granted") return undefined;
  return Deno.env.get(name) || undefined;
}

/** Options of `readFlags()`. */
export interface ReadFlagsOptions {
  /**
   * Flags that take no value (`--json`): each comes as `[flag, ""]`, and `--json=x` is refused.
   * @default {[]}
   */
  switches?: readonly string[];
  /**
   * Flags that may be given more than once (each time adds a value, e.g. `--pair`); any other
   * flag given twice is refused by name, since only one of its values could be kept.
   * @default {[]}
   */
  repeatable?: readonly string[];
}

/**
 * The flags given, in order, as `[flag, value]` pairs, or `"help"`. Throws a
 * `TypeError` naming the accepted flags when one is unknown, has no value or is
 * not a flag, and naming the flag when one not `repeatable` is given twice.
 *
 * @example
 * ```ts
 * import { assertEquals, assertThrows } from "@std/assert";
 * import { readFlags } from "./_flags.ts";
 * assertEquals(readFlags(["--runs", "2", "--json"], ["--runs", "--json"], { switches: ["--json"] }), [
 *   ["--runs", "2"],
 *   ["--json", ""],
 * ]);
 * assertThrows(() => readFlags(["--runs", "2", "--runs=3"], ["--runs"]), TypeError, "--runs given twice");
 * ```
 */
export function readFlags(
  args: readonly string[],
  accepted: readonly string[],
  options: ReadFlagsOptions = {},
): [string, string][] | "help" {
  const { switches = [], repeatable = [] } = options;
  const out: [string, string][] = [];
  const seen = new Set<string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (!arg.startsWith("--")) {
      throw new TypeError(`Unexpected argument "${arg}": expected flags only, one of ${accepted.join(", ")}`);
    }
    const eq = arg.indexOf("=");
    const flag = eq < 0 ? arg : arg.slice(0, eq);
    if (!accepted.includes(flag)) throw new TypeError(`Unknown flag "${flag}": expected one of ${accepted.join(", ")}`);
    if (flag === "--help") return "help";
    if (seen.has(flag) && !repeatable.includes(flag)) {
      throw new TypeError(`${flag} given twice: give each flag once (see --help)`);
    }
    seen.add(flag);
    let value: string;
    if (switches.includes(flag)) {
      if (eq >= 0) throw new TypeError(`Unexpected value for ${flag}: it takes none`);
      value = "";
    } else {
      if (eq >= 0) value = arg.slice(eq + 1);
      else if (i + 1 < args.length && !args[i + 1].startsWith("--")) value = args[++i];
      else throw new TypeError(`Missing value for ${flag}: see --help`);
      if (value === "") throw new TypeError(`Empty value for ${flag}: see --help`);
    }
    out.push([flag, value]);
  }
  return out;
}

/**
 * The arguments of a command that takes a results folder then flags (`deno task report DIR`,
 * `deno task judge DIR`): the folder (trailing slashes dropped) and the flags, or `"help"`.
 * Throws a `TypeError` when the folder is missing or a flag is wrong.
 */
export function readDirArgs(
  args: readonly string[],
  accepted: readonly string[],
  options: ReadFlagsOptions = {},
): { dir: string; flags: [string, string][] } | "help" {
  const [first, ...rest] = args;
  if (first === undefined) {
    throw new TypeError("Missing DIR: the results folder of an experiment, e.g. results/my-experiment");
  }
  if (first === "--help") return "help";
  if (first.startsWith("--")) throw new TypeError(`Missing DIR before "${first}": see --help`);
  const flags = readFlags(rest, accepted, options);
  return flags === "help" ? "help" : { dir: first.replace(/\/+$/, "") || "/", flags };
}

/**
 * A flag's value as a whole number of at least `min`, or a `RangeError` saying so.
 *
 * @example
 * ```ts
 * import { assertEquals, assertThrows } from "@std/assert";
 * import { wholeFlag } from "./_flags.ts";
 * assertEquals(wholeFlag("--resamples", "200"), 200);
 * assertThrows(() => wholeFlag("--resamples", "0"), RangeError, "expected a whole number of at least 1");
 * ```
 */
export function wholeFlag(flag: string, value: string, min = 1): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < min || !Number.isSafeInteger(n)) {
    throw new RangeError(`Invalid value "${value}" for ${flag}: expected a whole number of at least ${min}`);
  }
  return n;
}

/**
 * Parses a command's arguments, or says why not: the parsed value; or, for `--help`, the usage printed
 * and exit code 0; or, for a `TypeError` or `RangeError`, its one-line message printed and exit code 2.
 */
export function parsedOr<T>(parse: () => T | "help", usage: string): T | 0 | 2 {
  try {
    const parsed = parse();
    if (parsed !== "help") return parsed;
    console.log(usage);
    return 0;
  } catch (err) {
    if (!(err instanceof TypeError || err instanceof RangeError)) throw err;
    console.error(err.message);
    return 2;
  }
}
