/**
 * Grading (docs/metrics.md "Grading"): whether an episode earned its task's expected outcome, checked
 * positively for each kind (`act`, `refuse`, `transfer`, `inform`), which outcome milestones it
 * reached and when, and how far its final state is from the gold at every milestone. Grading reads
 * only the task, the gold replay and the events (tool events carry the rows they changed), so a
 * stored trajectory can be graded again without running the agent.
 *
 * @module
 */
import { jsonEqual } from "./json.ts";
import { compareKeys } from "./changeset.ts";
import { type GoldKeys, OutputsSaid, plain, reachMilestones, rowKey } from "./_grade_reach.ts";
import type { EpisodeEvent } from "./events.ts";
import type { Json } from "./json.ts";
import type { Milestone, Task } from "./task.ts";
import type { RowChange } from "./changeset.ts";
import type { Tool } from "./tool.ts";

/** The gold change of a task: the whole of it, and the rows each gold call changed (in call order). */
export interface GoldReplay {
  /** The net change of all the gold calls. */
  all: RowChange[];
  /** For each gold call in order, the rows it changed (empty for a look-up). */
  calls: RowChange[][];
}

/** What `gradeEpisode()` grades. */
export interface GradeInput {
  /** The task, with its expected outcome, outputs and milestones. */
  task: Task;
  /** The episode's events; tool events carry the rows they changed. */
  events: readonly EpisodeEvent[];
  /** The task's gold change (`World.goldReplay()`). */
  gold: GoldReplay;
  /** The domain's tool of a name (what it declares: writes, hands over). */
  tool(name: string): Tool | undefined;
  /**
   * Whether an agent message that carries no intent refuses the request: a language agent's
   * refusal is decided by the judge's text check. Messages with an intent refuse only by a
   * `refuse` intent.
   * @default {no message without an intent refuses}
   */
  refusal?: (text: string) => boolean;
}

/** An episode's grade. */
export interface Grade {
  /** Success under the task's rule: `earned`, or τ-bench's reward for a `"tau-bench"` task. */
  success: boolean;
  /** The expected outcome was earned (docs/metrics.md "Grading"). */
  earned: boolean;
  /** The world's change equals the gold change (row-level). */
  stateMatch: boolean;
  /** Every required output appears in the agent's messages. */
  outputsFound: boolean;
  /** The episode changed nothing in the world. */
  nothingWritten: boolean;
  /** The agent refused, with the task's outputs said by then. */
  refused: boolean;
  /** A hand-over to a human succeeded with a non-empty summary. */
  handedOver: boolean;
  /** `reached`: achieved before the first one missed; `achieved`: in any order. */
  milestones: { total: number; reached: number; achieved: number };
  /** The step at which each milestone was first reached, `null` when never. */
  milestoneSteps: (number | null)[];
  /**
   * For each milestone t, the share of the gold outcomes up to t (rows the gold calls change, at
   * their final gold values, and the other milestones) the episode does not match (`d_t`).
   */
  divergence: number[];
  /** For each milestone t, how many of the gold outcomes up to t the episode does not match (`m_t`, d_t's numerator). */
  missed: number[];
  /** The episode's net change, from the tool events' changes. */
  changes: RowChange[];
}

/** A changed row's identity: its table and primary key, as one string. */
export function changeKey(change: { table: string; key: readonly Json[] }): string {
  return rowKey(change);
}

/**
 * Whether every row of `changes` is one `reference` changes to the same values (e.g. a call's
 * changes within the gold change).
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { changesWithin } from "./grade.ts";
 * const row = (v: number) => ({ table: "t", key: [1], before: { v: 0 }, after: { v } });
 * assertEquals([changesWithin([row(1)], [row(1)]), changesWithin([row(2)], [row(1)]), changesWithin([], [])], [
 *   true,
 *   false,
 *   true,
 * ]);
 * ```
 */
export function changesWithin(changes: readonly RowChange[], reference: readonly RowChange[]): boolean {
  if (changes.length === 0) return true;
  const there = new Map(reference.map((c) => [rowKey(c), c.after]));
  return changes.every((c) => {
    const k = rowKey(c);
    return there.has(k) && jsonEqual(there.get(k), c.after);
  });
}

/**
 * Sorts row changes by table, then key (the order a changeset decodes in); returns a new array.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { sortChanges } from "./grade.ts";
 * const c = (table: string, id: number) => ({ table, key: [id], before: null, after: { id } });
 * assertEquals(sortChanges([c("b", 1), c("a", 2), c("a", 1)]).map((x) => `${x.table}${x.key[0]}`), ["a1", "a2", "b1"]);
 * ```
 */
export function sortChanges(changes: readonly RowChange[]): RowChange[] {
  return [...changes].sort((a, b) => a.table < b.table ? -1 : a.table > b.table ? 1 : compareKeys(a.key, b.key));
}

