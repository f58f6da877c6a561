// A vocabulary compiled for reading: the names of its fields and facts and the words of its changes
// as patterns over normalised text (lower case, "_" as a space, plurals too), compiled once per
// vocabulary. Private to envs/.
import type { ResolvedVocabulary } from "./vocabulary.ts";

/** A name of a field, or of one fact of it, as a pattern. */
export interface NamePattern {
  field: string;
  /** The fact the name is of, when it is a fact's own name. */
  fact?: string;
  name: string;
  re: RegExp;
}

/** A word of a change as a pattern. */
export interface ActionPattern {
  action: string;
  word: string;
  re: RegExp;
}

/** The compiled vocabulary. */
export interface Words {
  readonly vocabulary: ResolvedVocabulary;
  /** Every name, the longest first (so "new travel date" wins over "date"). */
  readonly names: readonly NamePattern[];
  /** Every change word, the longest first. */
  readonly actions: readonly ActionPattern[];
  /** Each field's value patterns (ids), case as declared. */
  readonly values: ReadonlyMap<string, readonly RegExp[]>;
  /** Each field's value words ("economy"), the longest first. */
  readonly valueWords: ReadonlyMap<string, readonly { word: string; re: RegExp }[]>;
}

const compiled = new WeakMap<ResolvedVocabulary, Words>();

/** The compiled form of a vocabulary, made once. */
export function wordsOf(vocabulary: ResolvedVocabulary): Words {
  let w = compiled.get(vocabulary);
  if (w === undefined) compiled.set(vocabulary, w = compile(vocabulary));
  return w;
}

/** A name or word as a pattern over normalised text: whole words, "_", "-" and " " alike, an optional plural "s". */
export function phrase(words: string): RegExp {
  const parts = words.toLowerCase().replace(/[_-]/g, " ").trim().split(/\s+/).map(escape);
  // Not inside an id: "credit" is no word of "credit_card_1111111".
  return new RegExp(`(?<![\\p{L}\\p{N}_])${parts.join("[\\s_-]+")}(?:e?s)?(?![\\p{L}\\p{N}_])`, "u");
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

const byLength = <T extends { name?: string; word?: string }>(a: T, b: T) =>
  (b.name ?? b.word ?? "").length - (a.name ?? a.word ?? "").length;

function compile(vocabulary: ResolvedVocabulary): Words {
  const names: NamePattern[] = [];
  for (const [field, words] of Object.entries(vocabulary.fields)) {
    for (const name of words.names) names.push({ field, name, re: phrase(name) });
  }
  for (const [fact, words] of Object.entries(vocabulary.facts)) {
    for (const name of words.names ?? []) names.push({ field: words.field, fact, name, re: phrase(name) });
  }
  names.sort(byLength);
  const actions: ActionPattern[] = [];
  for (const [action, words] of Object.entries(vocabulary.actions)) {
    for (const word of words.words) actions.push({ action, word, re: phrase(word) });
  }
  actions.sort(byLength);
  const values = new Map<string, readonly RegExp[]>();
  const valueWords = new Map<string, { word: string; re: RegExp }[]>();
  for (const [field, words] of Object.entries(vocabulary.fields)) {
    if (words.values) values.set(field, words.values.map((r) => new RegExp(r.source, r.flags.replace("g", "") + "g")));
    if (words.words) {
      valueWords.set(
        field,
        [...words.words].sort((a, b) => b.length - a.length).map((w) => ({ word: w, re: phrase(w) })),
      );
    }
  }
  return { vocabulary, names, actions, values, valueWords };
}

/**
 * The names said in a normalised text, longest first and without overlaps: each stretch of text
 * counts for one name only ("new travel date" is not also "date").
 */
export function namesIn(words: Words, norm: string): NamePattern[] {
  const taken: [number, number][] = [];
  const out: { at: number; hit: NamePattern }[] = [];
  for (const hit of words.names) {
    const re = new RegExp(hit.re.source, "gu");
    for (let m = re.exec(norm); m !== null; m = re.exec(norm)) {
      const [from, to] = [m.index, m.index + m[0].length];
      if (taken.some(([a, b]) => from < b && to > a)) continue;
      taken.push([from, to]);
      out.push({ at: from, hit });
    }
  }
  return out.sort((a, b) => a.at - b.at).map((x) => x.hit);
}

/** The first change word said in a normalised text, with where it is; `null` for none. */
export function firstAction(words: Words, norm: string): { action: string; at: number } | null {
  let best: { action: string; at: number } | null = null;
  for (const a of words.actions) {
    const m = a.re.exec(norm);
    if (m !== null && (best === null || m.index < best.at)) best = { action: a.action, at: m.index };
  }
  return best;
}
