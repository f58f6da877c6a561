// The values of fields a message says: ids by their declared shapes, value words ("economy"),
// dates, sums of money and counts ("2 bags"). Private to envs/.
import { normalizeText } from "./text.ts";
import type { Words } from "./_read_words.ts";

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
/** A sum of money: $1,234.50, 120 dollars, USD 80. */
export const AMOUNT = /(?:\$\s?|\busd\s?)\d[\d,]*(?:\.\d+)?|\b\d[\d,]*(?:\.\d+)?\s?(?:dollars|usd)\b/gi;
const NUMBER_WORDS: Record<string, number> = {
  no: 0,
  zero: 0,
  one: 1,
  a: 1,
  an: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
};
const COUNT = `(?:\\d{1,3}|${Object.keys(NUMBER_WORDS).join("|")})`;

/** Every value of a field the text says, in the fields' order. */
export function valuesSaid(words: Words, text: string): SaidValue[] {
  const out: SaidValue[] = [];
  const norm = normalizeText(text);
  for (const [field, spec] of Object.entries(words.vocabulary.fields)) {
    for (const re of words.values.get(field) ?? []) {
      re.lastIndex = 0;
      for (const m of text.matchAll(re)) out.push({ field, value: m[1] ?? m[0] });
    }
    for (const { word, re } of words.valueWords.get(field) ?? []) {
      if (re.test(norm)) {
        out.push({ field, value: word });
        break;
      }
    }
    if (spec.kind === "date") { for (const m of text.matchAll(DATE)) out.push({ field, value: m[0] }); }
    if (spec.kind === "amount") { for (const m of text.matchAll(AMOUNT)) out.push({ field, value: m[0] }); }
    if (spec.kind === "count") {
      for (const name of spec.names) {
        const re = new RegExp(
          `\\b${COUNT}\\s+(?:(?:more|extra|additional|checked|new|free|paid)\\s+){0,2}${name}`,
          "g",
        );
        for (const m of norm.matchAll(re)) out.push({ field, value: m[0] });
      }
    }
  }
  return out;
}
