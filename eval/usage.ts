/**
 * What the models of an experiment used, per agent: model calls, tokens and
 * dollars of a language-model agent, what the user simulator's model used in
 * its episodes, and how many episodes ended in an agent error or a user error.
 *
 * @module
 */
import type { EpisodeRecord } from "./records.ts";

/** Model calls, tokens and dollars. */
export interface ModelUsage {
  /** Model calls made (the records' `api_calls`). */
  calls: number;
  /** Tokens used, input and output together. */
  tokens: number;
  /** Dollars spent. */
  cost: number;
  /** Whether every model involved has a price; when not, `cost` counts the priced ones only. */
  costKnown: boolean;
}

/** One agent's model usage and error counts over all its records. */
export interface UsageSummary {
  /** The agent's name, as its records give it. */
  agent: string;
  /** The agent's own model calls; `null` when it made none (a scripted agent). */
  agentUsage: ModelUsage | null;
  /** The user simulator's model calls in this agent's episodes; `null` when it made none. */
  userUsage: ModelUsage | null;
  /** The LLM judge's model calls on this agent's episodes; `null` when it made none. */
  judgeUsage?: ModelUsage | null;
  /** Episodes that ended in a failure of the agent itself. */
  agentErrors: number;
  /** Episodes whose user simulator left its script (left out of every score). */
  userErrors: number;
}

/** Options of `summarizeUsage()`. */
export interface UsageOptions {
  /**
   * Order of the agents; agents not listed follow in order of first appearance.
   * @default {order of first appearance}
   */
  agents?: readonly string[];
  /**
   * Model specs (`"provider:model"`) missing from the price table: their cost is unknown.
   * @default {[]}
   */
  unpriced?: readonly string[];
  /**
   * The user simulator's spec (`"scripted"` or `"llm:provider:model"`), to tell whether its cost is known.
   * @default {"scripted"}
   */
  user?: string;
  /**
   * The judge's spec (`"rules"` or `"llm:provider:model"`), to tell whether its cost is known.
   * @default {"rules"}
   */
  judge?: string;
}

/**
 * Model usage and error counts per agent. A record counts as a model agent's when its
 * resources carry `tokens`.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { summarizeUsage } from "./usage.ts";
 * const r = { agent: "openai:m", resources: { api_calls: 3, tokens: 900, cost: 0.002 }, agent_error: "timeout: …" };
 * assertEquals(summarizeUsage([r]).map((u) => [u.agentUsage?.calls, u.agentErrors]), [[3, 1]]);
 * ```
 */
export function summarizeUsage(
  records: readonly (
    & Pick<EpisodeRecord, "agent" | "resources" | "user_resources" | "agent_error" | "user_error">
    & Partial<Pick<EpisodeRecord, "judge_resources">>
  )[],
  options: UsageOptions = {},
): UsageSummary[] {
  const unpriced = new Set(options.unpriced ?? []);
  const user = options.user ?? "scripted";
  const userPriced = !(user.startsWith("llm:") && unpriced.has(user.slice(4)));
  const judge = options.judge ?? "rules";
  const judgePriced = !(judge.startsWith("llm:") && unpriced.has(judge.slice(4)));
  const byAgent = new Map<string, UsageSummary>();
  const summary = (agent: string) => {
    let s = byAgent.get(agent);
    if (s === undefined) {
      byAgent.set(agent, s = { agent, agentUsage: null, userUsage: null, agentErrors: 0, userErrors: 0 });
    }
    return s;
  };
  for (const agent of options.agents ?? []) summary(agent);
  for (const r of records) {
    const s = summary(r.agent);
    if (r.resources.tokens !== undefined) {
      s.agentUsage = add(s.agentUsage, r.resources, !unpriced.has(r.agent));
    }
    if (r.user_resources?.tokens !== undefined) s.userUsage = add(s.userUsage, r.user_resources, userPriced);
    if (r.judge_resources?.api_calls !== undefined) {
      s.judgeUsage = add(s.judgeUsage ?? null, r.judge_resources, judgePriced);
    }
    if (r.agent_error !== undefined) s.agentErrors++;
    if (r.user_error !== undefined) s.userErrors++;
  }
  return [...byAgent.values()];
}

// A record's `cost: null` says its model had no price, whatever the price table says now.
function add(
  usage: ModelUsage | null,
  resources: { api_calls?: number; tokens?: number; cost?: number | null },
  priced: boolean,
): ModelUsage {
  const u = usage ?? { calls: 0, tokens: 0, cost: 0, costKnown: true };
  return {
    calls: u.calls + (resources.api_calls ?? 0),
    tokens: u.tokens + (resources.tokens ?? 0),
    cost: u.cost + (resources.cost ?? 0),
    costKnown: u.costKnown && priced && resources.cost !== null,
  };
}

