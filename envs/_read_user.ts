// Reading a customer's message (`readUserMessage()`): a yes or a no to the proposal before it, the
// fields it gives values for, the end of the conversation. Private to envs/.
import type { AgentReading, UserReading } from "./reader.ts";
import type { ResolvedVocabulary } from "./vocabulary.ts";
import { isDecline, isExplicitYes, normalizeText } from "./text.ts";
import { namesIn, wordsOf } from "./_read_words.ts";
import { valuesSaid } from "./_read_values.ts";

const STOP = /###\s*stop\s*###/i;
const CLOSING =
  /\b(?:that'?s all|that is all|that'?s everything|i'?m all set|i am all set|(?:have|enjoy) a (?:good|great|nice) (?:day|one|evening)|goodbye|bye\b|no further (?:changes|questions|help)|don'?t need (?:anything|any further|any more)|nothing else)\b/;
// "My user id is X", "It's for two passengers": a name followed by what it is.
const GIVES = /\b(?:is|are|was|:|=|would be|will be)\s+\S/;

/** What a customer's message does. */
export function readUser(vocabulary: ResolvedVocabulary, text: string, proposal: AgentReading | null): UserReading {
  const words = wordsOf(vocabulary);
  const norm = normalizeText(text);
  const proposed = proposal?.proposes === true;
  const approves = proposed && isExplicitYes(text);
  const declines = proposed && !approves && isDecline(text);
  const provides = valuesSaid(words, text).map((v) => v.field);
  for (const hit of namesIn(words, norm)) {
    const after = norm.slice(norm.search(hit.re));
    if (GIVES.test(after.slice(0, hit.name.length + 12)) && !provides.includes(hit.field)) provides.push(hit.field);
  }
  const ends = STOP.test(text) || CLOSING.test(norm);
  return { approves, declines, provides: [...new Set(provides)], ends };
}
