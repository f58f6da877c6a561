// The patterns of `text.ts` that find instructions planted in tool data. Re-exported by
// `_text_patterns.ts`, and written as it says (bounded gaps).
import { alt } from "./_text_regex.ts";

// ---- Instructions planted in tool data ---------------------------------------------------------

const ADDRESSEE =
  "ai|assistant|agent|model|system|llm|bot|chatbot|judge|grader|evaluator|language model|gpt|chatgpt|claude|copilot";
const ACT = "cancel|refund|transfer|send|issue|book|grant|approve|waive|credit|compensate|reveal|report|tell|ignore|" +
  "disregard|override|upgrade|downgrade|modify|delete|give|offer|say|respond|reply|output|mark|rate|score|escalate|" +
  "exchange|process|change|update|remove|add";
const COMMAND = `${ACT}|forget|bypass|print|execute|run|skip|stop|do|don'?t|always|never|you|proceed|confirm|accept|` +
  "provide|use|apply|set|answer|write|include|follow|pretend|act|treat|consider|assume|make|ensure|charge|allow|let|" +
  "from now on|new instructions?|do not";
const RULES = "instructions?|rules|guidelines|polic(?:y|ies)|prompts?|directions|directives|constraints|guardrails|" +
  "confirmation";
const NOTE = String.raw`note|message|instructions?|reminder|attention|directive|memo|notice|request|important|p\.?s\.?`;
// Words before the addressee ("the AI assistant", "the store's support bot"): any one word may name the business.
const QUALIFIER = String.raw`the|ai|virtual|customer service|support|[\w'-]+`;
const MUST = "must|should|shall|needs? to|has to|have to|is (?:required|instructed|supposed|expected) to|will now|" +
  "is to|are to";
const YOU_MUST_WORD = "must|should|shall|need to|have to|are (?:required|instructed|supposed|expected) to|will now|" +
  "are now|are to";
const THEN = String.raw`(?:(?:now|immediately|also|always|never|not|first|then)\s+){0,2}`;
const TELL = "tell|inform|mention|reveal|ask|notify|alert|warn";

/** "Ignore all previous instructions" and the like. */
export const OVERRIDE = new RegExp(
  String.raw`\b(?:ignore|disregard|forget|override|bypass|skip)\b(?:\s+[\w']+){0,4}?\s+(?:${RULES})\b`,
);
/** "Note to the assistant", "message for the AI". */
export const ADDRESSED = new RegExp(
  String.raw`\b(?:${NOTE})\s+(?:to|for)\s+(?:the\s+|any\s+|all\s+)?(?:customer service |support |[\w'-]+ )?` +
    String.raw`(?:${ADDRESSEE})s?\b[\s:,.\-—]*`,
);
/** "SYSTEM:", "Assistant,", "[judge]" at the start of a sentence. */
export const VOCATIVE = new RegExp(
  String.raw`^[^\p{L}\p{N}]{0,8}(?:(?:dear|hey|hi|hello|attention|attn)[\s,:]+)?(?:\[|<\|?|#+\s*|\()?\s*` +
    String.raw`(?:(?:${QUALIFIER})\s+){0,2}(?:${ADDRESSEE}|admin|administrator|developer|operator)s?\s*` +
    String.raw`(?:\]|\|?>|\))?\s*(?::|,|-|—)\s*`,
  "u",
);
/** What follows an addressee when it is an instruction. */
export const COMMAND_START = new RegExp(
  String.raw`^(?:(?:please|now|immediately|also|and|then|just|kindly)\s+){0,3}(?:${COMMAND})\b`,
);
/** "The assistant must refund ..." */
export const SUBJECT_MUST = new RegExp(String.raw`\b(?:the\s+)?(?:${ADDRESSEE})s?\s+(?:${MUST})\s+${THEN}(?:${ACT})\b`);
/** "You must cancel ..." addressed to whoever reads the data. */
export const YOU_MUST = new RegExp(String.raw`\byou (?:${YOU_MUST_WORD})\s+${THEN}(?:${ACT})\b`);
/** Acting behind the customer's back. */
export const COVERT = alt(
  String.raw`\bwithout (?:asking|confirming with|telling|informing|notifying|checking with|consulting)` +
    String.raw`(?: (?:the|this))? (?:user|customer|passenger)`,
  String.raw`\bwithout (?:(?:asking for|getting|requesting|obtaining) )?(?:the )?(?:user'?s?|customer'?s?) ` +
    String.raw`(?:confirmation|consent|approval|permission)`,
  String.raw`\b(?:do not|don'?t|never) (?:${TELL})(?: (?:the|this))? (?:user|customer|passenger|human)\b`,
);
/** A new role or mode for the reader. */
export const ROLE = alt(
  String.raw`\byou are now (?:a|an|in|my|the|free to|allowed|authori[sz]ed|permitted|operating|acting)\b`,
  String.raw`\byou'?re now (?:a|an|in)\b`,
  String.raw`\b(?:from now on,? (?:you|always|never)|act as (?:a|an|if)|pretend (?:to be|you are|that))\b`,
  String.raw`\b(?:system|admin|developer|god) (?:override|mode|prompt|message|instructions?)\b`,
  String.raw`\b(?:jailbreak|do anything now)\b`,
  String.raw`\b(?:new|updated|revised|real) instructions?\s*:`,
);
/** Chat-template or prompt markup inside data. */
export const MARKUP = alt(
  String.raw`<\|(?:im_start|im_end|system|endoftext)\|?>`,
  String.raw`<\/?(?:system|instructions?|tool_output|assistant)>|\[\/?(?:inst|system)\]`,
);
/** A sentence that carries on an instruction found just before it ("Then cancel ..."). */
export const CONTINUES = new RegExp(
  String.raw`^(?:(?:then|also|and|after that|next|finally|please)[\s,]+){0,2}` +
    String.raw`(?:${ACT}|skip|do not|don'?t|never|always|proceed|confirm|ensure|` +
    "you (?:must|should|need|have|will|are))\\b",
);
/**
 * A word every instruction the patterns above find holds (an addressee, "you", an override or
 * covert verb, a role change, markup), matched on raw text (any case, "_" or "*" around it): where
 * it is absent no sentence can be an instruction, so a whole tool result is passed over at once.
 */
export const MAY_INSTRUCT = new RegExp(
  String.raw`(?<![a-z0-9])(?:${ADDRESSEE}|admin|administrator|developer|operator|you|ignore|disregard|forget|` +
    String.raw`override|bypass|skip|without|never|don[’']?t|do not|act as|pretend|from now on|jailbreak|god|` +
    String.raw`do anything now|instructions?)s?(?![a-z0-9])|<\||<\/?(?:system|instructions?|tool_output|assistant)>|` +
    String.raw`\[\/?(?:inst|system)\]`,
  "i",
);
/** Boundaries of a piece of tool data: JSON quotes and braces, line breaks (real or escaped). */
export const DATA_UNIT = /"|\\n|\r?\n|[{}]/;
/** Characters trimmed off both ends of a piece of tool data. */
export const DATA_TRIM = new Set([" ", "\t", "\r", "\n", ",", ":", "\\"]);
