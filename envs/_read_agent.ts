// Reading an agent's message (`readAgentMessage()`): the facts it asks for, a proposal and its
// change, a done-claim, a refusal, a hand-over, information. Private to envs/.
import type { AgentReading, AgentReadingContext } from "./reader.ts";
import type { ResolvedVocabulary } from "./vocabulary.ts";
import { claimsDone, isQuestion, isRefusal, normalizeText, sentencesOf } from "./text.ts";
import { firstAction, namesIn, wordsOf } from "./_read_words.ts";

// A sentence that asks the customer for something.
const REQUEST =
  /\b(?:please (?:provide|share|give|send|tell|confirm|let me know|specify|enter)|(?:could|can|would|will) you (?:please |kindly )?(?:provide|share|give|tell|confirm|let me know|specify|send)|(?:i|we)(?: will|'ll)? need (?:your|the|to know)|let me know|may i (?:have|get|ask)|what(?:'s| is| are) (?:your|the)|which (?:one|reservation|flight|option|card|payment)|do you have (?:your|the|a))\b/;
// A yes/no offer of something other than facts ("Would you like me to search?").
const OFFER = /\b(?:would you like (?:me )?to|do you want (?:me )?to|shall i|should i|can i help)\b/;
// Asking for approval of a change.
const APPROVAL =
  /\b(?:shall i|should i|(?:would|do) you (?:like|want) (?:me )?to (?:proceed|go ahead|continue)|(?:would|do) you want me to|please confirm|confirm (?:if|that|whether|you|the|this)|can you confirm|(?:like|want|ready) to proceed|go ahead\b.*\?|proceed\b.*\?|is (?:that|this) (?:ok|okay|alright|all right|correct|fine)|yes or no|(?:do i|may i) have your (?:permission|approval|consent|confirmation))/;
// Saying it hands the customer over now.
const TRANSFER =
  /\b(?:i(?:'m| am| will|'ll| have)? (?:now )?(?:transferr?(?:ed|ing)?|connect(?:ed|ing)?|escalat(?:e|ed|ing)|hand(?:ed|ing)? (?:you )?over)(?: you)? (?:to|with) (?:a |an |one of our )?(?:human|live|real|senior|specialist|supervisor|agent|representative))/;
const GREETING = /\b(?:how (?:can|may) i (?:help|assist)|what can i (?:do|help)|hello|hi there|welcome)\b/;
// Something the customer is told: a number, an id, an apology, a state.
const TOLD = /\d|\b(?:sorry|unfortunately|apolog|thank|found|is|are|was|were|has|have)\b/;

/** What an agent's message does. */
export function readAgent(vocabulary: ResolvedVocabulary, text: string, context: AgentReadingContext): AgentReading {
  const words = wordsOf(vocabulary);
  const sentences = sentencesOf(text);
  const refuses = isRefusal(text);
  const claims = claimsDone(text);
  const norm = normalizeText(text);
  const transfers = sentences.some((s) => TRANSFER.test(s) && !isQuestion(s));
  const asks: string[] = [];
  const facts: string[] = [];
  for (const s of sentences) {
    if (!(isQuestion(s) || REQUEST.test(s)) || (OFFER.test(s) && !REQUEST.test(s))) continue;
    for (const hit of namesIn(words, s)) {
      if (!asks.includes(hit.field)) asks.push(hit.field);
      if (hit.fact !== undefined && !facts.includes(hit.fact)) facts.push(hit.fact);
    }
  }
  const approval = sentences.some((s) => APPROVAL.test(s));
  const said = firstAction(words, norm) ??
    (approval ? firstAction(words, normalizeText((context.earlier ?? []).join("\n"))) : null);
  const proposes = approval && said !== null && !claims;
  const greets = GREETING.test(norm);
  const informs = !proposes && TOLD.test(norm) && (namesIn(words, norm).length > 0 || /\d/.test(norm) || refuses);
  const unread = asks.length === 0 && !proposes && !claims && !refuses && !transfers && !informs && !greets;
  return {
    asks,
    facts,
    proposes,
    action: proposes ? said!.action : null,
    claims_done: claims,
    refuses,
    transfers,
    informs,
    greets,
    unread,
  };
}
