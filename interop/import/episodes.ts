/**
 * Importing transcripts: each episode's chat messages replayed in its task's world, graded and
 * judged as ark grades and judges its own, and stored as an ark episode (record and events), with
 * the figures that say how faithfully ark's world reproduced the other harness's tool results.
 *
 * @module
 */
import {
  ARK_POLICY,
  type EpisodeEvent,
  episodeFigures,
  type Json,
  jsonEqual,
  type JudgePolicy,
  type Task,
  type TauBenchDifference,
  type World,
} from "../../envs/mod.ts";
import { isRefusal } from "../../judge/mod.ts";
import { judgeEpisode } from "../../eval/judging.ts";
import { type CellKey, cellKey, cellSeed } from "../../eval/plan.ts";
import type { EpisodeRecord, Resources } from "../../eval/records.ts";
import { toRecord } from "../../eval/to_record.ts";
import type { ResultsSink } from "../../eval/store.ts";
import type { ExperimentWorlds } from "../../eval/worlds.ts";
import { type CallCheck, type ChatMessage, replayChat, TranscriptError } from "./chat.ts";
import type {
  ImportSummary,
  ResultMismatch,
  RewardCheck,
  RewardRecomputation,
  ToolFidelity,
} from "../../report/imported.ts";

export type { ImportSummary, ResultMismatch, RewardCheck, RewardRecomputation, ToolFidelity };

/** One episode read from another harness's file, before it is replayed. */
export interface ImportedEpisode {
  /** Where it is in the file, for messages, e.g. `episode 8 (task 3, trial 1)` or `line 4`. */
  where: string;
  /** The agent's name: the file's (ark), or the one given for the whole file (τ-bench). */
  agent: string;
  /** The ark task id, e.g. `tau-bench:airline/3` or `airline/3`. */
  task: string;
  /** The run index, from 0 (τ-bench's `trial`). */
  run: number;
  /** The conversation in OpenAI's chat shape, system prompt included (the replay drops it). */
  messages: readonly ChatMessage[];
  /** The reward the harness gave (τ-bench's). */
  tau_reward?: number;
  /** The agent's confidence in [0, 1], when the harness elicited one. */
  confidence?: number | null;
  /** Resources the harness measured (cost, time, tokens, model calls). */
  resources?: Pick<Resources, "cost" | "time" | "retry_wait" | "tokens" | "api_calls" | "call_latency">;
  /** Resources the harness measured of its user simulator (its cost). */
  userResources?: { cost?: number };
  /**
   * How the harness says the episode ended, as ark's records say it (an agent's or the user
   * simulator's error).
   * @default {the user ended it, no error}
   */
  ending?: { endedBy: "agent" | "user" | "tool" | "max_steps"; agentError?: string; userError?: string };
  /**
   * How a call of a tool the world lacks is replayed: `"refuse"` skips the episode, naming the call;
   * `"error"` replays it as a failed call that changes nothing (τ²-bench's replay).
   * @default "refuse"
   */
  unknownTools?: "refuse" | "error";
  /**
   * The harness's own reward recomputed on the replayed episode (τ²-bench's rule); ark's success
   * is then its reward being 1.
   * @default {none: success is the task's rule}
   */
  rescore?: (
    replayed: { world: World; task: Task; events: readonly EpisodeEvent[] },
  ) => RewardCheck | Promise<RewardCheck>;
}

/** Options of `importEpisodes()`. */
export interface ImportOptions {
  /** The experiment seed (cells' seeds derive from it). */
  seed: string;
  /** Episodes of the file that could not be read at all (bad JSON, a wrong shape), already named. */
  unreadable?: readonly { where: string; reason: string }[];
  /** Called after each episode with how many are done. */
  onProgress?: (done: number, total: number) => void;
}

/**
 * Replays, grades, judges and stores each episode; an episode that cannot be replayed (an unknown
 * task or tool, arguments that are not JSON, a cell seen before) is skipped with a line naming it,
 * and the rest are imported. Episodes already in the sink are left as they are.
 *
 * @example
 * ```ts ignore
 * import { importEpisodes } from "./episodes.ts";
 * const summary = await importEpisodes(episodes, worlds, store, { seed: "0" });
 * summary.tool_results.share; // 0.995
 * ```
 */
