/**
 * The report of an experiment; the code lives in `eval/report/` and this file
 * re-exports it so existing imports keep working: `writeReports()` (report.json,
 * report.html and the terminal text) and the one-table summary (`summarize()`,
 * `formatReport()`, `passHatK()`).
 *
 * @example
 * ```ts
 * import { passHatK } from "./report.ts";
 * passHatK([{ task: "a/0", success: true }, { task: "a/0", success: false }], 1); // 0.5
 * ```
 *
 * @module
 */
export * from "./report/mod.ts";
