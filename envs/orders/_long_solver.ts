// The playbook of the long-horizon tasks: a state machine that makes one look-up and one
// record_result per step. Private to envs/orders/; long.ts exports it as `longSolver()`.
//
// It trusts its own look-ups (the noisy agent's changed arguments are hidden from it, as from
// any agent that does not check its work): under `referral_chain` the next look-up is the
// referrer the last one returned, so one wrong id sends every later step down another chain or to
// a dead end; under `order_totals` the look-ups are the user's list, so a wrong one costs only its
// own step. A look-up that fails ends a chain (there is no next id to follow) and skips one order
// of a list; a record that fails is left out and said in the summary. Faults never reach it (the
// scripted agents' adapter retries them).
import type { AgentAction, Observation, Solver, SolverOptions, ToolResult } from "../agent.ts";
import type { Json } from "../json.ts";

const END: AgentAction = { type: "end" };

type Family = "referral_chain" | "order_totals";

// What the request asked for, once its facts are known.
interface Plan {
  family: Family;
  steps: number;
  // referral_chain: the starting customer; order_totals: the orders, in step order.
  start: string;
  orders: number[];
}

// What the solver waits for: nothing yet, the user's answer, a look-up's or a record's result.
type Waiting = "request" | "answer" | "look_up" | "record" | "closed";

/** The long tasks' playbook; `options` change nothing (its only write needs no yes). */
export class LongSolver implements Solver {
  readonly options: SolverOptions;
  #waiting: Waiting = "request";
  #family: Family | null = null;
  #facts: Record<string, Json> = {};
  #asked = false;
  #plan: Plan | null = null;
  #step = 0;
  // referral_chain: the customer to look up at the current step.
  #current = "";
  #value: Json = null;
  #recorded: number[] = [];
  #failed: { step: number; why: string }[] = [];

  constructor(options: SolverOptions) {
    if (typeof options?.confirm !== "boolean" || typeof options?.verify !== "boolean") {
      throw new TypeError("Invalid solver options: expected { confirm: boolean, verify: boolean }");
    }
    this.options = options;
  }

  next(obs: Observation): AgentAction {
    const intent = obs.message?.intent;
    if (intent?.kind === "request") return this.#open(intent.goal, intent.facts);
    switch (this.#waiting) {
      case "answer":
        if (intent?.kind === "provide") Object.assign(this.#facts, intent.facts);
        return this.#begin();
      case "look_up":
        return obs.tool ? this.#looked(obs.tool) : this.#close();
      case "record":
        return obs.tool ? this.#recordedStep(obs.tool) : this.#close();
      default:
        return END;
    }
  }

  // A new request: forget any previous episode.
  #open(goal: string, facts: Record<string, Json>): AgentAction {
    this.#family = goal === "referral_chain" || goal === "order_totals" ? goal : null;
    this.#facts = { ...facts };
    this.#asked = false;
    this.#plan = null;
    this.#recorded = [];
    this.#failed = [];
    if (this.#family === null) {
      this.#waiting = "closed";
      return inform(
        "I can follow a referral chain or record the totals of a list of orders step by step; " +
          "I can't help with this request here.",
        { outcome: "not_done" },
      );
    }
    return this.#begin();
  }

  // Asks once for what the request lacks, then starts on step 1.
  #begin(): AgentAction {
    const plan = planOf(this.#family!, this.#facts);
    if (plan instanceof Array) {
      if (this.#asked) {
        this.#waiting = "closed";
        return inform(`Without the ${plan.join(" and ").replaceAll("_", " ")} I can't start.`, { outcome: "not_done" });
      }
      this.#asked = true;
      this.#waiting = "answer";
      return {
        type: "message",
        text: `Could you give me the ${plan.join(" and ").replaceAll("_", " ")}?`,
        intent: { kind: "ask", fields: plan },
      };
    }
    this.#plan = plan;
    this.#step = 1;
    this.#current = plan.start;
    return this.#lookUp();
  }

