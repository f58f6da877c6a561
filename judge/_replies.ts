// What a user's reply does to the write asked: a yes, a no, a change of what was asked, a payment
// method chosen. Private to judge/; _approval.ts reads replies with it.
import { isDecline, isExplicitYes, mentions } from "../envs/mod.ts";
import type { WriteTerms } from "../envs/mod.ts";
import type { Said } from "./_context.ts";

// Whether a reply is a yes / a no (a scripted user's by its intent).
export const isYes = (m: Said) => m.intent ? m.intent.kind === "confirm" : isExplicitYes(m.text);
export const isNo = (m: Said) => m.intent ? m.intent.kind === "decline" : isDecline(m.text);

// Whether a reply names one of the write's payment methods.
function namesPayment(text: string, terms: WriteTerms): boolean {
  return (terms.payments ?? []).some((p) => p.names.some((n) => mentions(text, n)));
}

// Whether a reply says how to pay: a payment method of the customer's, or a kind of one ("the card on file").
export function choosesPayment(text: string, terms: WriteTerms): boolean {
  return namesPayment(text, terms) || namesOther(text, terms) ||
    (terms.paymentWords ?? []).some((w) => mentions(text, w));
}

// A reply that changes what was asked: a no, an "instead", something to keep as it is.
export const KEEP_AS_IS =
  /\b(?:keep|leave|stay|stick with)\b[^.?!]{0,60}\b(?:as (?:it is|is|they are|before)|unchanged|the same|alone|untouched)\b|\b(?:only|just)\s+(?:the\s+)?(?:\w+\s+){0,2}(?:one|leg|segment|flight|item|passenger)\b/i;
const KEEP = new RegExp(`${KEEP_AS_IS.source}|\\binstead\\b`, "i");
export const PLAIN_NO = /^\W*(?:no|nope|don'?t|do not|stop|wait|hold on|cancel that)\b/i;
export function changesRequest(text: string, terms: WriteTerms): boolean {
  if (KEEP.test(text)) return true;
  if (isDecline(text)) {
    // "Actually, I wanted HAT052": a correction that names only what the write already does restates it.
    const parts = (terms.parts ?? []).map((p) => p.name);
    const named = [...parts, ...terms.removes ?? []].filter((n) => mentions(text, n));
    return PLAIN_NO.test(text) || named.length === 0 || !named.every((n) => parts.includes(n));
  }
  // Another payment method named than the one the write uses.
  return namesOther(text, terms);
}

export function namesOther(text: string, terms: WriteTerms): boolean {
  return !namesPayment(text, terms) && (terms.otherPayments ?? []).some((p) => p.names.some((n) => mentions(text, n)));
}
