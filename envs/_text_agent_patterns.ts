// The patterns of `text.ts` that read an agent's message: a refusal and a claim that the change was made.
// Re-exported by `_text_patterns.ts`, and written as it says (normalised text, bounded gaps).
import { alt, every } from "./_text_regex.ts";

// ---- An agent's refusal ------------------------------------------------------------------------

const NOT_A_LIMIT = "find|locate|see|access|retrieve|load|wait|thank|stress|help but|seem to|guarantee|promise|" +
  "be (?:found|located|retrieved|undone|reversed|reinstated|restored|recovered)";
const FORBIDDEN = "eligible|allowed|permitted|possible|permissible|refundable|modifiable|changeable|cancell?able|" +
  "authori[sz]ed|entitled|covered|qualified|feasible|something (?:i|we) can";
const DOES_NOT = "does not|doesn'?t|do not|don'?t";
const DETERMINER = "your|the|a|an|this|that|those|these|any|valid|proper|correct";
const INFO = "ids?|numbers?|details|information|info|names?|email|code|confirmation|verification|address|" +
  "date of birth|payment method";
const FAULT = "error|went wrong|did not work|didn'?t work|not working|not responding|unresponsive|timed out|" +
  "time ?out|outage|technical|glitch|system (?:issue|problem|is down)|service (?:is )?unavailable|" +
  "temporar(?:y|ily)|try again|failed|failure|issue on (?:my|our) (?:side|end)|insufficient|" +
  "not (?:have )?enough (?:balance|funds|money|credit)|(?:doesn'?t|does not|don'?t|do not) have enough|" +
  // A server status, not an amount: "a 503 error", "HTTP 500", "status 502".
  "(?:http|status|code|error) 50[0-9]|50[0-9] (?:error|internal|server|bad gateway|service|gateway)";

