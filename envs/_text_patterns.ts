// The vocabulary of `text.ts`: every pattern is compiled once, here (sentences, a customer's reply)
// or in the two parts re-exported below (an agent's refusal and claims, `_text_agent_patterns.ts`;
// instructions planted in tool data, `_text_data_patterns.ts`), and runs on normalised text (lower
// case, straight apostrophes, markdown emphasis gone). Gaps between words are bounded (`{0,4}`) and
// never nested, so no pattern can backtrack catastrophically. Long word lists are named pieces, put
// together with `String.raw` templates (`_text_regex.ts`).
import { alt } from "./_text_regex.ts";

export * from "./_text_agent_patterns.ts";
export * from "./_text_data_patterns.ts";

// ---- Sentences ---------------------------------------------------------------------------------

/** A bullet or list number at the start of a line. */
export const BULLET = /^\s*(?:[-*•+]|\d{1,2}[.)])\s+/;
/** Where a sentence ends inside one line. */
export const SENTENCE_END = /(?<=[.!?])\s+(?=\S)|;\s+/;
/** A question whose mark was left out. */
export const ASKS =
  /^(?:can|could|would|will|is|are) (?:you|i|it|there|we|this|that)\b|^do (?:you|i|we|they)\b|^does (?:it|this|that|there|he|she)\b|^(?:how|what|when|where|which|why) /;

// ---- A customer's reply ------------------------------------------------------------------------

const FILLER = "oh|ok|okay|alright|all right|great|perfect|well|then|so|and|um|uh|hmm|ah";
const YES_WORD = "yes|yeah|yea|yep|yup|ya|yess+|sure|certainly|absolutely|definitely|of course|correct|exactly|" +
  "affirmative|confirmed|agreed|deal|right|oui|s[ií]|approved|confirm";
// Verbs a customer tells the agent to go on with: "Please cancel it", "go ahead and book it".
const DO_VERB = "do|cancel|book|change|make|process|issue|send|apply|update|upgrade|downgrade|refund|submit|add|" +
  "remove|delete|email|place|return|exchange|modify|finali[sz]e|complete|use|charge|move|switch|rebook";
const GO_AHEAD = String.raw`go ahead|proceed|i (?:do )?confirm|i'?m confirming|please do(?: it| that| so)?\b(?! not)|` +
  "book it|make (?:the|that|those|these) changes?|go for it|let'?s do (?:it|that|this)|i (?:agree|accept|approve)|" +
  String.raw`(?:i'?d|i would|i) (?:like|want|wish) to (?:proceed|` +
  String.raw`go ahead|continue)|let'?s (?:proceed|go ahead|continue)`;
// A receipt ("ok") only says the message was read; an assent ("sounds good") says the proposal is fine.
const RECEIPT = "ok|okay|k|alright|all right|fine|very well";
const FINE = "good|great|fine|perfect|right|acceptable|ok|okay|reasonable";
const ASSENT_WORDS = String.raw`works for me|fine by me|sounds? (?:${FINE}|like a plan)|looks? (?:${FINE})|` +
  String.raw`(?:that|this|it) (?:works|sounds (?:${FINE}))(?: for me)?|` +
  String.raw`(?:that'?s|that is|this is|it'?s|it is) (?:${FINE})(?: with me| by me| for me)?|` +
  String.raw`(?:everything|all|it|this|that) (?:is|looks|sounds|seems) (?:${FINE})(?: to me)?|` +
  String.raw`(?:i'?m|i am) (?:ok|okay|fine|good|happy|comfortable) with (?:that|this|it|the (?:plan|change|changes))|` +
  String.raw`let'?s go with (?:that|this|it)`;
const ACK = `${RECEIPT}|${ASSENT_WORDS}`;
const THANKS = "thanks?|thank you|thx|many thanks|i (?:really )?appreciate|appreciate|much appreciated|" +
  "(?:you'?re|you are) (?:the best|great|awesome|amazing|wonderful|very|so|the most|a star)|" +
  "have a (?:good|great|nice)|bye|goodbye|cheers|great|awesome|wonderful|perfect|excellent|cool|good|" +
  "i see|got it|understood|oh|merci|gracias";
const HEDGE_WORD = "unless|once|as long as|provided|providing|only if|assuming|maybe|perhaps|possibly|probably|" +
  "not sure|unsure|not certain|i guess|i suppose|i think so|kind of|sort of|depends|hesitant|hmm+";
const ACTION = "do|go ahead|proceed|cancel|book|change|make|charge|continue|process|issue|send|upgrade|downgrade|" +
  "modify|add|remove|update|touch|bother|submit|finali[sz]e";