  #lookUp(): AgentAction {
    this.#waiting = "look_up";
    const plan = this.#plan!;
    return plan.family === "referral_chain"
      ? { type: "tool", name: "get_customer", args: { customer_id: this.#current } }
      : { type: "tool", name: "get_order", args: { order_id: plan.orders[this.#step - 1] } };
  }

  // A look-up's result: record its value, or note the step as failed.
  #looked(tool: ToolResult): AgentAction {
    const plan = this.#plan!;
    const result = tool.ok ? tool.result : null;
    const field = plan.family === "referral_chain" ? "referred_by" : "total";
    const value = isObject(result) ? result[field] : undefined;
    const usable = plan.family === "referral_chain" ? typeof value === "string" && value !== "" : isAmount(value);
    if (!usable) {
      const why = !tool.ok
        ? `the look-up failed (${tool.error?.message ?? "no result"})`
        : value === null && plan.family === "referral_chain"
        ? `customer ${this.#current} was referred by no one`
        : "the look-up gave no usable value";
      this.#failed.push({ step: this.#step, why });
      // A chain cannot go on without the referrer; a list goes on with the next order.
      return plan.family === "referral_chain" ? this.#close() : this.#advance();
    }
    this.#value = value as Json;
    this.#waiting = "record";
    return { type: "tool", name: "record_result", args: { step: this.#step, value: this.#value } };
  }

  #recordedStep(tool: ToolResult): AgentAction {
    if (tool.ok) this.#recorded.push(this.#step);
    else this.#failed.push({ step: this.#step, why: `recording failed (${tool.error?.message ?? "no result"})` });
    if (this.#plan!.family === "referral_chain") this.#current = String(this.#value);
    return this.#advance();
  }

  #advance(): AgentAction {
    if (this.#step >= this.#plan!.steps) return this.#close();
    this.#step++;
    return this.#lookUp();
  }

  // The summary: what was recorded, where it stopped and why.
  #close(): AgentAction {
    this.#waiting = "closed";
    const plan = this.#plan;
    if (plan === null) return inform("I could not start on the request.", { outcome: "not_done" });
    const done = this.#recorded.length;
    const what = plan.family === "referral_chain"
      ? `the referral chain from customer ${plan.start}`
      : `the totals of the ${plan.steps} orders`;
    let text = `I recorded ${done} of ${plan.steps} steps of ${what} on the worksheet` +
      (done > 0 ? ` (${ranges(this.#recorded)})` : "") + ".";
    if (plan.family === "referral_chain" && done === plan.steps) text += ` The last referrer is ${this.#value}.`;
    for (const f of this.#failed) text += ` Step ${f.step}: ${f.why}.`;
    if (plan.family === "referral_chain" && done < plan.steps && this.#failed.length > 0) {
      text += " I could not follow the chain further.";
    }
    const outcome = done === plan.steps ? "done" : done > 0 ? "partial" : "not_done";
    return inform(text, { outcome, recorded: done, steps: plan.steps });
  }
}

// The plan of a request from its facts, or the fields it still lacks.
function planOf(family: Family, facts: Record<string, Json>): Plan | string[] {
  if (family === "referral_chain") {
    const start = facts.customer_id, steps = facts.steps;
    const missing = [
      ...(typeof start === "string" && start !== "" ? [] : ["customer_id"]),
      ...(Number.isInteger(steps) && (steps as number) > 0 ? [] : ["steps"]),
    ];
    return missing.length > 0 ? missing : { family, steps: steps as number, start: start as string, orders: [] };
  }
  const ids = facts.order_ids;
  if (!Array.isArray(ids) || ids.length === 0 || !ids.every((x) => Number.isInteger(x))) return ["order_ids"];
  return { family, steps: ids.length, start: "", orders: ids as number[] };
}

function inform(text: string, facts: Record<string, Json>): AgentAction {
  return { type: "message", text, intent: { kind: "inform", facts } };
}

const isObject = (v: unknown): v is Record<string, Json> => v !== null && typeof v === "object" && !Array.isArray(v);
const isAmount = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);

// Step numbers as ranges: [1, 2, 3, 5] → "steps 1–3, 5".
function ranges(steps: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < steps.length;) {
    let j = i;
    while (j + 1 < steps.length && steps[j + 1] === steps[j] + 1) j++;
    parts.push(i === j ? `${steps[i]}` : `${steps[i]}–${steps[j]}`);
    i = j + 1;
  }
  return `${steps.length === 1 ? "step" : "steps"} ${parts.join(", ")}`;
}
