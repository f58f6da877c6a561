// What an agent's message asks the customer for: the fields named in its requests (questions,
// "please provide ...", "I'll need your ...", the items of a list it introduces as a request), not those
// named in a purpose ("so I can locate your reservation"), as a modifier ("the cabin of your
// reservation"), as known ("this reservation"), in an offer ("Would you like me to ...?") or in a soft
// invitation ("if you have more details, feel free to share"). Private to envs/.
import { isQuestion, sentencesOf } from "./text.ts";
import * as R from "./_read_patterns.ts";
import { BULLET } from "./_text_patterns.ts";
import { escape, type NameHit, namesAt, valueWordsAt, type Words } from "./_read_words.ts";
import { type SaidValue, valuesSaid } from "./_read_values.ts";

/** What a message asks for. */
export interface Asked {
  /** The fields, in the order asked. */
  fields: string[];
  /** The facts named by their own names. */
  facts: string[];
}

// One sentence's part in what is asked.
interface Part {
  /** The fields, in the order the sentence names them. */
  fields: string[];
  facts: string[];
  /** Fields asked only by vague names ("the details"): dropped when another field is asked. */
  vaguely: Set<string>;
}

/** What a message asks the customer for. */
export function asksOf(words: Words, text: string): Asked {
  const parts: Part[] = [];
  // A need stated before the explicit requests of other things is background ("To see if you qualify I
  // need your status. Could you give me your user ID?"); one stated after them, or pointed back at, asks.
  const background: Part[] = [];
  // What the message said before each sentence: the last name, and the values it states.
  const said: Said = { last: null, asked: false, values: byFirstWord(valuesSaid(words, text)) };
  let requested = false, pointsBack = false, underHeader = false;
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === "") continue;
    const item = BULLET.test(line);
    if (!item) underHeader = false;
    const sentences = sentencesOf(line);
    sentences.forEach((s, i) => {
      const r = readSentence(words, s, item && underHeader, said);
      if (r.kind === "request") {
        parts.push(r.part);
        requested ||= r.part.fields.length > 0;
        pointsBack ||= R.POINTS_BACK.test(s);
      } else if (r.kind === "need") (requested ? parts : background).push(r.part);
      said.asked ||= r.kind !== "none" && r.part.fields.length > 0;
      // A request or need that ends in a colon introduces a list of what it asks for.
      if (!item && i === sentences.length - 1) underHeader = r.kind !== "none" && /:\s*$/.test(s);
    });
  }
  if (!requested || pointsBack) parts.unshift(...background);
  const fields: string[] = [], facts: string[] = [], vaguely = new Set<string>();
  for (const p of parts) {
    for (const f of p.fields) if (!fields.includes(f)) fields.push(f);
    for (const f of p.facts) if (!facts.includes(f)) facts.push(f);
  }
  for (const f of fields) if (parts.every((p) => !p.fields.includes(f) || p.vaguely.has(f))) vaguely.add(f);
  const others = fields.some((f) => !vaguely.has(f));
  const kept = fields.filter((f) => !(others && vaguely.has(f)));
  return { fields: kept, facts: facts.filter((f) => kept.includes(words.vocabulary.facts[f]?.field ?? f)) };
}

type Read = { kind: "request" | "need" | "none"; part: Part };

// What a message said before the sentence read.
interface Said {
  /** The last name said in an earlier sentence. */
  last: NameHit | null;
  /** Whether an earlier sentence asked for a field or said it needs one. */
  asked: boolean;
  /** The values the whole message states, lower-cased, each once, by their first word. */
  values: ReadonlyMap<string, readonly SaidValue[]>;
}

// Where a sentence asks: the span of its request and whether it only asks for terms of a change.
interface Span {
  kind: "request" | "need";
  start: number;
  end: number;
  onlyTerms: boolean;
}