export async function importEpisodes(
  episodes: readonly ImportedEpisode[],
  worlds: ExperimentWorlds,
  sink: ResultsSink,
  options: ImportOptions & { from: ImportSummary["from"]; file: string },
): Promise<ImportSummary> {
  const skipped = [...options.unreadable ?? []];
  const checks: Check[] = [];
  const seen = new Set<string>();
  let imported = 0, done = 0;
  let policy: JudgePolicy = ARK_POLICY;
  const rewards: RewardCheck[] = [];
  for (const episode of episodes) {
    const cell: CellKey = {
      agent: episode.agent,
      task: episode.task,
      run: episode.run,
      condition: "nominal",
      variant: null,
    };
    const found = worlds.get(episode.task);
    const skip = (reason: string) => skipped.push({ where: episode.where, reason });
    if (found === undefined) skip(`task "${episode.task}" is not one of the ${worlds.size} tasks of the worlds read`);
    else if (seen.has(cellKey(cell))) {
      skip(`agent "${episode.agent}", task "${episode.task}", run ${episode.run} was already read from the file`);
    } else {
      try {
        const { task, world } = found;
        policy = found.policy ?? ARK_POLICY;
        const { events, calls } = replayChat(world, episode.messages, {
          task,
          ...(episode.unknownTools !== undefined ? { unknownTools: episode.unknownTools } : {}),
        });
        seen.add(cellKey(cell));
        const figures = episodeFigures(world, { task, events, refusal: isRefusal });
        const verdict = await judgeEpisode(world, { task, events }, { run: episode.run, policy: found.policy });
        const record = toRecord(cell, {
          ...figures,
          endedBy: episode.ending?.endedBy ?? "user",
          confidence: episode.confidence ?? null,
          confidenceSource: null,
          agentResources: {},
          agentError: episode.ending?.agentError ?? null,
          agentRetries: null,
          agentBlocks: [],
          agentAbstained: null,
          userError: episode.ending?.userError ?? null,
          userResources: {},
          userMisread: null,
        }, { task, milestoneLabels: task.milestones.map((m) => m.label), verdict: verdict.fields });
        finish(record, episode);
        if (episode.rescore !== undefined) {
          const check = await episode.rescore({ world, task, events });
          record.success = check.ark === 1;
          rewards.push(check);
        }
        sink.add({ cell: { ...cell, seed: cellSeed(options.seed, cell) }, record, events });
        checks.push({ episode, calls, known: found.differences ?? [] });
        imported++;
      } catch (err) {
        if (!(err instanceof TranscriptError)) throw err;
        skip(err.message);
      }
    }
    options.onProgress?.(++done, episodes.length);
  }
  return {
    from: options.from,
    file: options.file,
    episodes: { read: episodes.length + (options.unreadable?.length ?? 0), imported, skipped: skipped.length },
    skipped,
    tool_results: fidelity(checks),
    judge_policy: { name: policy.name, summary: policy.summary },
    ...(rewards.length > 0 ? { rewards: recomputation(rewards) } : {}),
  };
}

function recomputation(episodes: RewardCheck[]): RewardRecomputation {
  const components = new Map<string, RewardRecomputation["components"][number]>();
  for (const e of episodes) {
    for (const c of e.components) {
      const entry = components.get(c.name) ?? { name: c.name, recomputed: 0, taken: 0, disagreed: 0 };
      if (c.taken) entry.taken++;
      else entry.recomputed++;
      if (!c.taken && c.file !== null && c.ark !== c.file) entry.disagreed++;
      components.set(c.name, entry);
    }
  }
  return {
    rule: "τ²-bench's: the product of the task's reward_basis components (DB: the final state equals the " +
      "gold's; COMMUNICATE: every communicate_info string said; NL_ASSERTION judged by a model when one is " +
      "given; others taken from the file); 0 for a run " +
      "that did not end by the user's or the agent's stop",
    components: [...components.values()],
    episodes,
  };
}

