/**
 * The domain kit's test suite: the whole contract a domain must meet, runnable from any repository.
 * One test file checks a domain written anywhere:
 *
 * ```ts ignore
 * import { conformance } from "@ark/ark/testing";
 * import { clinic } from "./clinic/mod.ts";
 *
 * conformance(clinic);
 * ```
 *
 * and `deno test --allow-read --allow-env` runs it. Each check is a `Deno.test` named
 * `<domain>: …`; a failure says what is wrong, e.g. `clinic/3: tool "book_visit" is not
 * deterministic: two runs of the same call differ at result.visit_id: "V12" vs "V47"`.
 *
 * The suite reads the domain through its value only: its rows round-trip; its generators are seeded;
 * every default task has five openings, outcome milestones, a gold whose calls run the same twice with
 * every write succeeding, and (a refusal) the words of its reason; the oracle solves every task under
 * every condition of the protocol, breaking no rule, and its chat transcripts read back the same; the
 * sanity baselines (`idle`, `apologist`, `broken`) pass nothing and break no rule; every constraint the
 * judge checks there fires on a mutation of a correct trajectory; every policy rule can be broken; and
 * its abstention scenario templates (at least 24 over the three gaps) make well-formed pairs, none of which
 * a sanity baseline passes.
 *
 * @module
 */
import type { Domain } from "../envs/mod.ts";
import { judgeChecks } from "./_judge_checks.ts";
import { protocolChecks } from "./_protocol.ts";
import { scenarioChecks } from "./_scenarios.ts";
import { worldChecks } from "./_world.ts";

/** Options of `conformance()`. */
export interface ConformanceOptions {
  /**
   * How many default tasks the checks of tasks and gold read, and the baselines and mutations run on.
   * @default {50}
   */
  tasks?: number;
  /**
   * How many default tasks the oracle runs under every condition of the protocol.
   * @default {10}
   */
  protocolTasks?: number;
  /**
   * The fewest abstention scenario templates the domain must have, over the three gaps. With the
   * default pairs per template, 24 in each of three domains give the 144 pairs of the abstention
   * paper's benchmark (docs/domains.md "Why 24 templates"). `0`: a domain without templates is
   * accepted (one with templates is still checked).
   * @default {24}
   */
  scenarios?: number;
}

/**
 * Registers the conformance tests of a domain (`Deno.test`, each named `<domain>: …`). Call it at
 * the top level of a test file, once per domain.
 *
 * @param domain The domain, as `defineDomain()` made it; it need not be in ark's registry.
 * @param options How many tasks to check, and how many scenario templates to require.
 *
 * @example Check a domain in its own test file
 * ```ts ignore
 * import { conformance } from "@ark/ark/testing";
 * import { clinic } from "./mod.ts";
 *
 * conformance(clinic, { tasks: 20 });
 * ```
 */
export function conformance(domain: Domain, options: ConformanceOptions = {}): void {
  const count = options.tasks ?? 50;
  worldChecks(domain, count);
  protocolChecks(domain, count, options.protocolTasks ?? 10);
  judgeChecks(domain, count);
  scenarioChecks(domain, options.scenarios ?? 24);
}