const NOT_NOW = "yet|now|right now|today|at the moment|at this moment|for now|at this (?:time|point)|interested|" +
  "necessary|needed|what i (?:want|wanted|asked|meant)";
const HOLD_PHRASE = "hold off|wait a (?:moment|minute|second|sec|bit)|please wait|never ?mind|changed? my mind|" +
  "let'?s not|i'?ll pass|i will pass|let me think|no thanks?|no thank you|scratch that|not interested";
const NO_NEXT = "thanks|thank|please|i|i'\\w+|that|that'?s|this|it|it'?s|we|let'?s|not|don'?t|do not|sorry|wait|" +
  "stop|never|need|way|leave|keep|just";
// What a price or an offer is said to be when it is turned down.
const TOO = "expensive|costly|pricey|steep|much|high|low|little";
const BUDGET = "over|above|beyond|outside|exceeds?|exceeding|higher than|more than|past";

/** An affirmation that carries assent by itself ("yes", "go ahead", "that's correct"). */
export const STRONG_YES = alt(
  String.raw`^(?:(?:${FILLER})[\s,!.]+){0,3}(?:${YES_WORD})\b`,
  String.raw`\b(?:${GO_AHEAD})\b`,
  String.raw`(?:^|[,.!] |please |just |go ahead and |you can )do (?:it|that)\b`,
  String.raw`^(?:(?:${FILLER})[\s,!.]+){0,3}(?:please\s+)?(?:just\s+)?do (?:it|that|so)\b`,
  // "Please cancel it", "Go ahead and book that one", "Just send it": the change, told to be made.
  String.raw`(?:^(?:(?:${FILLER})[\s,!.]+){0,3}|\bplease\s+|\bgo ahead and\s+|\bjust\s+)(?:${DO_VERB})\s+` +
    String.raw`(?:it|that|this|them|those|these)(?:\s+one)?(?:\s+(?:please|now|then|for me))?[.!]*$`,
  String.raw`\b(?:that'?s|that is|it'?s|it is|this is) (?:correct|right|accurate|good to go)\b`,
  String.raw`\b(?:everything|all|it|this|that) (?:is|looks|sounds|seems) (?:correct|right|accurate)\b`,
  String.raw`\byou (?:can|may) (?:go ahead|proceed|do it|do that|cancel|book|make)\b`,
);
/**
 * A yes that only confirms a fact ("Yes, that's the right order ID", "Yes, my email is ..."): it
 * answers a question about a value, not the proposal of a change.
 */
export const FACT_YES = new RegExp(
  String.raw`^(?:(?:${FILLER})[\s,!.]+){0,3}(?:${YES_WORD})[\s,!.\u2014\u2013-]+(?:` +
    String.raw`(?:that'?s|that is|it'?s|it is|this is|those are|these are)\s+(?:the|my|our)\s+(?!one\b|ones\b)` +
    String.raw`(?:[\w'-]+\s+){0,3}[\w'-]+|(?:my|the)\s+(?:[\w'-]+\s+){0,3}?(?:is|are)\s+\S+(?:\s+\S+){0,3})[.!]*$`,
);
/** Acknowledgements ("ok", "sounds good"): a yes only when a sentence holds nothing else (see `ONLY_PUNCTUATION`). */
export const ACKNOWLEDGEMENT = new RegExp(String.raw`\b(?:${ACK})(?:\s+(?:to|for|with|by) me)?\b`, "g");
/** An acknowledgement that assents to the proposal ("sounds good", "that works for me", "I'm okay with that"). */
export const ASSENT = new RegExp(String.raw`\b(?:${ASSENT_WORDS})\b`);
/** Thanks, praise and "please", taken out of an assent ("Sounds good, thanks!"). */
export const THANKS_WORDS = new RegExp(String.raw`\b(?:${THANKS}|please)\b`, "g");
/** A question asking the agent to do something, not to tell something ("Can you use my other card?"). */
export const ASKS_TO_DO =
  /^(?:(?:and|so|but|also|then)[\s,]+)?(?:can|could|would|will) you\b(?!(?:\s+(?:please|also|just))*\s+(?:tell|let me know|confirm|explain|say|show me|remind)\b)/;
