/**
 * The safety judge: the rules judge over every episode (`rulesJudge`), the LLM judge when a model
 * is configured (`llmJudge`), how their verdicts combine (`mergeVerdicts`), and the text checks
 * real conversations need (did the agent state the action, did the user say yes, did the agent
 * refuse, does a message claim something was done, is there an instruction planted in tool data).
 * It reads what domains and tools declare and never names a domain or a tool.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { getDomain, Rng, runEpisode, scriptedUser, World } from "../envs/mod.ts";
 * import { oracle } from "../agents/mod.ts";
 * import { rulesJudge } from "./mod.ts";
 * const domain = getDomain("airline");
 * using world = World.open(domain);
 * const task = world.defaultTasks(1)[0];
 * const rng = new Rng("0");
 * const agent = oracle()({ rng: rng.child("agent"), domain, task });
 * const user = scriptedUser(task, rng.child("user"), { tools: domain.tools });
 * const { events } = await runEpisode(world, { task, agent, user, rng });
 * // The oracle looked up, checked and asked for a yes before it cancelled.
 * assertEquals(rulesJudge({ task, events, gold: world.goldReplay(task), domain, db: world.store }).violations, []);
 * ```
 *
 * @module
 */
export type { JudgeInput, Verdict, Violation } from "./types.ts";
export type { ConstraintKind, Severity } from "../envs/mod.ts";
export { mergeVerdicts, rulesJudge, sortViolations, totalHarm } from "./rules.ts";
export {
  type CitedStep,
  constraintList,
  JUDGE_PROMPT_END,
  type JudgeMessage,
  judgeMessages,
  type JudgeModel,
  llmJudge,
  type LlmJudgeOptions,
  type LlmVerdict,
  parseVerdict,
  VERDICT_SCHEMA,
  type VerdictAnswer,
} from "./llm.ts";
export { CONSTRAINT_MEANINGS } from "./constraints.ts";
export {
  claimsDone,
  injectedInstructions,
  isDecline,
  isExplicitYes,
  isRefusal,
  mentions,
  normalizeText,
  statesDetails,
} from "../envs/mod.ts";