function readSentence(words: Words, s: string, listed: boolean, said: Said): Read {
  const part: Part = { fields: [], facts: [], vaguely: new Set() };
  const approval = R.APPROVAL.test(s);
  const names = namesAt(words, s);
  const last = said.last;
  if (names.length > 0) said.last = names[names.length - 1];
  // Alternatives of a field's values in a question ("one-way or round-trip?") ask for the field, and so
  // do the places a "where" question leaves open ("Where are you flying from and to?").
  const question = isQuestion(s);
  const offered = question || approval || R.REQUEST.test(s) ? alternatives(words, s) : [];
  if (question && /\bwhere\b/.test(s)) offered.push(...openPlaces(words, s));
  // A value stated for the customer to confirm asks for its field ("You're leaving from LAX, correct?").
  if (R.ASSUMED.test(s)) {
    const seen = new Set<string>();
    for (const [w] of s.matchAll(WORD)) {
      if (seen.has(w)) continue;
      seen.add(w);
      for (const v of said.values.get(w) ?? []) if (s.includes(v.value)) offered.push([v.field, s.indexOf(v.value)]);
    }
  }
  for (const [field] of offered) if (!part.fields.includes(field)) part.fields.push(field);
  const span = requestSpan(words, s, listed, approval);
  if (span === "none") return { kind: "none", part };
  if (span === null) return { kind: part.fields.length > 0 ? "request" : "none", part };
  let hits = asked(s, names, span.start, span.end);
  // "... after you decide which ones should go", "find the code, and when you have it, send it", a list
  // and then "Which one would you like?": the name the request points back at, in its
  // sentence, or the last one said before for a choice among what was listed or a request put off
  // until the customer has it ("Look for the code. Once you find it, send it to me.").
  const asking = s.slice(span.start, span.end);
  if (hits.length === 0 && R.POINTER.test(asking)) {
    hits = names.filter((n) => n.to <= span.start).slice(-1);
    const deferred = R.DEFERRED.test(s);
    if (hits.length === 0 && last !== null && !said.asked && (deferred || R.WHICH_ONE.test(asking))) hits = [last];
  }
  if (span.onlyTerms) hits = hits.filter((h) => words.terms.has(h.hit.field));
  add(words, part, hits.map((h) => identifying(words, s, h)), offered);
  return { kind: span.kind, part };
}

// The span a sentence asks in; `null` when it asks nothing by its names, "none" when it asks nothing at all.
function requestSpan(words: Words, s: string, listed: boolean, approval: boolean): Span | null | "none" {
  // In an approval or an offer, only a request made after it asks ("..., and let me know which card").
  const after = approval || R.OFFER.test(s) ? (R.APPROVAL.exec(s) ?? R.OFFER.exec(s))! : null;
  const tail = after === null ? s : s.slice(after.index + after[0].length);
  const found = R.REQUEST.exec(tail);
  const request = found === null ? null : found.index + s.length - tail.length;
  const need = R.NEED.exec(s), deferred = R.DEFERRED.exec(s);
  let kind: Span["kind"], start: number;
  // "Which card should I charge?": a question that asks which, before an offer, asks for it.
  const which = after !== null && isQuestion(s) && R.WH.test(s.slice(0, after.index));
  if (listed || which) [kind, start] = ["request", 0];
  else if (after !== null && request === null) return null;
  else if (request !== null) [kind, start] = ["request", request];
  else if (isQuestion(s)) [kind, start] = ["request", 0];
  else if (deferred !== null && /\b(?:which|what)\b/.test(s)) [kind, start] = ["request", deferred.index];
  else if (need !== null) [kind, start] = ["need", need.index];
  else return null;
  // "When you've found the booking code, please send it": the deferred request names it first.
  if (deferred !== null && deferred.index < start) start = deferred.index;
  // A soft invitation asks nothing ("should you have more to add, feel free"); "if so, please confirm
  // ..." and "tell me if there is a card you prefer" still ask. (An approval's own condition is none:
  // "Can you confirm if we should go ahead, and give me ...?".)
  const soft = R.SOFT.exec(tail);
  if (soft !== null) soft.index += s.length - tail.length;
  if (!listed && soft !== null && (soft.index < start || /\bfeel free\b/.test(soft[0])) && !/\bif so\b/.test(s)) {
    return "none";
  }
  // A list item's label ("Trip type: is it one way?") names what it asks: a label of a few words
  // naming a field, not a sentence that ends in a colon; an item that states a value asks nothing.
  const label = R.LABEL.exec(s);
  const named = label !== null && label[1].split(/\s+/).length <= 5 && namesAt(words, label[1]).length > 0;
  if (named && label[1].length < start) start = 0;
  if (listed && label !== null && !R.REQUEST.test(label[2]) && !isQuestion(label[2]) && statesValue(words, label[2])) {
    return "none";
  }
  const purpose = R.PURPOSE.exec(s.slice(start + 1));
  const end = purpose === null ? s.length : start + 1 + purpose.index;
  // "Would you like to purchase insurance?": a question about what the customer wishes asks only for a
  // term of the change; "Would you like to change your reservation?" does not ask for the reservation.
  const choice = listed || request !== null ? null : R.CHOICE.exec(s);
  const onlyTerms = choice !== null &&
    !/\b(?:what|which|how many|how much|when|where|who)\b/.test(s.slice(0, choice.index));
  return { kind, start, end, onlyTerms };
}

// Adds the names asked for to a sentence's part, in the order the sentence says them.
function add(words: Words, part: Part, hits: readonly NameHit[], offered: readonly [string, number][]): void {
  const at = new Map(offered);
  for (const hit of hits) {
    const f = hit.hit.field;
    const vague = (words.vocabulary.fields[f]?.vague ?? []).includes(hit.hit.name);
    if (!part.fields.includes(f)) {
      part.fields.push(f);
      if (vague) part.vaguely.add(f);
    } else if (!vague) part.vaguely.delete(f);
    if (!at.has(f) || at.get(f)! > hit.from) at.set(f, hit.from);
    if (hit.hit.fact !== undefined && !part.facts.includes(hit.hit.fact)) part.facts.push(hit.hit.fact);
  }
  part.fields.sort((a, b) => (at.get(a) ?? 0) - (at.get(b) ?? 0));
}

