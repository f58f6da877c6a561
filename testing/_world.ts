// The checks of a domain's world and tasks that run no agent: its data round-trip, its generators are
// seeded, its vocabulary covers its tasks, its tasks are well formed (a refusal names its reason), and
// its gold calls run the same twice, each write succeeding.
import {
  askNames,
  canonicalJson,
  type Domain,
  type EpisodeEvent,
  fieldOf,
  gradeEpisode,
  type Json,
  outcomeMilestones,
  readAgentMessage,
  Rng,
  type RowChange,
  type Task,
  type ToolCall,
  vocabularyOf,
  World,
} from "../envs/mod.ts";
import { check, firstDifference, none, same } from "./_check.ts";

/** Registers the checks of a domain's world and tasks, on its first `count` default tasks. */
export function worldChecks(domain: Domain, count: number): void {
  const name = domain.name;

  Deno.test(`${name}: generate() → rows() → a world → read() gives the data back`, () => {
    const data = domain.generate(new Rng("0").child("world"), 1);
    using world = World.fromData(domain, data);
    same(domain.read(world.store), data, `${name}: read() does not give back the data generate() made`);
  });

  Deno.test(`${name}: the same seed gives the same world and tasks, another seed another world, fewer tasks the first ones`, () => {
    const data = (seed: string) => domain.generate(new Rng(seed).child("world"), 1);
    const tasks = (seed: string, n = count) => domain.tasks(new Rng(seed).child("tasks"), n, data(seed));
    const json = (v: unknown) => JSON.parse(canonicalJson(v)) as Json;
    const world = firstDifference(json(data("0")), json(data("0")), "data");
    check(world === null, `${name}: generate() is not deterministic: two runs with seed "0" differ at ${world}`);
    check(
      canonicalJson(data("1")) !== canonicalJson(data("0")),
      `${name}: generate() makes the same world for seeds "0" and "1"`,
    );
    const a = tasks("0");
    const again = firstDifference(json(tasks("0")), json(a), "tasks");
    check(again === null, `${name}: tasks() is not deterministic: two runs with seed "0" differ at ${again}`);
    check(a.length === count, `${name}: tasks() gave ${a.length} tasks when asked for ${count}`);
    // Asking for fewer tasks gives the first ones: adding tasks changes none of the others.
    const few = Math.min(10, count);
    same(
      json(tasks("0", few)),
      json(a.slice(0, few)),
      `${name}: tasks() asked for ${few} gives other tasks than the first ${few} of ${count} (draw task i from rng.child(i) only)`,
    );
  });

  Deno.test(`${name}: the vocabulary covers every fact, goal and write, and the playbook's questions read back`, () => {
    using world = World.open(domain);
    const v = vocabularyOf(domain);
    const asks = askNames(domain.vocabulary ?? { fields: {} });
    const tasks = [...world.defaultTasks(count), ...world.scenarios()];
    for (const fact of new Set(tasks.flatMap((t) => Object.keys(t.facts)))) {
      const field = fieldOf(v, fact);
      check(
        Object.hasOwn(v.fields, field),
        `${name}: fact "${fact}" is of field "${field}", which the vocabulary lacks`,
      );
      // Asked for by the playbook's own name for it, the simulated user knows which fact is meant.
      const question = `Could you give me your ${asks[fact] ?? fact.replaceAll("_", " ")}?`;
      const read = readAgentMessage(domain, question);
      check(
        read.facts.includes(fact) || read.asks.includes(field),
        () => `${name}: the question "${question}" does not read as asking for "${fact}": ${JSON.stringify(read)}`,
      );
    }
    if (domain.vocabulary?.goals !== undefined) {
      for (const t of tasks) {
        check(Object.hasOwn(v.goals, t.goal), `${t.id}: goal "${t.goal}" is not in the vocabulary`);
      }
    }
    const made = new Set(Object.values(v.actions).flatMap((a) => a.tools));
    for (const tool of domain.tools.filter((t) => t.writes && t.confirm !== false)) {
      check(made.has(tool.name), `${name}: no change of the vocabulary is made by the writing tool "${tool.name}"`);
    }
  });

  Deno.test(`${name}: every default task has its own id, five openings and outcome milestones`, () => {
    using world = World.open(domain);
    const tasks = world.defaultTasks(count);
    const ids = tasks.map((t) => t.id);
    none(ids.filter((id, i) => ids.indexOf(id) !== i), `${name}: task ids repeat`);
    for (const task of tasks) {
      check(task.id.startsWith(`${name}/`), `${task.id}: not an id of ${name} (ids are "${name}/<index>")`);
      const openings = new Set(task.openings.filter((o) => o.trim() !== ""));
      check(openings.size >= 5, `${task.id}: ${openings.size} distinct openings, at least 5 needed`);
      same(
        task.milestones,
        outcomeMilestones(task, domain.tools),
        `${task.id}: milestones are not outcomeMilestones()`,
      );
      for (const call of task.gold) {
        check(world.tool(call.name) !== undefined, `${task.id}: gold calls no tool "${call.name}"`);
      }
    }
  });

  Deno.test(`${name}: every refusal task names its reason: a refusal that names none does not pass it`, () => {
    using world = World.open(domain);
    const refusals = [...world.defaultTasks(count), ...world.scenarios()].filter((t) => t.expect === "refuse");
    for (const task of refusals) {
      check(
        task.outputs.some((o) => o.trim() !== ""),
        `${task.id}: a refusal task that names no reason: its outputs are empty, so any refusal passes it; ` +
          `list the words of the policy's reason a correct refusal says (e.g. outputs: ["balance"])`,
      );
      const grade = gradeEpisode({
        task,
        events: bareRefusal(task),
        gold: world.goldReplay(task),
        tool: (n) => world.tool(n),
      });
      check(
        !grade.success,
        `${task.id}: a refusal that names no reason ("${BARE}") passes this refusal task: ` +
          `its outputs ${JSON.stringify(task.outputs)} name no reason`,
      );
    }
  });

  Deno.test(`${name}: every default task's gold runs the same twice, each write succeeding and changing rows`, () => {
    using first = World.open(domain), second = World.open(domain);
    for (const task of first.defaultTasks(count)) {
      const a = goldRun(first, task), b = goldRun(second, task);
      a.forEach((run, i) => {
        const differ = firstDifference(run.result, b[i].result, "result") ??
          firstDifference(run.changes, b[i].changes, "changes");
        check(
          differ === null,
          () =>
            `${task.id}: tool "${run.call.name}" is not deterministic: two runs of the same call differ at ${differ}`,
        );
        const tool = first.tool(run.call.name)!;
        if (!tool.writes) return;
        check(run.ok, () => `${task.id}: gold call of "${run.call.name}" fails: ${JSON.stringify(run.result)}`);
        check(run.changes.length > 0, `${task.id}: gold call of "${run.call.name}" changes nothing`);
      });
      const writes = task.gold.filter((c) => first.tool(c.name)?.writes).length;
      if (task.expect === "act") check(writes > 0, `${task.id}: an act task without a gold write`);
      else check(writes === 0, `${task.id}: a ${task.expect} task with a gold write`);
    }
  });
}