// A replayed transcript's record: what the harness measured replaces what a replay cannot know.
function finish(record: EpisodeRecord, episode: ImportedEpisode): void {
  // A transcript has no simulated latencies: its time is what the harness measured, or unknown.
  delete record.resources.time;
  delete record.resources.retry_wait;
  for (const [key, value] of Object.entries(episode.resources ?? {})) {
    if (typeof value === "number" && Number.isFinite(value) && value >= 0) {
      (record.resources as Record<string, number>)[key] = value;
    }
  }
  if (episode.tau_reward !== undefined) record.tau_reward = episode.tau_reward;
  const userCost = episode.userResources?.cost;
  if (typeof userCost === "number" && Number.isFinite(userCost) && userCost >= 0) {
    record.user_resources = { ...record.user_resources, cost: userCost };
  }
}

type Check = { episode: ImportedEpisode; calls: CallCheck[]; known: readonly TauBenchDifference[] };

function fidelity(checks: readonly Check[]): ToolFidelity {
  let compared = 0, exact = 0, equal = 0;
  const met = new Map<string, { difference: TauBenchDifference; calls: number }>();
  const mismatches: ResultMismatch[] = [];
  for (const { episode, calls, known } of checks) {
    calls.forEach((c, i) => {
      if (c.equal === null) return;
      compared++;
      if (c.equal) {
        exact++, equal++;
        return;
      }
      const recorded = parsed(c.recorded!), ark = parsed(c.ark);
      const by = known.find((d) => d.explains({ tool: c.tool, args: c.args, recorded, result: ark })) ?? null;
      if (by !== null) {
        const entry = met.get(by.name) ?? { difference: by, calls: 0 };
        entry.calls++;
        met.set(by.name, entry);
        if (by.equivalent) equal++;
      }
      mismatches.push({
        task: episode.task,
        run: episode.run,
        step: c.step,
        call: i + 1,
        tool: c.tool,
        args: c.args,
        at: firstDifference(recorded, ark),
        recorded: c.recorded!,
        ark: c.ark,
        explained_by: by?.name ?? null,
      });
    });
  }
  return {
    compared,
    exact,
    equal,
    share: compared === 0 ? null : equal / compared,
    differences: [...met.values()].map(({ difference: d, calls }) => ({
      name: d.name,
      reason: d.reason,
      equivalent: d.equivalent,
      calls,
    })),
    mismatches,
  };
}

function parsed(text: string): Json {
  if (text.startsWith("Error: ")) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * Where two JSON values first differ, as a path and both values there.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { firstDifference } from "./episodes.ts";
 * assertEquals(firstDifference({ a: [1, { b: 2 }] }, { a: [1, { b: 3 }] }), ".a[1].b: recorded 2, ark 3");
 * ```
 */
export function firstDifference(recorded: Json, ark: Json, path = ""): string {
  const show = (v: Json | undefined) => {
    const text = v === undefined ? "absent" : JSON.stringify(v);
    return text.length > 80 ? `${text.slice(0, 77)}...` : text;
  };
  const here = path === "" ? "the result" : path;
  if (jsonEqual(recorded, ark)) return "";
  if (Array.isArray(recorded) && Array.isArray(ark)) {
    for (let i = 0; i < Math.max(recorded.length, ark.length); i++) {
      if (i >= recorded.length || i >= ark.length) {
        return `${path}[${i}]: recorded ${show(recorded[i])}, ark ${show(ark[i])}`;
      }
      const d = firstDifference(recorded[i], ark[i], `${path}[${i}]`);
      if (d !== "") return d;
    }
  }
  const isObject = (v: Json): v is Record<string, Json> => typeof v === "object" && v !== null && !Array.isArray(v);
  if (isObject(recorded) && isObject(ark)) {
    const keys = [...new Set([...Object.keys(recorded), ...Object.keys(ark)])];
    for (const k of keys) {
      if (!(k in recorded) || !(k in ark)) return `${path}.${k}: recorded ${show(recorded[k])}, ark ${show(ark[k])}`;
      const d = firstDifference(recorded[k], ark[k], `${path}.${k}`);
      if (d !== "") return d;
    }
  }
  return `${here}: recorded ${show(recorded)}, ark ${show(ark)}`;
}
