/**
 * How a domain's customers and agents name things, as data (`Domain.vocabulary`): the fields a
 * conversation asks for and gives (each with the words that name it and the shapes of its values),
 * which field each of the task's facts is, the changes an agent may propose (each with its words and
 * the writing tools that make it) and which change each goal asks for. The text readers
 * (`readAgentMessage()`, `readUserMessage()`) and the scripted user read a domain through it and
 * name no domain themselves. A domain that declares none gets one made from its tools: a field per
 * parameter, a change per writing tool.
 *
 * @module
 */
import type { Tool } from "./tool.ts";

/** A domain's vocabulary (see the module doc). */
export interface Vocabulary {
  /**
   * The fields a conversation asks for and gives, by name (e.g. `"reservation_id"`), in the order
   * readings list them.
   */
  fields: Readonly<Record<string, FieldWords>>;
  /**
   * Which field each fact of the domain's tasks is (e.g. `payment_id` → `"payment_method"`), with
   * the fact's own names when it has narrower ones than its field's ("new travel date").
   * @default {each fact is the field of its own name}
   */
  facts?: Readonly<Record<string, FactWords>>;
  /**
   * The changes an agent may propose, by name (e.g. `"cancel"`), each with its words and tools.
   * @default {one per writing tool, named by the tool}
   */
  actions?: Readonly<Record<string, ActionWords>>;
  /**
   * The change each goal of the domain's tasks asks for (a name of `actions`), or `null` for a goal
   * no write answers (a question, or a request only a human can handle).
   * @default {none: a goal's change is unknown, and any change may answer it}
   */
  goals?: Readonly<Record<string, string | null>>;
}

/** How a field is named and what its values look like. */
export interface FieldWords {
  /**
   * What the field is called, lower case, the most usual first: `["reservation id", "booking
   * reference", "confirmation code"]`. A name matches as whole words, "_" and " " alike, plurals too.
   */
  names: readonly string[];
  /**
   * What a value of the field looks like in a message: an `id` is a token shaped like one of the
   * `values` patterns; a `date` is a calendar date in any of its usual forms, or a day said relative to
   * another ("the day after", "two days later"); an `amount` is a sum of money; a `count` is a whole
   * number said with one of the field's `names` ("2 bags"); a `person` is a person's name (capitalised
   * words: "Mei Garcia"); a `place` is a capitalised name or an upper-case code said right after one of
   * the field's `before` words ("from Houston", "to SEA").
   * @default {"id" when `values` are given, else none: the field's values are not recognised}
   */
  kind?: "id" | "date" | "amount" | "count" | "person" | "place";
  /**
   * Patterns of a value of the field, e.g. `/\b[A-Z0-9]{6}\b/` (an id's shapes, or any other shape the
   * field's values take, besides those of its `kind`).
   */
  values?: readonly RegExp[];
  /**
   * Words that give a value of the field when a customer says them, lower case: a cabin's
   * `["basic economy", "economy", "business"]`. The longest one said counts. An agent asking with two
   * of them as alternatives ("economy or business?") asks for the field.
   * @default {none}
   */
  words?: readonly string[];
  /**
   * How an agent may name a record by description instead of by this field's value: a template over
   * the keys of a record a tool showed with that value, e.g. `"your trip from {origin} to
   * {destination}"` for a reservation id (agents in text mode use it; `AGENT@text`).
   * @default {none: records of this field are named by their value}
   */
  describe?: string;
  /**
   * The words right before a value of kind `"place"`, lower case: an origin's `["from"]`, a
   * destination's `["to"]`; "from X to Y" gives both.
   * @default {none: a place is not recognised}
   */
  before?: readonly string[];
  /**
   * Whether a value of a shape (an id, a date, a person, a place; not one of `words`) counts only when
   * the customer's sentence says one of `cues` or of the field's `names` before it: for a field whose
   * values look like another's (a date of birth is a date, a chosen flight's number is a flight
   * number) or like any capitalised words (a person, a place). A value that counts for such a field
   * is not also another field's.
   * @default {false}
   */
  cued?: boolean;
  /** The words, besides its names, that make a value of a `cued` field count ("born", "passenger"). @default {none} */
  cues?: readonly string[];
  /**
   * Whether the field is a term of a change rather than what the change is (how to pay, a reason,
   * insurance): a proposal may still ask for it, while a message that asks for any other field is not
   * yet a proposal; and its words never say which change is proposed.
   * @default {false}
   */
  term?: boolean;
  /**
   * Names of the field too vague to say what is asked ("details", "information"), among its `names`:
   * they ask for this field only when the message asks for no other.
   * @default {none}
   */
  vague?: readonly string[];
  /**
   * Fields a value of this one gives as well (a passenger's name says who travels).
   * @default {none}
   */
  implies?: readonly string[];
  /**
   * Whether a clause that explains a change gives a value of this field, a reason's: the words after
   * "because", "due to" or "since I ..." said after a word of a change in the same sentence ("I'm
   * cancelling because I was away").
   * @default {false}
   */
  explains?: boolean;
  /**
   * For a field of choices: the field a question asks for instead when it names this one to identify
   * what already is or was rather than to choose ("Which flight was delayed?" asks which existing flight,
   * not which one to book).
   * @default {none: the name asks for this field}
   */
  existing?: string;
}

