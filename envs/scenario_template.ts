/**
 * A domain's templates of paired abstention scenarios (`Domain.scenarios`): the built-in gaps and
 * the twins a domain's own builder makes (`HazardBuilder`), which `buildScenarios()` turns into tasks.
 *
 * @module
 */
import type { Rng } from "./rng.ts";
import type { Gap, ScenarioInfo, Task } from "./task.ts";

/**
 * A template of paired abstention scenarios: it picks generated tasks of one `intent` that make
 * its `action` (a write), keeps each as the safe twin, and makes the hazardous twin by taking one
 * precondition away:
 *
 * - `specification`: the user does not know the fact `withhold` (an opening that said it says
 *   instead that the user does not have it); what is missing is that fact;
 * - `verification`: every call of the look-up `lookUp` fails (`fails`, a dependency that is down
 *   or a timeout), so the state the write depends on cannot be confirmed; what is missing is the
 *   look-up's first argument (the entity it reads);
 * - `authority`: the user does not approve the write (with `hold`, the request itself says to
 *   change nothing yet); what is missing is `approval`.
 *
 * No write is right in a hazardous twin (its gold has none). Its user knows what its customer would:
 * a specification twin's user knows it lacks the fact (`Task.lacks`) and cannot approve a proposal
 * naming it; an authority twin's user has not decided (`Task.undecided`) and approves nothing.
 */
export type ScenarioTemplate =
  & {
    /** Unique in its domain: lower-case letters, digits and "_", e.g. `"cancel_without_reservation_id"`. */
    name: string;
    /** The intent of the generated tasks it is built on. */
    intent: string;
    /** The write the pair is about (a gold call of the base task). */
    action: string;
    /**
     * What an informed refusal names, when not the default of the gap.
     * @default {the withheld fact, the look-up's first argument, or "approval"}
     */
    missing?: string;
    /**
     * Which of those bases can carry the hazard, when not all can (e.g. only bags that cost
     * something lack a payment the user must give).
     * @default {every base of its intent that makes the write}
     */
    takes?: (base: Task) => boolean;
  }
  & (
    | { gap: "specification"; withhold: string; build?: undefined }
    | { gap: "verification"; lookUp: string; fails?: "dependency_down" | "timeout"; build?: undefined }
    | { gap: "authority"; hold?: boolean; build?: undefined }
    | {
      gap: Gap;
      /** The hazard kind its pairs test (`ScenarioInfo.hazard`), e.g. `"wrong_record"`. */
      hazard: string;
      /** The twins of a base task, or `null` when the base cannot carry the hazard (see `HazardBuilder`). */
      build: HazardBuilder;
    }
  );

/**
 * What a template built by a domain's function (`hazard()` of envs/scenarios.ts) makes of a generated
 * task that fits its intent and write: the fields of the hazardous twin (and of the safe twin) that
 * differ from the base, what the hazardous twin leaves unmet, and the `ScenarioInfo` fields it sets.
 */
export interface HazardTwin {
  /** The hazardous twin's fields that differ from the base task's (facts, openings, gold, abnormal calls, …). */
  hazardous: Partial<Omit<Task, "id" | "scenario">>;
  /**
   * The safe twin's fields that differ from the base task's (e.g. the description the hazardous twin's
   * user gives of the record it means).
   * @default {none: the base as it is}
   */
  safe?: Partial<Omit<Task, "id" | "scenario">>;
  /** The precondition the hazardous twin leaves unmet (`ScenarioInfo.missing`). */
  missing: string;
  /** See `ScenarioInfo.names`. */
  names?: readonly string[];
  /** See `ScenarioInfo.forbidden`. */
  forbidden?: ScenarioInfo["forbidden"];
}

/**
 * A domain's builder of a hazard's twins from a base task, the world's data, a generator seeded by the
 * template and the base, and the other generated tasks (e.g. a refusal of the same request); `null`
 * when the base cannot carry the hazard. It must be deterministic in its arguments.
 */
export type HazardBuilder = (
  base: Task,
  context: { data: unknown; rng: Rng; tasks: readonly Task[] },
) => HazardTwin | null;
