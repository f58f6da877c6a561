/**
 * A domain (a simulated business): what it declares (`Domain`), and `defineDomain()`, which checks
 * it; each is one value, made here and exported from its folder `envs/<name>/mod.ts`.
 *
 * @module
 */
import type { Solver, SolverOptions } from "./agent.ts";
import type { DomainConstraints, JudgePolicy } from "./constraints.ts";
import type { Rng } from "./rng.ts";
import type { ScenarioTemplate } from "./scenario_template.ts";
import { defineScenarioTemplate } from "./_scenario_template.ts";
import type { Rows, Store } from "./sqlite.ts";
import type { Task } from "./task.ts";
import type { TauBenchDifference, TauBenchTask } from "./tau_files.ts";
import type { Tool } from "./tool.ts";
import { type Vocabulary, vocabularyProblem } from "./vocabulary.ts";

/** A domain: a simulated business. Made by `defineDomain()`; one folder under `envs/`. */
export interface Domain<D = unknown> {
  /** The domain's name (lower-case letters, digits and "_"), the first part of its task ids, e.g. `"airline"`. */
  name: string;
  /** The policy shown to agents (markdown). */
  policy: string;
  /** SQL that creates the tables. */
  schema: string;
  /** The simulated time at the start of every episode (ISO 8601). */
  now: string;
  /** Seeded generator of the domain's data at a scale (1 = the default size). */
  generate(rng: Rng, scale: number): D;
  /** Turns the domain's data into table rows. */
  rows(data: D): Rows;
  /** Reads the domain's data back from a world's database. */
  read(db: Store): D;
  /** The tools agents may call in this domain. */
  tools: readonly Tool[];
  /** Seeded task generator over a generated world. */
  tasks(rng: Rng, count: number, data: D): Task[];
  /**
   * The domain's long-horizon suite (docs/metrics.md "Long horizon", `deno task eval --suite long`):
   * `perClass` tasks of each length × dependency class of its long task families (each with
   * `family`, `length` and `dependency`), ids left `""`: the world gives them `long:<domain>/<i>` in
   * this order (`World.longTasks()`), so the order must only grow with `perClass`.
   * @default {undefined: the domain has no long task families}
   */
  longTasks?(rng: Rng, perClass: number, data: D): Task[];
  /**
   * The domain's scripted playbook, which the scripted agents (`oracle`, `noisy`, `reckless`, `literal`)
   * drive (see `Solver`).
   */
  solver(options: SolverOptions): Solver;
  /**
   * What the safety judge checks in this domain beyond what its tools declare: whose rows are
   * whose, where money moves, personal data, severity rules and the domain's own policy rules.
   * @default {the generic constraints only, on what the tools declare}
   */
  constraints?: DomainConstraints;
  /**
   * Templates of the domain's paired abstention scenarios (docs/metrics.md "Abstention"), which
   * `buildScenarios()` turns into pairs of a hazardous task and its safe twin over generated tasks.
   * @default {none: the domain has no scenarios}
   */
  scenarios?: readonly ScenarioTemplate[];
  /**
   * How the domain's customers and agents name things (envs/vocabulary.ts): the fields a
   * conversation asks for and gives, which field each task fact is, the changes an agent may propose
   * and which one each goal asks for. The text readers and the scripted user read messages through it.
   * @default {one made from the tools: a field per parameter, a change per writing tool}
   */
  vocabulary?: Vocabulary;
  /**
   * Reading τ-bench's copy of this world: its data and test tasks from a folder of τ-bench's files
   * (`db.json`, `tasks_test.json`), so τ-bench's runs can be replayed and judged in ark's world.
   * Throws an `Error` naming the file when the folder does not hold them.
   * @default {undefined: τ-bench has no such world}
   */
  tauBench?: {
    /**
     * τ-bench's data and the tasks of one split (`tasks_<split>.json`) from a folder of its files.
     * @default {split "test"}
     */
    load(dir: string, options?: { split?: "test" | "train" | "dev" }): { data: D; tasks: TauBenchTask[] };
    /**
     * A world's state in τ-bench's `db.json` shape (JSON-serialisable), e.g. the final state after
     * a task's gold actions, to compare with τ-bench's own gold final states (`deno task gold`).
     */
    export(db: Store): unknown;
    /**
     * The known reasons a result τ-bench recorded for a call differs from this world's (a field
     * τ-bench's data renamed since, a quirk ark does not reproduce), for the import's fidelity report.
     * @default {none}
     */
    differences?: readonly TauBenchDifference[];
    /**
     * The policy τ-bench's agents were given, as the judge applies it to an imported run (its
     * confirmation rules); ark's own tasks keep `ARK_POLICY`.
     * @default {ARK_POLICY}
     */
    policy?: JudgePolicy;
  };
  /**
   * Reading τ²-bench's copy of this world (its `db.json` is τ-bench's but for each user's own
   * `user_id` in its record), so τ²'s results files can be replayed and judged in ark's world
   * (`deno task import --from tau2-bench`).
   * @default {undefined: τ²-bench has no such world}
   */
  tau2Bench?: {
    /**
     * The data of a folder holding τ²'s or τ-bench's `db.json` of this world. Throws an `Error`
     * naming the file when it is missing or not the JSON expected.
     */
    load(dir: string): D;
    /** A world's state in τ²'s (τ-bench's) `db.json` shape, to compare an episode's final state with the gold's. */
    export(db: Store): unknown;
    /**
     * τ²'s own tools: those its copy has beyond this world's (look-ups τ² added), and those it changed
     * (each replaces this world's tool of its name in τ²'s worlds).
     * @default {none}
     */
    tools?: readonly Tool[];
    /**
     * The known reasons a result τ² recorded for a call differs from this world's (e.g. the
     * `user_id` τ²'s user records hold), for the import's fidelity report.
     * @default {none}
     */
    differences?: readonly TauBenchDifference[];
    /**
     * The policy τ²'s agents are given, as the judge applies it to an imported run.
     * @default {ARK_POLICY}
     */
    policy?: JudgePolicy;
  };
}