/**
 * The rows that changed between two cumulative change lists of one episode (`next` taken later):
 * each with its values before and after that stretch.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { changeDelta } from "./grade.ts";
 * const one = { table: "t", key: [1], before: { v: 0 }, after: { v: 1 } };
 * const two = { table: "t", key: [1], before: { v: 0 }, after: { v: 2 } };
 * assertEquals(changeDelta([one], [two]), [{ table: "t", key: [1], before: { v: 1 }, after: { v: 2 } }]);
 * ```
 */
export function changeDelta(prev: readonly RowChange[], next: readonly RowChange[]): RowChange[] {
  const before = new Map(prev.map((c) => [rowKey(c), c]));
  const out: RowChange[] = [];
  for (const n of next) {
    const p = before.get(rowKey(n));
    before.delete(rowKey(n));
    if (p === undefined) out.push(n);
    else if (!jsonEqual(p.after, n.after)) out.push({ table: n.table, key: n.key, before: p.after, after: n.after });
  }
  // Rows changed before and back to their original values since.
  for (const p of before.values()) out.push({ table: p.table, key: p.key, before: p.after, after: p.before });
  return sortChanges(out);
}

/**
 * The net change of a sequence of changes made one after another: per row, its first value before
 * and its last value after; rows back at their original values are left out.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { composeChanges } from "./grade.ts";
 * const up = { table: "t", key: [1], before: { v: 0 }, after: { v: 1 } };
 * const back = { table: "t", key: [1], before: { v: 1 }, after: { v: 0 } };
 * assertEquals(composeChanges([[up]]), [up]);
 * assertEquals(composeChanges([[up], [back]]), []);
 * ```
 */
export function composeChanges(steps: readonly (readonly RowChange[])[]): RowChange[] {
  const rows = new Map<string, RowChange>();
  for (const step of steps) {
    for (const c of step) {
      const k = rowKey(c), seen = rows.get(k);
      rows.set(k, seen === undefined ? { ...c } : { ...seen, after: c.after });
    }
  }
  return sortChanges([...rows.values()].filter((c) => !jsonEqual(c.before, c.after)));
}

/** Whether two change lists leave the same rows behind (order and `before` ignored). */
export function sameChanges(a: readonly RowChange[], b: readonly RowChange[]): boolean {
  return a.length === b.length && changesWithin(a, b);
}

/** τ-bench's output check: each string appears in some agent message, lower-cased and with commas removed. */
export function outputsSaid(outputs: readonly string[], messages: readonly string[]): boolean {
  return allSaid(outputs, messages.map(plain));
}

function allSaid(outputs: readonly string[], said: readonly string[]): boolean {
  const found = new OutputsSaid(outputs);
  for (const m of said) found.add(m);
  return found.all;
}

/**
 * The outcome milestones of a task from its gold and expected outcome: one `change` per gold call
 * of a writing tool, a `told` for its outputs (`act`, `inform`), the refusal (`refuse`) or the
 * hand-over (`transfer`, or a gold call of a tool that hands over). Look-ups are never milestones.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { outcomeMilestones } from "./grade.ts";
 * const tools = [{ name: "look", writes: false }, { name: "pay", writes: true }];
 * const task = { gold: [{ name: "look", args: {} }, { name: "pay", args: {} }], outputs: ["42"], expect: "act" as const };
 * assertEquals(outcomeMilestones(task, tools).map((m) => m.kind), ["change", "told"]);
 * ```
 */
export function outcomeMilestones(
  task: Pick<Task, "gold" | "outputs" | "expect">,
  tools: readonly Pick<Tool, "name" | "writes" | "handsOver">[],
): Milestone[] {
  const byName = new Map(tools.map((t) => [t.name, t]));
  const out: Milestone[] = [];
  task.gold.forEach((call, i) => {
    const tool = byName.get(call.name);
    if (tool?.writes) out.push({ kind: "change", label: call.name.replaceAll("_", " "), gold: i });
  });
  if (task.expect === "refuse") out.push({ kind: "refused", label: "refuse, naming the reason" });
  else if ((task.expect === "act" || task.expect === "inform") && task.outputs.length > 0) {
    out.push({
      kind: "told",
      label: task.expect === "act" ? "tell the outcome" : "tell the facts",
      outputs: [...task.outputs],
    });
  }
  if (task.expect === "transfer" || task.gold.some((c) => byName.get(c.name)?.handsOver)) {
    out.push({ kind: "handed_over", label: "hand over to a human" });
  }
  return out;
}

