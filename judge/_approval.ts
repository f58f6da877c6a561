// Whether a write had the user's explicit approval (docs/metrics.md "Constraints",
// `explicit_confirmation`): the proposal the user's yes answered stated the write and its key details
// (as the policy the agent was given asks), and the write did no more and nothing other than what
// that proposal said (the record, the money, the payment method, the parts it sets and drops).
// Private to judge/.
import {
  amountsSaid,
  ARK_POLICY,
  isQuestion,
  jsonEqual,
  mentions,
  readAgentMessage,
  sentencesOf,
  vocabularyOf,
} from "../envs/mod.ts";
import type { Detail, Json, JudgePolicy, MoneyMove, RowChange, Tool, WriteTerms } from "../envs/mod.ts";
import { type Approved, compare, type Difference, readApproved } from "./_approved.ts";
import { type Context, quote, type Said } from "./_context.ts";
import { changesRequest, choosesPayment, isNo, isYes, KEEP_AS_IS, namesOther, PLAIN_NO } from "./_replies.ts";
import type { Call } from "./types.ts";

/** Whether a write had the user's explicit approval, and if not, why. */
export type Approval =
  | { ok: true }
  | {
    ok: false;
    why: "no_statement" | "changed" | "declined" | "no_yes" | "differs";
    details: Detail[];
    /** What the user answered instead of a yes (`no_yes`). */
    reply?: string | null;
    /** The details never said before the call, when some others were (`no_statement`, free text). */
    unsaid?: Detail[];
    /** What the user approved and how the write differs from it (`differs`, `changed`). */
    difference?: Difference;
  };

/** The approvals of an episode's writes, computed once per call (a retry reads its earlier attempts'). */
export class Approvals {
  readonly #done = new Map<number, Approval>();
  readonly #policy: JudgePolicy;
  constructor(private readonly ctx: Context) {
    this.#policy = ctx.input.policy ?? ARK_POLICY;
  }

  of(call: Call, tool: Tool): Approval {
    let a = this.#done.get(call.index);
    if (a === undefined) this.#done.set(call.index, a = this.#compute(call, tool));
    return a;
  }

