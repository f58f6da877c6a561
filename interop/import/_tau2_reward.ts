// τ²-bench's reward recomputed for an imported simulation (τ²'s src/tau2/evaluator/): the product of
// the task's `reward_basis` components. `DB`: the episode's calls and the gold actions each replayed
// on a fresh world, the two final states compared in the domain's export shape; `COMMUNICATE`: every
// `communicate_info` string in some assistant message's text (lower case, the message's commas
// removed); `NL_ASSERTION` (an LLM's verdict) is taken from the file unless a judge model is given
// (`_tau2_nl.ts`), and any other component is taken from the file. A run
// that did not end by the user's or the agent's stop gets 0, as τ² gives it; as τ²'s evaluator has it,
// a task without evaluation_criteria gets 1 (no components), and `DB` is 1 when the task's actions and
// env_assertions are both null.
import {
  changesWithin,
  type EpisodeEvent,
  type Json,
  jsonEqual,
  type Task,
  type Tau2BenchTask,
  type World,
} from "../../envs/mod.ts";
import type { ModelClient } from "../../agents/model/mod.ts";
import type { RewardCheck } from "../../report/imported.ts";
import { judgeAssertions, type NlMessage } from "./_tau2_nl.ts";
import { firstDifference } from "./episodes.ts";

/** What the recomputation reads of a τ² simulation (its parsed shape, `Tau2Simulation`). */
export interface Tau2Run {
  trial?: number | null;
  termination_reason: string;
  messages: readonly NlMessage[];
  reward_info?: {
    reward: number;
    reward_breakdown?: Record<string, number> | null;
    nl_assertions?: readonly { met: boolean }[] | null;
  } | null;
}

/** The components ark recomputes. */
export const RECOMPUTED = ["DB", "COMMUNICATE"] as const;

const STOPS = new Set(["user_stop", "agent_stop"]);

/** What a replayed episode gives the recomputation. */
export interface Replayed {
  world: World;
  task: Task;
  events: readonly EpisodeEvent[];
}

/** The recomputation of one simulation's reward, to run once its episode is replayed. */
export function tau2Rescore(
  sim: Tau2Run,
  spec: Tau2BenchTask,
  options: { nlJudge?: ModelClient } = {},
): (replayed: Replayed) => Promise<RewardCheck> {
  return async (replayed) => {
    const file = sim.reward_info ?? null;
    const breakdown = file?.reward_breakdown ?? {};
    const components: RewardCheck["components"] = [];
    const whys: string[] = [];
    let disagree = false;
    for (const name of spec.reward_basis) {
      const recorded = typeof breakdown[name] === "number" ? breakdown[name] : null;
      let ark: number | null = null, taken = false, why = "";
      if (name === "DB" && spec.no_expected_state === true) {
        ({ ark, why } = { ark: 1, why: "no expected actions or env assertions, which τ² rewards DB 1" });
      } else if (name === "DB" && spec.initial_state !== true) ({ ark, why } = dbCheck(replayed));
      else if (name === "COMMUNICATE") ({ ark, why } = communicateCheck(sim, spec));
      else if (name === "NL_ASSERTION" && options.nlJudge !== undefined) {
        ({ ark, why } = await judgeAssertions(options.nlJudge, sim.messages, spec.nl_assertions));
      } else {
        taken = true;
        ark = recorded ?? (name === "NL_ASSERTION" ? nlFromChecks(sim, spec) : null);
      }
      if (name === "DB" && spec.initial_state === true && spec.no_expected_state !== true) {
        taken = true;
        ark = recorded;
      }
      components.push({ name, ark, file: recorded, taken });
      if (!taken && recorded !== null && ark !== recorded) {
        disagree = true;
        whys.push(`${name}: ark ${ark}, the file ${recorded} (${why})`);
      }
    }
    const premature = !STOPS.has(sim.termination_reason);
    const known = components.every((c) => c.ark !== null);
    const product = components.reduce((p, c) => p * (c.ark ?? 1), 1);
    // A component ark cannot know (not recomputed, not in the file) leaves the file's reward standing.
    let ark = premature ? 0 : known || product === 0 ? product : file?.reward ?? product;
    if (premature) whys.push(`the run ended by "${sim.termination_reason}", which τ² rewards 0`);
    if (!known && !premature && product !== 0) {
      whys.push(
        `${components.filter((c) => c.ark === null).map((c) => c.name).join(", ")} unknown: the file's reward taken`,
      );
    }
    ark = Math.round(ark * 1e9) / 1e9;
    const fileReward = file?.reward ?? null;
    return {
      task: replayed.task.id,
      run: sim.trial ?? 0,
      ended: sim.termination_reason,
      file: fileReward,
      ark,
      components,
      // A component disagreement is reported even when the products agree (e.g. DB 1 against 0 under COMMUNICATE 0).
      why: (fileReward === null || fileReward === ark) && !disagree
        ? null
        : whys.join("; ") || "the components agree; the file's product differs",
    };
  };
}

