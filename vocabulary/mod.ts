/**
 * The word lists the whole project shares, each declared once: an `as const` array (in the order
 * reports, CSV columns and plans list it), its type and its zod enum. Worlds, judges, scoring, the
 * experiment core and the server import them from here; this module imports nothing of the project.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { SEVERITIES, SeveritySchema } from "./mod.ts";
 * assertEquals(SEVERITIES.indexOf("high") > SEVERITIES.indexOf("low"), true);
 * assertEquals(SeveritySchema.safeParse("grave").success, false);
 * ```
 *
 * @module
 */
import { z } from "zod";

/**
 * Zod's enum type under a local name: `deno doc --lint` reports any reference to another
 * package's type as private (denoland/deno#27364).
 *
 * @internal
 */
type ZodEnum<T extends readonly string[]> = z.ZodEnum<{ [K in T[number]]: K }>;

/**
 * Severities of a safety violation (docs/metrics.md "Safety"), lightest first: the order a worst
 * severity is taken in.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { SEVERITIES } from "./mod.ts";
 * assertEquals(SEVERITIES.at(-1), "critical");
 * ```
 */
export const SEVERITIES = ["low", "medium", "high", "critical"] as const;
/** A severity of a safety violation (see `SEVERITIES`). */
export type Severity = typeof SEVERITIES[number];
/** Zod schema of a severity. */
export const SeveritySchema: ZodEnum<typeof SEVERITIES> = z.enum(SEVERITIES);

/**
 * The gap kinds of abstention scenarios (docs/metrics.md "Abstention"): the kind of precondition a
 * hazardous scenario leaves unmet, in the order reports list them.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { GapSchema } from "./mod.ts";
 * assertEquals(GapSchema.parse("authority"), "authority");
 * ```
 */
export const GAPS = ["specification", "verification", "authority"] as const;
/** A gap kind (see `GAPS`). */
export type Gap = typeof GAPS[number];
/** Zod schema of a gap kind. */
export const GapSchema: ZodEnum<typeof GAPS> = z.enum(GAPS);

/**
 * The task categories, in the order reports list them (ark's extension of the record format):
 * ordinary tasks, edge cases, tasks whose world answers some calls wrongly, and noisy requests.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { TASK_CATEGORIES } from "./mod.ts";
 * assertEquals(TASK_CATEGORIES.length, 4);
 * ```
 */
export const TASK_CATEGORIES = ["normal", "edge", "abnormal", "noise"] as const;
/** A task category (see `TASK_CATEGORIES`). */
export type TaskCategory = typeof TASK_CATEGORIES[number];
/** Zod schema of a task category. */
export const TaskCategorySchema: ZodEnum<typeof TASK_CATEGORIES> = z.enum(TASK_CATEGORIES);

/**
 * The conditions an episode runs under (docs/metrics.md "Conditions"), in the order the plan lays
 * them out: as it is, with injected faults, with a perturbed interface, with a paraphrased prompt.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { CONDITIONS } from "./mod.ts";
 * assertEquals(CONDITIONS[0], "nominal");
 * ```
 */
export const CONDITIONS = ["nominal", "fault", "env", "prompt"] as const;
/** A condition (see `CONDITIONS`). */
export type Condition = typeof CONDITIONS[number];
/** Zod schema of a condition. */
export const ConditionSchema: ZodEnum<typeof CONDITIONS> = z.enum(CONDITIONS);

/**
 * How an agent ran on an abstention scenario: as it is, with an abstention instruction added to its
 * policy, or behind the checkpoint wrapper.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { ABSTENTION_CONDITIONS } from "./mod.ts";
 * assertEquals(ABSTENTION_CONDITIONS.includes("checkpoint"), true);
 * ```
 */
export const ABSTENTION_CONDITIONS = ["baseline", "prompt_only", "checkpoint"] as const;
/** An abstention condition (see `ABSTENTION_CONDITIONS`). */
export type AbstentionCondition = typeof ABSTENTION_CONDITIONS[number];
/** Zod schema of an abstention condition. */
export const AbstentionConditionSchema: ZodEnum<typeof ABSTENTION_CONDITIONS> = z.enum(ABSTENTION_CONDITIONS);

/**
 * The labels of a blocked call: the checkpoint's, and an abstention outcome's when the agent blocked.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { BlockLabelSchema } from "./mod.ts";
 * assertEquals(BlockLabelSchema.safeParse("blocked_commitment").success, true);
 * ```
 */
export const BLOCK_LABELS = ["grounding_warning", "blocked_constraint", "blocked_commitment"] as const;
/** A block label (see `BLOCK_LABELS`). */
export type BlockLabel = typeof BLOCK_LABELS[number];
/** Zod schema of a block label. */
export const BlockLabelSchema: ZodEnum<typeof BLOCK_LABELS> = z.enum(BLOCK_LABELS);

/**
 * How a long-horizon task's steps depend on each other, in the order reports list them: each on the
 * previous one (`strong`), or not (`weak`).
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { DependencySchema } from "./mod.ts";
 * assertEquals(DependencySchema.safeParse("weak").success, true);
 * ```
 */
export const DEPENDENCIES = ["strong", "weak"] as const;
/** A dependency kind (see `DEPENDENCIES`). */
export type Dependency = typeof DEPENDENCIES[number];
/** Zod schema of a dependency kind. */
export const DependencySchema: ZodEnum<typeof DEPENDENCIES> = z.enum(DEPENDENCIES);

/**
 * What a correct agent does on a task (docs/metrics.md "Grading"): act on it, refuse it, transfer it
 * to a human, or inform the user.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { OutcomeKindSchema } from "./mod.ts";
 * assertEquals(OutcomeKindSchema.options, ["act", "refuse", "transfer", "inform"]);
 * ```
 */
export const OUTCOME_KINDS = ["act", "refuse", "transfer", "inform"] as const;
/** An outcome kind (see `OUTCOME_KINDS`). */
export type OutcomeKind = typeof OUTCOME_KINDS[number];
/** Zod schema of an outcome kind. */
export const OutcomeKindSchema: ZodEnum<typeof OUTCOME_KINDS> = z.enum(OUTCOME_KINDS);
