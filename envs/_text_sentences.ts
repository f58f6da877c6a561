/**
 * The normal forms `text.ts` reads (re-exported there): a text lower-cased with markdown and curly
 * quotes gone (`normalizeText()`), and a message's sentences (`sentencesOf()`, `isQuestion()`).
 *
 * @module
 */
import * as P from "./_text_patterns.ts";

const CURLY_SINGLE = /[\u2018\u2019\u201A\u201B\u2032]/g;
const CURLY_DOUBLE = /[\u201C\u201D\u201E\u201F\u2033]/g;
// `*`, backquotes and `#` go everywhere; `_` only where it is emphasis, not inside an id.
const MARKDOWN = /[*`#]+|(?<![\p{L}\p{N}])_+|_+(?![\p{L}\p{N}])/gu;
const SPACE = /\s+/g;

/**
 * Lower-case, markdown emphasis (* _ ` #) stripped, curly quotes/apostrophes straightened, whitespace collapsed.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { normalizeText } from "./text.ts";
 * const text = "**Reservation** _ABC123_ isn\u2019t   in `gift_card_1`";
 * assertEquals(normalizeText(text), "reservation abc123 isn't in gift_card_1");
 * ```
 */
export function normalizeText(text: string): string {
  return text.replace(CURLY_SINGLE, "'").replace(CURLY_DOUBLE, '"').replace(MARKDOWN, "").replace(SPACE, " ").trim()
    .toLowerCase();
}

// The same message is usually asked about many values in a row (`mentions()`): keep its normal form.
let lastText = "";
let lastNormal = "";
export function normalized(text: string): string {
  if (text !== lastText) [lastText, lastNormal] = [text, normalizeText(text)];
  return lastNormal;
}

// A control marker such as the simulated user's "###STOP###" is not part of what is said.
const MARKER = /(?<!#)#{2,}[A-Za-z_ ]{1,20}#{2,}/g;
const LINE_SPACE = /[^\S\n]+/g;
const LINES = /\s*\n\s*/;

// The judge asks several questions of the same message in a row: keep the last answer.
let lastSplit = "";
let lastSentences: readonly string[] = [];

/**
 * The sentences of a message, normalised (lower case, markdown and control markers gone, quotes
 * straightened), lines and list items apart; a sentence keeps its end mark. For the readers.
 *
 * @internal
 */
export function sentencesOf(text: string): readonly string[] {
  if (text === lastSplit) return lastSentences;
  const out: string[] = [];
  const norm = text.replace(MARKER, " ").replace(CURLY_SINGLE, "'").replace(CURLY_DOUBLE, '"').replace(MARKDOWN, "")
    .replace(/\r/g, "").replace(LINE_SPACE, " ").toLowerCase();
  for (const line of norm.split(LINES)) {
    const clean = line.replace(P.BULLET, "").trim();
    if (clean === "") continue;
    for (const s of clean.split(P.SENTENCE_END)) if (s !== "") out.push(s);
  }
  [lastSplit, lastSentences] = [text, out];
  return out;
}

/**
 * Whether a sentence of `sentencesOf()` is a question, with or without its mark.
 *
 * @internal
 */
export function isQuestion(sentence: string): boolean {
  return sentence.endsWith("?") || P.ASKS.test(sentence);
}
