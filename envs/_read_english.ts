// Whether a message is in a language the readers know: English words (the most common ones, word
// shapes English makes, the domain's own names and value words), not random syllables ("Blorf quix
// zanth?"). Private to envs/.
import type { Words } from "./_read_words.ts";

const COMMON = new Set(
  ("a about above after again against all almost also always am an and any are as at away back be because been " +
    "before being below best better between both but by can cannot could did do does doing done down during each " +
    "either enough even ever every few first for from further had has have having he her here hers herself him " +
    "himself his how i if in into is it its itself just last least less let like little many may me might more " +
    "most much must my myself never new next no nor not now of off often on once one only or other our ours out " +
    "over own same she should since so some soon still such than that the their them then there these they this " +
    "those though through to too under until up upon us very was we well were what when where whether which while " +
    "who whom whose why will with within without would yet you your yours " +
    // Verbs, nouns and adjectives of everyday talk.
    "able add allow ask bad call check come day days find get give go going good great help hold keep know look " +
    "make mean moment need number old open part people place put right say see seem send set show start stay sure " +
    "take tell thing things think time today try turn use wait want way week work year date id email name address " +
    "status change two three four five six seven eight nine ten second minute hour problem question issue request " +
    "details information option options case sorry apologies pardon excuse " +
    // Greetings, thanks, answers and interjections.
    "yes yeah yep yup no nope nah ok okay alright please thank thanks welcome hello hi hey dear bye goodbye cheers " +
    "understood indeed certainly sure fine cool wow oh ah aha hmm hm mhm um uh er noted got found sent made told " +
    "gave took came went saw knew thought kept left heard " +
    "unfortunately however anything everything something nothing else unable").split(" "),
);
// Shapes only English words take ("delivered", "processing", "cancellation"), in unaccented letters
// ("réservation" and "remboursement" are French).
const SHAPED = /^[a-z]{3,}(?:ed|ing|tion|sion|ment|ness|ly|able|ible|ful|less|ies|ous)$|^(?:h+m+|u+m+|o+h+|a+h+)$/;
const WORD = /\p{L}+(?:'\p{L}+)?/gu;

/** Whether a word is one of the everyday English words (not a domain's). */
export function isCommonWord(word: string): boolean {
  return COMMON.has(word);
}

/**
 * Whether at least a quarter of a text's words, and at least one, are English; data sent as text (a
 * JSON value, such as a tool call a model wrote out instead of making it) is none.
 */
export function isEnglish(words: Words, text: string): boolean {
  if (isData(text)) return false;
  const tokens = text.toLowerCase().match(WORD) ?? [];
  if (tokens.length === 0) return false;
  let known = 0;
  for (const t of tokens) {
    const bare = t.replace(/'\p{L}+$/u, "");
    const one = bare.endsWith("s") ? bare.slice(0, -1) : bare;
    if (COMMON.has(bare) || COMMON.has(one) || SHAPED.test(bare) || words.own.has(bare)) known++;
  }
  return known >= 1 && known * 4 >= tokens.length;
}

// A JSON object or array, bare or inside markup tags ("<tool_call>{...}</tool_call>", a code fence).
function isData(text: string): boolean {
  const bare = text.replace(/<\/?[a-z_][\w-]*>/gi, " ").replace(/```[a-z]*/gi, " ").trim();
  if (!/^[[{]/.test(bare)) return false;
  try {
    const value = JSON.parse(bare);
    return typeof value === "object" && value !== null;
  } catch {
    return false;
  }
}
