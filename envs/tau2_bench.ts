/**
 * τ²-bench's worlds in ark: a domain that declares `tau2Bench` reads τ²'s data (or τ-bench's, which
 * τ²'s equals but for a `user_id` in each user record) from a folder holding its `db.json`, and each
 * τ² task (its `evaluation_criteria`) becomes an ark task with its gold actions, outputs
 * (`communicate_info`), an expected outcome inferred as for τ-bench's tasks, and outcome milestones.
 *
 * @module
 */
import { domains } from "./domains.ts";
import type { Domain } from "./domain.ts";
import type { Json } from "./json.ts";
import type { Task } from "./task.ts";
import { benchmarkTask } from "./tau_bench.ts";
import { World } from "./world.ts";

/** A τ²-bench task as ark keeps it: what its world, grading and reward need (from τ²'s `Task`). */
export interface Tau2BenchTask {
  /** τ²'s task id (a string; a whole number in τ²'s airline and retail tasks). */
  id: string;
  /** The task's index in ark's id (`tau2-bench:<domain>/<index>`): the id when it is a whole number, else its position. */
  index: number;
  /** The brief of τ²'s simulated user (its `user_scenario.instructions`, as text). */
  instruction?: string;
  /** The gold actions the agent makes (`evaluation_criteria.actions` of requestor "assistant"), in order. */
  actions: { name: string; arguments: Record<string, Json> }[];
  /** Strings some agent message must contain (`communicate_info`). */
  communicate_info: string[];
  /** What τ²'s LLM judge checks (`nl_assertions`). */
  nl_assertions: string[];
  /** The reward's components, e.g. `["DB", "COMMUNICATE"]`; none when the task has no `evaluation_criteria` (reward 1). */
  reward_basis: string[];
  /**
   * Whether the task's `actions` and `env_assertions` are both null, for which τ²'s evaluator gives
   * `DB` 1 without replaying anything ("No expected actions or env assertions").
   */
  no_expected_state?: boolean;
  /** Whether the task sets up its world before the episode (`initial_state`), which ark does not reproduce. */
  initial_state?: boolean;
}

/**
 * The registered domains that declare `tau2Bench` (τ²-bench has a copy of their world), in registry order.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { tau2BenchDomains } from "./tau2_bench.ts";
 * assertEquals(tau2BenchDomains().map((d) => d.name), ["airline", "retail"]);
 * ```
 */
export function tau2BenchDomains(): Domain[] {
  return Object.values(domains).filter((d) => d.tau2Bench !== undefined);
}

/**
 * A τ² task as an ark task of `domain`: id `tau2-bench:<domain>/<index>`, the gold actions, the
 * outputs (`communicate_info`), the expected outcome (`inferExpect()`) and its outcome milestones;
 * `success` follows τ-bench's rule (the change equals the gold's, the outputs were said), which is
 * τ²'s `DB` × `COMMUNICATE`.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { getDomain } from "./domains.ts";
 * import { tau2BenchTask } from "./tau2_bench.ts";
 * const spec = { id: "3", index: 3, actions: [], communicate_info: ["4"], nl_assertions: [], reward_basis: ["DB"] };
 * const task = tau2BenchTask(spec, getDomain("airline"));
 * assertEquals([task.id, task.expect], ["tau2-bench:airline/3", "inform"]);
 * ```
 */
export function tau2BenchTask(spec: Tau2BenchTask, domain: Pick<Domain, "name" | "tools">): Task {
  return benchmarkTask(domain, {
    source: "tau2-bench",
    index: spec.index,
    goal: spec.instruction ?? "",
    facts: {},
    gold: spec.actions.map((a) => ({ name: a.name, args: a.arguments })),
    outputs: [...spec.communicate_info],
    rationale: (expect) =>
      `τ²-bench task "${spec.id}"; "${expect}" inferred from its gold actions and communicate_info`,
  });
}

/** A world holding τ²'s data of a domain, with a results file's τ² tasks as ark tasks. */
export interface Tau2BenchWorld extends Disposable {
  /** The world holding the data. */
  world: World;
  /** The tasks, in the order given. */
  tasks: Task[];
}

/**
 * Opens `domain`'s world on the data in `dir` (a folder holding τ²'s or τ-bench's `db.json` of that
 * domain), with `tasks` as ark tasks. Throws an `Error` when the domain has no τ² counterpart or the
 * folder does not hold its data.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { getDomain, openTau2Bench } from "@ark/ark/envs";
 * const dir = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${dir}/db.json`, JSON.stringify({ flights: {}, reservations: {}, users: {} }));
 * using tau2 = openTau2Bench(getDomain("airline"), dir, []);
 * assertEquals(tau2.tasks.length, 0);
 * Deno.removeSync(dir, { recursive: true });
 * ```
 */
export function openTau2Bench(domain: Domain, dir: string, tasks: readonly Tau2BenchTask[]): Tau2BenchWorld {
  if (domain.tau2Bench === undefined) {
    throw new Error(`Cannot read τ²-bench's data for domain "${domain.name}": τ²-bench has no such world`);
  }
  const extra = domain.tau2Bench.tools ?? [];
  // τ²'s copy of the world: the domain's tools, τ²'s own in place of those it changed, and those it added.
  const own = new Set(extra.map((t) => t.name));
  const tools = [...domain.tools.filter((t) => !own.has(t.name)), ...extra];
  const copy: Domain = extra.length === 0 ? domain : { ...domain, tools };
  const world = World.fromData(copy, domain.tau2Bench.load(dir));
  return {
    world,
    tasks: tasks.map((t) => tau2BenchTask(t, copy)),
    [Symbol.dispose]: () => world.close(),
  };
}
