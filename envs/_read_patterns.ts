// The English of the text readers (`_read_agent.ts`, `_read_user.ts`): how a sentence asks, asks for
// approval, offers, hands over or gives a value, as patterns compiled once over normalised sentences
// (lower case, straight apostrophes, markdown gone). They name no domain: a domain's words come from
// its vocabulary. Gaps between words are bounded and never nested. Private to envs/.

// A pattern whose alternatives are the pieces.
function alt(...pieces: string[]): RegExp {
  return new RegExp(pieces.join("|"));
}

// ---- Asking ------------------------------------------------------------------------------------

// Not "check": "please check your email for it" points to where a value is, it asks for none.
const ASK_VERB = "provide|share|give|send|tell|confirm|let me know|specify|enter|select|choose|pick|double-check|" +
  "verify|advise|indicate|clarify|state|list|include|spell|type|reply with|respond with|describe";

/** Where a sentence starts asking the customer for something ("could you provide", "let me know which"). */
export const REQUEST = alt(
  String.raw`\bplease\s+(?:also\s+|kindly\s+)?(?:${ASK_VERB})\b`,
  String.raw`\b(?:could|can|would|will) you(?:\s+(?:please|kindly|also|first))*\s+(?:${ASK_VERB})\b`,
  String.raw`\b(?:let me know|tell me|inform me)\b`,
  String.raw`\bmay i (?:have|get|ask|know)\b|\bi(?:'d| would) (?:need|like) (?:to know|to have|to get|you to)\b`,
  String.raw`\b(?:kindly|do you (?:have|know|remember)|what(?:'s| is| are| was| were) (?:your|the))\b`,
  String.raw`\b(?:can|could|may) i (?:have|get|ask|know|see|grab|` +
    String.raw`take)\b|^(?:and )?(?:your|the) [^,.?!]{1,40},? please\b|` +
    String.raw`^(?:first|now|next|then|also|lastly|finally),?\s+(?:your|the) [^,.?!]{1,40},? please[.!]*$`,
  // An imperative starting a clause: "just send it over", "..., then share the code with me".
  String.raw`(?:^|[,;:]\s+|\b(?:and|then|just|simply)\s+)(?:provide|share|give me|tell me|` +
    String.raw`send (?:me|us|it|them|over|along))\b`,
);
/** A statement of what the agent needs ("I'll need your account id", "a booking code is required"). */
export const NEED = alt(
  String.raw`\b(?:i|we)(?:'ll|'d| will| would| do|'m going to|'re going to| am going to| are going to)?` +
    String.raw`(?: also| still| first| just| then| now)? (?:need|require)\s+` +
    String.raw`(?:your|the|to know|to have|to get|to gather|to collect|some|a few|following|specific|a|an|both|all|` +
    String.raw`each|more|additional|this|that|these|those|details|information)\b`,
  String.raw`\b(?:is|are) (?:required|needed|necessary)\b`,
);
/** A request made only conditionally ("if you have more details, feel free to share"). */
export const SOFT = alt(
  String.raw`\bif (?:you(?:'re| are)? (?:have|need|would like|'d like|want|wish|are unable|can'?t|cannot|believe|` +
    String.raw`think|prefer|decide|require|still|ever|'re unable|` +
    String.raw`are not able)|there (?:is|are|was|were|'s|might|may))\b`,
  String.raw`\b(?:feel free|should you|in case you|whenever you|if needed|if necessary|if you'?d prefer)\b`,
);
/** An offer of something the agent would do ("Would you like me to search?", "Shall I transfer you?"). */
export const OFFER =
  /\b(?:(?:would|do) you (?:like|want) me to|shall i|should i|can i (?!have|get|ask|know|see|grab|take)|may i (?!have|get|ask|know)|want me to)\b/;
/** A customer's choice offered as a yes/no question ("Do you want cover for the trip?"). */
export const CHOICE =
  /\b(?:would|do) you (?:like|want|wish|prefer|need)\b|\bwould you prefer\b|\bdo you (?:need|plan)\b/;
