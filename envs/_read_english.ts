// Whether a message is in a language the readers know: English words (the most common ones, word
// shapes English makes, the domain's own names and value words), not random syllables ("Blorf quix
// zanth?"). Private to envs/.
import type { Words } from "./_read_words.ts";

const COMMON = new Set(
  ("a about above after again all also am an and any are as at be because been before being below between both " +
    "but by can cannot could did do does doing done down during each few for from further had has have having he " +
    "her here hers him his how i if in into is it its just me more most my no nor not now of off on once only or " +
    "other our ours out over own same she should so some such than that the their them then there these they " +
    "this those through to too under until up very was we were what when where which while who whom why will " +
    "with would you your yours yes ok okay please thank thanks sorry hello hi hey welcome dear sure great " +
    "help assist need want like know let see find get give make take tell ask call go going come check look " +
    "book change cancel order item price total sale paid pay payment refund refunded account " +
    "customer date day days time today number id email name address status new old next last first second " +
    "one two three four five six seven eight nine ten here found sent done right good well may might must " +
    "shall per via unfortunately however anything everything something nothing else again able unable").split(" "),
);
// Shapes only English words take ("delivered", "processing", "cancellation").
const SHAPED = /^\p{L}{3,}(?:ed|ing|tion|sion|ment|ness|ly|able|ible|ful|less|ies|ous)$/u;
const WORD = /\p{L}+(?:'\p{L}+)?/gu;

/** Whether at least a quarter of a text's words, and at least one, are English. */
export function isEnglish(words: Words, text: string): boolean {
  const tokens = text.toLowerCase().match(WORD) ?? [];
  if (tokens.length === 0) return false;
  let known = 0;
  for (const t of tokens) {
    const bare = t.replace(/'\p{L}+$/u, "");
    const one = bare.endsWith("s") ? bare.slice(0, -1) : bare;
    if (COMMON.has(bare) || COMMON.has(one) || SHAPED.test(bare) || vocabularyWords(words).has(bare)) known++;
  }
  return known >= 1 && known * 4 >= tokens.length;
}

const vocab = new WeakMap<Words, Set<string>>();
function vocabularyWords(words: Words): Set<string> {
  let set = vocab.get(words);
  if (set === undefined) {
    set = new Set<string>();
    for (const n of words.names) for (const w of n.name.toLowerCase().match(WORD) ?? []) set.add(w);
    for (const v of words.valueWords) for (const w of v.word.match(WORD) ?? []) set.add(w);
    for (const a of words.actions) for (const w of a.word.match(WORD) ?? []) set.add(w);
    vocab.set(words, set);
  }
  return set;
}