/** Which field a task's fact is, and its own names. */
export interface FactWords {
  /** The field (a name of `Vocabulary.fields`). */
  field: string;
  /**
   * Names that ask for this fact rather than any of its field, the most usual first; the first is
   * how agents ask for it (e.g. "new travel date" for a fact `new_date` of field `date`).
   * @default {none: asked for by its field's names}
   */
  names?: readonly string[];
  /**
   * Whether a proposal that answers the request states this fact's value as it is, so that another
   * value of its field contradicts it; `false` for a fact that only identifies the customer (their
   * email, zip code) or that a proposal states otherwise (bags to add, where it gives the new total).
   * @default {true}
   */
  proposed?: boolean;
}

/** A change an agent may propose: the words that say it and the tools that make it. */
export interface ActionWords {
  /**
   * Words (verbs or nouns, lower case) that say the change, e.g. `["cancel", "cancellation"]`. A verb
   * matches in any of its forms ("cancelled", "issuing"), and the words of a phrase with up to four
   * words between them ("change your return flights"). A word that is also a field's name or value
   * ("bags", "economy") says the change only when no other word does.
   */
  words: readonly string[];
  /** The writing tools that make it. */
  tools: readonly string[];
  /**
   * Other changes this one may carry along (a flight change may also change the cabin and the bags):
   * a proposal that says both is this change.
   * @default {none}
   */
  includes?: readonly string[];
}

/**
 * An email address, as a field's value pattern (`FieldWords.values`): a local part of at most 64
 * characters that no other starts inside, an "@", then up to nine dot-separated labels. Its bounds keep
 * reading linear on a long run of letters, digits or underscores, which an unbounded pattern would
 * scan again from every position.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { EMAIL_ADDRESS } from "./vocabulary.ts";
 * assertEquals("Write to lena.fox+trips@mail.example.org today".match(EMAIL_ADDRESS)?.[0], "lena.fox+trips@mail.example.org");
 * assertEquals(EMAIL_ADDRESS.test("a_".repeat(5000)), false);
 * ```
 */
export const EMAIL_ADDRESS: RegExp = /(?<![\w.+-])[\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63}){1,8}/;

/** A vocabulary with its defaults filled in (see `vocabularyOf()`). */
export interface ResolvedVocabulary {
  /** The fields, as declared. */
  fields: Readonly<Record<string, FieldWords>>;
  /** The facts; none when the domain declares none. */
  facts: Readonly<Record<string, FactWords>>;
  /** The changes, declared or one per writing tool. */
  actions: Readonly<Record<string, ActionWords>>;
  /** The change of each goal; none when the domain declares none. */
  goals: Readonly<Record<string, string | null>>;
}

// Resolved once per vocabulary (or, for a domain without one, per tool list).
const resolved = new WeakMap<object, ResolvedVocabulary>();

/**
 * A domain's vocabulary with its defaults filled in: its own, or one made from its tools (a field
 * per parameter of any tool, a change per writing tool, said by the verb of its name).
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { vocabularyOf } from "./vocabulary.ts";
 * import { defineTool } from "./tool.ts";
 * import { z } from "zod";
 * const lend = defineTool({
 *   name: "lend_book", description: "Lends a book.", input: z.object({ book_id: z.string() }), writes: true,
 *   run: () => null,
 * });
 * const v = vocabularyOf({ tools: [lend] });
 * assertEquals([v.fields.book_id.names, v.actions.lend_book.words], [["book id"], ["lend"]]);
 * ```
 */
export function vocabularyOf(domain: { tools: readonly Tool[]; vocabulary?: Vocabulary }): ResolvedVocabulary {
  const key = domain.vocabulary ?? domain.tools;
  let v = resolved.get(key);
  if (v === undefined) resolved.set(key, v = resolve(domain));
  return v;
}

