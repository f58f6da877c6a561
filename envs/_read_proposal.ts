// Whether an agent's message proposes one change and asks for its approval, and which change: an
// approval request ("Shall I go ahead?", "Can you confirm we should carry on with the upgrade?")
// about a change the message settles. Not a proposal: a menu ("one of these options"), a generic
// offer ("Would you like to change the cabin class?"), an offer to hand over, an offer that depends on
// an eligibility not yet known, a message still asking what the change is (a field other than its
// terms) or leaving a value open with prices for each. Private to envs/.
import { normalizeText } from "./text.ts";
import { type Memo, memoOf } from "./_read_memo.ts";
import * as R from "./_read_patterns.ts";
import { type ActionHit, actionsAt, namesAt, type Span, valueWordsAt, type Words } from "./_read_words.ts";

/** What a message proposes. */
export interface Proposal {
  proposes: boolean;
  /** The change proposed, when it proposes. */
  action: string | null;
}

/** What `proposalOf()` knows besides the message. */
export interface ProposalContext {
  /** The fields the message asks for. */
  asks: readonly string[];
  /** The agent's earlier messages since the customer's last one, joined. */
  earlier: string;
  /** The customer's last message. */
  previous: string;
}

const NONE: Proposal = { proposes: false, action: null };

/** Whether a message proposes a change, and which. */
export function proposalOf(words: Words, sentences: readonly string[], context: ProposalContext): Proposal {
  const approvals: string[] = [];
  // A change the message says the agent will make, which a request to decide approves.
  const planned = plannedChange(words, sentences.filter((s) => !R.OPEN_CHOICE.test(s))) !== null;
  for (const s of sentences) {
    const clause = firstAlternative(s);
    // "Would you like to cancel it, or change its flights?": two changes offered, neither proposed.
    if (changesIn(words, s.slice(clause.length)).some((a) => !changesIn(words, clause).includes(a))) continue;
    // A wh-question asks for a value, unless an approval follows it ("When you're ready, shall I go
    // ahead?", "How would you like to proceed: should I cancel it?").
    if (R.WH_QUESTION.test(clause) && !R.APPROVAL.test(clause.replace(/^[^,:;\u2014\u2013]*[,:;\u2014\u2013]/, ""))) {
      continue;
    }
    const offer = R.OFFER_TO_ACT.exec(clause);
    const after = offer === null ? "" : clause.slice(offer.index + offer[0].length);
    if (R.APPROVAL.test(clause) || (planned && R.DECIDE.test(clause))) approvals.push(clause);
    else if (offer !== null && !R.NOT_A_CHANGE.test(after)) {
      // The change named, or pointed at ("Should I make this change?"), which the message names.
      if (hits(words, clause).some((h) => !h.pattern.term) || R.POINTED_CHANGE.test(after)) approvals.push(clause);
    }
  }
  if (approvals.length === 0) return NONE;
  const text = sentences.join(" ");
  if (approvals.every((c) => !specific(words, c, text))) return NONE;
  if (R.ELIGIBLE_IF.test(text)) return NONE;
  // A message still asking what the change is proposes nothing yet.
  if (context.asks.some((f) => !words.terms.has(f))) return NONE;
  if (openValue(words, sentences, approvals)) return NONE;
  const action = actionOf(words, sentences, approvals, context);
  if (action !== null) return { proposes: true, action };
  // Approving only how a change is paid ("Shall we go on with that amount on your card?")
  // re-proposes a change made pending before, which the message does not name.
  return approvals.some((c) => namesTerm(words, c)) ? { proposes: true, action: null } : NONE;
}

