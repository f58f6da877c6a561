// How the scripted user checks a proposal against its own request, as a customer would: the change
// must be the one its goal asks for, and no detail it knows may be stated otherwise (another card,
// another date, another reservation). It never reads the task's gold. Private to envs/.
import { canonicalJson, jsonEqual, scalars } from "./json.ts";
import { mentions, normalizeText } from "./text.ts";
import { changesIn } from "./_read_proposal.ts";
import { fieldOf, type ResolvedVocabulary } from "./vocabulary.ts";
import { phrase, type Words } from "./_read_words.ts";
import { valuesSaid } from "./_read_values.ts";
import { type Memo, memoOf } from "./_read_memo.ts";
import type { Json } from "./json.ts";
import type { ToolCall } from "./tool.ts";

/** What the user makes of a proposal. */
export type ProposalCheck =
  /** It matches the request as far as the user can tell; `facts` are those it states. */
  | { verdict: "matches"; facts: string[] }
  /** The change is another than the one the goal asks for. */
  | { verdict: "other_change"; facts: string[] }
  /** It states a detail the user knows otherwise: `conflicts` are those facts. */
  | { verdict: "contradicts"; facts: string[]; conflicts: string[] }
  /** It names something the user does not have and so cannot check (`conflicts`: the facts it lacks). */
  | { verdict: "unknown"; facts: string[]; conflicts: string[] }
  /** It says neither what it changes nor any detail the user could recognise. */
  | { verdict: "vague"; facts: string[] };

/** What the user knows of its request. */
export interface Request {
  goal: string;
  facts: Readonly<Record<string, Json>>;
  /** Facts it knows it does not have. */
  lacks: readonly string[];
}

/** A proposal as the user has it: what was said (this message and the statement before it), the call when given. */
export interface Proposal {
  text: string;
  /** The change read from the text, or named by the call's tool. */
  action: string | null;
  /** Whether the text itself names a change (not only the customer's request before it). */
  named: boolean;
  call?: ToolCall;
}

/**
 * Checks a proposal against the user's request, as a customer can: by what the agent said. A call
 * (a scripted agent's intent) says which change it is; an argument of the call named as a fact counts
 * where the text says its value, and a value the text does not say is not held against it.
 */
export function checkProposal(words: Words, request: Request, proposal: Proposal): ProposalCheck {
  const { text, action, named, call } = proposal;
  // The request's key is JSON, which holds no raw control character: "\u0000" ends it.
  const key = `${requestKey(request)}\u0000${JSON.stringify([text, action, named, call ?? null])}`;
  const r = memoOf(checks, words).get(key, () => check(words, request, proposal));
  return "conflicts" in r ? { ...r, facts: [...r.facts], conflicts: [...r.conflicts] } : { ...r, facts: [...r.facts] };
}

// A check depends only on the words, the request and the proposal: the scripted user checks the same
// proposals in every run of a task, and each against every request it has.
const checks = new WeakMap<Words, Memo<ProposalCheck>>();
const requestKeys = new WeakMap<Request, string>();
function requestKey(request: Request): string {
  let key = requestKeys.get(request);
  if (key === undefined) requestKeys.set(request, key = JSON.stringify([request.goal, request.facts, request.lacks]));
  return key;
}