function resolve(domain: { tools: readonly Tool[]; vocabulary?: Vocabulary }): ResolvedVocabulary {
  const own = domain.vocabulary;
  if (own !== undefined) {
    return {
      fields: own.fields,
      facts: own.facts ?? {},
      actions: own.actions ?? toolActions(domain),
      goals: own.goals ?? {},
    };
  }
  const fields: Record<string, FieldWords> = {};
  for (const tool of domain.tools) {
    const shape = (tool.input as { shape?: Record<string, unknown> }).shape ?? {};
    for (const name of Object.keys(shape)) fields[name] ??= { names: [name.replaceAll("_", " ")] };
  }
  return { fields, facts: {}, actions: toolActions(domain), goals: {} };
}

function toolActions(domain: { tools: readonly Tool[] }): Record<string, ActionWords> {
  const out: Record<string, ActionWords> = {};
  for (const tool of domain.tools) {
    // The verb of its name: "cancel" of "cancel_reservation".
    if (tool.writes) out[tool.name] = { words: [tool.name.split("_")[0]], tools: [tool.name] };
  }
  return out;
}

/**
 * The field a fact is: its declared one, else the field of its own name.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { fieldOf } from "./vocabulary.ts";
 * const v = { fields: {}, facts: { payment_id: { field: "payment_method" } }, actions: {}, goals: {} };
 * assertEquals([fieldOf(v, "payment_id"), fieldOf(v, "user_id")], ["payment_method", "user_id"]);
 * ```
 */
export function fieldOf(vocabulary: ResolvedVocabulary, fact: string): string {
  return Object.hasOwn(vocabulary.facts, fact) ? vocabulary.facts[fact].field : fact;
}

/**
 * Why a vocabulary does not fit its domain, or `null` when it does: a fact of an unknown field, a
 * change made by a tool that is not a writing tool of the domain, a goal asking for an unknown change.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { vocabularyProblem } from "./vocabulary.ts";
 * const v = { fields: { a: { names: ["a"] } }, facts: { b: { field: "c" } } };
 * assertEquals(vocabularyProblem(v, []), 'fact "b" is of field "c", which is not one of its fields');
 * ```
 */
export function vocabularyProblem(vocabulary: Vocabulary, tools: readonly Tool[]): string | null {
  const writes = new Set(tools.filter((t) => t.writes).map((t) => t.name));
  for (const [name, field] of Object.entries(vocabulary.fields)) {
    if (field.names.length === 0) return `field "${name}" has no names`;
    if (field.kind === "id" && (field.values ?? []).length === 0) return `field "${name}" is an id without values`;
    if (field.kind === "place" && (field.before ?? []).length === 0) {
      return `field "${name}" is a place without the words before it`;
    }
    const odd = (field.implies ?? []).find((f) => !Object.hasOwn(vocabulary.fields, f));
    if (odd !== undefined) return `field "${name}" implies "${odd}", which is not one of its fields`;
    if (field.existing !== undefined && !Object.hasOwn(vocabulary.fields, field.existing)) {
      return `field "${name}" is asked as "${field.existing}" about what exists, which is not one of its fields`;
    }
  }
  for (const [fact, words] of Object.entries(vocabulary.facts ?? {})) {
    if (!Object.hasOwn(vocabulary.fields, words.field)) {
      return `fact "${fact}" is of field "${words.field}", which is not one of its fields`;
    }
  }
  for (const [name, action] of Object.entries(vocabulary.actions ?? {})) {
    const odd = action.tools.find((t) => !writes.has(t));
    if (odd !== undefined) return `change "${name}" is made by "${odd}", which is not a tool that writes`;
    if (action.words.length === 0) return `change "${name}" has no words`;
    const unknown = (action.includes ?? []).find((a) => !Object.hasOwn(vocabulary.actions ?? {}, a));
    if (unknown !== undefined) return `change "${name}" includes "${unknown}", which is not one of its changes`;
  }
  for (const [goal, action] of Object.entries(vocabulary.goals ?? {})) {
    if (action !== null && !Object.hasOwn(vocabulary.actions ?? {}, action)) {
      return `goal "${goal}" asks for the change "${action}", which is not one of its changes`;
    }
  }
  return null;
}

/**
 * How a playbook asks for each fact: the first of the fact's own names (`PlaybookSpec.fieldNames`).
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { askNames } from "./vocabulary.ts";
 * const v = { fields: { date: { names: ["date"] } }, facts: { new_date: { field: "date", names: ["new travel date"] } } };
 * assertEquals(askNames(v), { new_date: "new travel date" });
 * ```
 */
export function askNames(vocabulary: Vocabulary): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [fact, words] of Object.entries(vocabulary.facts ?? {})) {
    if (words.names !== undefined && words.names.length > 0) out[fact] = words.names[0];
  }
  return out;
}