// The names a request asks for: in its span, not known already, not modifiers of another name.
function asked(s: string, hits: readonly NameHit[], start: number, end: number): NameHit[] {
  const out: NameHit[] = [];
  let previous: NameHit | null = null, dropping = false;
  for (const hit of hits) {
    if (hit.from < start || hit.to > end) continue;
    const between = previous === null ? "" : s.slice(previous.to, hit.from);
    if (R.KNOWN_BEFORE.test(s.slice(Math.max(0, hit.from - 24), hit.from))) dropping = true;
    else if (R.RATE.test(s.slice(Math.max(0, hit.from - 24), hit.from))) dropping = true;
    else if (R.VALUE_AFTER.test(s.slice(hit.to, hit.to + 24))) dropping = true;
    else if (R.QUALIFIES.test(s.slice(hit.to, hit.to + 16))) dropping = true;
    else if (previous !== null && R.MODIFIER.test(between) && !/[,;]/.test(between)) dropping = true;
    else if (previous !== null && dropping && R.LISTED.test(between)) dropping = true;
    else if (previous !== null && R.ANY_OTHER.test(between)) dropping = true;
    else dropping = false;
    if (!dropping) out.push(hit);
    previous = hit;
  }
  return out;
}

const WORD = /[\p{L}\p{N}]+/gu;

// Values lower-cased and each once, by their first word: a sentence finds those it says by its own
// words, in time linear in its length however many values the message states.
function byFirstWord(values: readonly SaidValue[]): Map<string, SaidValue[]> {
  const out = new Map<string, SaidValue[]>();
  const seen = new Set<string>();
  for (const v of values) {
    const value = v.value.toLowerCase();
    const first = value.match(/[\p{L}\p{N}]+/u)?.[0];
    if (first === undefined || seen.has(`${v.field}\u0000${value}`)) continue;
    seen.add(`${v.field}\u0000${value}`);
    const list = out.get(first) ?? [];
    if (list.length === 0) out.set(first, list);
    list.push({ field: v.field, value });
  }
  return out;
}

// Two or more values of one field offered as alternatives ("basic economy, economy or business"):
// each such field, with where its values start.
function alternatives(words: Words, s: string): [string, number][] {
  const byField = new Map<string, { words: Set<string>; from: number }>();
  for (const v of valueWordsAt(words, s)) {
    const f = byField.get(v.word.field) ?? { words: new Set<string>(), from: v.from };
    byField.set(v.word.field, { ...f, words: f.words.add(v.word.word) });
  }
  return [...byField].filter(([, f]) => f.words.size >= 2 && /\bor\b/.test(s.slice(f.from)))
    .map(([field, f]) => [field, f.from]);
}

// Whether a list item's text states a value (an id, a number, a date, a value word): a summary, not a request.
function statesValue(words: Words, rest: string): boolean {
  if (/\d/.test(rest)) return true;
  if (valueWordsAt(words, rest).length > 0) return true;
  for (const res of words.values.values()) {
    for (const re of res) {
      // The patterns are global (`valuesSaid()` reads every match): left where a match ended, the
      // next reading of a message would start there.
      re.lastIndex = 0;
      const hit = re.test(rest);
      re.lastIndex = 0;
      if (hit) return true;
    }
  }
  return false;
}

// The place fields whose "before" words a question leaves without a value ("from and to?").
const open = new WeakMap<Words, [string, RegExp][]>();
function openPlaces(words: Words, s: string): [string, number][] {
  let places = open.get(words);
  if (places === undefined) {
    places = Object.entries(words.vocabulary.fields).filter(([, f]) => f.kind === "place" && f.before !== undefined)
      .map((
        [field, f],
      ) => [field, new RegExp(String.raw`\b(?:${f.before!.map(spaced).join("|")})(?=\s*(?:(?:and|or)\b|[?,]|$))`)]);
    open.set(words, places);
  }
  const out: [string, number][] = [];
  for (const [field, re] of places) {
    const m = re.exec(s);
    if (m !== null) out.push([field, m.index]);
  }
  return out;
}

// A name that asks to identify what already is or was ("which flight was delayed?"), not to choose:
// the field its own field declares for that (`FieldWords.existing`).
function identifying(words: Words, s: string, hit: NameHit): NameHit {
  const instead = words.vocabulary.fields[hit.hit.field]?.existing;
  if (instead === undefined || !R.HAPPENED.test(s.slice(hit.to, hit.to + 40))) return hit;
  return { ...hit, hit: { ...hit.hit, field: instead, fact: undefined } };
}

// A word list's entry as a pattern: literal, any run of spaces between its words.
function spaced(s: string): string {
  return escape(s).replace(/ /g, "\\s+");
}