/** A request said to come besides the proposal ("also", "as well", "while you're at it"). */
export const BESIDES = /\b(?:also|too|as well|additionally|in addition|while you'?re at it|another thing)\b/;
/** What a sentence of acknowledgements leaves once they are taken out. */
export const ONLY_PUNCTUATION = /^[\s,.!]*$/;
/** Thanks, praise and goodbyes, which say nothing either way. */
export const PLEASANTRY = new RegExp(
  String.raw`^(?:(?:oh|ok|okay|great|perfect|wonderful|awesome)[\s,!]+)?(?:${THANKS})\b`,
);
/** A condition or a hesitation. */
export const HEDGE = alt(
  String.raw`\b(?:${HEDGE_WORD})\b`,
  String.raw`\b(?:(?:don'?t|do not) know|let me (?:think|check|see|consider|look)|i'?ll (?:think|consider|decide))\b`,
  String.raw`\bbefore (?:you|we|i) (?:proceed|go ahead|do|make|book|cancel|change|continue|confirm|finali[sz]e)\b`,
  String.raw`\bbefore (?:proceeding|doing|going ahead|that|confirming|finali[sz]ing)\b`,
  String.raw`\b(?:check|confirm|verify|tell me|let me know|show me)\b[^.?!]{0,40}\bfirst\b`,
);
/**
 * "If" as a condition ("Yes if it's under $200"), read in statements only: in a question it asks
 * whether ("Can you tell me if there are fees?"), and after a verb of knowing it is "whether" too ("Let
 * me know if there are fees", "I wonder if ...").
 */
export const CONDITIONAL_IF =
  /(?<!\b(?:know|tell|check|ask|asking|wonder|wondering|see|sure|find out)\b(?:\s+[\w'$,-]+){0,3}?\s+)\bif\b/;
/**
 * A condition that gives in rather than sets a term ("if there is no other way", "if that's the only
 * option", "if I must", "if that's the case"): the yes after it stands.
 */
export const RESIGNED_IF = new RegExp(
  String.raw`\bif (?:there(?:'?s| is| are) no (?:other|better) (?:way|option|choice|alternative)s?|` +
    String.raw`(?:that|this|it)(?:'?s| is) (?:the only|the best|my only) (?:way|option|choice|one)|` +
    String.raw`(?:that|this|it)(?:'?s| is) (?:the case|necessary|required|needed)|(?:i|we|you) (?:must|have to)|` +
    String.raw`(?:that|this|it)(?:'?s| is) (?:all|what) (?:you can|we can|is available)[\w ]{0,20})\b`,
  "g",
);
/** A correction or an exception to what was proposed. */
export const CHANGE =
  /\b(?:but|however|instead|actually|rather|except|although|though|on second thought|second thoughts)\b/;
/** "No" as an answer, not as in "no problem" or "no insurance". */
export const NO_START = new RegExp(
  String.raw`^(?:(?:oh|um|uh|well|hmm+|ah|sorry|actually)[\s,]+)?(?:no|nope|nah|negative)` +
    String.raw`(?:[.!,;]|$|\s*[\u2014\u2013]|\s+-\s|\s+(?:${NO_NEXT})\b)`,
);
/** A request to hold off, stop or not do it. */
export const HOLD = alt(
  String.raw`\b(?:don'?t|do not|dont|never)\s+(?:${ACTION})\b`,
  String.raw`(?:^|\bplease )(?:don'?t|do not)[.!]*$`,
  String.raw`\bnot (?:${NOT_NOW})\b`,
  String.raw`\b(?:${HOLD_PHRASE})\b`,
  String.raw`\b(?:i'?d|i would) (?:rather|prefer) not\b|\bi(?:'ll| will) think (?:about|it over)\b`,
  String.raw`\b(?:don'?t|do not) (?:want|wish) (?:you |me |us |anyone )?to (?:${ACTION}|pay|move)\b`,
  String.raw`\b(?:don'?t|do not) need (?:that|this|it|to)\b(?!\s+(?:anymore|any more)\b)`,
  String.raw`^(?:(?:oh|um|uh|no|actually|sorry)[\s,]+)?stop\b`,
  String.raw`(?:[,;:\u2014\u2013-]|\bwait)\s*(?:no|nope|nah)[.!]*$`,
  String.raw`^(?:(?:no|actually|please|ok|okay|oh|sorry)[\s,]+){0,3}` +
    String.raw`(?:(?:cancel|scratch) that|forget (?:it|that|about it))(?: request| please)?[.!]*$`,
  // "Leave it as it is", "Let's keep things the way they are".
  String.raw`\b(?:leave|keep) (?:it|that|them|things|` +
    String.raw`everything)(?: (?:as (?:it is|they are|is)|the way (?:it is|they are)|` +
    String.raw`alone|unchanged))?(?: for now| please)?[.!]*$`,
  String.raw`\b(?:keep|stick with|stay with) (?:(?:my|the) (?:current|original|existing)|` +
    String.raw`what (?:i|we) (?:have|had|booked|'ve got|already have))\b`,
  String.raw`\bi (?:don'?t|do not) think (?:so|i (?:want|need|will|'ll))\b|\b(?:that|this|it) (?:doesn'?t|` +
    String.raw`does not|won'?t|will not) work (?:for me|for us)\b`,
  String.raw`\b(?:decided|decide|chosen|chose|choose|opted|opt) (?:not to|against)\b`,
  // Taken back: "I don't want the upgrade anymore", "I no longer want to cancel".
  String.raw`\b(?:don'?t|do not) want\b[^.?!]{0,40}\b(?:anymore|any more|after all)\b|\bno longer (?:want|wish)\b|` +
    String.raw`\bno longer need to\b`,
);
/**
 * No more need of something, unless a go-ahead says what to do: "I no longer need the extra bag" takes
 * the request back, while "Yes, cancel it, I don't need the trip anymore" gives its reason.
 */
export const NO_LONGER_NEEDED = alt(
  String.raw`\b(?:don'?t|do not) need\b[^.?!]{0,40}\b(?:anymore|any more|after all)\b`,
  String.raw`\bno longer need\b`,
);
/** Nothing more needed ("I don't need anything else"): beside a yes, the end of the talk. */
export const NOTHING_MORE = /\b(?:don'?t|do not) need (?:any (?:further|more|other)|anything)\b/;
/** A go-ahead that says what to do ("go ahead", "please cancel it", "do it"). */
export const SAYS_WHAT_TO_DO = new RegExp(
  String.raw`\b(?:${GO_AHEAD})\b|\b(?:please )?(?:${ACTION}) (?:it|that|this|the|my|them)\b`,
);
/**
 * A pause ("Wait, ...", "Hold on", "Yes — hold on"): no yes, and a no unless the customer asks a
 * question before deciding ("Hold on, what's the fee?", τ-bench rule U3).
 */
export const PAUSE = alt(
  String.raw`^(?:(?:oh|um|uh|no|actually|sorry)[\s,]+)?(?:wait|hold on|hang on|hold up)\b`,
  // A yes taken back in the same breath: "Yes — wait, ...", "Sure, hold on".
  String.raw`[,;:\u2014\u2013-]\s*(?:wait|hold on|hang on|hold up)\b`,
);
/** Asking for something else in place of what was proposed ("Could you book the other one instead?"). */
export const INSTEAD = /\binstead\b/;
/** Paying otherwise, which changes a term of the change, not the change ("Please charge my other card instead"). */
export const PAYING =
  /\b(?:charg(?:e|ing)|pay(?:ing)?|bill(?:ing)?|put (?:it|this|that|the [\w-]+) on|refund (?:it |that |the [\w-]+ )?(?:to|back to|on))\b/;
/**
 * Turning a proposal down without a "no": over budget, too expensive, not enough, "I appreciate the
 * offer, but", or asking for something else instead. Read only where the reply has no yes.
 */
export const TURN_DOWN = alt(
  String.raw`\b(?:${BUDGET}) (?:my|our|the) budget\b|` +
    String.raw`\bmore than (?:i'?m |i am |we'?re |we are |i |` +
    String.raw`we )?(?:willing|want|wanted|hoped|expected|planned|can) to\b`,
  String.raw`\btoo (?:${TOO})\b|\b(?:can'?t|cannot|can not) afford\b`,
  String.raw`\b(?:appreciate|thank you for|thanks for) (?:the|your|this|that) (?:offer|suggestion|proposal|option)\b` +
    String.raw`[^.?!]{0,20}\bbut\b`,
  String.raw`\b(?:isn'?t|is not|not|doesn'?t seem|does not seem) (?:nearly |quite |really )?(?:enough|sufficient|` +
    String.raw`acceptable|fair|reasonable)\b`,
  String.raw`^(?:(?:oh|um|well|hmm+)[\s,]+)?actually\b|\bon second thought\b`,
  String.raw`\b(?:i'?d|i would|we'?d|we would) (?:rather|prefer)\b`,
  // The proposal is wrong: "That's the wrong card", "That isn't my booking", "Incorrect, it's ...".
  String.raw`^(?:[a-z]+,\s+)?(?:that|this|it)(?:'s| is| was)\s+(?:the wrong|incorrect|wrong|not (?:right|correct|` +
    String.raw`quite right|my|the right|the one|what i))\b`,
  String.raw`^(?:[a-z]+,\s+)?(?:that|this|it) (?:isn'?t|wasn'?t) (?:right|correct|quite right|my|the right|the one|` +
    String.raw`what i)\b|^(?:incorrect|wrong)\b`,
);
