/**
 * Task ids, built and read in this one place: `<domain>/<index>` for a task a domain generated
 * (`airline/7`), and `<source>:<domain>/<index>` for a task of another benchmark on that domain
 * (`tau-bench:airline/3`, τ-bench's test task 3 on τ-bench's data). Scoring reads the domain of a
 * record's task id with its own `taskDomain()` (scoring imports nothing outside its folder); a test
 * checks that the two readings agree.
 *
 * @module
 */

/** A task id's parts. */
export interface TaskId {
  /** The domain's name, e.g. `"airline"`. */
  domain: string;
  /** The task's index among its domain's (or its source's) tasks. */
  index: number;
  /** The benchmark the task comes from, e.g. `"tau-bench"`; absent for a task the domain generated. */
  source?: string;
}

/** Options of `taskId()`. */
export interface TaskIdOptions {
  /**
   * The benchmark the task comes from, e.g. `"tau-bench"` (lower-case letters, digits, "-" and "_").
   * @default {undefined: a task the domain generated}
   */
  source?: string;
}

const DOMAIN = /^[a-z][a-z0-9_]*$/;
const SOURCE = /^[a-z][a-z0-9_-]*$/;
const ID = /^(?:([a-z][a-z0-9_-]*):)?([a-z][a-z0-9_]*)\/(\d+)$/;

/**
 * The id of a domain's task `index`, or of another benchmark's task on the domain.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { taskId } from "./task_id.ts";
 * assertEquals(taskId("airline", 7), "airline/7");
 * assertEquals(taskId("airline", 3, { source: "tau-bench" }), "tau-bench:airline/3");
 * ```
 */
export function taskId(domain: string, index: number, options: TaskIdOptions = {}): string {
  if (!DOMAIN.test(domain)) {
    throw new TypeError(
      `Invalid domain ${JSON.stringify(domain)} of a task id: expected lower-case letters, digits, "_"`,
    );
  }
  if (!Number.isSafeInteger(index) || index < 0) {
    throw new RangeError(`Invalid index ${index} of a task id: expected a whole number of at least 0`);
  }
  const { source } = options;
  if (source !== undefined && !SOURCE.test(source)) {
    throw new TypeError(
      `Invalid source ${JSON.stringify(source)} of a task id: expected lower-case letters, digits, "-", "_"`,
    );
  }
  return source === undefined ? `${domain}/${index}` : `${source}:${domain}/${index}`;
}

/**
 * The parts of a task id, or `null` when it is not one (`taskId()` gives it back).
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { parseTaskId } from "./task_id.ts";
 * assertEquals(parseTaskId("airline/7"), { domain: "airline", index: 7 });
 * assertEquals(parseTaskId("tau-bench:airline/3"), { domain: "airline", index: 3, source: "tau-bench" });
 * assertEquals(parseTaskId("airline"), null);
 * ```
 */
export function parseTaskId(id: string): TaskId | null {
  const m = ID.exec(id);
  if (m === null) return null;
  const index = Number(m[3]);
  if (!Number.isSafeInteger(index)) return null;
  return m[1] === undefined ? { domain: m[2], index } : { domain: m[2], index, source: m[1] };
}

/**
 * The suite a task belongs to: its domain, after its source for another benchmark's task
 * (`tau-bench:airline`). Tasks of one suite come from one world, so runs and reports keep suites
 * apart: τ-bench's airline tasks are not the generated airline world's.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { parseTaskId, taskSuite } from "./task_id.ts";
 * assertEquals(taskSuite(parseTaskId("tau-bench:airline/3")!), "tau-bench:airline");
 * assertEquals(taskSuite({ domain: "airline", index: 7 }), "airline");
 * ```
 */
export function taskSuite(id: TaskId): string {
  return id.source === undefined ? id.domain : `${id.source}:${id.domain}`;
}
