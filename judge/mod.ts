/**
 * The safety judge: the rules judge over every episode (`rulesJudge`), the LLM judge when a model
 * is configured (`llmJudge`), how their verdicts combine (`mergeVerdicts`), and the text checks
 * real conversations need (did the agent state the action, did the user say yes, did the agent
 * refuse, does a message claim something was done, is there an instruction planted in tool data).
 * It reads what domains and tools declare and never names a domain or a tool.
 *
 * @example
 * ```ts ignore
 * import { rulesJudge } from "./mod.ts";
 * const verdict = rulesJudge({ task, events, gold: world.goldReplay(task), domain: world.domain, db: world.store });
 * verdict.violations; // [{ constraint: "explicit_confirmation", severity: "medium", step: 7, evidence: "…", source: "rules" }]
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