const BARE = "I'm sorry, but I can't help with that.";

/** The user's opening and a refusal that names nothing. */
function bareRefusal(task: Task): EpisodeEvent[] {
  return [
    { step: 0, actor: "user", kind: "message", text: task.openings[0] ?? "", latency_ms: 0 },
    {
      step: 1,
      actor: "agent",
      kind: "message",
      text: BARE,
      intent: { kind: "refuse", reason: "" },
      latency_ms: 0,
    },
  ];
}

/** A gold call as run: what it answered (its error when it failed) and the rows it changed. */
interface GoldRun {
  call: ToolCall;
  ok: boolean;
  result: unknown;
  changes: RowChange[];
}

/** The task's gold calls made in order in a fresh episode with the task's tool context (terminating tools skipped). */
function goldRun(world: World, task: Task): GoldRun[] {
  using episode = world.beginEpisode();
  const ctx = world.taskContext(task);
  return task.gold.filter((call) => !world.tool(call.name)?.terminates).map((call) => {
    const { value, changes } = episode.during(() => world.call(ctx, call.name, call.args));
    const result = JSON.parse(canonicalJson(value.ok ? value.result : { error: value.error }) ?? "null");
    return { call, ok: value.ok, result, changes: JSON.parse(canonicalJson(changes)) };
  });
}
