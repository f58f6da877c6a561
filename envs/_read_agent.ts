// Reading an agent's message (`readAgentMessage()`): the facts it asks for, a proposal and its
// change, a done-claim, a refusal, a hand-over, a greeting, information; or nothing, when it is no
// language the reader knows. Private to envs/.
import type { AgentReading, AgentReadingContext } from "./reading.ts";
import type { ResolvedVocabulary } from "./vocabulary.ts";
import { claimsDone, isQuestion, isRefusal, normalizeText, sentencesOf } from "./text.ts";
import * as R from "./_read_patterns.ts";
import { wordsOf } from "./_read_words.ts";
import { asksOf } from "./_read_asks.ts";
import { plannedChange, proposalOf } from "./_read_proposal.ts";
import { isEnglish } from "./_read_english.ts";
import { type Memo, memoOf } from "./_read_memo.ts";

const readings = new WeakMap<ResolvedVocabulary, Memo<AgentReading>>();

/**
 * What an agent's message does. A reading depends only on the vocabulary, the text and the context,
 * so each is made once (the scripted user reads the same messages in every run of a task); every
 * caller gets its own copy.
 */
export function readAgent(vocabulary: ResolvedVocabulary, text: string, context: AgentReadingContext): AgentReading {
  const earlier = (context.earlier ?? []).join("\n"), previous = context.previous ?? "";
  const key = JSON.stringify([text, earlier, previous]);
  const r = memoOf(readings, vocabulary).get(key, () => read(vocabulary, text, earlier, previous));
  return { ...r, asks: [...r.asks], facts: [...r.facts] };
}

function read(vocabulary: ResolvedVocabulary, text: string, earlier: string, previous: string): AgentReading {
  const words = wordsOf(vocabulary);
  const english = isEnglish(words, text);
  const sentences = [...sentencesOf(text)];
  const asked = english ? asksOf(words, text) : { fields: [], facts: [] };
  const proposal = english ? proposalOf(words, sentences, { asks: asked.fields, earlier, previous }) : {
    proposes: false,
    action: null,
  };
  const claims = english && claimsDone(text);
  const refuses = english && isRefusal(text);
  const transfers = english && sentences.some(handsOver);
  const greets = english && R.GREETING.test(normalizeText(text)) && !/\banything else\b/.test(normalizeText(text));
  const informs = english && !proposal.proposes && sentences.some((s) => tells(s));
  // Any English is read, as something or as nothing more than thanks or an acknowledgement ("Understood.").
  const unread = !english;
  const plans = english && !proposal.proposes && !claims ? plannedChange(words, sentences) : null;
  return {
    asks: asked.fields,
    facts: asked.facts,
    proposes: proposal.proposes,
    action: proposal.action,
    plans,
    gives_up: english && sentences.some((s) => R.GIVES_UP.test(s)),
    claims_done: claims,
    refuses,
    transfers,
    informs,
    greets,
    unread,
  };
}

// "I'm handing you to a colleague now", not "I could hand you over" or "Shall I pass you to someone?".
function handsOver(sentence: string): boolean {
  if (isQuestion(sentence)) return false;
  const m = R.TRANSFER.exec(sentence);
  return m !== null && !R.TRANSFER_NOT_NOW.test(sentence.slice(Math.max(0, m.index - 80), m.index));
}

// A sentence that tells something: a statement, not a question, a request, a greeting or thanks alone.
function tells(sentence: string): boolean {
  if (isQuestion(sentence) || R.REQUEST.test(sentence) && !/[.!]$/.test(sentence)) return false;
  const rest = sentence.replace(R.GREETING, "").replace(/\b(?:thank you|thanks)\b[^.!]*/g, "");
  return /\p{L}{2,}/u.test(rest);
}
