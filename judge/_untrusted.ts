// Text the LLM judge is shown but nobody it answers to wrote (messages, tool calls and answers, error
// messages, names): invisible and control characters removed, long runs of one repeated piece
// squeezed, and what is still too long cut in the middle so that both ends stay, every change marked.
// Also the normal form quotes are compared in. Private to judge/.
import { createHash } from "node:crypto";

// Characters a reader does not see that can carry text or reorder it: C0 and C1 controls but tab and
// newline, the soft hyphen, zero-width and joiner characters, bidirectional controls, invisible
// fillers, variation selectors and the tag block (U+E0000–U+E007F) with the rest of its plane.
const INVISIBLE = new RegExp(
  "[\\u0000-\\u0008\\u000B-\\u001F\\u007F-\\u009F\\u00AD\\u034F\\u061C\\u115F\\u1160\\u17B4\\u17B5" +
    "\\u180B-\\u180F\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u206F\\u3164\\uFE00-\\uFE0F\\uFEFF\\uFFA0" +
    "\\uFFF9-\\uFFFB\\u{1BCA0}-\\u{1BCA3}\\u{1D173}-\\u{1D17A}\\u{E0000}-\\u{E0FFF}]",
  "gu",
);

/** Thousands grouped with commas, whatever the locale: 48120 → "48,120". */
export function grouped(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/**
 * A text without its invisible and control characters (a CRLF is a newline, not a removal), and how
 * many were removed.
 */
export function stripInvisible(text: string): { text: string; removed: number } {
  let removed = 0;
  const out = text.replace(/\r\n/g, "\n").replace(INVISIBLE, () => {
    removed++;
    return "";
  });
  return { text: out, removed };
}

// A piece of 1 to 16 characters said again and again is padding, squeezed once its run spans
// SQUEEZE_FROM characters. The search costs about 0.4 ms per thousand characters, so past
// PIECES_UP_TO characters only runs of one character are squeezed (tool arguments stay within it).
const REPEATED = /([^]{1,16}?)\1{3,}/gu;
const REPEATED_CHAR = /([^])\1{3,}/gu;
const SQUEEZE_FROM = 64;
const PIECES_UP_TO = 65_536;

// Runs of one repeated piece spanning SQUEEZE_FROM characters or more: two of the piece kept, the rest marked.
function squeeze(text: string): string {
  if (text.length < SQUEEZE_FROM) return text;
  return text.replace(text.length <= PIECES_UP_TO ? REPEATED : REPEATED_CHAR, (run: string, piece: string) => {
    if (run.length < SQUEEZE_FROM) return run;
    const kept = piece.repeat(2);
    return `${kept}…[cut ${grouped(run.length - kept.length)} characters: ${JSON.stringify(piece)} repeated]…`;
  });
}

// The text's first and last characters, `max` in all, the middle marked; never half a surrogate pair.
function cutMiddle(text: string, max: number): string {
  if (text.length <= max) return text;
  let head = Math.ceil(max / 2), tail = text.length - (max - head);
  if (isHigh(text.charCodeAt(head - 1))) head--;
  if (isLow(text.charCodeAt(tail))) tail++;
  return `${text.slice(0, head)}…[cut ${grouped(tail - head)} characters]…${text.slice(tail)}`;
}

const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/**
 * Untrusted text as the judge is shown it: invisible characters removed, repeated padding squeezed,
 * the rest cut to at most `max` characters keeping both ends; each change is marked in the text.
 */
export function shown(text: string, max: number): string {
  const clean = stripInvisible(text);
  const out = cutMiddle(squeeze(clean.text), max);
  if (clean.removed === 0) return out;
  const s = clean.removed === 1 ? "" : "s";
  return `${out} [${grouped(clean.removed)} invisible character${s} removed]`;
}

/**
 * Data as JSON for the judge's prompt, with the code of the marker lines around it: hex digits of a
 * hash of that JSON and a fixed salt, so the same episode always gets the same prompt (the model
 * cache keys on it) and no text in the data can know its code beforehand. Every occurrence of the
 * code in the data's strings, in any case, is replaced all the same. `code` is for tests.
 */
export function fence(data: unknown, code?: string): { code: string; json: string } {
  const plain = JSON.stringify(data, null, 1);
  const c = code ?? createHash("sha256").update(`ark judge data boundary v1\n${plain}`).digest("hex").slice(0, 24);
  const found = new RegExp(c, "gi");
  const json = JSON.stringify(data, (_, v) => typeof v === "string" ? v.replace(found, "[marker removed]") : v, 1);
  return { code: c, json };
}

/**
 * The form a quote and the text it quotes are compared in: invisible characters removed,
 * compatibility forms folded (NFKC), lower case, and no white space, quote marks or backslashes
 * (so a quote of a tool call's JSON matches however its escapes were read).
 */
export function quoteForm(text: string): string {
  return stripInvisible(text).text.normalize("NFKC").toLowerCase().replace(/[\s"'`\\\u2018\u2019\u201C\u201D«»]/gu, "");
}