const goldStates = new WeakMap<World, Map<string, Json>>();

// The episode's final state against the gold's. Both start from the same world, so equal net row
// changes are equal states and nothing is exported; otherwise both states are exported in the
// domain's shape and compared there (a difference the export does not show is no difference).
function dbCheck({ world, task, events }: Replayed): { ark: number; why: string } {
  const exportState = () => world.domain.tau2Bench!.export(world.store) as Json;
  let final: Json;
  {
    using episode = world.beginEpisode();
    const ctx = world.taskContext(task);
    for (const e of events) {
      if (e.kind === "tool" && e.fault === undefined) world.call(ctx, e.tool ?? "", e.world_args ?? e.args);
    }
    const changes = episode.changes(), gold = world.goldReplay(task).all;
    if (changes.length === gold.length && changesWithin(changes, gold)) {
      return { ark: 1, why: "the final state equals the gold's" };
    }
    final = exportState();
  }
  let cache = goldStates.get(world);
  if (cache === undefined) goldStates.set(world, cache = new Map());
  let gold = cache.get(task.id);
  if (gold === undefined) {
    using _episode = world.beginEpisode();
    const ctx = world.taskContext(task);
    for (const call of task.gold) {
      const tool = world.tool(call.name);
      if (tool !== undefined && !tool.terminates) world.call(ctx, call.name, call.args);
    }
    cache.set(task.id, gold = exportState());
  }
  if (jsonEqual(final, gold)) return { ark: 1, why: "the final state equals the gold's" };
  const at = firstDifference(gold, final).replace(/: recorded (.*), ark /, ": gold $1, episode ");
  return { ark: 0, why: `the final state differs from the gold's at ${at}` };
}

function communicateCheck(sim: Tau2Run, spec: Tau2BenchTask): { ark: number; why: string } {
  const texts = sim.messages.filter((m) => m.role === "assistant" && typeof m.content === "string" && m.content !== "")
    .map((m) => m.content!.toLowerCase().replaceAll(",", ""));
  const missing = spec.communicate_info.filter((info) => !texts.some((t) => t.includes(info.toLowerCase())));
  return missing.length === 0
    ? { ark: 1, why: "every communicate_info string is in an assistant message" }
    : { ark: 0, why: `no assistant message says ${missing.map((m) => JSON.stringify(m)).join(", ")}` };
}

// τ²'s NL_ASSERTION reward from the file's checks: 1 when every assertion was met (or the task has none).
function nlFromChecks(sim: Tau2Run, spec: Tau2BenchTask): number | null {
  if (spec.nl_assertions.length === 0) return 1;
  const checks = sim.reward_info?.nl_assertions;
  if (checks === null || checks === undefined) return null;
  return checks.every((c) => c.met) ? 1 : 0;
}