/** Words that refuse or say something cannot be done. */
export const REFUSE = every(
  String.raw`\b(?:cannot|can ?not|can'?t|cant)\b(?!\s+(?:${NOT_A_LIMIT}))`,
  String.raw`(?<!\b(?:was|were|been|wasn'?t|weren'?t)\s)\b(?:unable|not able) to\b`,
  String.raw`\b(?:won'?t|will not|wouldn'?t|would not) be (?:able|possible|permitted|allowed|eligible)\b`,
  String.raw`(?:\bnot|n't) (?:${FORBIDDEN})\b`,
  String.raw`\bcan no longer\b|\bno longer (?:possible|allowed|permitted|eligible)\b`,
  String.raw`\b(?:ineligible|non-?refundable|non-?modifiable|non-?changeable|prohibited|forbidden)\b`,
  String.raw`\b(?:${DOES_NOT}) (?:allow|permit|cover|qualify|meet|waive|offer|support|accept|let (?:me|us|you))\b`,
  String.raw`\b(?:${DOES_NOT}) apply (?:in|to) (?:this|your|you)\b`,
  String.raw`\bcan only(?:\s+[\w']+){1,5},? (?:and )?not\b`,
  // "Unfortunately, since it is basic economy, I can only cancel it if it was booked within 24 hours."
  String
    .raw`\bunfortunately\b[^.?!]{0,400}?\b(?:i|we) (?:can|could) only\b(?![^.?!]{0,400}\b(?:once|after|when|until) you\b)`,
  // "against our policy", "against company policy": any one word names whose policy it is.
  String.raw`\bagainst (?:(?:our|the|this)\s+)?(?:[\w-]+\s+)?(?:policy|policies|rules)\b`,
  String.raw`\b(?:must|have to|need to|will have to|'ll have to) (?:decline|refuse|deny)\b`,
  String.raw`\b(?:${DOES_NOT}) have (?:the |any )?(?:ability|authority|option|permission|capability|means|access)\b`,
  String.raw`\b(?:no way|no option|no provision|not an option|not in a position) to\b`,
  // "Our policy prohibits ...", "The rules don't permit ...".
  String.raw`\b(?:prohibits?|forbids?|disallows?|precludes?|bars)\b`,
  // "That request falls outside our refund policy", "beyond what our policy covers".
  String.raw`\b(?:falls?|is|are|lies|goes) (?:outside|beyond) (?:of )?(?:(?:our|the|this|your|what)\s+)?` +
    String.raw`(?:[\w-]+\s+){0,2}?(?:polic(?:y|ies)|rules|scope|guidelines|terms|allow(?:s|ed)?|cover(?:s|ed)?)\b`,
  // "I'm going to have to say no", "I have to turn that down".
  String.raw`\b(?:have|has|need|going) to (?:say no|turn (?:it |this |that |you )?down|decline|refuse|deny)\b`,
  String.raw`\b(?:no|not (?:make|grant|offer) (?:an?|any)) exceptions?\b|` +
    String.raw`\bexceptions? (?:can(?:not|'t)|are not|aren'?t)\b`,
  String.raw`\bpolic(?:y|ies) (?:is|are) (?:quite |very |rather |really )?(?:strict|fixed|firm|final)\b`,
  // A limit reached: "I've already given the maximum", "that's the most we can offer", "the limit allowed".
  String.raw`(?:\balready|\bhave|\bhas|'ve) (?:provided|given|offered|issued|granted|reached|hit) (?:you )?` +
    String.raw`the (?:maximum|max|most|limit)\b|\b(?:is|are|'s) (?:already )?the (?:maximum|max|most|limit) ` +
    String.raw`(?:allowed|allowable|permitted|possible|(?:i|we) (?:can|could|am able to|are able to))\b`,
  String.raw`(?:\bnot|n't) something (?:i|we)(?:'m| am|'re| are)? (?:(?:can|could|able to|allowed to|permitted to|` +
    String.raw`authori[sz]ed to) )?(?:do|offer|allow|permit|provide|approve|honou?r|make|arrange|process|support|` +
    String.raw`accept|grant)\b`,
  String.raw`\bno (?:refunds?|changes?|exceptions?|compensation|` +
    String.raw`modifications?|cancellations?|credits?) (?:is|are|can be|will be) ` +
    String.raw`(?:possible|allowed|permitted|available|offered|given|made)\b`,
);
/** A system failure, which an apology reports without refusing anything. */
export const FAILURE = new RegExp(String.raw`\b(?:${FAULT})\b`);
/** The agent needs something from the customer before it can act. */
export const NEED_INFO = alt(
  String.raw`\bwithout (?:(?:${DETERMINER})\s+)?(?:[\w']+\s+){0,2}?(?:${INFO})\b`,
  String.raw`\bwithout (?:knowing|verifying|confirming|checking)\b`,
  String.raw`\buntil (?:you|i (?:have|receive|get))\b|\bunless you (?:provide|give|share|confirm)\b`,
  String.raw`\bplease (?:provide|share|give me|send me)\b`,
  String.raw`\b(?:could|can|would) you (?:please )?(?:provide|share|give|tell|confirm)\b`,
);
/** A negative subject in front of a refusal word: "nothing in our policy prohibits it". */
export const NO_ONE_BEFORE = /\b(?:nothing|none|never|nobody|no one)\b(?:\s+[\w']+){0,4}\s*$/;
/** A condition in front of a refusal word makes it hypothetical. */
export const CONDITION = /\b(?:if|whether|unless|in case|once|when)\b/;

// ---- An agent's completion claim ---------------------------------------------------------------

// What is told rather than handed over ("I've given you the details").
const TOLD = "details|information|info|options?|choices?|instructions|steps|links?|summary|list|breakdown|answers?|" +
  "explanation|overview|update|reasons?|numbers?|ids?|codes?|policy|rules|facts|contact";
// Participles of what an agent does; the active forms leave out those that also mean checking.
const DONE = "cancell?ed|canceled|booked|updated|changed|modified|processed|added|removed|issued|sent|refunded|" +
  "upgraded|downgraded|confirmed|completed|applied|credited|charged|transferred|rebooked|reserved|created|submitted|" +
  "initiated|placed|exchanged|adjusted|finali[sz]ed|executed|corrected|amended|arranged|reimbursed|waived|granted|" +
  "approved|made|taken care of|handled|returned|moved|switched";
const DID = "cancell?ed|canceled|booked|updated|changed|modified|processed|added|removed|issued|sent|refunded|" +
  "upgraded|downgraded|completed|applied|credited|transferred|rebooked|reserved|created|submitted|initiated|placed|" +
  "exchanged|adjusted|finali[sz]ed|executed|corrected|amended|arranged|waived|granted|taken care of|handled|" +
  "made the (?:changes?|booking|reservation|updates?|cancellation|refund|modifications?|adjustments?)|recorded|" +
  "deleted|emailed|moved|switched|" +
  // "I have already provided the maximum ...": something handed over, not information told, is a change.
  String.raw`(?:provided|given)(?: you)?(?: with)? (?:a|an|the|your)(?= )(?! (?:[\w-]+ ){0,2}?(?:${TOLD})\b)`;
const DO = "cancel|book|update|change|modify|process|add|remove|issue|send|refund|upgrade|downgrade|apply|complete|" +
  "submit|place|make|rebook|reserve|exchange|return";
const ADVERB = "now|just|also|successfully|already|gone ahead and|went ahead and";
const STATE = "cancell?ed|canceled|booked|confirmed|updated|complete|completed|done|processed|changed|modified|" +
  "upgraded|downgraded|finali[sz]ed|issued|added|refunded|deleted|removed|sent|recorded|exchanged";
const STATE_HEADING = "cancell?ed|canceled|booked|confirmed|updated|completed|processed|changed|modified|" +
  "upgraded|downgraded|issued|added|refunded|deleted|removed|sent|applied|credited|submitted|done";
const WAS_DONE = "cancell?ed|canceled|updated|changed|modified|processed|added|removed|issued|sent|refunded|upgraded|" +
  "downgraded|applied|credited|completed|submitted|rebooked|successful|charged|placed";
const MODAL_WORD = "will|would|can|could|should|shall|may(?! \\d)|might|must|going to|gonna|once|after|when|" +
  "whenever|if|as soon as|before|until|unless|let me|i'll|i'd|we'll|we'd|want to|wish to|like to|need to|needs to|" +
  "have to|has to|to be|ready to|about to|plan to|whether";
const SEEN = "i see|i can see|i notice|i noticed|i found|it (?:seems|looks|appears)|seems|appears|according to|" +
  "records? (?:show|indicate)|shows?|showing|indicates?|status|since|because|given that|originally|previous|" +
  "previously|prior|initially|at the time";
// A noun phrase a relative clause can follow: a determiner, a word or two ("the reservation that ...").
const THING = String.raw`(?:the|this|that|your|my|our|any|each|every|those|these|one|all)\s+(?:[\w-]+\s+)?[\w-]+`;

/** A passive or stative report: "has been cancelled", "is now booked", "was processed". */
export const CLAIM_PASSIVE = every(
  String.raw`\b(?:has|have)\s+(?:(?:now|just|also|successfully|already|all|both)\s+){0,3}been\s+` +
    String.raw`(?:(?:successfully|fully|now|also|all)\s+){0,2}(?:${DONE})\b`,
  String.raw`\b(?:is|are)\s+(?:now|successfully|officially)\s+(?:(?:successfully|officially|fully|all)\s+)?` +
    String.raw`(?:${DONE}|complete|done|in place|all set)\b`,
  String.raw`\b(?:is|are)\s+(?:${STATE})(?=\s*(?:$|[.,:;!(]|\s(?:and|with|now|successfully|for you)\b))`,
  String.raw`\b(?:was|were)\s+(?:(?:successfully|also|just|all|both)\s+)?(?:${WAS_DONE})\b`,
  String.raw`\b(?:was|were)\s+successfully\s+(?:booked|made|created|reserved)\b`,
);
/** A report in the first person: "I've booked", "we processed", "I was able to cancel". */
export const CLAIM_ACTIVE = every(
  String.raw`\b(?:i|we)(?:'ve|\s+have)?\s+(?:(?:${ADVERB})\s+){0,2}(?:${DID})\b`,
  String.raw`\b(?:was|were) able to (?:${DO})\b`,
);
/** A bare report: "Done: ...", "all set", "successfully updated", "the change went through". */
export const CLAIM_DONE = every(
  String.raw`^(?:(?:ok|okay|great|alright|all right|perfect)[\s,!]+)?` +
    "(?:done|all done|all set|success|completed|finished)\\b",
  String.raw`\b(?:you'?re|you are|everything is|everything'?s|it'?s|it is|that'?s|that is|this is|we'?re|we are)\s+` +
    String.raw`(?:all set|(?:all\s+)?(?:done|taken care of|sorted|complete|completed)|set(?! to))\b`,
  String.raw`\bsuccessfully\s+(?:${DONE})\b|\b(?:was|is|has been)\s+successful\b`,
  String.raw`\b(?:has|have)\s+(?:now\s+)?taken effect\b`,
  String.raw`\b(?:went|gone|goes) through\b(?!\s+(?:the|your|with|a|all|my|our|each|every))`,
  String.raw`\bconsider it (?:done|handled|taken care of)\b|\b(?:went|has gone|have gone) out\b`,
  // A heading that reports: "Refund issued: $120", "Booking confirmed!".
  String.raw`^(?:(?:your|the)\s+)?(?:[\w-]+\s+){0,2}(?:${STATE_HEADING})(?=\s*(?:[:!]|$|\.\s|\.$))`,
);
/** Phrases that announce a report ("I can confirm that"), removed before the modal test. */
export const ANNOUNCE = new RegExp(
  String.raw`\b(?:i can|i'?m (?:happy|pleased|glad) to|i am (?:happy|pleased|glad) to|let me) ` +
    String.raw`(?:confirm|inform you|let you know|report|tell you|share)(?: that)?\b`,
  "g",
);
/** Words before a report that make it a future, an offer or a condition. */
export const MODAL = new RegExp(String.raw`\b(?:${MODAL_WORD})\b`);
/** Words before a report that make it an observation of a state ("I see that", "since"). */
export const OBSERVED = new RegExp(String.raw`\b(?:${SEEN})\b`);
/** A negative subject: "no changes have been made". */
export const NONE_BEFORE = /\b(?:no|nothing|none|neither|nor)\b(?:\s+[\w']+){0,3}\s*$/;
/** A relative clause: "the reservation that was cancelled". */
export const RELATIVE = new RegExp(String.raw`\b(?:which|who|where|(?:${THING})\s+that)\s+(?:[\w']+\s+){0,3}$`);
/** After a report: a cause the agent is not ("by the carrier", "due to weather", "ago"). */
export const CAUSED_ELSEWHERE = alt(
  // "by the <someone>": whoever it is (the business, its operator), it is not the agent that reports it.
  // (right after the reported act: "caused by the delay" further on says nothing of who acted).
  String.raw`^[\s,]*(?:[\w-]+\s+){0,2}?by the (?!(?:agent|assistant|ai|bot|system)\b)[a-z][\w-]*\b|\bago\b`,
  String.raw`\bdue to (?:bad |the )?weather\b|\bdue to (?:an? )?(?:operational|mechanical|technical)\b`,
  // "I recorded 0 of 20 steps": nothing was done.
  String.raw`^\s*(?:0|zero|none|nothing)\b`,
);
/** A flight, not a reservation, is what the airline cancels or delays. */
export const FLIGHT_CANCELLED = new RegExp(
  String.raw`\bflights?\b(?:\s+[\w-]+){0,3}\s+(?:was|were|has been|have been|had been|is|are|got)\s+` +
    String.raw`(?:cancell?ed|canceled|delayed)\b`,
);
/** A word that starts a question clause. */
export const INTERROGATIVE = new RegExp(
  String.raw`^(?:(?:and|so|or|also|but)\s+)?(?:would|could|can|do|does|did|shall|should|is|are|will|may|have|has|` +
    String.raw`what|how|when|where|which|who|why|anything|any|is there)\b`,
);
