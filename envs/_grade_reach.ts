/**
 * Which outcome milestones an episode reaches and at which event (`gradeEpisode()`), in one pass over
 * its events: a tool event looks only at the milestones whose gold rows it changes, whose gold call
 * it repeats (a gold call that changes nothing) or that a hand-over reaches; what the agent says is
 * matched as it comes, each output against each new message once. Milestones are reached in any
 * order, each at the first event where it holds, as a check of every milestone at every event would
 * find (a change milestone holds from the event that sets the last of its rows to their gold values).
 *
 * @module
 */
import { jsonEqual } from "./json.ts";
import type { EpisodeEvent } from "./events.ts";
import type { Json } from "./json.ts";
import type { Task } from "./task.ts";
import type { RowChange } from "./changeset.ts";
import type { Tool } from "./tool.ts";

/** A changed row's identity: its table and primary key, as one string (`changeKey()`). */
export const rowKey = (change: { table: string; key: readonly Json[] }): string =>
  `${change.table}\u001f${JSON.stringify(change.key)}`;

/** Lower-cased, commas removed: the form τ-bench's output check compares. */
export const plain = (text: string): string => text.toLowerCase().replaceAll(",", "");

/** A tool event that reached the world and succeeded. */
export const succeeded = (e: EpisodeEvent): boolean =>
  e.kind === "tool" && e.error === undefined && e.fault === undefined;

/** Whether a successful call of a hand-over tool carried a non-empty summary (any non-blank string argument). */
export function handOverMade(e: EpisodeEvent, tool: (name: string) => Tool | undefined): boolean {
  if (!succeeded(e) || !tool(e.tool ?? "")?.handsOver) return false;
  const args = (e.world_args ?? e.args) as Record<string, unknown> | null;
  return args !== null && typeof args === "object" &&
    Object.values(args).some((v) => typeof v === "string" && v.trim() !== "");
}

/** Outputs matched against the messages as they come: whether each appears in some message so far. */
export class OutputsSaid {
  readonly #wanted: string[];
  #missing: number[];
  constructor(outputs: readonly string[]) {
    this.#wanted = outputs.map(plain);
    this.#missing = this.#wanted.map((_, i) => i);
  }
  /** Reads one more message (in `plain()` form). */
  add(said: string): void {
    if (this.#missing.length > 0) this.#missing = this.#missing.filter((i) => !said.includes(this.#wanted[i]));
  }
  /** Whether every output appears in some message read. */
  get all(): boolean {
    return this.#missing.length === 0;
  }
}

/** The gold rows' keys, per gold call. */
export type GoldKeys = (string[] | undefined)[];

/** What `reachMilestones()` finds. */
export interface Reached {
  /** The index of the event at which each milestone was first reached, `null` when never. */
  at: (number | null)[];
  /** The step of that event. */
  stepOf: (number | null)[];
  /** The tool events' changes, in order. */
  steps: RowChange[][];
  refused: boolean;
  handedOver: boolean;
  /** Whether the task's outputs all appear in the agent's messages. */
  outputsFound: boolean;
}

/** Which milestones the events reach, and when; `goldKeys[g]` the keys of `gold.calls[g]`. */
export function reachMilestones(
  input: {
    task: Task;
    events: readonly EpisodeEvent[];
    /** The rows each gold call changes (`GoldReplay.calls`). */
    gold: { calls: readonly (readonly RowChange[])[] };
    tool(name: string): Tool | undefined;
    refusal: (text: string) => boolean;
  },
  goldKeys: GoldKeys,
): Reached {
  const { task, events, gold, tool, refusal } = input;
  const ms = task.milestones;
  const at = new Array<number | null>(ms.length).fill(null);
  const stepOf = new Array<number | null>(ms.length).fill(null);
  // The milestones each event can reach: change milestones by a gold row's key, or by the tool of a
  // gold call that changes nothing; hand-overs; tellings and refusals.
  const byKey = new Map<string, number[]>();
  const byTool = new Map<string, number[]>();
  const handOvers: number[] = [], refusals: number[] = [];
  const told: { i: number; said: OutputsSaid }[] = [];
  const add = (map: Map<string, number[]>, k: string, i: number) => {
    const list = map.get(k);
    if (list === undefined) map.set(k, [i]);
    else if (list.at(-1) !== i) list.push(i);
  };
  ms.forEach((m, i) => {
    if (m.kind === "handed_over") handOvers.push(i);
    else if (m.kind === "refused") refusals.push(i);
    else if (m.kind === "told") told.push({ i, said: new OutputsSaid(m.outputs) });
    else if (m.kind === "change") {
      const name = task.gold[m.gold]?.name, keys = goldKeys[m.gold];
      if (name === undefined || keys === undefined) return;
      if (keys.length === 0) add(byTool, name, i);
      else for (const k of keys) add(byKey, k, i);
    }
  });
  const state = new Map<string, Json | null>();
  const steps: RowChange[][] = [];
  const outputs = new OutputsSaid(task.outputs);
  let refused = false, handedOver = false;
  const reach = (i: number, index: number, step: number) => {
    if (at[i] === null) at[i] = index, stepOf[i] = step;
  };
  // Every row of the milestone's gold call at the value that call gives it.
  const holds = (i: number) => {
    const m = ms[i] as Extract<Task["milestones"][number], { kind: "change" }>;
    const rows = gold.calls[m.gold]!, keys = goldKeys[m.gold]!;
    return rows.every((r, j) => state.has(keys[j]) && jsonEqual(state.get(keys[j]), r.after));
  };
  events.forEach((e, index) => {
    if (e.kind === "tool") {
      const touched: number[] = [];
      if (e.changes && e.changes.length > 0) {
        steps.push(e.changes);
        for (const c of e.changes) {
          const k = rowKey(c);
          state.set(k, c.after);
          for (const i of byKey.get(k) ?? []) if (at[i] === null) touched.push(i);
        }
      }
      for (const i of touched) if (at[i] === null && holds(i)) reach(i, index, e.step);
      if (succeeded(e)) { for (const i of byTool.get(e.tool!) ?? []) reach(i, index, e.step); }
      const handOver = handOverMade(e, tool);
      handedOver ||= handOver;
      if (handOver) { for (const i of handOvers) reach(i, index, e.step); }
      return;
    }
    if (e.kind !== "message" || e.actor !== "agent") return;
    const said = plain(e.text ?? "");
    outputs.add(said);
    const refusing = e.intent ? e.intent.kind === "refuse" : refusal(e.text ?? "");
    const reasoned = outputs.all;
    if (refusing && reasoned) refused = true;
    for (const t of told) {
      if (at[t.i] !== null) continue;
      t.said.add(said);
      if (t.said.all) reach(t.i, index, e.step);
    }
    if (refusing && reasoned) { for (const i of refusals) reach(i, index, e.step); }
  });
  return { at, stepOf, steps, refused, handedOver, outputsFound: outputs.all };
}
