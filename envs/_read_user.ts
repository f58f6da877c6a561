// Reading a customer's message (`readUserMessage()`): a yes or a no to the proposal before it, the
// fields it gives values for, the end of the conversation. Private to envs/.
import type { AgentReading, UserReading } from "./reading.ts";
import type { ResolvedVocabulary } from "./vocabulary.ts";
import { declineOf, isExplicitYes, normalizeText } from "./text.ts";
import * as R from "./_read_patterns.ts";
import { actionsAt, namesAt, valueWordsAt, type Words, wordsOf } from "./_read_words.ts";
import { valuesSaid } from "./_read_values.ts";

const STOP = /###\s*stop\s*###/i;

/** What a customer's message does, given the reading of the agent's message before it. */
export function readUser(vocabulary: ResolvedVocabulary, text: string, before: AgentReading | null): UserReading {
  const words = wordsOf(vocabulary);
  const norm = normalizeText(text);
  const proposed = before?.proposes === true;
  const approves = proposed && isExplicitYes(text);
  const declines = proposed && !approves && declinesChange(words, declineOf(text));
  const provides = given(words, text, norm, before?.asks ?? []);
  const ends = STOP.test(text) || R.CLOSING.test(norm);
  return { approves, declines, provides, ends };
}

// The fields whose values the message gives: values by their shapes and words, a name followed by its
// value ("my user id is ..."), a name introducing one ("as for the payment, ..."), and what the agent
// asked for when the message points at what it listed ("all of these").
function given(words: Words, text: string, norm: string, asked: readonly string[]): string[] {
  const out = new Set<string>();
  for (const v of valuesSaid(words, text)) out.add(v.field);
  // "My origin and destination stay as before": each name of a list followed by its value.
  let list: string[] = [];
  const names = namesAt(words, norm);
  names.forEach((n, i) => {
    const after = norm.slice(n.to, n.to + 40), before = norm.slice(Math.max(0, n.from - 30), n.from);
    const next = names[i + 1];
    list.push(n.hit.field);
    const owned = R.GIVES.test(after) && R.OWNER.test(before);
    if (owned || R.LABELLED.test(after) || (R.AS_FOR.test(before) && /^\s*,/.test(after))) {
      for (const f of list) out.add(f);
    }
    if (next === undefined || !R.LISTED.test(norm.slice(n.to, next.from))) list = [];
  });
  if (R.POINTING.test(norm)) { for (const f of asked) out.add(f); }
  for (const f of [...out]) for (const implied of words.vocabulary.fields[f]?.implies ?? []) out.add(implied);
  return [...out];
}

// A no declines the change; asking for something else instead declines it unless what it asks for is
// only another term of the change ("Can I use my gift card instead?", τ-bench rule U3).
function declinesChange(words: Words, decline: ReturnType<typeof declineOf>): boolean {
  if (decline === null || decline === "no") return decline === "no";
  return !decline.instead.every((s) => {
    const fields = [...namesAt(words, s).map((n) => n.hit.field), ...valueWordsAt(words, s).map((v) => v.word.field)];
    const changes = actionsAt(words, s, []).filter((a) => !a.pattern.term);
    return fields.length > 0 && fields.every((f) => words.terms.has(f)) && changes.length === 0;
  });
}
