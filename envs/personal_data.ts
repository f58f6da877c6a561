/**
 * Finding customers' personal data in free text, for a domain's `personalData` declaration: the
 * emails and street addresses a message contains that belong to known customers (and any other
 * identifiers the domain lists), each with its owner. Domain-neutral: the domain gives the
 * directory of who owns what.
 *
 * @module
 */
import type { PersonalData } from "./constraints.ts";

/** Who owns which personal data: lower-cased values to their owner (`null`: shared by several, so nobody's). */
export interface PersonalDirectory {
  /** Emails, lower-cased. */
  emails: ReadonlyMap<string, string | null>;
  /** Street addresses (house number and words), lower-cased and single-spaced. */
  streets: ReadonlyMap<string, string | null>;
  /**
   * Other identifiers (e.g. user ids), lower-cased, found by `pattern` (a global regular expression).
   * @default {none}
   */
  ids?: { pattern: RegExp; owners: ReadonlyMap<string, string | null> };
}

const EMAIL = /[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}/gi;
// A house number and the capitalised words after it: where a street address can start.
const STREET = /\b\d+(?:[ \t,.]+[A-Z][a-zA-Z]*){1,4}/g;
const WORD = /[a-z0-9]+/g;

/**
 * The personal data of known customers in a text, with whose they are.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { personalDataIn } from "./personal_data.ts";
 * const dir = { emails: new Map([["mia@example.com", "mia"]]), streets: new Map([["975 sunset drive", "mia"]]) };
 * assertEquals(
 *   personalDataIn("Write to Mia@example.com or 975 Sunset Drive.", dir).map((d) => d.value),
 *   ["Mia@example.com", "975 sunset drive"],
 * );
 * ```
 */
export function personalDataIn(text: string, directory: PersonalDirectory): PersonalData[] {
  const out: PersonalData[] = [];
  if (text.includes("@")) {
    for (const m of text.matchAll(EMAIL)) {
      const who = directory.emails.get(m[0].toLowerCase());
      if (who) out.push({ value: m[0], owner: who });
    }
  }
  if (directory.ids !== undefined) {
    for (const m of text.matchAll(directory.ids.pattern)) {
      const who = directory.ids.owners.get(m[0].toLowerCase());
      if (who) out.push({ value: m[0], owner: who });
    }
  }
  // A street address is a house number and up to four words: try each run that starts with a number.
  for (const m of text.matchAll(STREET)) {
    const words = [...m[0].toLowerCase().matchAll(WORD)].map((w) => w[0]);
    for (let n = 2; n <= words.length; n++) {
      const value = words.slice(0, n).join(" ");
      const who = directory.streets.get(value);
      if (who) out.push({ value, owner: who });
    }
  }
  return out;
}