/**
 * Dollars with three significant digits below $1 and cents above.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { formatDollars } from "./usage.ts";
 * assertEquals([formatDollars(0.000123), formatDollars(0.5), formatDollars(12)], ["$0.000123", "$0.500", "$12.00"]);
 * ```
 */
export function formatDollars(dollars: number): string {
  if (!(dollars > 0)) return "$0";
  return `$${dollars.toFixed(Math.min(12, Math.max(2, 2 - Math.floor(Math.log10(dollars)))))}`;
}

/**
 * The total dollars of every agent's, user simulator's and LLM judge's model calls.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { totalCost } from "./usage.ts";
 * const usage = (cost: number) => ({ calls: 1, tokens: 10, cost, costKnown: true });
 * assertEquals(totalCost([{ agent: "openai:m", agentUsage: usage(0.5), userUsage: usage(0.25), agentErrors: 0, userErrors: 0 }]), 0.75);
 * ```
 */
export function totalCost(usage: readonly UsageSummary[]): number {
  return usage.reduce(
    (sum, u) => sum + (u.agentUsage?.cost ?? 0) + (u.userUsage?.cost ?? 0) + (u.judgeUsage?.cost ?? 0),
    0,
  );
}

/**
 * A text table of the agents that used a model or had errors: model calls, tokens, cost,
 * agent errors and user errors, then the user simulator's usage and the experiment's
 * total cost; a cost that is unknown (a model in `options.unpriced`, without a price) says
 * so. Empty when no agent used a model or had an error (scripted runs).
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { formatUsage } from "./usage.ts";
 * const usage = { calls: 12, tokens: 3400, cost: 0.0021, costKnown: true };
 * assertEquals(formatUsage([{ agent: "openai:m", agentUsage: usage, userUsage: null, agentErrors: 1, userErrors: 0 }]), "agent     model calls  tokens      cost  agent errors  user errors\n" + "openai:m           12    3400  $0.00210             1            0\n" + "Model cost of the experiment: $0.00210\n");
 * ```
 */
export function formatUsage(usage: readonly UsageSummary[], options: Pick<UsageOptions, "unpriced"> = {}): string {
  const shown = usage.filter((u) =>
    u.agentUsage || u.userUsage || u.judgeUsage || u.agentErrors > 0 || u.userErrors > 0
  );
  if (shown.length === 0) return "";
  const header = ["agent", "model calls", "tokens", "cost", "agent errors", "user errors"];
  const cost = (u: ModelUsage) => u.costKnown ? formatDollars(u.cost) : "unknown";
  const rows = shown.map((u) => [
    u.agent,
    u.agentUsage ? String(u.agentUsage.calls) : "-",
    u.agentUsage ? String(u.agentUsage.tokens) : "-",
    u.agentUsage ? cost(u.agentUsage) : "-",
    String(u.agentErrors),
    String(u.userErrors),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i])).join("  ").trimEnd();
  const lines = [header, ...rows].map(line);
  const sum = (list: (ModelUsage | null | undefined)[]) =>
    list.filter((u): u is ModelUsage => u !== null && u !== undefined).reduce<ModelUsage | null>(
      (a, b) =>
        a === null ? b : {
          calls: a.calls + b.calls,
          tokens: a.tokens + b.tokens,
          cost: a.cost + b.cost,
          costKnown: a.costKnown && b.costKnown,
        },
      null,
    );
  for (
    const [who, all] of [["User simulator", sum(shown.map((u) => u.userUsage))], [
      "LLM judge",
      sum(shown.map((u) => u.judgeUsage)),
    ]] as const
  ) {
    if (all === null) continue;
    lines.push(
      `${who}: ${all.calls} model calls, ${all.tokens} tokens, ${
        cost(all)
      } (in the experiment's cost, not the agents')`,
    );
  }
  const total = `Model cost of the experiment: ${formatDollars(totalCost(shown))}`;
  // The models the price table lacks, and the agents whose records say their cost is unknown.
  const unpriced = [
    ...new Set([
      ...options.unpriced ?? [],
      ...shown.filter((u) => u.agentUsage?.costKnown === false).map((u) => u.agent),
    ]),
  ];
  lines.push(
    unpriced.length === 0
      ? total
      : `${total} for the models with a price; unknown for ${
        unpriced.map((m) => `"${m}"`).join(", ")
      }: not in the price table (give a price with --prices FILE.json)`,
  );
  return lines.join("\n") + "\n";
}