function check(words: Words, request: Request, proposal: Proposal): ProposalCheck {
  const v = words.vocabulary;
  const stated = proposal.text;
  const said = valuesSaid(words, stated);
  const facts: string[] = [], conflicts: string[] = [];
  const values = Object.entries(request.facts).map(([f, x]) => [f, scalars(x)] as const);
  for (const [fact, wanted] of values) {
    if (v.facts[fact]?.proposed === false) continue;
    if (wanted.length === 0) continue;
    const value = request.facts[fact];
    const field = fieldOf(v, fact);
    const ofField = said.filter((s) => s.field === field).map((s) => s.value);
    // The user's own values of its other facts (the new item beside the old one) contradict none.
    const own = values.filter(([f]) => f !== fact).flatMap(([, x]) => x);
    const saysOthers = () => ofField.some((s) => !own.some((o) => sameValue(s, o)));
    const isStated = (w: string | number) => statedAs(words, field, stated, ofField, w);
    // An argument of the call named as the fact, its value said: the value it will have.
    const arg = proposal.call !== undefined && Object.hasOwn(proposal.call.args, fact)
      ? proposal.call.args[fact]
      : undefined;
    const argSaid = arg !== undefined && scalars(arg).length > 0 && scalars(arg).every((a) => mentions(stated, a));
    if (argSaid) (sameJson(arg, value) ? facts : conflicts).push(fact);
    else if (wanted.every(isStated)) {
      // Said beside other values of its field, it may be the one the change leaves aside.
      (wanted.length === 1 && leftAside(words, field, stated, ofField, wanted[0], own) ? conflicts : facts).push(fact);
    } else if (ofField.length > 0 && saysOthers() && wanted.some((w) => looksLike(words, field, w))) {
      // Values of its field said, and not this one: another card, another date. Only a value that looks
      // like one of its field's is contradicted by another of them (a preference for the cheapest
      // flight is not contradicted by a flight number).
      conflicts.push(fact);
    }
  }
  const lacking = request.lacks.filter((f) => said.some((s) => s.field === fieldOf(v, f)));
  if (!compatible(v, request.goal, proposal)) return { verdict: "other_change", facts };
  if (conflicts.length > 0) return { verdict: "contradicts", facts, conflicts };
  if (lacking.length > 0) return { verdict: "unknown", facts, conflicts: lacking };
  // "Shall I go ahead?" with nothing said of what: the user asks first.
  if (!proposal.named && facts.length === 0) return { verdict: "vague", facts };
  return { verdict: "matches", facts };
}

// Whether a text says the user's value of a field: as a value of the field it said (the same word,
// not one inside a longer one: "economy" is not said by "basic economy"), else as a mention.
function statedAs(
  words: Words,
  field: string,
  text: string,
  ofField: readonly string[],
  want: string | number,
): boolean {
  if (ofField.some((s) => sameValue(s, want))) return true;
  // A value that is one of its field's words is said only as that word, not inside a longer one.
  if (typeof want === "string" && ofField.length > 0 && isValueWord(words, field, want)) return false;
  return mentions(text, want);
}

