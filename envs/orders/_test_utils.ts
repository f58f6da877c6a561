// Shared helpers of the orders tests: one world, and episodes of an agent judged by the rules judge.
import { World } from "../world.ts";
import { Rng } from "../rng.ts";
import { runEpisode } from "../episode.ts";
import { scriptedUser } from "../user.ts";
import type { Agent } from "../agent.ts";
import type { Task } from "../task.ts";
import { isRefusal, rulesJudge } from "../../judge/mod.ts";
import { orders } from "./mod.ts";

/** An episode of `agent` on `task`, with its grade and the rules judge's verdict. */
export async function play(world: World, task: Task, agent: Agent) {
  const rng = new Rng(`orders-test/${task.id}`);
  const result = await runEpisode(world, {
    task,
    agent,
    user: scriptedUser(task, rng.child("user"), { tools: orders.tools, vocabulary: orders.vocabulary }),
    rng: rng.child("episode"),
    refusal: isRefusal,
    maxSteps: task.maxSteps ?? 30,
  });
  const verdict = rulesJudge({
    task,
    events: result.events,
    gold: world.goldReplay(task),
    domain: orders,
    db: world.store,
  });
  return { result, verdict };
}

/** Opens the default orders world. */
export function openWorld(): World {
  return World.open(orders);
}
