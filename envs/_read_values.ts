// The values of fields a customer's message says: ids by their declared shapes, value words
// ("economy"), dates (also relative ones), sums of money, counts ("2 bags"), people's names and places,
// each value counted for one field only (the longest reading wins; a `cued` field's value counts only
// after one of its cues). Private to envs/.
import * as R from "./_read_patterns.ts";
import { isCommonWord } from "./_read_english.ts";
import { actionsAt, type Span, Taken, valueWordsAt, type Words } from "./_read_words.ts";

/** A value of a field said in a text, as written. */
export interface SaidValue {
  field: string;
  value: string;
}

const MONTH = "(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|" +
  "oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?";
const DAY = "\\d{1,2}(?:st|nd|rd|th)?";
/** A calendar date in its usual forms: 2024-05-20, May 20(th)(, 2024), 20 May, 05/20/2024. */
export const DATE = new RegExp(
  `\\b(?:\\d{4}-\\d{2}-\\d{2}|${MONTH}\\s+${DAY}(?:,?\\s+\\d{4})?|${DAY}\\s+(?:of\\s+)?${MONTH}(?:,?\\s+\\d{4})?|` +
    `\\d{1,2}/\\d{1,2}(?:/\\d{2,4})?)(?![\\p{L}\\p{N}])`,
  "giu",
);
/** A sum of money: $1,234.50, 120 dollars, USD 80, 446.78. */
// Digits and separators bounded: a run of "1,1,1,..." is not scanned again from each of its digits.
export const AMOUNT =
  /(?:\$\s?|\busd\s?)\d[\d,]{0,15}(?:\.\d{1,4})?|\b\d[\d,]{0,15}(?:\.\d{1,4})?\s?(?:dollars|usd)\b|(?<![\w.$])\d[\d,]{0,15}\.\d{2}(?![\w.])/gi;
const NUMBER_WORDS = "no|zero|one|a|an|two|three|four|five|six|seven|eight|nine|ten";
const COUNT = `(?:\\d{1,3}|${NUMBER_WORDS})`;
const PERSON = /(?<![\p{L}\p{N}_])\p{Lu}\p{Ll}+(?:[ -]\p{Lu}\p{Ll}+){1,2}(?![\p{L}\p{N}_])/gu;
const PLACE = String.raw`(?:the\s+)?(\p{Lu}{3}(?![\p{L}\p{N}_])|` +
  String.raw`\p{Lu}\p{Ll}+(?:\s+\p{Lu}\p{Ll}+){0,2}(?![\p{L}\p{N}_]))`;
const RELATIVE_DAYS = new RegExp(R.RELATIVE_DAY.source, "g");
// How far before a value a cue of its field may be said.
const CUE_WINDOW = 80;

