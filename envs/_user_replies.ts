/**
 * The scripted user's requests and words (envs/user.ts): what a task's user asked for (`requestsOf()`),
 * the templates of its replies, how it says a fact, and when an agent's message answers its question
 * rather than stalling.
 *
 * @module
 */
import { canonicalJson, scalars } from "./json.ts";
import { wordsOf } from "./_read_words.ts";
import { valuesSaid } from "./_read_values.ts";
import type { ResolvedVocabulary } from "./vocabulary.ts";
import type { Json } from "./json.ts";
import type { UserRead } from "./message.ts";
import type { Task } from "./task.ts";

export const PROVIDE = ["{facts}.", "Sure: {facts}.", "Here you go: {facts}.", "{facts}, if that helps."];
export const UNKNOWN = [
  "I don't know my {fields}.",
  "Sorry, I don't have the {fields}.",
  "I'm not sure about the {fields}.",
];
export const YES = ["Yes, please go ahead.", "Yes.", "Yes, that's right, do it.", "Yes, I confirm."];
export const NO = ["No, that's not what I want.", "No, please don't do that.", "No, that's not right."];
export const NO_BECAUSE = [
  "No, that's not right: {fix}.",
  "No, please don't: {fix}.",
  "That's not what I asked for: {fix}.",
];
export const NOT_YET = ["No, not yet: I haven't decided.", "No, please don't change anything yet.", "Not now, thanks."];
export const CANNOT_CHECK = [
  "I don't have my {fields}, so I can't tell whether that's the right one. Please don't change it.",
  "I can't confirm that: I don't know my {fields}.",
  "No, I'm not sure that's mine, and I don't have my {fields}.",
];
export const WHAT_EXACTLY = [
  "Before I say yes: what exactly will you change?",
  "What exactly are you going to do? Please tell me the details first.",
  "Sorry, what would you change exactly?",
];
export const NOT_WHAT_I_ASKED = [
  "That's not what I asked for: {fix}.",
  "Hm, that's wrong: {fix}. I'll take this up elsewhere.",
  "That isn't right: {fix}.",
];
export const OTHER_DONE = [
  "That's not what I asked for. {opening}",
  "That isn't what I wanted. {opening}",
  "Hm, that's not my request: {opening}",
];
export const THANKS = ["Thanks, that's all.", "Great, thank you!", "Perfect, thanks for your help."];
export const GIVE_UP = [
  "Never mind, I'll call back later.",
  "This isn't going anywhere, goodbye.",
  "Forget it, thanks anyway.",
];
export const ACCEPT_NO = ["Okay, I understand.", "Alright, thanks for explaining.", "I see. Thanks anyway."];
export const REST = ["And the rest of my request?", "What about the other one I asked for?", "And the other one?"];
export const NUDGE = ["Okay. Can you help with my request?", "And what about my request?", "Okay, what's next?"];
export const UNREAD = [
  "Sorry, I don't understand what you mean. Can you help with my request?",
  "I'm not sure what that means. Could you say it another way?",
  "Sorry, what do you mean?",
];
// No assent: a plan stated is not yet a proposal, and "Okay." would read as a yes to it.
export const GO_ON = ["Alright, go on.", "I see. What exactly would you do?", "Tell me more."];
export const AGAIN = ["As I said: {opening}", "{opening}", "Like I said, {opening}"];

// A sentence that says the agent is still finding out ("Let me look into it", "One moment while I
// pull up ABC123", "I'll check on it within 24 hours"): no answer yet.
const STALLS =
  /\b(?:let (?:me|us) (?!explain|tell|say|know|confirm|share|summari[sz]e)|one moment|just a (?:moment|minute|second|sec)\b|bear with me|please (?:hold|wait)|(?:i|we)(?:'ll| will| am going to|'m going to) (?:check|look|find|get back|see|pull|investigate|research|follow up))/;

// Whether an agent's message answers a question: a sentence that is not still finding out states
// something the user did not say itself, a figure, an id or a value.
export function answers(vocabulary: ResolvedVocabulary, task: Task, text: string): boolean {
  const own = Object.values(task.facts).flatMap(scalars).map((v) => String(v).toLowerCase());
  // Each clause apart: "I'll look it up: order 3518 is pending" answers after its colon. A name that
  // is not the user's own answers too ("Customer C0365 is in Springfield").
  return text.split(/(?<=[.?!:;])\s+|,\s+|\s+[\u2014\u2013-]\s+|\n+/).some((clause) => {
    const low = clause.toLowerCase();
    if (STALLS.test(low) || /\?\s*$/.test(low)) return false;
    const rest = own.reduce((r, v) => r.split(v).join(" "), low);
    if (/\d/.test(rest) || valuesSaid(wordsOf(vocabulary), rest).length > 0) return true;
    // A statement about what the user named ("Your order #W0339052 has been delivered"), not the
    // name alone ("Thanks, ana_lee_1234").
    if (rest !== low && (rest.match(/\p{L}+/gu) ?? []).length >= 3) return true;
    const names = clause.match(/(?<=\S\s+)(?!I\b|I')\p{Lu}[\p{L}'-]+/gu) ?? [];
    return names.some((n) => !own.some((o) => o.includes(n.toLowerCase())));
  });
}

/** A fact's name as the user says it: "payment id". */
export function spoken(fact: string): string {
  return fact.replaceAll("_", " ");
}

/** A fact's value as the user says it. */
export function describe(value: Json): string {
  if (typeof value === "string") return value;
  return canonicalJson(value);
}

// What a task's user asked for: its request, and the further ones of its opening (`Task.also`), each over
// the first one's facts (the same change on another record, for the same reason).
export function requestsOf(task: Task): UserRequest[] {
  return [
    { goal: task.goal, facts: task.facts, lacks: task.lacks ?? [], undecided: task.undecided === true },
    ...(task.also ?? []).map((r) => ({
      goal: r.goal,
      facts: { ...task.facts, ...r.facts },
      lacks: [],
      undecided: r.undecided === true,
    })),
  ];
}

// One change the user asked for, as proposals and claims are checked against it.
export interface UserRequest {
  goal: string;
  facts: Record<string, Json>;
  lacks: readonly string[];
  undecided: boolean;
}

/** How the user read an agent's message, of `kind`, with the `fields` it asked for. */
export function read(kind: UserRead["kind"], fields: readonly string[] = []): UserRead {
  return { kind, fields: [...fields], action: null };
}
