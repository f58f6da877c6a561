/**
 * τ²-bench's results format (its `Results`): one JSON file `{timestamp, info, tasks, simulations}`,
 * or a folder holding `results.json` (the same without its simulations, listed in
 * `simulation_index`; without one, every simulation file is read, by name) and
 * `simulations/<id>.json`; a results file beside a `simulations/` folder is that folder. Each simulation becomes an episode on task
 * `tau2-bench:<domain>/<id>` with run = `trial`, the file's reward, its costs and duration, how it
 * ended, and what ark needs to recompute τ²'s reward (`_tau2_reward.ts`).
 *
 * @module
 */
import { z } from "zod";
import type { Json, Tau2BenchTask } from "../../envs/mod.ts";
import type { ModelClient } from "../../agents/model/mod.ts";
import type { ChatMessage } from "./chat.ts";
import type { ImportedEpisode } from "./episodes.ts";
import { jsonErrorWhere } from "../../eval/fs_errors.ts";
import { tau2Rescore } from "./_tau2_reward.ts";

export { ResultsFileError } from "./tau_bench.ts";
import { ResultsFileError } from "./tau_bench.ts";

const text = z.string().nullable().optional();
const cost = z.number().nonnegative().nullable().optional();
const message = z.object({
  role: z.enum(["system", "user", "assistant", "tool"]),
  content: text,
  tool_calls: z.array(z.object({
    id: z.string(),
    name: z.string(),
    arguments: z.record(z.string(), z.unknown()).nullable().optional(),
    requestor: z.string().optional(),
  })).nullable().optional(),
  id: z.string().optional(),
  requestor: z.string().nullable().optional(),
  error: z.boolean().nullable().optional(),
});
const rewardInfo = z.object({
  reward: z.number().min(0).max(1),
  reward_basis: z.array(z.string()).nullable().optional(),
  reward_breakdown: z.record(z.string(), z.number()).nullable().optional(),
  nl_assertions: z.array(z.object({ nl_assertion: z.string(), met: z.boolean() })).nullable().optional(),
});
const simulation = z.object({
  id: z.string(),
  task_id: z.union([z.string(), z.number().int()]).transform(String),
  trial: z.number().int().nonnegative().nullable().optional(),
  termination_reason: z.string(),
  agent_cost: cost,
  user_cost: cost,
  duration: cost,
  messages: z.array(message),
  reward_info: rewardInfo.nullable().optional(),
});
const instructions = z.union([z.string(), z.record(z.string(), z.unknown())]).nullable().optional();
const task = z.object({
  id: z.union([z.string(), z.number().int()]).transform(String),
  user_scenario: z.object({ instructions }).nullable().optional(),
  initial_state: z.unknown().optional(),
  evaluation_criteria: z.object({
    actions: z.array(z.object({
      name: z.string(),
      arguments: z.record(z.string(), z.unknown()).nullable().optional(),
      requestor: z.string().nullable().optional(),
    })).nullable().optional(),
    env_assertions: z.array(z.unknown()).nullable().optional(),
    communicate_info: z.array(z.string()).nullable().optional(),
    nl_assertions: z.array(z.string()).nullable().optional(),
    reward_basis: z.array(z.string()).nullable().optional(),
  }).nullable().optional(),
});
const results = z.object({
  info: z.object({ environment_info: z.object({ domain_name: z.string() }) }),
  tasks: z.array(z.unknown()).optional(),
  simulations: z.array(z.unknown()).optional(),
  simulation_index: z.array(z.object({ id: z.string() })).nullable().optional(),
});

/** A simulation of the file, parsed. */
export type Tau2Simulation = z.infer<typeof simulation>;

/** What `readTau2BenchResults()` reads. */
export interface Tau2Read {
  /** The domain the file names (`info.environment_info.domain_name`). */
  domain: string;
  /** The file's tasks (or the task file's), as ark keeps them. */
  tasks: Tau2BenchTask[];
  /** The simulations as episodes. */
  episodes: ImportedEpisode[];
  /** Simulations (or tasks) that could not be read, each with what is wrong. */
  unreadable: { where: string; reason: string }[];
}

const EXPECTED = "expected τ²-bench's results: {timestamp, info, tasks, simulations}, or a folder with " +
  "results.json and simulations/<id>.json";

/**
 * A τ² results file's text (or a results folder's `results.json` with `simulations`, its simulation
 * files' texts by id), as episodes of `agent` on `domain` (default: the file's domain). Tasks come
 * from `tasksText` (a τ² `tasks.json`) when given, else from the file's `tasks`. Throws a
 * `ResultsFileError` when the text is not a τ² results object.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { readTau2BenchResults } from "./tau2_bench.ts";
 * const text = JSON.stringify({
 *   info: { environment_info: { domain_name: "airline" } },
 *   tasks: [{ id: "3", evaluation_criteria: { actions: [], communicate_info: [], reward_basis: ["DB"] } }],
 *   simulations: [{ id: "s", task_id: "3", trial: 0, termination_reason: "user_stop", messages: [] }],
 * });
 * assertEquals(readTau2BenchResults(text, { agent: "a", file: "r.json" }).episodes[0].task, "tau2-bench:airline/3");
 * ```
 */
