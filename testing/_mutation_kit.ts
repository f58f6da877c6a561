// What the mutations of correct trajectories share: the world's default tasks, their oracle episodes,
// the rules judge, and calls taken from other tasks' gold. Mutations are built from declarations and
// other tasks' gold calls, never from a domain's or a tool's name.
import {
  type Domain,
  type EpisodeEvent,
  Rng,
  runEpisode,
  scriptedUser,
  type Task,
  type ToolCall,
  type World,
} from "../envs/mod.ts";
import { oracle } from "../agents/mod.ts";
import { isRefusal, rulesJudge, type Verdict } from "../judge/mod.ts";
import { check } from "./_check.ts";

/** What every mutation reads: the world, its tasks and writes, and ways to run, judge and edit episodes. */
export interface MutationKit {
  world: World;
  domain: Domain;
  /** The first default tasks. */
  tasks: Task[];
  /** The names of the writing tools. */
  writes: Set<string>;
  /** The act tasks with exactly one gold write. */
  acts: Task[];
  /** Whether the domain says whose rows are whose. */
  owners: boolean;
  /** A task's first gold write. */
  writeOf(task: Task): ToolCall | undefined;
  /** Whose data a call touches, by its tool's declaration. */
  customer(call: ToolCall): string | null;
  /** The oracle's episode on a task, which must succeed. */
  clean(task: Task): Promise<EpisodeEvent[]>;
  /** The rules judge's verdict on a task's events. */
  judge(task: Task, events: EpisodeEvent[]): Verdict;
  /** The index of the first successful call of a tool. */
  writeIndex(events: EpisodeEvent[], name: string): number;
  /** Another task's write touching none of this task's rows, for a customer the user never mentions. */
  foreign(task: Task): ToolCall | undefined;
  /** A tool event making a call at a step. */
  callEvent(step: number, call: ToolCall): EpisodeEvent;
  /** A message about the domain: `<domain>: <what>`. */
  none(what: string): string;
}

/** The mutation kit of a world's first `count` default tasks. */
export function mutationKit(world: World, count: number): MutationKit {
  const domain = world.domain;
  const tasks = world.defaultTasks(count);
  const writes = new Set(domain.tools.filter((t) => t.writes).map((t) => t.name));
  const writeOf = (t: Task) => t.gold.find((c) => writes.has(c.name));
  const acts = tasks.filter((t) => t.expect === "act" && t.gold.filter((c) => writes.has(c.name)).length === 1);
  const customer = (c: ToolCall) => world.tool(c.name)?.customer?.(c.args, world.store) ?? null;

  const clean = async (task: Task): Promise<EpisodeEvent[]> => {
    const rng = new Rng(`mutation/${task.id}`);
    const r = await runEpisode(world, {
      task,
      agent: oracle()({ rng: rng.child("agent"), domain, task }),
      user: scriptedUser(task, rng.child("user"), { tools: domain.tools, vocabulary: domain.vocabulary }),
      rng: rng.child("episode"),
      refusal: isRefusal,
    });
    check(r.success, `${task.id}: the oracle fails the task it is to give a correct trajectory of`);
    return r.events;
  };
  const judge = (task: Task, events: EpisodeEvent[]): Verdict =>
    rulesJudge({ task, events, gold: world.goldReplay(task), domain, db: world.store });
  const writeIndex = (events: EpisodeEvent[], name: string) =>
    events.findIndex((e) => e.kind === "tool" && e.tool === name && e.error === undefined);
  // A write of another task touching rows this task's gold does not, for a customer (when its tool
  // names one) that is not this task's and that the user never mentions: a call nobody asked for.
  const foreign = (task: Task): ToolCall | undefined => {
    const mine = writeOf(task);
    const own = mine === undefined ? null : customer(mine);
    const keys = new Set(world.goldChanges(task).map((c) => JSON.stringify([c.table, c.key])));
    return acts.filter((t) => t.id !== task.id).map(writeOf).find((c): c is ToolCall => {
      if (c === undefined) return false;
      const theirs = customer(c);
      if (world.tool(c.name)?.customer !== undefined && (theirs === null || theirs === own)) return false;
      if (theirs !== null && JSON.stringify(task.facts).includes(theirs)) return false;
      const other = acts.find((t) => writeOf(t) === c)!;
      return world.goldChanges(other).every((ch) => !keys.has(JSON.stringify([ch.table, ch.key])));
    });
  };
  const callEvent = (step: number, call: ToolCall): EpisodeEvent => ({
    step,
    actor: "tool",
    kind: "tool",
    tool: call.name,
    args: call.args,
    latency_ms: 0,
  });
  return {
    world,
    domain,
    tasks,
    writes,
    acts,
    owners: domain.constraints?.owner !== undefined,
    writeOf,
    customer,
    clean,
    judge,
    writeIndex,
    foreign,
    callEvent,
    none: (what) => `${domain.name}: ${what}`,
  };
}