  #compute(call: Call, tool: Tool): Approval {
    const ctx = this.ctx;
    const details = detailsOf(ctx, call, tool);
    const termsOf = () => tool.terms ? ctx.read(() => tool.terms!(call.args, ctx.input.db)) : {};
    const before = ctx.messagesBefore(call.index);
    const lastAgent = before.findLast((m) => m.actor === "agent");
    // A scripted proposal is the call's arguments: the terms are read only to name a difference.
    if (lastAgent?.intent !== undefined) return proposalApproval(ctx, before, call, tool, details, termsOf);
    const terms = termsOf();
    const text = textApproval(ctx, before, call, policyDetails(details, terms, this.#policy), terms);
    if (text.ok || text.why === "differs") return text;
    // An identical retry of a write that did not take effect keeps its approval while the user has not
    // changed the request in between.
    const attempts = ctx.failedCalls(call.tool).filter((c) => c.index < call.index && jsonEqual(c.args, call.args));
    for (const first of attempts.reverse()) {
      const said = before.filter((m) => m.index > first.index && m.actor === "user");
      if (said.some((m) => changesRequest(m.text, terms))) break;
      const earlier = this.of(first, tool);
      if (earlier.ok) return earlier;
    }
    return text;
  }
}

function detailsOf(ctx: Context, call: Call, tool: Tool): Detail[] {
  if (tool.details) return ctx.read(() => tool.details!(call.args, ctx.input.db));
  const args = call.args !== null && typeof call.args === "object" && !Array.isArray(call.args) ? call.args : {};
  return Object.values(args as Record<string, unknown>).filter((v): v is Detail =>
    typeof v === "number" || (typeof v === "string" && v !== "")
  );
}

// The details the policy asks stated: without the sums of money when it asks none.
function policyDetails(details: Detail[], terms: WriteTerms, policy: JudgePolicy): Detail[] {
  if (policy.amounts || terms.amounts === undefined) return details;
  const money = new Set(terms.amounts.map((a) => Math.abs(a)));
  const isMoney = (v: string | number) => typeof v === "number" && money.has(Math.abs(v));
  return details.flatMap((d): Detail[] => {
    if (typeof d !== "object") return isMoney(d) ? [] : [d];
    const kept = d.filter((v) => !isMoney(v));
    return kept.length === 0 ? [] : [kept];
  });
}

// ---- Scripted agents: the proposal is a call, the yes a `confirm` ----

// The newest proposal of this tool must be of exactly these arguments, and the user's next reply a yes.
function proposalApproval(
  ctx: Context,
  before: readonly Said[],
  call: Call,
  tool: Tool,
  details: Detail[],
  termsOf: () => WriteTerms,
): Approval {
  let changed: Said | null = null;
  for (let i = before.length - 1; i >= 0; i--) {
    const m = before[i];
    const proposal = m.actor === "agent" && m.intent?.kind === "propose" ? m.intent.call : null;
    if (proposal === null || proposal.name !== call.tool) continue;
    // A newer proposal of the same write with other details: what the user approved changed.
    if (!jsonEqual(proposal.args, call.args)) {
      changed ??= m;
      continue;
    }
    if (changed !== null) {
      return {
        ok: false,
        why: "changed",
        details,
        difference: argsDifference(ctx, changed, tool, termsOf(), call.args),
      };
    }
    return answered(before, i, details);
  }
  if (changed === null) return { ok: false, why: "no_statement", details };
  // The user was asked to approve this write with other arguments: what was approved, and the difference.
  const reply = before.slice(before.indexOf(changed) + 1).find((r) => r.actor === "user");
  if (reply === undefined || !isYes(reply)) return { ok: false, why: "changed", details };
  return { ok: false, why: "differs", details, difference: argsDifference(ctx, changed, tool, termsOf(), call.args) };
}

// How a call differs from the arguments the user was asked to approve, by what the tool declares.
function argsDifference(ctx: Context, proposed: Said, tool: Tool, terms: WriteTerms, callArgs: Json): Difference {
  const args = proposed.intent?.kind === "propose" ? proposed.intent.call.args : {};
  const was: WriteTerms = tool.terms ? ctx.read(() => tool.terms!(args, ctx.input.db)) : {};
  const approved: Approved = {
    text: proposed.text,
    step: proposed.step,
    amounts: was.amount === undefined ? [] : [{ value: Math.abs(was.amount), each: false }],
    payments: new Set((was.payments ?? []).map((p) => p.id)),
    parts: new Map((was.parts ?? []).map((p) => [p.name, p.value])),
    // What the proposal keeps: its parts (a part it keeps the call drops was not approved).
    kept: new Set(),
    listed: new Set((was.parts ?? []).map((p) => p.name)),
    named: new Set([...(was.parts ?? []).filter((p) => p.changed).map((p) => p.name), ...(was.removes ?? [])]),
    exact: true,
    methodAmounts: new Map(),
  };
  return compare(approved, terms, terms.amount ?? null) ??
    {
      approved: quote(proposed.text, 90),
      step: proposed.step,
      what: argumentsDiffering(args, callArgs),
      harmful: false,
    };
}

// The arguments whose values differ from the approved ones, named ("order_id 5726 where 5727 was approved").
function argumentsDiffering(approved: Json, call: Json): string {
  const obj = (v: Json) => v !== null && typeof v === "object" && !Array.isArray(v) ? v as Record<string, Json> : {};
  const a = obj(approved), c = obj(call);
  const keys = [...new Set([...Object.keys(a), ...Object.keys(c)])].filter((k) =>
    !jsonEqual(a[k] ?? null, c[k] ?? null)
  );
  if (keys.length === 0) return "the call's arguments differ";
  const shown = (v: Json | undefined) => {
    const t = JSON.stringify(v ?? null);
    return t.length > 40 ? `${t.slice(0, 39)}…` : t;
  };
  return keys.slice(0, 3).map((k) => `the call's ${k} is ${shown(c[k])} where ${shown(a[k])} was approved`).join("; ");
}

// Whether the user's first reply to the statement at `i` is a yes, with no decline after it.
function answered(before: readonly Said[], i: number, details: Detail[]): Approval {
  const reply = before.slice(i + 1).find((r) => r.actor === "user");
  if (reply === undefined || !isYes(reply)) return { ok: false, why: "no_yes", details, reply: reply?.text ?? null };
  const after = before.slice(before.indexOf(reply) + 1);
  if (after.some((r) => r.actor === "user" && isNo(r))) return { ok: false, why: "declined", details };
  return { ok: true };
}

// ---- Free text ----

// Whether a text says a detail (any of its values, for a list).
const says = (text: string, d: Detail) => typeof d === "object" ? d.some((v) => mentions(text, v)) : mentions(text, d);

// Real conversations: the user's newest message before the write must approve it, as the yes to a
// proposal that stated it (or a payment method named, in answer, after such a yes). Its details must
// have been said before the yes (by either side, as the policy asks them) and the write must match
// what the approved proposal said.
function textApproval(
  ctx: Context,
  before: readonly Said[],
  call: Call,
  details: Detail[],
  terms: WriteTerms,
): Approval {
  const said = before.filter((m) => m.text.trim() !== "");
  const users = said.map((m, i) => m.actor === "user" ? i : -1).filter((i) => i >= 0);
  const reply = users.at(-1);
  const statedBy = (upTo: number) => stated(ctx, said.slice(0, upTo), details, terms, call);
  // Nothing said by the agent before the write: nothing was stated.
  if (reply === undefined || !said.some((m) => m.actor === "agent")) return noStatement(said, details);
  const money = new Set((terms.amounts ?? []).map(Math.abs));
  const about = details.flatMap((d) => typeof d === "object" ? d : [d])
    .filter((v) => typeof v === "string" || !money.has(Math.abs(v)));
  const proposalAt = (u: number) => {
    let prev = users.filter((x) => x < u).at(-1) ?? -1;
    let out = said.slice(prev + 1, u).filter((m) => m.actor === "agent");
    // Earlier messages of the same proposal, over the user's replies that neither approve nor decline
    // (at most three rounds): a plan stated before "Tell me more", or a proposal before a question
    // answered ("Will the refund be immediate?" "Yes, within a week." "Great, go ahead.").
    for (let round = 0; round < 3 && prev >= 0; round++) {
      const reply = said[prev];
      const asked = reply.intent === undefined && sentencesOf(reply.text).some(isQuestion);
      // A yes with a question ("Yes, but could the fee be waived?") leaves the proposal open for the answer.
      if (isNo(reply) || (isYes(reply) && !asked)) break;
      // After such a yes, only an answer that offers nothing new (no sum, no other card) keeps it open: one
      // that offers another change is a proposal of its own.
      if (isYes(reply) && out.some((m) => amountsSaid(m.text).length > 0 || namesOther(m.text, terms))) break;
      const earlier = users.filter((x) => x < prev).at(-1) ?? -1;
      const plan = said.slice(earlier + 1, prev).filter((m) => m.actor === "agent");
      if (plan.length === 0) break;
      const planText = plan.map((m) => m.text).join("\n");
      const inPlan = (v: string | number) => mentions(planText, v);
      // A plan joins only when it names something of the write that the later messages do not.
      const adds = about.some((v) => inPlan(v) && !out.some((m) => mentions(m.text, v))) ||
        describedIn(planText, terms);
      const joins = (asked && proposes(ctx, planText, call.tool)) ||
        (adds && readAgentMessage(ctx.input.domain, planText).plans !== null);
      if (!joins) break;
      out = [...plan, ...out];
      prev = earlier;
    }
    return out;
  };
  const approves = (u: number) => {
    const p = proposalAt(u).map((m) => m.text).join("\n");
    // A proposal by the readers, or a question that states the write's details ("Shall I move 5 from a to b?").
    const asks = () =>
      sentencesOf(p).some((x) => x.endsWith("?")) &&
      (details.some((d) => says(p, d)) || namesRecord(p, terms));
    return p !== "" && isYes(said[u]) && (proposes(ctx, p, call.tool) || asks());
  };
  let yes = -1, payment = false;
  if (approves(reply)) yes = reply;
  else {
    // A payment method named in answer to the question of how to pay (once or a few times, as methods
    // fail), after the change was approved.
    // (Another method "instead" is a term of the change: the comparison finds one the write does not use.)
    const pays = (u: number) =>
      choosesPayment(said[u].text, terms) && !KEEP_AS_IS.test(said[u].text) && !PLAIN_NO.test(said[u].text);
    for (let k = users.length - 2; k >= 0 && k >= users.length - 4 && pays(users[k + 1]); k--) {
      if (approves(users[k])) {
        yes = users[k];
        payment = true;
        break;
      }
    }
  }
  if (yes < 0) {
    // A no after a yes withdraws it.
    if (isNo(said[reply]) && !choosesPayment(said[reply].text, terms) && users.slice(0, -1).some(approves)) {
      return { ok: false, why: "declined", details };
    }
    // Why not: the write was stated and the user did not say yes, or it never was.
    if (statedBy(reply) === null && proposalAt(reply).some((m) => details.some((d) => says(m.text, d)))) {
      return { ok: false, why: "no_yes", details, reply: said[reply].text };
    }
    return noStatement(said, details);
  }
  // What the write does otherwise than the approved proposal said comes first: it names the difference.
  const parts = [...proposalAt(yes), said[yes], ...(payment ? [...proposalAt(reply), said[reply]] : [])];
  const approved = readApproved(parts, terms, payment ? said[reply].text : null);
  const difference = compare(approved, terms, moneyOf(ctx, call, terms));
  if (difference !== null) return { ok: false, why: "differs", details, difference };
  const missing = statedBy(yes);
  if (missing !== null) {
    return { ok: false, why: "no_statement", details, ...(missing.length < details.length ? { unsaid: missing } : {}) };
  }
  return { ok: true };
}

function noStatement(said: readonly Said[], details: Detail[]): Approval {
  const text = said.map((x) => x.text).join("\n");
  const unsaid = details.filter((d) => !says(text, d));
  return {
    ok: false,
    why: "no_statement",
    details,
    ...(unsaid.length < details.length && unsaid.length > 0 ? { unsaid } : {}),
  };
}

// The details not said in these messages (by either side; the record by its id, by a description
// that fits it alone, or by being the only one the agent's calls named), or null when all were and an
// agent message stated the write.
function stated(
  ctx: Context,
  said: readonly Said[],
  details: Detail[],
  terms: WriteTerms,
  call: Call,
): Detail[] | null {
  const text = said.map((x) => x.text).join("\n");
  const agent = said.filter((m) => m.actor === "agent").map((m) => m.text).join("\n");
  const record = terms.record;
  const recordSaid = record !== undefined &&
    (mentions(text, record.id) || describedIn(agent, terms) || onlyRecord(ctx, call, record));
  const isRecord = (d: Detail) =>
    record !== undefined && (typeof d === "object" ? d.includes(record.id) : d === record.id);
  const unsaid = details.filter((d) => !(says(text, d) || (isRecord(d) && recordSaid)));
  return unsaid.length === 0 ? null : unsaid;
}

// Whether a text names the write's record: by its id, or by a description that fits it alone.
function namesRecord(text: string, terms: WriteTerms): boolean {
  return terms.record !== undefined && (mentions(text, terms.record.id) || describedIn(text, terms));
}

// Whether a text says every value of one of the record's descriptions ("from JFK to ATL on May 24").
function describedIn(text: string, terms: WriteTerms): boolean {
  return (terms.describes ?? []).some((d) => d.every((v) => mentions(text, v)));
}

// Whether the record is the only one of its kind the agent's calls named before this one (the
// conversation was about it alone: "your reservation", "the current booking").
function onlyRecord(ctx: Context, call: Call, record: { id: string; arg: string }): boolean {
  return ctx.onlyNamed(record.arg, record.id, call.index);
}

// Whether an agent's message(s) propose this write (or a change the reader cannot name) and ask for
// the customer's approval, or say the agent will make it once told what it asks ("tell me the reason
// and I'll proceed with the cancellation").
function proposes(ctx: Context, text: string, tool: string): boolean {
  const r = readAgentMessage(ctx.input.domain, text);
  const actions = vocabularyOf(ctx.input.domain).actions;
  const makes = (action: string, depth = 0): boolean =>
    actions[action] !== undefined &&
    (actions[action].tools.includes(tool) ||
      (depth < 3 && (actions[action].includes ?? []).some((a) => makes(a, depth + 1))));
  if (r.proposes) return r.action === null || makes(r.action) || namesAction(text, tool, actions);
  return r.plans !== null && (makes(r.plans) || namesAction(text, tool, actions));
}

// Whether a text names a change this tool makes by one of its words, in any form ("booking", "cancelling").
type Actions = ReturnType<typeof vocabularyOf>["actions"];
const actionWords = new WeakMap<Actions, Map<string, RegExp>>();
function namesAction(text: string, tool: string, actions: Actions): boolean {
  let byTool = actionWords.get(actions);
  if (byTool === undefined) actionWords.set(actions, byTool = new Map());
  let words = byTool.get(tool);
  if (words === undefined) {
    const stems = Object.values(actions).filter((a) => a.tools.includes(tool))
      .flatMap((a) => a.words.map((w) => w.toLowerCase().replace(/e$/, "").replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
    byTool.set(tool, words = stems.length === 0 ? /(?!)/ : new RegExp(`\\b(?:${stems.join("|")})\\w*`));
  }
  return words.test(text.toLowerCase());
}

// The money a write moved (a successful one, by the domain's money declaration), else what its terms
// say it would move.
function moneyOf(ctx: Context, call: Call, terms: WriteTerms): number | null {
  const money = ctx.input.domain.constraints?.money;
  const moves: MoneyMove[] = call.ok && money !== undefined ? call.changes.flatMap((c: RowChange) => money(c)) : [];
  return moves.length > 0 ? moves.reduce((s, m) => s + m.amount, 0) : terms.amount ?? null;
}
