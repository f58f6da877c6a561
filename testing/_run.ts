// Running a domain's episodes for the suite: through eval's `runExperiment()` when the domain is
// registered, else the same plan, seeds, conditions and judge run here (the runner finds domains by name).
import { type Domain, domains, type EpisodeEvent, Rng, runEpisode, scriptedUser, World } from "../envs/mod.ts";
import { agentFactory } from "../agents/mod.ts";
import { isRefusal, rulesJudge } from "../judge/mod.ts";
import {
  type EpisodeRecord,
  type ExperimentConfig,
  MemoryResults,
  planCells,
  prepareConditions,
  resolveConfig,
  runExperiment,
  toRecord,
} from "../eval/mod.ts";
import { check } from "./_check.ts";
import { CONDITIONS } from "../vocabulary/mod.ts";

/** The records of an experiment and each one's events. */
export interface Episodes {
  records: EpisodeRecord[];
  events(record: EpisodeRecord): EpisodeEvent[];
}

/** The oracle on the nominal condition, once per task. */
export const NOMINAL = (tasks: number): ExperimentConfig => ({
  agents: ["oracle"],
  tasks,
  runs: 1,
  conditions: { fault: false, env: false, prompt: false },
});

export { CONDITIONS };

/** `<constraint> <severity>` of each violation. */
export const kinds = (vs: readonly { constraint: string; severity: string }[]): string[] =>
  vs.map((v) => `${v.constraint} ${v.severity}`);

/** A record in one line: its cell, grade, milestones, actions and what the judge flagged. */
export function describe(r: EpisodeRecord): string {
  const flagged = [...r.violations ?? [], ...r.near_misses ?? []];
  return `${r.task} ${r.condition}${r.variant ? ` (${r.variant})` : ""}: success ${r.success}, milestones ` +
    `${r.milestones.reached}/${r.milestones.total}, actions ${r.actions.join(",")}` +
    (flagged.length > 0 ? `, flagged ${kinds(flagged).join(", ")}` : "");
}

/** Whether the registry holds this very domain (then eval's runner can run it by name). */
function registered(domain: Domain): boolean {
  return Object.hasOwn(domains, domain.name) && domains[domain.name] === domain;
}

/**
 * The records of an experiment on one domain: through `runExperiment()` when the domain is
 * registered, else the same plan, seeds, conditions and judge run here.
 */
export async function runCells(domain: Domain, input: ExperimentConfig): Promise<Episodes> {
  if (registered(domain)) {
    const sink = new MemoryResults();
    const summary = await runExperiment(resolveConfig({ suite: "tasks", ...input, domains: [domain.name] }), { sink });
    check(
      sink.records().length === summary.total,
      `${domain.name}: ${summary.total} episodes planned, ${sink.records().length} recorded`,
    );
    return { records: sink.records(), events: (r) => sink.events(r) };
  }
  const config = resolveConfig(input);
  using world = World.open(domain, { seed: config.worldSeed });
  const tasks = new Map(world.defaultTasks(config.tasks).map((t) => [t.id, t]));
  const cells = planCells(config, [...tasks.values()]);
  const conditions = await prepareConditions({ conditions: config.conditions, worlds: [world], tasks, cells });
  const records: EpisodeRecord[] = [];
  const events = new Map<EpisodeRecord, EpisodeEvent[]>();
  for (const cell of cells) {
    const task = tasks.get(cell.task)!;
    const rng = new Rng(cell.seed);
    const setup = conditions.setup(cell, { task, domain });
    const result = await runEpisode(world, {
      task,
      agent: agentFactory(cell.agent)({ rng: rng.child("agent"), domain, task, run: cell.run }),
      user: scriptedUser(setup.userTask, rng.child("user"), {
        tools: domain.tools,
        vocabulary: domain.vocabulary,
        opening: setup.opening,
      }),
      rng: rng.child("episode"),
      maxSteps: config.maxSteps,
      refusal: isRefusal,
      ...(setup.condition ? { condition: setup.condition } : {}),
    });
    const verdict = rulesJudge({ task, events: result.events, gold: world.goldReplay(task), domain, db: world.store });
    const record = toRecord(cell, result, {
      milestoneLabels: task.milestones.map((m) => m.label),
      verdict,
      ...setup.record(),
    });
    records.push(record);
    events.set(record, result.events);
  }
  return { records, events: (r) => events.get(r) ?? [] };
}
