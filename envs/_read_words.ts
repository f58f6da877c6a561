// A vocabulary compiled for reading: the names of its fields and facts, the words of its changes and
// the words of its values as patterns over normalised text (lower case, "_" as a space, plurals and
// verb forms too), compiled once per vocabulary. Private to envs/.
import type { ResolvedVocabulary } from "./vocabulary.ts";

/** A name of a field, or of one fact of it, as a pattern. */
export interface NamePattern {
  field: string;
  /** The fact the name is of, when it is a fact's own name. */
  fact?: string;
  name: string;
  re: RegExp;
  /** A literal every match holds: where a text lacks it, the pattern is not run. */
  needle: string;
}

/** A word of a change as a pattern. */
export interface ActionPattern {
  action: string;
  word: string;
  re: RegExp;
  /** A literal every match holds: where a text lacks it, the pattern is not run. */
  needle: string;
  /** Whether the word is also a field's name or value ("bags", "economy"): it says the change only when nothing else does. */
  weak: boolean;
  /** Whether the word is a name or value of a field that is a term of a change (how to pay): it never says the change. */
  term: boolean;
}

/** A value word of a field ("economy"), as a pattern. */
export interface ValueWord {
  field: string;
  word: string;
  re: RegExp;
  /** A literal every match holds: where a text lacks it, the pattern is not run. */
  needle: string;
}

/** The compiled vocabulary. */
export interface Words {
  readonly vocabulary: ResolvedVocabulary;
  /** Every name, the longest first (so "new travel date" wins over "date"). */
  readonly names: readonly NamePattern[];
  /** Every change word, the longest first. */
  readonly actions: readonly ActionPattern[];
  /** Each field's value patterns, case as declared. */
  readonly values: ReadonlyMap<string, readonly RegExp[]>;
  /** Every field's value words, the longest first. */
  readonly valueWords: readonly ValueWord[];
  /** Each field's cue words (its names and `cues`), for `cued` fields. */
  readonly cues: ReadonlyMap<string, readonly RegExp[]>;
  /** The fields that are terms of a change. */
  readonly terms: ReadonlySet<string>;
  /** Every word of the vocabulary's names, value words and change words, lower case ("reservation", "economy"). */
  readonly own: ReadonlySet<string>;
}

const compiled = new WeakMap<ResolvedVocabulary, Words>();

/** The compiled form of a vocabulary, made once. */
export function wordsOf(vocabulary: ResolvedVocabulary): Words {
  let w = compiled.get(vocabulary);
  if (w === undefined) compiled.set(vocabulary, w = compile(vocabulary));
  return w;
}

const bare = (words: string) => words.toLowerCase().replace(/[_-]/g, " ").trim().split(/\s+/);
const parts = (words: string) => bare(words).map(escape);

// The first word of a phrase, which every match of it holds as written.
const firstWord = (words: string) => bare(words)[0];

// The part of a verb's first word that all its forms keep ("cancel" of "cancelled", "issu" of "issuing").
function stem(words: string): string {
  const word = firstWord(words);
  if (!/^[a-z]+$/.test(word) || word.length < 3) return word;
  return word.endsWith("e") || /[^aeiou]y$/.test(word) ? word.slice(0, -1) : word;
}

// The patterns of phrases made so far: the scripted user asks for the same values' patterns again and
// again. A pattern has no "g" flag, so sharing one keeps no state between its uses.
const phrases = new Map<string, RegExp>();

/** A name or word as a pattern over normalised text: whole words, "_", "-" and " " alike, an optional plural "s". */
export function phrase(words: string): RegExp {
  let re = phrases.get(words);
  if (re === undefined) {
    if (phrases.size >= 8192) phrases.clear();
    phrases.set(words, re = compilePhrase(words));
  }
  return re;
}

function compilePhrase(words: string): RegExp {
  const [first, ...rest] = parts(words);
  // "Which of these flights" is "which flights".
  const head = /^(?:which|what)$/.test(first) && rest.length > 0
    ? `${first}(?:\\s+(?:ones?\\s+)?of\\s+(?:these|those|the|your|our))?`
    : first;
  // Not inside an id: "credit" is no word of "credit_card_1111111".
  return new RegExp(`(?<![\\p{L}\\p{N}_])${[head, ...rest].join("[\\s_-]+")}(?:e?s)?(?![\\p{L}\\p{N}_])`, "u");
}