export function readTau2BenchResults(
  text: string,
  options: {
    agent: string;
    file: string;
    domain?: string;
    simulations?: Map<string, string>;
    tasksText?: string;
    /** The task file's name, for its errors. */
    taskFile?: string;
    /** A model that judges the NL_ASSERTION component again (else it is taken from the file). */
    nlJudge?: ModelClient;
  },
): Tau2Read {
  const raw = parseJson(text, options.file);
  const top = results.safeParse(raw);
  if (!top.success) {
    const issue = top.error.issues[0];
    throw new ResultsFileError(
      `Cannot import "${options.file}": ${
        issue.path.map(String).join(".") || "the file"
      }: ${issue.message}; ${EXPECTED}`,
    );
  }
  const domain = options.domain ?? top.data.info.environment_info.domain_name;
  const unreadable: Tau2Read["unreadable"] = [];
  const rawTasks = options.tasksText === undefined
    ? top.data.tasks ?? []
    : tasksOf(options.tasksText, options.taskFile);
  const tasks = readTasks(rawTasks, unreadable, options.tasksText === undefined ? "task" : "tasks file's task");
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const sims: { where: string; raw: unknown }[] = [];
  // Without an index, every simulation file of the folder, by name (as τ²'s Results.load reads them).
  const index = top.data.simulation_index ?? [...(options.simulations?.keys() ?? [])].map((id) => ({ id }));
  if (options.simulations !== undefined) {
    for (const [i, entry] of index.entries()) {
      const where = `simulation ${i + 1} (simulations/${entry.id}.json)`;
      const body = options.simulations.get(entry.id);
      if (body === undefined) unreadable.push({ where, reason: "no such file in the folder's simulations/" });
      else {
        try {
          sims.push({ where, raw: JSON.parse(body) });
        } catch (err) {
          if (!(err instanceof SyntaxError)) throw err;
          unreadable.push({ where, reason: `not JSON${jsonErrorWhere(err)}; expected one simulation object` });
        }
      }
    }
  } else {
    (top.data.simulations ?? []).forEach((s, i) => sims.push({ where: `simulation ${i + 1}`, raw: s }));
    if (sims.length === 0) {
      throw new ResultsFileError(`Cannot import "${options.file}": it holds no simulations; ${EXPECTED}`);
    }
  }
  const episodes: ImportedEpisode[] = [];
  for (const { where: at, raw: s } of sims) {
    const o = s !== null && typeof s === "object" ? s as Record<string, unknown> : {};
    const where = `${at}${
      "task_id" in o ? ` (task ${JSON.stringify(o.task_id)}, trial ${JSON.stringify(o.trial ?? 0)})` : ""
    }`;
    const parsed = simulation.safeParse(s);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const path = issue.path.length === 0 ? "the simulation" : issue.path.map(String).join(".");
      unreadable.push({
        where,
        reason: `${path}: ${issue.message}; expected {id, task_id, trial, termination_reason, messages, reward_info}`,
      });
      continue;
    }
    const sim = parsed.data, spec = byId.get(sim.task_id);
    if (spec === undefined) {
      unreadable.push({
        where,
        reason: `task "${sim.task_id}" is not one of the ${tasks.length} tasks read` +
          (options.tasksText === undefined ? " (pass τ²-bench's tasks.json with --task-file)" : ""),
      });
      continue;
    }
    episodes.push(episodeOf(sim, spec, { where, agent: options.agent, domain, nlJudge: options.nlJudge }));
  }
  return { domain, tasks, episodes, unreadable };
}

function parseJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    if (!(err instanceof SyntaxError)) throw err;
    throw new ResultsFileError(`Cannot import "${file}": it is not JSON${jsonErrorWhere(err)}; ${EXPECTED}`);
  }
}

const TASKS_EXPECTED = "expected τ²-bench's tasks.json (a JSON array of tasks, each {id, evaluation_criteria})";

function tasksOf(text: string, file = "the task file"): unknown[] {
  const name = file === "the task file" ? file : `the task file "${file}"`;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    if (!(err instanceof SyntaxError)) throw err;
    throw new ResultsFileError(`Cannot read ${name}: it is not JSON${jsonErrorWhere(err)}; ${TASKS_EXPECTED}`);
  }
  if (!Array.isArray(raw)) {
    throw new ResultsFileError(`Cannot read ${name}: it is JSON but not an array; ${TASKS_EXPECTED}`);
  }
  return raw;
}