/** Where a request's object ends and its purpose begins ("..., so I can locate your booking"). */
export const PURPOSE = new RegExp(
  String.raw`(?:,\s*|\s)(?:so (?:that )?(?:i|we) (?:can|may|could)|so i|in order to|this will help|which will help|` +
    String.raw`and i(?:'ll| will| can)|, and i\b|, then i\b|before i\b|and we(?:'ll| will| can))|` +
    String.raw`,\s*to (?:help|locate|find|look up|assist|proceed|determine|check|verify|process|identify|make sure|` +
    String.raw`ensure|complete|finali[sz]e|search|calculate|see|access)\b|` +
    String.raw`\sto (?:help (?:me |us )?)?(?:locate|find|identify|look up|access|retrieve|pull up)\b|` +
    String.raw`\s(?:that|which) (?:might|may|could|will|would|can) help\b`,
);
/** A request put off until the customer has what it asks ("once you have the reservation ID, ..."). */
export const DEFERRED =
  /\b(?:once|when|after|as soon as) you(?:'ve| have)? (?:have|find|locate|get|got|found|retrieve|know|confirm|decide|are ready)\b/;
/** A name referred to as already known ("this reservation", "the same dates"): not asked for. */
export const KNOWN_BEFORE =
  /(?:\b(?:this|that|these|those|the above|the listed|the current|your current|the existing|your existing|the original|your original|said)\s+)$/;
/** Before a name: a rate it is the unit of ("$30 per passenger", "$35 a bag"), not asked for. */
export const RATE = /\d\s+(?:per|a|an|each|every)\s+$/;
/** Between a name and the next: a modifier ("the cabin class of your reservation"). */
export const MODIFIER =
  /^\s*(?:[\w'$-]+\s+){0,5}?(?:of|for|on|in|to|with|about|from|under|at|within|by|associated with)\s+(?:[\w'$-]+\s+){0,3}$/;
/** After a name: what the name only qualifies ("the checked bag fee", "the fare difference"). */
export const QUALIFIES =
  /^\s*(?:fees?|costs?|prices?|charges?|allowances?|polic(?:y|ies)|differences?|amounts?|totals?|balances?|rules?|limits?|restrictions?)\b/;
/** Right after a name: its value, so it is not asked ("cancel reservation ABC123"). */
export const VALUE_AFTER = /^\s*(?:is\s+|:\s*)?#?[a-z0-9_]*\d[a-z0-9_]*\b/;
/** Between two names: a list ("your user ID, reservation ID and"). */
export const LISTED = /^\s*(?:,|and|or|&|\/)?\s*(?:and|or)?\s*(?:your|the|my|his|her|their|its|a|an)?\s*$/;
/** Between two names: an alternative left open ("or any other information"). */
export const ANY_OTHER = /\bor (?:any )?other\b/;
/** A request's object that points at a name said before it ("which ones", "it", "them"). */
export const POINTER = /\b(?:which ones?|which of (?:these|those|them|the)|it|them)\b/;
/** A choice among what the message listed ("Which one would you like?"). */
export const WHICH_ONE = /\b(?:which|what) (?:ones?\b|of (?:these|those|them|the)\b)/;
/** A word asking which, when, how many: a question asks for a value with it. */
export const WH = /\b(?:which|what|how many|how much|when|where|who)\b/;
/** A value stated for the customer to confirm ("I assume you're flying from LAX, correct?"). */
export const ASSUMED =
  /(?:,|\s-|\u2014)\s*(?:correct|right|is that (?:correct|right)|am i right|is that so)\s*\?$|^(?:i assume|i take it|i understand)\b[^?]*\?$/;
/** Right after a name: something that happened or is so ("... was delayed", "... were cancelled"). */
export const HAPPENED = /^\s*(?:[\w-]+\s+)?(?:was|were|had been|has been|have been|got|did)\b/;
/** A request that points back at what an earlier sentence named ("please provide those details"). */
export const POINTS_BACK =
  /\b(?:them|those|these|it|this information|that information|the necessary|the above|this info|the (?:requested|required) (?:details|information))\b/;
/** A list item's label: "Trip type: ..." (the rest says what it is, or asks). */
export const LABEL = /^([^:?]{1,60}):\s*(.*)$/;

// ---- Asking for approval -----------------------------------------------------------------------

// What "please confirm" is followed by when it asks for a yes rather than for a value.
const CONFIRM_YES =
  String.raw`\s*[,.!(]|\s*$| and\b| with\b| by\b| whether (?:you|to)| (?:that )?you(?: would|'d| want| wish)|` +
  String.raw` if (?:you|everything|this|that|all|these|the (?:details|above|information|changes|summary))`;
const ALL_RIGHT = "ok|okay|alright|all right|correct|fine|acceptable|good|right";
const PROCEED = "proceed|go ahead|continue|move forward";
// What an approval points at: the change the message has described.
const THE_CHANGE = String.raw`that|this|it|everything|all (?:of )?(?:this|that)`;
// How a yes/no question says the change is fine ("sounds good", "looks right", "works for you").
const FITS = String.raw`(?:(?:sound|look|seem)s? )?(?:${ALL_RIGHT})|works?|suits? you`;

/** Asking the customer to approve what the message describes ("Shall I go ahead?", "Please confirm we may continue"). */
export const APPROVAL = alt(
  String.raw`\b(?:shall|should) (?:i|we) (?:go ahead|proceed|continue|do (?:it|that|so)|make|process|book|cancel|` +
    String.raw`issue|send|submit|place|apply|charge|finali[sz]e|complete)\b|\b(?:shall|should) (?:i|we)\s*\?|` +
    String.raw`\b(?:can|may) (?:i|we) (?:go ahead|proceed|continue|process|submit|finali[sz]e|complete)\b`,
  // "Before I do it, please confirm that's what you want."
  String.raw`\bplease confirm (?:that )?(?:this|that|it)(?:'s| is) what you(?:'d| would)? (?:want|like)\b`,
  String.raw`\b(?:(?:would|do) you (?:like|want|wish) (?:me )?|want me )to (?:${PROCEED})\b`,
  String.raw`\bplease confirm(?:${CONFIRM_YES})|^confirm\s*[:\u2014-]`,
  String.raw`\bconfirm (?:with|by (?:saying|replying|answering|typing)) (?:a |an )?["']?(?:yes|ok)\b`,
  String.raw`\b(?:can|could|would|will) you (?:please )?confirm (?:(?:if|whether|that) )?` +
    String
      .raw`(?:you\b|everything|this|these|the (?:details|above))|\b(?:can|could|would|will) you (?:please )?confirm\s*[?.!]`,
  String.raw`\bonce you confirm\b(?!\s+(?:which|what|the|your|how|whether|if|when))`,
  String.raw`\b(?:with|upon|after) your confirmation\b|\bawait(?:ing)? your confirmation\b`,
  // "Does that work for you?", "Is everything correct?", "Sound good?", "Okay to proceed?", "..., OK?"
  String.raw`\b(?:is|does|would|will) (?:${THE_CHANGE}) (?:${FITS})(?: (?:to|for|with) you)?\b\s*[?]`,
  String.raw`^(?:(?:so|and)\s+)?(?:(?:${ALL_RIGHT}|all good|good to go)(?: (?:to|for me to) (?:${PROCEED}))?|` +
    String.raw`(?:sound|look|seem)s? (?:${ALL_RIGHT}))(?: to you)?\s*\?|,\s*(?:ok|okay|alright|all right)\s*\?$`,
  String.raw`\b(?:is it|are you) (?:${ALL_RIGHT}|happy|comfortable) (?:if i|for me to|to|with (?:${THE_CHANGE}))\b`,
  String
    .raw`\byes(?: or |\s*/\s*)no\b|\b(?:do i|may i|can i) have your (?:permission|approval|consent|go-ahead|confirmation|ok)\b`,
  String.raw`\bdo you (?:approve|agree|accept|consent)\b|\b(?:just )?say the word\b`,
  String.raw`\b(?:may|can) i (?:proceed|go ahead)\b|\bready (?:for me )?to proceed\s*\?`,
  String.raw`\bif you(?:'d| would) like (?:me )?to (?:${PROCEED})\b[^.?!]{0,80}\blet me know\b`,
  String.raw`\blet me know if you(?:'d| would)? (?:like|want|wish) (?:me )?to (?:${PROCEED})\b`,
  String.raw`\blet me know if (?:${THE_CHANGE}) (?:${FITS}|is (?:${ALL_RIGHT}))\b`,
  String.raw`\b(?:let me know|confirm) (?:if|whether) you(?:'d| would)? (?:like|want) (?:me )?to ` +
    String.raw`(?:make|apply|process|complete|finali[sz]e|go through with) (?:this|these|the|that) ` +
    String.raw`[a-z][\w-]*\b`,
  String.raw`\bplease (?:reply|answer|respond|say) (?:with )?["']?(?:yes|ok)\b`,
);
/** Asking whether the agent should make a change it names ("Would you like me to cancel it?"). */
export const OFFER_TO_ACT = alt(
  String.raw`\b(?:would|do) you (?:like|want|wish) (?:me )?to\b|\b(?:shall|should) (?:i|we)\b|\bcan i go ahead and\b`,
  String.raw`\bplease confirm (?:that )?you(?: would|'d) like\b|\bwant me to\b`,
  // "To confirm, you'd like me to cancel ABC123?": the change restated for a yes.
  String.raw`\bconfirm,? (?:that )?you(?:'d| would) (?:like|want) (?:me )?to\b`,
  String.raw`\bare you sure (?:you want|you'd like|you would like) to\b|` +
    String.raw`\blet me know if you(?:'d| would) like (?:me )?to\b`,
);
/**
 * After an offer to act, a verb whose object only points at the change the message describes ("Would
 * you like me to make this change?", "Shall I do that?", "Want me to send it?").
 */
export const POINTED_CHANGE = new RegExp(
  String.raw`^\s*(?:go ahead and\s+)?[a-z]+(?:\s+(?:out|through|ahead with))?\s+(?:it|that|this|them|these|those|so|` +
    String.raw`(?:this|that|these|those|the)\s+(?:changes?|updates?|modifications?|adjustments?|requests?|plan))` +
    String.raw`(?:\s+(?:now|for you|today|please|then))*\s*[?.!]*$`,
);
/**
 * A question opened by a wh-word ("How would you like to pay?", "When would you like to fly?", "Why
 * do you want to cancel it?"): it asks for a value, however its verb reads, and approves nothing.
 */
export const WH_QUESTION =
  /^\W*(?:[a-z']+,\s+)?(?:(?:so|and|also|now|then|okay|ok|great|alright)[,\s]+)?(?:how|when|why|where|what|which|who|whom|whose)\b/;
/** After an offer to act, something that is no change ("Would you like me to search ...?"). */
export const NOT_A_CHANGE =
  /^\s*(?:(?:go ahead and|first|also|now)\s+)?(?:search|look|check|find|explore|see|know|hear|learn|understand|review|verify|help|assist|transfer|connect|show|research|investigate|contact|escalate|keep|try|recheck|double-check|note|list|get|retrieve|pull up|calculate|explain|tell|walk)\b/;
/**
 * Asking the customer to decide, with no change of its own ("Let me know how you'd like to proceed",
 * "Tell me if you want that"): an approval of the change the message says the agent will make.
 */
export const DECIDE = new RegExp(
  String.raw`\b(?:let me know|tell me) (?:how|whether|if) you(?:'d| would)? (?:like|want|wish|prefer)` +
    String.raw`(?: (?:me )?to (?:proceed|go ahead|continue|do (?:that|this|it|so)))?(?: that| this| it)?\s*[.!]*$|` +
    String.raw`\blet me know (?:your decision|what you decide)\b`,
);
/** What an agent adds after the approval it asks ("..., and I'll update your reservation"). */
export const AFTERWARDS =
  /,?\s+(?:and|then|so)\s+(?:i|we)(?:'ll| will| can| shall)?\b|,\s+(?:i|we)(?:'ll| will)\b|,\s*and (?:if|let me know|please|provide|tell|specify|confirm)\b/;
/** A choice left open in an approval ("one of these options", "any other changes", "which"). */
export const OPEN_CHOICE =
  /\b(?:one of (?:these|those|the|them)|any (?:of|other)|any|which|either|explore|something else|anything else|further (?:assistance|help|options?)|(?:a new|another|other|a different|different) [a-z][\w-]*|to [a-z]+ or [a-z]+ (?:your|the|this|that|these|those|it|them|my))\b/;
/** A verb that modifies something, with what it modifies ("changing the cabin class"). */
export const MODIFY = /\b(?:chang|modif|updat|adjust|edit|alter)\w*\s+(?:the|your|its|their|any|this|that)\s+/;
/** What gives a modification its new value: a target ("to business", "into", "from ... to"), an amount. */
export const NEW_VALUE = /\b(?:to|into|from)\b|\$/;
/** Where an approval's first alternative ends ("..., or do you need something else?"). */
export const ALTERNATIVE =
  /,?\s+or\s+(?:is there|would you|should i|shall i|do you|if you|need|anything|would|can i|perhaps|maybe)\b|,\s+or\b/;
/** An offer that holds only if something not yet known is true ("if you hold top status, we could give ..."). */
export const ELIGIBLE_IF = new RegExp(
  String.raw`\bif you(?:'re| are| have| were| had| qualify|` +
    String.raw` meet)\b[^.?!]{0,160}?\b(?:i|we) (?:can|could|may|might|would|will)` +
    String.raw`(?: be able to)? (?:offer|provide|issue|give|send|grant)\b`,
);
/** The agent saying it cannot go on with the request ("I can't continue without your id", "I could not complete this"). */
export const GIVES_UP = new RegExp(
  String.raw`\b(?:could not|couldn'?t|cannot|can'?t|can not|unable to|not able to) (?:complete|finish|continue|go on|` +
    String.raw`proceed with|help (?:you )?with) (?:this|that|your|the|without)\b|` +
    // "I have not made any change", "No changes were made": nothing done, and the request dropped.
    String.raw`\b(?:have|has)(?: not|n't) (?:made|done|applied) (?:any|the) (?:changes?|updates?)\b|` +
    String
      .raw`\bno (?:changes?|updates?) (?:have|has|were|was) been made\b|\bno (?:changes?|updates?) (?:were|was) made\b`,
);
/** A plan the agent states ("I will cancel ...", "Let's proceed with upgrading ..."). */
export const PLAN = alt(
  String.raw`^(?:(?:great|ok|okay|alright|sure|perfect|thank you|thanks|certainly|understood|however|so|then|` +
    String.raw`therefore|alternatively|in that case)[,!.]?\s+)?` +
    String.raw`(?:i will|i'll|i am going to|i'm going to|i can|we will|we'll|let'?s|let me|to confirm,)\b`,
  String.raw`\b(?:you(?:'d| would) like to|here (?:is|are) the (?:details|` +
    String.raw`changes|summary)|here'?s (?:a|the) summary)\b`,
);
/** A statement of what is generally so ("insurance typically covers cancellations"): it names no change proposed. */
export const GENERALLY =
  /\b(?:typically|usually|generally|normally|in general|polic(?:y|ies)|covers?|allows?|allowed|permitted|can only|cannot|can'?t|not possible)\b/;
/** A quoted text, in double quotes or in single quotes that no letter touches outside. */
export const QUOTED = /"[^"\n]{1,200}"|(?<![\p{L}\p{N}])'[^'\n]{1,120}'(?![\p{L}\p{N}])/gu;
/** A priced choice of a value ("Economy: $121", "Business ($338)"): the value is still open. */
export const PRICED = /^\s*(?:[a-z][\w-]*)?\s*[:(]\s*\$\s?\d/;

// ---- Handing over, greeting --------------------------------------------------------------------

/** Saying it hands the customer over ("I'm connecting you with a colleague", "Transferring you now"). */
export const TRANSFER = alt(
  String.raw`\b(?:transferr?(?:ing)?|connect(?:ing)?|escalat(?:e|ing))\s+(?:you|` +
    String.raw`your (?:call|case|request|conversation|chat|issue))\b`,
  String.raw`\b(?:hand(?:ing)?|pass(?:ing)?) (?:you|your (?:call|case|request)) ` +
    String.raw`(?:(?:over|on|along)\b|to (?:a|an|one|our|the|my)\b)`,
  String.raw`\b(?:hand(?:ing)?|pass(?:ing)?) (?:this|it) (?:over|on|along) to (?:a|an|one|our|my)\b`,
  String.raw`\byou(?:'re| are| will be|'ll be) (?:being |now )?(?:transferred|connected|escalated)\b`,
  String.raw`\b(?:i(?:'ve| have)|has been|have been) (?:transferred|escalated|connected)\b`,
  // "Let me get a human agent to help you", "I'll bring in one of our specialists".
  String.raw`\b(?:get|bring in|call in) (?:a|an|one of (?:my|our)) (?:human |live |real )?(?:agent|colleague|person|` +
    String.raw`representative|specialist|supervisor)s?\b`,
);
/** Words of a hand-over to a person, which no approval of a change is about. */
export const HAND_OVER = /\b(?:transfer|human|live agent|representative|supervisor|connect you)\b/;
/** Words before a hand-over that make it an offer, an advice or a condition ("I can transfer you"). */
export const TRANSFER_NOT_NOW = new RegExp(
  String.raw`\b(?:can|could|would|may|might|should|if|whether|recommend|suggest|suggesting|offer|happy to|able to|` +
    String.raw`want me to|like me to|like to be|prefer|option|unless|once)\b(?:\s+[\w']+){0,6}\s*$`,
);
/** A greeting or a general offer of help. */
export const GREETING =
  /\b(?:how (?:can|may|might|could) i (?:help|assist)|what can i (?:do|help)|hello\b|hi\b|hey\b|welcome\b|good (?:morning|afternoon|evening)\b|thank you for (?:contacting|calling|reaching out|choosing))/;

// ---- A customer's reply ------------------------------------------------------------------------

/** The end of a conversation ("that's all", "have a good day"). */
export const CLOSING = alt(
  String.raw`\b(?:that'?s all|that is all|that'?s everything|` +
    String.raw`that is everything|i'?m all set|i am all set|all set for now)\b`,
  String.raw`\b(?:have|enjoy) a (?:good|great|nice|wonderful|lovely) (?:day|one|evening|night|weekend|trip)\b`,
  String.raw`\b(?:goodbye|bye|farewell)\b|\bno further (?:changes|questions|help|assistance)\b`,
  String.raw`\b(?:don'?t|do not) need (?:anything|any (?:further|more|other)|more)\b|\bnothing else\b`,
  String.raw`\bthat(?:'s| is| was) (?:all|everything) i (?:needed|need|wanted)\b`,
);
/** "My user id is X", "The reason is that ...": a name followed by its value. */
export const GIVES =
  /^\s*(?:is|are|was|were|would be|will be|should be|needs to be|has to be|:|=|-)\s+(?!(?:not|n't|also|still|in|on|for|under|eligible|correct|right|wrong|cancell?ed|canceled|delayed|booked|there|possible|available|fine|ok|okay|a problem|too)\b)\S/;
/** "Reason: late delivery", "subject "Your order"": a name with its value, whoever's it is. */
export const LABELLED = /^\s*(?::\s*\S|:?\s*["'\u201C]\S)/;
/** "As for the payment, ...", "For the reason, ...": a name introducing its value. */
export const AS_FOR = /\b(?:as for|as to|regarding|for) (?:the|my|his|her|our|their) $/;
/** Words before a name that make it the owner of a value ("my", "the", "his"). */
export const OWNER = /\b(?:my|the|his|her|our|their|its)\s+(?:[\w-]+\s+){0,2}$/;
/** Pointing at what the agent listed ("all of these", "both", "the first one", "that one"). */
export const POINTING =
  /\b(?:all (?:of )?(?:these|those|them|the above)|both of (?:them|these|those)|the (?:first|second|third|fourth|fifth|last|other) one|(?:this|that) one|each of (?:them|these|those))\b/;
/** A day said relative to another: "the day after", "two days later", "moving it back one day". */
export const RELATIVE_DAY = new RegExp(
  String.raw`\b(?:the (?:day|week) (?:after|before)|the (?:next|following|previous) day|tomorrow|` +
    String.raw`(?:a|one|two|three|\d{1,2}) (?:days?|weeks?) (?:later|earlier|after|before|ahead)|` +
    String.raw`(?:back|forward|ahead) (?:by )?(?:a|one|two|\d{1,2}) days?|same dates? as)\b`,
);
/**
 * Common capitalised words that are no person's or place's name; the words of a domain's vocabulary
 * ("Reservation", "Economy") are none either (`Words.own`).
 */
export const NOT_A_NAME = new Set(
  ("i the a an this that these those my your our his her their thank thanks yes no hi hello dear please could can " +
    "would will should may also and but or so if when option options first member monday tuesday wednesday " +
    "thursday friday saturday sunday january february march april may june july august september october november " +
    "december mr mrs ms dr est pst utc am pm ok okay sure great perfect just only total old one way as for regarding")
    .split(
      " ",
    ),
);