// A verb in its forms: "cancel" → cancels, cancelled, cancelling; "issue" → issuing; "modify" → modified.
function forms(word: string): string {
  if (!/^[a-z]+$/.test(word) || word.length < 3) return `${word}(?:e?s)?`;
  if (word.endsWith("e")) return `${word.slice(0, -1)}(?:e|es|ed|ing)`;
  if (/[^aeiou]y$/.test(word)) return `${word.slice(0, -1)}(?:y|ies|ied|ying)`;
  const last = word[word.length - 1];
  const doubled = /[^aeiou][aeiou][bdglmnprt]$/.test(word) ? `|${last}ed|${last}ing` : "";
  return `${word}(?:s|es|ed|ing${doubled})?`;
}

// A change word as a pattern: its first word in any verb form, the others in order with up to four
// words between them ("change your return flights"), the last one with an optional plural.
function actionPattern(word: string): RegExp {
  const [first, ...rest] = parts(word);
  // The words between may not start another clause ("changes even if the passenger" is no passenger change);
  // an aside in parentheses is passed over ("add Ana Li (born 2001-02-03) as a passenger").
  const aside = String.raw`(?:\s+\([^()]{1,60}\))?`;
  const gap =
    String.raw`(?:${aside}\s+(?!(?:if|even|but|and|or|because|when|while|since|although|unless|which|who|whether|` +
    String.raw`than)\b)[^\s.?!;:]+){0,4}?${aside}\s+`;
  const tail = rest.length === 0 ? "" : gap + rest.map((p, i) => i === rest.length - 1 ? `${singular(p)}(?:e?s)?` : p)
    .join("[\\s_-]+");
  return new RegExp(`(?<![\\p{L}\\p{N}_])${forms(first)}${tail}(?![\\p{L}\\p{N}_])`, "u");
}

// "flights" → "flight": the plural is matched as an option.
function singular(word: string): string {
  return /^[a-z]{2,}[^s]s$/.test(word) ? word.slice(0, -1) : word;
}

/** A text as a pattern that matches it literally. */
export function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

const longestFirst = <T>(key: (t: T) => string) => (a: T, b: T) => key(b).length - key(a).length;