// A change the agent says it will make: a first-person plan before a change word.
const WILL =
  /\b(?:i|we)(?: will|'ll|'d| would| can| am going to|'m going to| are going to|'re going to)\b|\blet(?:'s| me| us)\b/;

/**
 * The change a message says the agent will make, without asking to approve it ("Here's the plan:
 * I'll cancel reservation ABC123."), or `null`: the first half of a proposal made in two messages.
 */
export function plannedChange(words: Words, sentences: readonly string[]): string | null {
  for (const s of sentences) {
    const will = WILL.exec(s);
    if (will === null || R.GENERALLY.test(s)) continue;
    const after = s.slice(will.index);
    const hit = hits(words, after).find((h) => !h.pattern.term);
    if (hit !== undefined) return hit.pattern.action;
  }
  return null;
}

// Whether a clause names a term of a change (how to pay, a reason) by a name or a value word.
function namesTerm(words: Words, clause: string): boolean {
  const fields = [
    ...namesAt(words, clause).map((n) => n.hit.field),
    ...valueWordsAt(words, clause).map((v) => v.word.field),
  ];
  return fields.some((f) => words.terms.has(f));
}

// "Should I go on with cancelling it, or do you need something else ...?": its first part.
function firstAlternative(sentence: string): string {
  const m = R.ALTERNATIVE.exec(sentence);
  return m === null ? sentence : sentence.slice(0, m.index);
}

// What an approval clause asks to approve: from the approval on, up to what the agent adds after it
// ("..., and I'll update your reservation").
function approved(clause: string): string {
  const m = R.APPROVAL.exec(clause) ?? R.OFFER_TO_ACT.exec(clause);
  const from = m === null ? 0 : m.index;
  const rest = clause.slice(from);
  const end = R.AFTERWARDS.exec(rest);
  return end === null ? rest : rest.slice(0, end.index);
}

// An approval clause that points at one change: not a transfer, a menu, a generic or open change.
// One that names no change approves what the message says ("I can transfer you. Shall I do that?").
function specific(words: Words, clause: string, text: string): boolean {
  const named = hits(words, clause).some((h) => !h.pattern.term);
  if (R.HAND_OVER.test(named ? clause : text)) return false;
  const object = approved(clause);
  if (R.OPEN_CHOICE.test(object) && !/\d/.test(object)) return false;
  // "Which one would you like to book?": a choice asked, not a change to approve.
  if (/^(?:(?:so|and|also|now)\s+)?(?:which|what)\b/.test(clause)) return false;
  if (openChange(words, object)) return false;
  // Two different changes offered as alternatives ("change or cancel your reservation?").
  const said = hits(words, clause).filter((h) => !h.pattern.term);
  const kinds = new Set(said.map((h) => h.pattern.action));
  return !(kinds.size >= 2 && /\bor\b/.test(clause) && !/\band\b/.test(clause));
}

// "Would you like to change the cabin class on this reservation?": a change of something with no new
// value given (no "to ...", no amount, no value word), a generic offer.
function openChange(words: Words, object: string): boolean {
  const m = R.MODIFY.exec(object);
  if (m === null) return false;
  const rest = object.slice(m.index + m[0].length);
  return !R.NEW_VALUE.test(rest) && valueWordsAt(words, rest).every((v) => words.terms.has(v.word.field));
}

/** The changes a normalised text names (not by a term's words), in order. */
export function changesIn(words: Words, text: string): string[] {
  return hits(words, text).filter((h) => !h.pattern.term).map((h) => h.pattern.action);
}

// A value still open: two or more values of a field offered each with a price ("Economy: $121,
// Business: $239"), none of them named where the approval is asked.
function openValue(words: Words, sentences: readonly string[], approvals: readonly string[]): boolean {
  const priced = new Map<string, Set<string>>();
  for (const s of sentences) {
    const here = valueWordsAt(words, s).filter((v) =>
      !words.terms.has(v.word.field) && R.PRICED.test(s.slice(v.to, v.to + 16))
    );
    // A price list: values priced side by side, or a list item led by its value ("- Economy: $121"),
    // not one flight's own cabin ("Cabin: Economy ($130)").
    for (const v of here) {
      if (here.length < 2 && s.slice(0, v.from).trim() !== "") continue;
      const set = priced.get(v.word.field) ?? new Set<string>();
      priced.set(v.word.field, set.add(v.word.word));
    }
  }
  const named = new Set(approvals.flatMap((c) => valueWordsAt(words, c).map((v) => v.word.field)));
  return [...priced].some(([field, values]) => values.size >= 2 && !named.has(field));
}

// The change words of a text, with what its names and value words cover (a word inside "credit card"
// is not a change word there). Read once per text: a message's clauses and zones are read again and
// again, and the scripted user asks for the changes of the same claims in every run (its callers here
// only read the list).
const changeHits = new WeakMap<Words, Memo<readonly ActionHit[]>>();
function hits(words: Words, norm: string): readonly ActionHit[] {
  return memoOf(changeHits, words).get(norm, () => changeWords(words, norm));
}

function changeWords(words: Words, norm: string): ActionHit[] {
  const names = namesAt(words, norm), values = valueWordsAt(words, norm);
  // A quoted text is a value ("with the subject 'Your refund'"): its words say no change.
  const quoted = [...norm.matchAll(R.QUOTED)].map((m) => ({ from: m.index, to: m.index + m[0].length }));
  const covered: Span[] = [...names, ...values, ...quoted];
  // A one-word change whose object is a term of a change is about the term ("purchase travel
  // insurance", "use the certificate"), not a change of its own.
  const terms = [
    ...names.filter((n) => words.terms.has(n.hit.field)),
    ...values.filter((v) => words.terms.has(v.word.field)),
  ];
  return actionsAt(words, norm, covered).filter((h) =>
    /\s/.test(h.pattern.word.trim()) ||
    !terms.some((t) =>
      t.from >= h.to && /^\s*(?:(?:the|a|an|my|your|some|any)\s+)?(?:[\w-]+\s+)?$/.test(norm.slice(h.to, t.from))
    )
  );
}

// Before a word: its owner ("my booking", "our upcoming reservation").
const OWNED = /\b(?:my|our|his|her|their)\s+(?:[\w-]+\s+)?$/;

// Which change: the one the approval names, else the plan the message states, else any the message
// names, else the one said before (earlier messages, the customer's request); a change that includes
// another said with it wins ("a new flight and an upgrade" is a flight change).
function actionOf(
  words: Words,
  sentences: readonly string[],
  approvals: readonly string[],
  context: ProposalContext,
): string | null {
  const plans = sentences.filter((s) => R.PLAN.test(s));
  // The message's own sentences, those stating what is generally so left out when others name a change.
  const specific = sentences.filter((s) => !R.GENERALLY.test(s)).join(" ");
  const whole = hits(words, specific).some((h) => !h.pattern.term) ? specific : sentences.join(" ");
  const zones: [string, "any" | "strong" | "weak", boolean?][] = [
    [approvals.join(" "), "any"],
    [plans.slice(0, 1).join(" "), "any"],
    [whole, "strong"],
    [normalizeText(context.earlier), "any"],
    [normalizeText(context.previous), "any", true],
    [whole, "weak"],
  ];
  for (const [text, strength, customers = false] of zones) {
    if (text === "") continue;
    // In the customer's request, "my booking" or "our reservation" names a record, not a change.
    const found = hits(words, text).filter((h) =>
      !h.pattern.term && !(customers && OWNED.test(text.slice(Math.max(0, h.from - 32), h.from)))
    );
    const pick = strength === "weak"
      ? found.find((h) => h.pattern.weak)
      : found.find((h) => !h.pattern.weak) ?? (strength === "any" ? found[0] : undefined);
    if (pick === undefined) continue;
    const including = found.find((h) => includes(words, h.pattern.action, pick.pattern.action));
    return (including ?? pick).pattern.action;
  }
  return null;
}

function includes(words: Words, action: string, other: string): boolean {
  return action !== other && (words.vocabulary.actions[action]?.includes ?? []).includes(other);
}
