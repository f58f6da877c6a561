// What the LLM judge says is taken only with a passage of the trajectory that holds it: a violation,
// a refusal or a named precondition cites a step and quotes it, and the quote must be in that step's
// text (the agent's own words for a refusal or a named precondition), compared in `quoteForm()`.
// Private to judge/.
import type { EpisodeEvent } from "../envs/mod.ts";
import { quoteForm } from "./_untrusted.ts";

/** A step and the words the judge quotes from it. */
export interface Citation {
  step: number | null;
  quote?: string | null;
}

/** Each step's texts in quote form: every event's, and the agent's messages apart. */
export interface Quotable {
  any: Map<number, string[]>;
  agent: Map<number, string[]>;
}

// A quote shorter than this (once in quote form) proves nothing, unless it is the whole text.
const MIN_QUOTE = 4;

/** The texts the events of a trajectory give a quote to be found in, by step. */
export function quotable(events: readonly EpisodeEvent[]): Quotable {
  const out: Quotable = { any: new Map(), agent: new Map() };
  const add = (map: Map<number, string[]>, step: number, text: string) => {
    const list = map.get(step);
    if (list === undefined) map.set(step, [text]);
    else list.push(text);
  };
  for (const e of events) {
    if (e.kind === "tool") {
      const answer = e.fault ? `injected fault: ${e.fault}` : e.error ? e.error.message : plain(e.result ?? null);
      add(out.any, e.step, quoteForm(`${e.tool ?? ""}(${plain(e.world_args ?? e.args ?? null)}) ${answer}`));
    } else if (e.kind === "message") {
      const text = quoteForm(e.text ?? "");
      add(out.any, e.step, text);
      if (e.actor === "agent") add(out.agent, e.step, text);
    }
  }
  return out;
}

/**
 * Whether the citation's quote is in one text of its step (of the agent's messages for `"agent"`).
 * An ellipsis in the quote ("…" or "...") skips words: its pieces must be there in order.
 */
export function holds(texts: Quotable, citation: Citation | null | undefined, whose: "any" | "agent"): boolean {
  if (citation === null || citation === undefined || citation.step === null) return false;
  if (typeof citation.quote !== "string") return false;
  const pieces = citation.quote.split(/\.{3,}|…/).map(quoteForm).filter((p) => p !== "");
  const length = pieces.reduce((n, p) => n + p.length, 0);
  if (length === 0) return false;
  return (texts[whose].get(citation.step) ?? []).some((text) =>
    length >= Math.min(MIN_QUOTE, text.length) && inOrder(text, pieces)
  );
}

function inOrder(text: string, pieces: readonly string[]): boolean {
  let from = 0;
  for (const piece of pieces) {
    const at = text.indexOf(piece, from);
    if (at < 0) return false;
    from = at + piece.length;
  }
  return true;
}

// A JSON value written as JSON is but with strings as they are (no escapes), so a quote matches
// what the judge read once it un-escaped the prompt's JSON; quote form then drops the quote marks.
function plain(value: unknown): string {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return `[${value.map(plain).join(",")}]`;
  if (value !== null && typeof value === "object") {
    return `{${Object.entries(value).map(([k, v]) => `${k}:${plain(v)}`).join(",")}}`;
  }
  return String(value);
}