function compile(vocabulary: ResolvedVocabulary): Words {
  const fields = Object.entries(vocabulary.fields);
  const names: NamePattern[] = [];
  for (const [field, words] of fields) {
    for (const name of words.names) names.push({ field, name, re: phrase(name), needle: firstWord(name) });
  }
  for (const [fact, words] of Object.entries(vocabulary.facts)) {
    // A fact is also named by its own key ("direction", "new item ids"), as the scripted user says it.
    const own = fact.replaceAll("_", " ");
    const all = (words.names ?? []).some((n) => n.toLowerCase() === own)
      ? words.names ?? []
      : [...words.names ?? [], own];
    for (const name of all) names.push({ field: words.field, fact, name, re: phrase(name), needle: firstWord(name) });
  }
  // The longest first; of two as long, a fact's own name (the fact is then known too).
  names.sort((a, b) => b.name.length - a.name.length || Number(b.fact !== undefined) - Number(a.fact !== undefined));
  const terms = new Set(fields.filter(([, f]) => f.term === true).map(([name]) => name));
  const said = new Map<string, string>();
  for (const [field, words] of fields) {
    for (const w of [...words.names, ...(words.words ?? [])]) said.set(w.toLowerCase().replace(/[_-]/g, " "), field);
  }
  const actions: ActionPattern[] = [];
  for (const [action, words] of Object.entries(vocabulary.actions)) {
    for (const word of words.words) {
      const field = said.get(word.toLowerCase().replace(/[_-]/g, " "));
      const weak = field !== undefined, term = terms.has(field ?? "");
      actions.push({ action, word, re: actionPattern(word), needle: stem(word), weak, term });
    }
  }
  actions.sort(longestFirst((a) => a.word));
  const values = new Map<string, readonly RegExp[]>();
  const valueWords: ValueWord[] = [];
  const cues = new Map<string, readonly RegExp[]>();
  for (const [field, words] of fields) {
    if (words.values) values.set(field, words.values.map((r) => new RegExp(r.source, r.flags.replace("g", "") + "g")));
    for (const word of words.words ?? []) valueWords.push({ field, word, re: phrase(word), needle: firstWord(word) });
    if (words.cued) cues.set(field, [...words.names, ...(words.cues ?? [])].map(phrase));
  }
  valueWords.sort(longestFirst((v) => v.word));
  const own = new Set<string>();
  for (const w of [...names.map((n) => n.name), ...valueWords.map((v) => v.word), ...actions.map((a) => a.word)]) {
    for (const part of w.toLowerCase().match(/\p{L}+(?:'\p{L}+)?/gu) ?? []) own.add(part);
  }
  return { vocabulary, names, actions, values, valueWords, cues, terms, own };
}

/** A span of text: where a name, word or value was found. */
export interface Span {
  from: number;
  to: number;
}

/**
 * The stretches of a text already taken by what was found there: a new span is checked in the time of
 * its own length, so a text with thousands of hits is still read in linear time.
 */
export class Taken {
  readonly #at: Uint8Array;
  constructor(length: number) {
    this.#at = new Uint8Array(length);
  }
  /** Takes a span unless it overlaps one taken before; whether it did. */
  take(from: number, to: number): boolean {
    for (let i = from; i < to; i++) if (this.#at[i] === 1) return false;
    this.#at.fill(1, from, to);
    return true;
  }
}

/** A name found in a text, with where. */
export interface NameHit extends Span {
  hit: NamePattern;
}

/**
 * The names said in a normalised text, in order and without overlaps: the longest name wins each
 * stretch of text ("new travel date" is not also "date").
 */
export function namesAt(words: Words, norm: string): NameHit[] {
  const taken = new Taken(norm.length);
  const out: NameHit[] = [];
  for (const hit of words.names) {
    if (!norm.includes(hit.needle)) continue;
    const re = global(hit.re);
    for (let m = re.exec(norm); m !== null; m = re.exec(norm)) {
      const [from, to] = [m.index, m.index + m[0].length];
      if (taken.take(from, to)) out.push({ from, to, hit });
    }
  }
  return out.sort((a, b) => a.from - b.from);
}

/** A value word found in a text, with where. */
export interface ValueHit extends Span {
  word: ValueWord;
}

/** The value words said in a normalised text, in order and without overlaps (the longest wins). */
export function valueWordsAt(words: Words, norm: string): ValueHit[] {
  const taken = new Taken(norm.length);
  const out: ValueHit[] = [];
  for (const word of words.valueWords) {
    if (!norm.includes(word.needle)) continue;
    const re = global(word.re);
    for (let m = re.exec(norm); m !== null; m = re.exec(norm)) {
      const [from, to] = [m.index, m.index + m[0].length];
      if (taken.take(from, to)) out.push({ from, to, word });
    }
  }
  return out.sort((a, b) => a.from - b.from);
}

/** A change word found in a text, with where. */
export interface ActionHit extends Span {
  pattern: ActionPattern;
}

/**
 * The change words said in a normalised text, in order: the longest wins each stretch, and a word
 * inside a longer name or value ("credit" of "credit card") is not a change word there.
 */
export function actionsAt(words: Words, norm: string, covered: readonly Span[]): ActionHit[] {
  // The covered spans at each position where one starts or runs: a hit looks only at its own start.
  const at = new Map<number, Span[]>();
  for (const c of covered) for (let i = c.from; i < c.to; i++) at.set(i, [...at.get(i) ?? [], c]);
  const all: ActionHit[] = [];
  for (const pattern of words.actions) {
    if (!norm.includes(pattern.needle)) continue;
    const re = global(pattern.re);
    for (let m = re.exec(norm); m !== null; m = re.exec(norm)) {
      const [from, to] = [m.index, m.index + m[0].length];
      if ((at.get(from) ?? []).some((c) => c.to >= to && c.to - c.from > to - from)) continue;
      all.push({ from, to, pattern });
    }
  }
  // The longest match wins each stretch ("add three checked bags" over "checked bags").
  all.sort((a, b) => (b.to - b.from) - (a.to - a.from));
  const taken = new Taken(norm.length);
  const out = all.filter((hit) => taken.take(hit.from, hit.to));
  return out.sort((a, b) => a.from - b.from);
}

// Global copies, one per pattern: `exec` with `lastIndex` needs the "g" flag.
const globals = new WeakMap<RegExp, RegExp>();
function global(re: RegExp): RegExp {
  let g = globals.get(re);
  if (g === undefined) globals.set(re, g = new RegExp(re.source, re.flags.includes("g") ? re.flags : re.flags + "g"));
  g.lastIndex = 0;
  return g;
}