// Before a value: what a change leaves aside ("rather than ABC123", "instead of", "not", "other than").
const SET_ASIDE = /\b(?:rather than|instead of|not|other than|except|but not)\s+(?:[\w#'-]+\s+)?$/;
// Before a value: what a change starts from ("from business"), and what it goes to ("to economy").
const FROM = /\bfrom\s+(?:[\w#'-]+\s+)?$/;
const TO = /\b(?:to|into)\s+(?:[\w#'-]+\s+)?$/;
// Before a value: what a change uses or acts on ("charged to", "paying with", "on", "for").
const TARGET =
  /\b(?:to|into|onto|with|using|via|on|for|charging|charge|charged to|pay(?:ing)? with|paid with)\s+(?:[\w#'-]+\s+)?$/;

// Whether, with other values of its field said too (not the user's own values of its other facts:
// the new item beside the old one), the user's value is not the one the proposal changes: a record's
// id said only in sentences naming no change while one naming a change says another ("You have ABC123
// and XYZ789. I'll cancel XYZ789."), or a sentence naming a change that sets it aside ("XYZ789 rather
// than ABC123") or starts from it and goes to another ("from business to economy"), or, for a record's
// id, says another as what the change acts on or uses and not it ("upgrade XYZ789 and keep ABC123",
// "charging gift_card_2 since credit_card_1 expired"). The catch-all field ("other": a preference, a
// flight number) is not compared.
function leftAside(
  words: Words,
  field: string,
  text: string,
  ofField: readonly string[],
  want: string | number,
  own: readonly (string | number)[],
): boolean {
  if (field === "other") return false;
  const mine = (v: string) => sameValue(v, want);
  const other = (v: string) => !mine(v) && !own.some((o) => sameValue(v, o) || mentions(v, o));
  if (!ofField.some(other)) return false;
  const record = isRecord(words.vocabulary, field);
  const sentences = text.split(/(?<=[.?!])\s+|\n+/).map((s) => {
    const low = s.toLowerCase();
    const said = valuesSaid(words, s).filter((v) => v.field === field);
    // Where the sentence says the user's value: as a value of the field, or as a mention of it.
    const at = [...said.filter((v) => mine(v.value)).map((v) => v.value), String(want)]
      .map((v) => low.indexOf(v.toLowerCase())).filter((i) => i >= 0);
    const others = said.filter((v) => other(v.value)).map((v) => low.indexOf(v.value.toLowerCase()));
    const has = at.length > 0 || mentions(s, want);
    return { low, at, others, has, changes: changesIn(words, normalizeText(s)).length > 0 };
  });
  const changing = sentences.filter((x) => x.changes);
  if (record && !changing.some((x) => x.has) && changing.some((x) => x.others.length > 0)) return true;
  const before = (low: string, i: number) => low.slice(Math.max(0, i - 24), i);
  // What a change acts on or uses: a value right after a change word or a word such as "to", "with".
  const target = (low: string, i: number) =>
    i >= 0 && (TARGET.test(before(low, i)) || changesIn(words, lastWords(before(low, i), 2)).length > 0);
  return changing.some((x) =>
    x.at.some((i) => SET_ASIDE.test(before(x.low, i))) ||
    (x.at.length > 0 && x.at.every((i) => FROM.test(before(x.low, i))) &&
      x.others.some((i) => i >= 0 && TO.test(before(x.low, i)))) ||
    (record && x.at.length > 0 && x.others.some((i) => i >= 0) && !x.at.some((i) => target(x.low, i)))
  );
}

// The last `n` words of a text, normalised ("cancel reservation" of "I'll cancel reservation ").
function lastWords(text: string, n: number): string {
  return normalizeText(text).trim().split(/\s+/).slice(-n).join(" ");
}

// Whether the proposed change can be the one the goal asks for: the same change, or one made by
// the same tool (the text may call a cabin change a change of flights). A goal no change answers
// (a question) takes none; an unknown goal or change takes any.
function compatible(v: ResolvedVocabulary, goal: string, proposal: Proposal): boolean {
  if (!Object.hasOwn(v.goals, goal)) return true;
  const wanted = v.goals[goal];
  if (wanted === null) return false;
  const tools = new Set(v.actions[wanted]?.tools ?? []);
  if (proposal.call !== undefined) return tools.has(proposal.call.name);
  if (proposal.action === null || proposal.action === wanted) return true;
  return (v.actions[proposal.action]?.tools ?? []).some((t) => tools.has(t));
}

// Whether two values are the same, a list's items in any order.
function sameJson(a: Json, b: Json): boolean {
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && jsonEqual([...a].map(canonicalJson).sort(), [...b].map(canonicalJson).sort());
  }
  return jsonEqual(a, b);
}

// Whether a value is one of its field's value words ("economy" of a cabin).
function isValueWord(words: Words, field: string, value: string): boolean {
  const flat = (x: string) => x.toLowerCase().replace(/[_-]/g, " ").trim();
  return (words.vocabulary.fields[field]?.words ?? []).some((w) => flat(w) === flat(value));
}

// Whether a value of the user's reads as a value of its field (an amount said as one).
function looksLike(words: Words, field: string, value: string | number): boolean {
  const text = typeof value === "number" ? `$${value}` : value;
  return valuesSaid(words, text).some((s) => s.field === field);
}

/** Whether a field's values are records' ids (a reservation, an order), by its kind or its patterns. */
export function isRecord(vocabulary: ResolvedVocabulary, field: string): boolean {
  const spec = vocabulary.fields[field];
  return (spec?.kind ?? (spec?.values !== undefined ? "id" : undefined)) === "id";
}

// Whether a value said in a message is the user's: the same word ("one-way" for "one_way"), or an
// id said by its last digits ("the card ending in 7861" for "credit_card_5377861").
function sameValue(said: string, want: string | number): boolean {
  const flat = (x: string) => x.toLowerCase().replace(/[_-]/g, " ").replace(/\s+/g, " ").trim();
  if (typeof want === "string" && flat(said) === flat(want)) return true;
  // Inside a longer value it is not said ("economy" in "basic economy"); a date or an amount in other words is.
  if (typeof want === "string" && !/\d/.test(want) && flat(said).includes(flat(want))) return false;
  if (mentions(said, want)) return true;
  if (typeof want !== "string") return false;
  if (phrase(want).test(said.toLowerCase().replace(/[_-]/g, " "))) return true;
  const digits = /(\d{4,})\D*$/.exec(said)?.[1];
  return digits !== undefined && /\d$/.test(want) && want.endsWith(digits);
}