function readTasks(raw: readonly unknown[], unreadable: Tau2Read["unreadable"], what: string): Tau2BenchTask[] {
  const out: Tau2BenchTask[] = [], indices = new Set<number>();
  raw.forEach((t, i) => {
    const parsed = task.safeParse(t);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      unreadable.push({
        where: `${what} ${i + 1}`,
        reason: `${
          issue.path.map(String).join(".") || "the task"
        }: ${issue.message}; expected {id, evaluation_criteria}`,
      });
      return;
    }
    const p = parsed.data, c = p.evaluation_criteria;
    // ark's task ids are indices: τ²'s whole-number ids are kept, any other id is its position.
    const index = /^\d{1,9}$/.test(p.id) ? Number(p.id) : i;
    if (indices.has(index)) {
      unreadable.push({ where: `${what} ${i + 1}`, reason: `task "${p.id}" is the second task of index ${index}` });
      return;
    }
    indices.add(index);
    const brief = p.user_scenario?.instructions;
    out.push({
      id: p.id,
      index,
      ...(brief === null || brief === undefined ? {} : { instruction: briefText(brief) }),
      actions: (c?.actions ?? []).filter((a) => (a.requestor ?? "assistant") === "assistant")
        .map((a) => ({ name: a.name, arguments: (a.arguments ?? {}) as Record<string, Json> })),
      communicate_info: c?.communicate_info ?? [],
      nl_assertions: c?.nl_assertions ?? [],
      // τ²'s evaluator: no criteria at all is reward 1 (no components); criteria without a basis, DB × COMMUNICATE.
      reward_basis: c === null || c === undefined ? [] : c.reward_basis ?? ["DB", "COMMUNICATE"],
      ...(c !== null && c !== undefined && (c.actions ?? null) === null && (c.env_assertions ?? null) === null
        ? { no_expected_state: true }
        : {}),
      ...(p.initial_state !== null && p.initial_state !== undefined ? { initial_state: true } : {}),
    });
  });
  return out;
}

function briefText(brief: string | Record<string, unknown>): string {
  if (typeof brief === "string") return brief;
  return Object.entries(brief).filter(([k, v]) => k !== "domain" && typeof v === "string" && v !== "")
    .map(([k, v]) => `${k}: ${v}`).join("\n");
}

function episodeOf(
  sim: Tau2Simulation,
  spec: Tau2BenchTask,
  options: { where: string; agent: string; domain: string; nlJudge?: ModelClient },
): ImportedEpisode {
  const resources: NonNullable<ImportedEpisode["resources"]> = {};
  if (typeof sim.agent_cost === "number") resources.cost = sim.agent_cost;
  if (typeof sim.duration === "number") resources.time = sim.duration;
  return {
    where: options.where,
    agent: options.agent,
    task: `tau2-bench:${options.domain}/${spec.index}`,
    run: sim.trial ?? 0,
    messages: chatOf(sim.messages),
    ...(sim.reward_info ? { tau_reward: sim.reward_info.reward } : {}),
    resources,
    ...(typeof sim.user_cost === "number" ? { userResources: { cost: sim.user_cost } } : {}),
    ending: endingOf(sim.termination_reason),
    unknownTools: "error",
    rescore: tau2Rescore(sim, spec, options.nlJudge === undefined ? {} : { nlJudge: options.nlJudge }),
  };
}

// τ²'s messages in the chat shape `replayChat()` reads: tool calls as OpenAI's `{id, function}`, a
// tool message's `id` as the id of the call it answers. The user's own tool calls (τ²'s dual-control
// domains) are not the agent's: they and their results are left out.
function chatOf(messages: readonly Tau2Simulation["messages"][number][]): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (const m of messages) {
    if (m.role === "tool") {
      if (m.requestor === "user") continue;
      out.push({ role: "tool", content: m.content ?? "", ...(m.id !== undefined ? { tool_call_id: m.id } : {}) });
    } else if (m.role === "assistant" && (m.tool_calls?.length ?? 0) > 0) {
      out.push({
        role: "assistant",
        content: m.content ?? null,
        tool_calls: m.tool_calls!.map((c) => ({ id: c.id, function: { name: c.name, arguments: c.arguments ?? {} } })),
      });
    } else out.push({ role: m.role, content: m.content ?? "" });
  }
  return out;
}

// How a τ² simulation ended, as ark's records say it: the user's or the agent's stop is an ordinary
// end; an agent's or user simulator's error is that side's error; a step or error limit ends the run.
function endingOf(reason: string): NonNullable<ImportedEpisode["ending"]> {
  switch (reason) {
    case "user_stop":
      return { endedBy: "user" };
    case "agent_stop":
      return { endedBy: "agent" };
    case "max_steps":
      // As ark's own step limit: ended by max_steps, no error.
      return { endedBy: "max_steps" };
    case "user_error":
      return { endedBy: "user", userError: `τ²-bench: the user simulator failed (termination_reason "${reason}")` };
    case "infrastructure_error":
      // Not the agent's failure: kept on the user/harness side, as a user simulator's failure is.
      return {
        endedBy: "user",
        userError: `τ²-bench: the run failed on its infrastructure (termination_reason "${reason}"), not the agent`,
      };
    default:
      return { endedBy: "agent", agentError: `τ²-bench ended the run: termination_reason "${reason}"` };
  }
}
