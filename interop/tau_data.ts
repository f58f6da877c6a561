// Where the commands find τ-bench's data: `ARK_TAU_BENCH`, else `../shared/tau-bench` beside the
// repository (the files are never copied into it). The tests resolve the same folder in
// tests/fixtures/tau_bench.ts, which takes it from here.
import { fileURLToPath } from "node:url";

const DEFAULT_ROOT = fileURLToPath(new URL("../../shared/tau-bench", import.meta.url));

/**
 * The τ-bench folder: `ARK_TAU_BENCH` when set and the permission to read it is granted, else
 * `../shared/tau-bench` beside the repository.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { fileURLToPath } from "node:url";
 * import { tauBenchRoot } from "./tau_data.ts";
 * const beside = fileURLToPath(new URL("../../shared/tau-bench", import.meta.url));
 * assertEquals(tauBenchRoot(), Deno.env.get("ARK_TAU_BENCH") || beside);
 * ```
 */
export function tauBenchRoot(): string {
  const granted = Deno.permissions.querySync({ name: "env", variable: "ARK_TAU_BENCH" }).state === "granted";
  return (granted ? Deno.env.get("ARK_TAU_BENCH") : undefined) || DEFAULT_ROOT;
}

/**
 * The folder of one domain's τ-bench data, `<root>/<domain>`.
 *
 * @example
 * ```ts
 * import { assert } from "@std/assert";
 * import { tauBenchFolder } from "./tau_data.ts";
 * assert(tauBenchFolder("airline").endsWith("/airline"));
 * ```
 */
export function tauBenchFolder(domain: string): string {
  return `${tauBenchRoot()}/${domain}`;
}

/** Whether τ-bench's data of the domain are there: its folder holds a `db.json`. */
export function hasTauBench(domain: string): boolean {
  try {
    return Deno.statSync(`${tauBenchFolder(domain)}/db.json`).isFile;
  } catch {
    return false;
  }
}

const DEFAULT_TAU2_ROOT = fileURLToPath(new URL("../../shared/tau2-bench", import.meta.url));

/**
 * The τ²-bench folder (its results files, by domain): `ARK_TAU2_BENCH` when set and the permission to
 * read it is granted, else `../shared/tau2-bench` beside the repository. Only the tests and the bench
 * read it; an import names its file.
 *
 * @example
 * ```ts
 * import { assert } from "@std/assert";
 * import { tau2BenchRoot } from "./tau_data.ts";
 * assert(tau2BenchRoot().length > 0);
 * ```
 */
export function tau2BenchRoot(): string {
  const granted = Deno.permissions.querySync({ name: "env", variable: "ARK_TAU2_BENCH" }).state === "granted";
  return (granted ? Deno.env.get("ARK_TAU2_BENCH") : undefined) || DEFAULT_TAU2_ROOT;
}