// A text of the same length as the message, lower case, markdown and curly quotes made plain: the
// spans found in it are the message's.
function flat(text: string): string {
  return text.toLowerCase().replace(/[*`#]/g, " ").replace(/[\u2018\u2019]/g, "'").replace(/[\u201C\u201D]/g, '"');
}

interface Candidate extends Span {
  field: string;
  value: string;
  order: number;
  /** How much of the text the reading takes, with the words that introduce it ("from" of a place). */
  reach?: number;
}

const patterns = new WeakMap<Words, Map<string, { counts: RegExp[]; places: RegExp[] }>>();
function compiled(words: Words, field: string): { counts: RegExp[]; places: RegExp[] } {
  let byField = patterns.get(words);
  if (byField === undefined) patterns.set(words, byField = new Map());
  let p = byField.get(field);
  if (p === undefined) {
    const spec = words.vocabulary.fields[field];
    const counts = spec.kind === "count"
      ? spec.names.map((n) =>
        new RegExp(
          `\\b${COUNT}\\s+(?:(?:more|extra|additional|checked|new|free|paid|other)\\s+){0,2}${n}(?:e?s)?\\b`,
          "g",
        )
      )
      : [];
    const places = spec.kind === "place"
      ? (spec.before ?? []).map((b) => new RegExp(`(?<![\\p{L}\\p{N}])${anyCase(b)}\\s+${PLACE}`, "gu"))
      : [];
    byField.set(field, p = { counts, places });
  }
  return p;
}

// A word matched in any case, the rest of the pattern keeping its own ("from" → [fF][rR][oO][mM]).
function anyCase(word: string): string {
  return [...word].map((c) => /\p{L}/u.test(c) ? `[${c.toLowerCase()}${c.toUpperCase()}]` : c === " " ? "\\s+" : c)
    .join("");
}

/** Every value of a field the text says, each counted once, in the order said. */
export function valuesSaid(words: Words, text: string): SaidValue[] {
  const low = flat(text);
  const found: Candidate[] = [];
  const fields = Object.entries(words.vocabulary.fields);
  fields.forEach(([field, spec], order) => {
    const add = (from: number, to: number, reach = to - from) => {
      if (!spec.cued || cuedBefore(words, field, low, from)) {
        found.push({ field, value: text.slice(from, to), from, to, order, reach });
      }
    };
    for (const re of words.values.get(field) ?? []) {
      for (const m of text.matchAll(re)) add(m.index, m.index + m[0].length);
    }
    if (spec.kind === "date") {
      for (const m of text.matchAll(DATE)) add(m.index, m.index + m[0].length);
      for (const m of low.matchAll(RELATIVE_DAYS)) add(m.index, m.index + m[0].length);
    }
    if (spec.kind === "amount") { for (const m of text.matchAll(AMOUNT)) add(m.index, m.index + m[0].length); }
    const { counts, places } = compiled(words, field);
    for (const re of counts) for (const m of low.matchAll(re)) add(m.index, m.index + m[0].length);
    for (const re of places) {
      for (const m of text.matchAll(re)) {
        const name = m[1];
        if (!name.split(/\s+/).some((w) => notAName(words, w))) {
          add(m.index + m[0].length - name.length, m.index + m[0].length, m[0].length);
        }
      }
    }
    if (spec.kind === "person") {
      for (const m of text.matchAll(PERSON)) {
        if (!m[0].split(/[ -]/).some((w) => notAName(words, w))) add(m.index, m.index + m[0].length);
      }
    }
    if (spec.explains === true) {
      for (const e of explanations(words, low)) found.push({ field, value: text.slice(e.from, e.end), ...e, order });
    }
  });
  // A value word needs no cue: it is the field's own word ("the cheaper one").
  for (const v of valueWordsAt(words, low)) {
    const order = fields.findIndex(([f]) => f === v.word.field);
    found.push({ field: v.word.field, value: text.slice(v.from, v.to), from: v.from, to: v.to, order });
  }
  // The longest reading of each stretch wins; of two as long, the field declared first.
  const reach = (c: Candidate) => c.reach ?? c.to - c.from;
  found.sort((a, b) => reach(b) - reach(a) || a.order - b.order);
  const taken = new Taken(text.length);
  const out = found.filter((c) => taken.take(c.from, c.to));
  return out.sort((a, b) => a.from - b.from).map(({ field, value }) => ({ field, value }));
}

// The explanations of a change the text gives: "because ..." (or "due to ...", "since I ...") after a
// word that says a change in the same sentence ("I'm cancelling because I was away"). Each takes only
// its first word's place, so the values said in it still count for their own fields.
const EXPLAINS = /\b(?:because|due to|owing to|as a result of|since (?:i|we|my|our|the|it|they|he|she))\b/g;
const CLAUSE_END = /[.?!;\n]/;
function explanations(words: Words, low: string): (Span & { end: number })[] {
  if (low.search(EXPLAINS) < 0) return [];
  const changes = actionsAt(words, low, []).filter((c) => !c.pattern.weak && !c.pattern.term);
  const out: (Span & { end: number })[] = [];
  for (const m of low.matchAll(EXPLAINS)) {
    const before = low.slice(Math.max(0, m.index - CUE_WINDOW), m.index);
    const from = m.index - before.length + Math.max(...[...".?!\n"].map((c) => before.lastIndexOf(c))) + 1;
    if (!changes.some((c) => c.from >= from && c.to <= m.index)) continue;
    const rest = low.slice(m.index, m.index + 160);
    const end = CLAUSE_END.exec(rest);
    out.push({ from: m.index, to: m.index + m[0].length, end: m.index + (end === null ? rest.length : end.index) });
  }
  return out;
}

// A capitalised word that names no person or place: common English, or a thing of the domain (a word
// of a value, of a change or a one-word name: "Economy", "Reservation"), though not one that ordinary
// places are named with too ("New York").
const things = new WeakMap<Words, Set<string>>();
function notAName(words: Words, word: string): boolean {
  let own = things.get(words);
  if (own === undefined) {
    own = new Set<string>();
    const said = [
      ...words.valueWords.map((v) => v.word),
      ...words.actions.map((a) => a.word),
      ...words.names.map((n) => n.name).filter((n) => !/\s/.test(n)),
    ];
    for (const w of said) {
      for (const part of w.toLowerCase().match(/\p{L}+/gu) ?? []) if (!isCommonWord(part)) own.add(part);
    }
    things.set(words, own);
  }
  const low = word.toLowerCase();
  return R.NOT_A_NAME.has(low) || own.has(low);
}

// Whether a cue of the field is said before `at`, in the same sentence and not far before.
function cuedBefore(words: Words, field: string, low: string, at: number): boolean {
  const start = Math.max(0, at - CUE_WINDOW);
  const before = low.slice(start, at + 1);
  const stop = Math.max(
    before.lastIndexOf(". "),
    before.lastIndexOf("? "),
    before.lastIndexOf("! "),
    before.lastIndexOf("\n"),
  );
  const window = before.slice(stop + 1);
  return (words.cues.get(field) ?? []).some((re) => re.test(window));
}