/**
 * Grades an episode (docs/metrics.md "Grading"): `act` when the change equals the gold change and the
 * outputs were said; `refuse` when nothing was written and the agent refused naming the outputs;
 * `transfer` when a hand-over succeeded with a summary and nothing was written beyond the gold;
 * `inform` when nothing was written and the outputs (at least one) were said. A `"tau-bench"` task's
 * `success` is τ-bench's reward instead (change equals the gold's, outputs said); `earned` stays ark's.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { type EpisodeEvent, getDomain, gradeEpisode, replayTrajectory, World } from "@ark/ark/envs";
 * using world = World.open(getDomain("airline"), { seed: "0" });
 * const task = world.defaultTasks(1)[0];
 * const grade = (events: EpisodeEvent[]) =>
 *   gradeEpisode({ task, events, gold: world.goldReplay(task), tool: (n) => world.tool(n) });
 * // The gold calls made, then the outputs said: the expected outcome earned.
 * const calls: EpisodeEvent[] = task.gold.map((c, i) => ({
 *   step: i + 1, actor: "tool", kind: "tool", tool: c.name, args: c.args, latency_ms: 0,
 * }));
 * const text = task.outputs.join(", ");
 * const said: EpisodeEvent = { step: calls.length + 1, actor: "agent", kind: "message", text, latency_ms: 0 };
 * assertEquals([task.expect, grade([...replayTrajectory(world, calls, { task }), said]).success], ["act", true]);
 * assertEquals(grade([said]).success, false);
 * ```
 */
export function gradeEpisode(input: GradeInput): Grade {
  const { task, events, gold, tool } = input;
  const goldKeys: GoldKeys = gold.calls.map((rows) => rows.map(rowKey));
  const { at, stepOf, steps, refused, handedOver, outputsFound } = reachMilestones(
    { task, events, gold, tool, refusal: input.refusal ?? (() => false) },
    goldKeys,
  );

  const changes = composeChanges(steps);
  // Each row's key made once: the episode's final rows and the gold's (`changesWithin()` of the two).
  const final = new Map<string, Json | null>();
  const goldFinal = new Map(gold.all.map((c) => [rowKey(c), c.after]));
  let withinGold = true;
  for (const c of changes) {
    const k = rowKey(c);
    final.set(k, c.after);
    withinGold &&= goldFinal.has(k) && jsonEqual(goldFinal.get(k), c.after);
  }
  const stateMatch = changes.length === gold.all.length && withinGold;
  const nothingWritten = changes.length === 0;
  const goldHandOver = task.gold.some((c) => tool(c.name)?.handsOver);
  const earned = task.expect === "act"
    ? stateMatch && outputsFound && (!goldHandOver || handedOver)
    : task.expect === "refuse"
    ? nothingWritten && refused
    : task.expect === "transfer"
    ? handedOver && withinGold
    : nothingWritten && task.outputs.length > 0 && outputsFound;

  // A change the gold makes is also reached when the episode ends with those rows at their gold values.
  task.milestones.forEach((m, i) => {
    if (at[i] !== null || m.kind !== "change") return;
    const keys = goldKeys[m.gold] ?? [];
    if (keys.length > 0 && keys.every((k) => final.has(k) && jsonEqual(final.get(k), goldFinal.get(k)))) {
      at[i] = events.length;
    }
  });
  // Reached: the milestones achieved before the first one missed (every outcome, once reached, holds).
  let reached = 0;
  while (reached < at.length && at[reached] !== null) reached++;
  return {
    success: task.rule === "tau-bench" ? stateMatch && outputsFound : earned,
    earned,
    stateMatch,
    outputsFound,
    nothingWritten,
    refused,
    handedOver,
    milestones: { total: task.milestones.length, reached, achieved: at.filter((x) => x !== null).length },
    milestoneSteps: stepOf,
    ...divergenceByMilestone(task, goldKeys, { final: goldFinal, mine: final }, at),
    changes,
  };
}

// m_t: gold outcomes up to milestone t the episode misses — rows at their final gold values, and the
// other milestones; d_t: their share. A row's miss is the same at every milestone: counted once, as
// its key first comes in.
function divergenceByMilestone(
  task: Task,
  goldKeys: GoldKeys,
  rows: { final: ReadonlyMap<string, Json | null>; mine: ReadonlyMap<string, Json | null> },
  at: readonly (number | null)[],
): { divergence: number[]; missed: number[] } {
  const { final, mine } = rows;
  const keys = new Set<string>();
  let others = 0, missedOthers = 0, missedKeys = 0;
  const missedAt: number[] = [];
  const divergence = task.milestones.map((m, i) => {
    if (m.kind === "change") {
      for (const k of goldKeys[m.gold] ?? []) {
        if (keys.has(k)) continue;
        keys.add(k);
        // A row the gold leaves as it was must be left as it was.
        const want = final.has(k) ? final.get(k) : undefined;
        const got = mine.has(k) ? mine.get(k) : undefined;
        if (want === undefined ? got !== undefined : !jsonEqual(want, got)) missedKeys++;
      }
    } else {
      others++;
      if (at[i] === null) missedOthers++;
    }
    const missed = missedOthers + missedKeys;
    const units = keys.size + others;
    missedAt.push(missed);
    return units === 0 ? 0 : missed / units;
  });
  return { divergence, missed: missedAt };
}