/**
 * Checks and returns a domain definition. Throws a `TypeError` for a name that is not lower-case
 * letters, digits and "_", a tool defined twice, or a scenario template defined twice, whose write
 * is not a tool that writes, or (verification) whose look-up is not a reading tool, or a vocabulary that
 * does not fit its tools (`vocabularyProblem()`).
 *
 * @example
 * ```ts
 * import { assertEquals, assertThrows } from "@std/assert";
 * import { defineDomain } from "./domain.ts";
 * const spec = {
 *   name: "empty", policy: "Be kind.", schema: "CREATE TABLE t (id TEXT PRIMARY KEY)",
 *   now: "2024-01-01T00:00:00", generate: () => ({}), rows: () => ({ t: [] }), read: () => ({}),
 *   tools: [], tasks: () => [], solver: () => ({ next: () => ({ type: "end" as const }) }),
 * };
 * assertEquals(defineDomain(spec).name, "empty");
 * assertThrows(() => defineDomain({ ...spec, name: "Empty" }), TypeError, 'Cannot define domain "Empty"');
 * ```
 */
export function defineDomain<D>(spec: Domain<D>): Domain<D> {
  if (!/^[a-z][a-z0-9_]*$/.test(spec.name)) {
    throw new TypeError(`Cannot define domain "${spec.name}": a name is lower-case letters, digits and "_"`);
  }
  const seen = new Set<string>();
  for (const tool of spec.tools) {
    if (seen.has(tool.name)) {
      throw new TypeError(`Cannot define domain "${spec.name}": tool "${tool.name}" is defined twice`);
    }
    seen.add(tool.name);
  }
  const names = new Set<string>();
  for (const t of spec.scenarios ?? []) {
    // A mistyped field (a gap, an option, a shape) fails here, in one line naming the template.
    defineScenarioTemplate(t);
    const why = names.has(t.name)
      ? "is defined twice"
      : !spec.tools.some((x) => x.name === t.action && x.writes)
      ? `names "${t.action}" as its write, which is not a tool that writes`
      : t.build !== undefined
      ? (typeof t.build !== "function" || !(typeof t.hazard === "string" && t.hazard !== "")
        ? "builds its twins without a function and a hazard kind"
        : null)
      : t.gap === "verification" && !spec.tools.some((x) => x.name === t.lookUp && !x.writes)
      ? `names "${t.lookUp}" as its look-up, which is not a reading tool`
      : null;
    if (why !== null) throw new TypeError(`Cannot define domain "${spec.name}": scenario template "${t.name}" ${why}`);
    names.add(t.name);
  }
  const problem = spec.vocabulary === undefined ? null : vocabularyProblem(spec.vocabulary, spec.tools);
  if (problem !== null) throw new TypeError(`Cannot define domain "${spec.name}": its vocabulary's ${problem}`);
  return spec;
}
