/**
 * τ-bench's worlds in ark: a domain that declares `tauBench` reads τ-bench's data and test tasks
 * from a folder of τ-bench's files, and each τ-bench task becomes an ark task with its gold actions,
 * outputs, an expected outcome inferred from its gold, and outcome milestones, scored by τ-bench's
 * own reward rule (`rule: "tau-bench"`) with ark's outcome grade beside it.
 *
 * @module
 */
import { outcomeMilestones } from "./grade.ts";
import { domains } from "./domains.ts";
import { taskId } from "./task_id.ts";
import type { Domain } from "./domain.ts";
import type { Expect, Task } from "./task.ts";
import type { TauBenchTask } from "./tau_files.ts";
import type { Tool, ToolCall } from "./tool.ts";
import { World } from "./world.ts";

/**
 * The registered domains that declare `tauBench` (τ-bench has a copy of their world), in registry
 * order.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { tauBenchDomains } from "./tau_bench.ts";
 * assertEquals(tauBenchDomains().map((d) => d.name), ["airline", "retail"]);
 * ```
 */
export function tauBenchDomains(): Domain[] {
  return Object.values(domains).filter((d) => d.tauBench !== undefined);
}

/**
 * The domain a command reads τ-bench's data of when none is named (`deno task gold`, `bench`,
 * `import --from tau-bench`): the first registered domain that declares `tauBench`, or `undefined`
 * when none does.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { defaultTauBenchDomain } from "./tau_bench.ts";
 * assertEquals(defaultTauBenchDomain()?.name, "airline");
 * ```
 */
export function defaultTauBenchDomain(): Domain | undefined {
  return tauBenchDomains()[0];
}

/**
 * What a correct agent does on a task, inferred from its gold calls and outputs: `transfer` when
 * the gold hands over to a human and writes nothing, `act` when it writes, `inform` when it only
 * reads and lists facts to tell, `refuse` when it changes nothing and tells nothing (the user's
 * request is against the policy: τ-bench then rewards an unchanged world, however it came about).
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { inferExpect } from "./tau_bench.ts";
 * const tools = [{ name: "get", writes: false }, { name: "cancel", writes: true }];
 * assertEquals(inferExpect({ gold: [{ name: "get", args: {} }], outputs: [] }, tools), "refuse");
 * assertEquals(inferExpect({ gold: [{ name: "cancel", args: {} }], outputs: [] }, tools), "act");
 * ```
 */
export function inferExpect(
  task: { gold: readonly ToolCall[]; outputs: readonly string[] },
  tools: readonly Pick<Tool, "name" | "writes" | "handsOver">[],
): Expect {
  const byName = new Map(tools.map((t) => [t.name, t]));
  const writes = task.gold.some((c) => byName.get(c.name)?.writes && !byName.get(c.name)?.handsOver);
  if (writes) return "act";
  if (task.gold.some((c) => byName.get(c.name)?.handsOver)) return "transfer";
  return task.outputs.length > 0 ? "inform" : "refuse";
}

/**
 * A τ-bench task as an ark task of `domain`: id `tau-bench:<domain>/<task_id>`, the gold actions,
 * the outputs, the expected outcome (`inferExpect()`) and its outcome milestones; `success` follows
 * τ-bench's reward rule. The brief of τ-bench's simulated user is the goal.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { getDomain } from "./domains.ts";
 * import { tauBenchTask } from "./tau_bench.ts";
 * const task = tauBenchTask({ task_id: 3, user_id: "u", actions: [], outputs: ["4"] }, getDomain("airline"));
 * assertEquals([task.id, task.expect, task.rule], ["tau-bench:airline/3", "inform", "tau-bench"]);
 * ```
 */
export function tauBenchTask(tau: TauBenchTask, domain: Pick<Domain, "name" | "tools">): Task {
  return benchmarkTask(domain, {
    source: "tau-bench",
    index: tau.task_id,
    goal: tau.instruction ?? "",
    facts: { user_id: tau.user_id },
    gold: tau.actions.map((a) => ({ name: a.name, args: a.kwargs })),
    outputs: [...tau.outputs ?? []],
    rationale: (expect) => `τ-bench test task ${tau.task_id}; "${expect}" inferred from its gold actions and outputs`,
  });
}

/** What `benchmarkTask()` makes an ark task of: another benchmark's task, read. */
export interface BenchmarkTaskSpec {
  /** The benchmark, the task id's source (`<source>:<domain>/<index>`), e.g. "tau-bench". */
  source: string;
  /** The number in the task id. */
  index: number;
  /** The brief of the benchmark's simulated user. */
  goal: string;
  /** What the task's conversation is about (e.g. the user's id). */
  facts: Task["facts"];
  gold: ToolCall[];
  outputs: string[];
  /** Why the task expects what it does, given the inferred outcome. */
  rationale: (expect: Expect) => string;
}

/**
 * Another benchmark's task (τ-bench's, τ²-bench's) as an ark task of `domain`: its gold actions and
 * outputs, the expected outcome inferred from them (`inferExpect()`), graded by τ-bench's rule (the
 * change equals the gold's, the outputs were said) with outcome milestones.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { getDomain } from "./domains.ts";
 * import { benchmarkTask } from "./tau_bench.ts";
 * const spec = { source: "x", index: 1, goal: "", facts: {}, gold: [], outputs: ["4"], rationale: () => "" };
 * assertEquals(benchmarkTask(getDomain("airline"), spec).id, "x:airline/1");
 * ```
 */
export function benchmarkTask(domain: Pick<Domain, "name" | "tools">, spec: BenchmarkTaskSpec): Task {
  const { gold, outputs } = spec;
  const expect = inferExpect({ gold, outputs }, domain.tools);
  const task: Task = {
    id: taskId(domain.name, spec.index, { source: spec.source }),
    intent: `${spec.source}:${expect}`,
    goal: spec.goal,
    facts: spec.facts,
    volunteered: [],
    openings: [],
    gold,
    outputs,
    milestones: [],
    expect,
    rule: "tau-bench",
    rationale: spec.rationale(expect),
  };
  task.milestones = outcomeMilestones(task, domain.tools);
  return task;
}

/** A world holding τ-bench's data of a domain, with τ-bench's test tasks as ark tasks. */
export interface TauBenchWorld extends Disposable {
  /** The world holding τ-bench's data. */
  world: World;
  /** The tasks in τ-bench's order (index = `task_id`). */
  tasks: Task[];
}

/**
 * Opens `domain`'s world on τ-bench's data in `dir` (a folder holding τ-bench's `db.json` and
 * `tasks_test.json` of that domain). Throws an `Error` when the domain has no τ-bench counterpart
 * or the folder does not hold its files.
 *
 * @example
 * ```ts ignore
 * import { getDomain, openTauBench } from "@ark/ark/envs";
 * using tau = openTauBench(getDomain("airline"), "../shared/tau-bench/airline");
 * tau.tasks.length; // 50
 * ```
 */
export function openTauBench(domain: Domain, dir: string): TauBenchWorld {
  if (domain.tauBench === undefined) {
    throw new Error(`Cannot read τ-bench's data for domain "${domain.name}": τ-bench has no such world`);
  }
  const { data, tasks } = domain.tauBench.load(dir);
  const world = World.fromData(domain, data);
  return {
    world,
    tasks: tasks.map((t) => tauBenchTask(t, domain)),
    [Symbol.dispose]: () => world.close(),
  };
}
