/**
 * A cell of an experiment's plan: what identifies its episode (`CellKey`), its child seed, and
 * the order cells and records are kept in. Everything that handles cells (the plan, the
 * conditions, the store, the records) reads them from here.
 *
 * @module
 */
import { deriveSeed, parseTaskId, taskSuite } from "../envs/mod.ts";
import { textModeOf } from "../agents/mod.ts";
import type { Condition } from "./config.ts";

/** What identifies a cell's episode in a results store. */
export interface CellKey {
  /** The agent's spec, as the config names it (e.g. `"oracle"`, `"noisy@2x"`, `"openai:gpt-4o-mini"`). */
  agent: string;
  /** The task id, `<domain>/<index>`. */
  task: string;
  /** The run index, 0 to K − 1. */
  run: number;
  /** The condition the episode runs under. */
  condition: Condition;
  /** Paraphrase, fault schedule or perturbation preset; `null` for none. */
  variant: string | null;
}

/** One episode to run. */
export interface Cell extends CellKey {
  /** Child seed: `cellSeed(seed, cell)`. */
  seed: string;
}

/** A string key of a cell, unique per (agent, task, run, condition, variant). */
export function cellKey(cell: CellKey): string {
  return [cell.agent, cell.task, cell.run, cell.condition, cell.variant ?? ""].join("\u001f");
}

/**
 * A cell's child seed: `deriveSeed(seed, agent, task, run, condition)`, plus the variant when
 * there is one (so nominal cells keep the seeds they had before conditions existed). An agent in
 * text mode (`AGENT@text`) draws as `AGENT` does: speaking in words is the only difference, so the
 * two can be compared cell by cell.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { cellSeed } from "./cell.ts";
 * assertEquals(cellSeed("0", { agent: "oracle", task: "airline/0", run: 0, condition: "nominal", variant: null }).length, 16);
 * ```
 */
export function cellSeed(seed: string, cell: CellKey): string {
  const { task, run, condition, variant } = cell;
  const agent = textModeOf(cell.agent) ?? cell.agent;
  return variant === null
    ? deriveSeed(seed, agent, task, run, condition)
    : deriveSeed(seed, agent, task, run, condition, variant);
}

/**
 * The index of a task id (`parseTaskId()`), or `NaN` when it is not a task id.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { taskIndex } from "./cell.ts";
 * assertEquals([taskIndex("airline/7"), taskIndex("tau-bench:airline/3"), taskIndex("plain")], [7, 3, NaN]);
 * ```
 */
export function taskIndex(task: string): number {
  return parseTaskId(task)?.index ?? NaN;
}

const cmp = (x: string, y: string) => x < y ? -1 : x > y ? 1 : 0;

// By suite (the domain, after its source), then index; ids that are not task ids as text.
function compareTasks(a: string, b: string): number {
  const ia = parseTaskId(a), ib = parseTaskId(b);
  if (ia === null || ib === null) return cmp(a, b);
  return cmp(taskSuite(ia), taskSuite(ib)) || ia.index - ib.index;
}

/** A cell key whose variant may be left out (a record of another harness): none, like `null`. */
export type LooseCellKey = Omit<CellKey, "variant"> & { variant?: string | null };

/** Compares cell keys by agent, task (domain, then index numerically), run, condition and variant (none first). */
export function compareCells(a: LooseCellKey, b: LooseCellKey): number {
  return cmp(a.agent, b.agent) || compareTasks(a.task, b.task) || a.run - b.run ||
    cmp(a.condition, b.condition) || cmp(a.variant ?? "", b.variant ?? "");
}
