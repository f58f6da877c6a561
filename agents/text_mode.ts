/**
 * Text mode (`AGENT@text`, e.g. `oracle@text`): a scripted agent or baseline that speaks as a
 * language agent does, in words only. Each intent of its messages is rendered by one of several
 * seeded phrasings and the intent is dropped, so the simulated user has to read the text: facts
 * asked for by any of their names in the domain's vocabulary, two at once or in two sentences; a
 * proposal in varied words, sometimes naming the record by a description instead of its id
 * (`FieldWords.describe`), sometimes split over two messages (the change, then the question);
 * refusals, reports and hand-overs in other words. The agent still reads the user's replies as
 * before. Its verdicts should equal the agent's own (a test compares them over the default tasks).
 *
 * @module
 */
import {
  type Agent,
  type AgentAction,
  type AgentContext,
  type AgentFactory,
  type AgentReport,
  claimsDone,
  type Intent,
  type Json,
  type Observation,
  refusalText,
  type ResolvedVocabulary,
  type Rng,
  vocabularyOf,
} from "../envs/mod.ts";

/** The suffix of an agent spec that runs the agent in text mode (`"oracle@text"`). */
export const TEXT_MODE = "@text";

/**
 * The agent a text-mode spec runs in words (`"oracle"` of `"oracle@text"`), or `null` for a spec
 * not in text mode.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { textModeOf } from "./text_mode.ts";
 * assertEquals([textModeOf("noisy@2x@text"), textModeOf("oracle")], ["noisy@2x", null]);
 * ```
 */
export function textModeOf(spec: string): string | null {
  return spec.endsWith(TEXT_MODE) ? spec.slice(0, -TEXT_MODE.length) : null;
}

/**
 * Runs an agent in text mode: its messages' intents become varied natural phrasings, drawn from
 * the episode's generator, and are not sent.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { textMode } from "./text_mode.ts";
 * import { Rng } from "../envs/mod.ts";
 * const asking = () => ({
 *   name: "asker", start() {}, step: () => ({ type: "message" as const, text: "?", intent: { kind: "ask" as const, fields: ["user_id"] } }),
 * });
 * const agent = textMode(asking)({ rng: new Rng("0"), domain: { tools: [] } as never, task: {} as never });
 * const action = await agent.step({ step: 0 });
 * assertEquals([action.type, "intent" in action], ["message", false]);
 * ```
 */
export function textMode(inner: AgentFactory): AgentFactory {
  return (episode) => new TextAgent(inner(episode), episode.rng.child("text-mode"), vocabularyOf(episode.domain));
}

class TextAgent implements Agent {
  readonly name: string;
  readonly #inner: Agent;
  readonly #rng: Rng;
  readonly #vocabulary: ResolvedVocabulary;
  // A message still to send: the second half of a proposal split over two messages.
  #pending: string | null = null;
  // What the agent's tool calls showed, to describe a record by.
  #seen: Record<string, Json>[] = [];

  constructor(inner: Agent, rng: Rng, vocabulary: ResolvedVocabulary) {
    this.name = `${inner.name}${TEXT_MODE}`;
    this.#inner = inner;
    this.#rng = rng;
    this.#vocabulary = vocabulary;
  }

  start(ctx: AgentContext): void | Promise<void> {
    this.#pending = null;
    this.#seen = [];
    return this.#inner.start(ctx);
  }

  async step(obs: Observation): Promise<AgentAction> {
    if (this.#pending !== null) {
      // The user answered the first half of a split proposal: now the question.
      const text = this.#pending;
      this.#pending = null;
      return { type: "message", text };
    }
    if (obs.tool?.ok) this.#remember(obs.tool.result ?? null);
    const action = await this.#inner.step(obs);
    if (action.type !== "message" || action.intent === undefined) return action;
    return { type: "message", text: this.#render(action.text, action.intent) };
  }

  finish(): AgentReport | Promise<AgentReport> {
    return this.#inner.finish?.() ?? {};
  }

  #remember(result: Json): void {
    const walk = (v: Json, depth: number) => {
      if (depth > 3 || v === null || typeof v !== "object") return;
      if (Array.isArray(v)) v.forEach((x) => walk(x, depth + 1));
      else {
        this.#seen.push(v);
        Object.values(v).forEach((x) => walk(x, depth + 1));
      }
    };
    walk(result, 0);
    if (this.#seen.length > 200) this.#seen = this.#seen.slice(-200);
  }

  #render(text: string, intent: Intent): string {
    switch (intent.kind) {
      case "ask":
        return this.#ask(intent.fields);
      case "propose":
        return this.#propose(text);
      case "refuse":
        return this.#refuse(text, intent.reason);
      case "transfer":
        return this.#rng.pick(TRANSFER);
      case "inform":
        // A closing that gave up (one of several requests not done) gets no "all done" lead.
        return intent.facts?.outcome === "not_done" ? text : this.#inform(text);
      default:
        return text;
    }
  }

  // A refusal in other words. A closing that reports several requests keeps its other paragraphs (what
  // was done) and words each refusal of its own anew.
  #refuse(text: string, reason: string): string {
    const paragraphs = text.split("\n\n");
    const refused = paragraphs.map(reasonOf);
    if (paragraphs.length < 2 || refused.every((r) => r === undefined)) {
      return fill(this.#rng.pick(REFUSE), { reason });
    }
    return paragraphs.map((p, i) => {
      const r = refused[i];
      return r === undefined ? p : fill(this.#rng.pick(REFUSE), { reason: r });
    }).join("\n\n");
  }

  // Facts asked for by one of their names, one, two at once, or in two sentences.
  #ask(fields: readonly string[]): string {
    const names = fields.map((f) => this.#name(f));
    if (names.length === 1) return fill(this.#rng.pick(ASK_ONE), { a: names[0] });
    if (names.length === 2 && this.#rng.next() < 0.4) {
      return fill(this.#rng.pick(ASK_TWO_SENTENCES), { a: names[0], b: names[1] });
    }
    return fill(this.#rng.pick(ASK_MANY), { list: list(names) });
  }

  // A fact's name: one of its own (without a parenthesis), else its field's first name.
  #name(fact: string): string {
    const v = this.#vocabulary;
    const own = (v.facts[fact]?.names ?? []).filter((n) => !n.includes("("));
    const first = v.facts[fact]?.names?.[0];
    const choices = own.length > 0 ? own : first !== undefined ? [first] : [fact.replaceAll("_", " ")];
    return this.#rng.pick(choices);
  }

  // The playbook's statement of a write in other words: as one message, or split in two.
  #propose(text: string): string {
    const statement = this.#describe(restate(stripQuestion(text), this.#rng));
    const question = this.#rng.pick(CONFIRM);
    const parts = statement.split(/;\s+/);
    if (parts.length > 1 && this.#rng.next() < 0.35) {
      const [first, ...rest] = parts;
      this.#pending = `${capital(rest.join("; "))}. ${question}`;
      return `${this.#rng.pick(PLAN_LEAD)}${first}.`;
    }
    return `${this.#rng.pick(LEAD)}${statement}. ${question}`;
  }

  // Sometimes a record named by a description of it rather than its id (the vocabulary's `describe`).
  #describe(statement: string): string {
    if (this.#rng.next() >= 0.3) return statement;
    for (const [field, words] of Object.entries(this.#vocabulary.fields)) {
      if (words.describe === undefined) continue;
      for (const record of this.#seen) {
        const id = record[field];
        if (typeof id !== "string" || !statement.includes(id)) continue;
        const description = describeRecord(words.describe, record);
        if (description !== null) return statement.replace(new RegExp(`\\b\\w+ ${escape(id)}\\b`), description);
      }
    }
    return statement;
  }

  // A report in other words: a done-claim may lead with one more, anything else stays as said.
  #inform(text: string): string {
    if (!claimsDone(text) || /^done\b/i.test(text)) return text;
    return `${this.#rng.pick(DONE_LEAD)}${text}`;
  }
}

// The reason of a paragraph that is a playbook's refusal (`refusalText()`), or undefined.
const [REFUSAL_HEAD, REFUSAL_TAIL] = refusalText("\u0000").split("\u0000");
function reasonOf(paragraph: string): string | undefined {
  if (!paragraph.startsWith(REFUSAL_HEAD) || !paragraph.endsWith(REFUSAL_TAIL)) return undefined;
  const reason = paragraph.slice(REFUSAL_HEAD.length, paragraph.length - REFUSAL_TAIL.length);
  return refusalText(reason) === paragraph ? reason : undefined;
}

const ASK_ONE = [
  "Could you give me your {a}?",
  "What is your {a}?",
  "May I have your {a}, please?",
  "To continue, I'll need your {a}. What is it?",
  "Please tell me your {a}.",
];
const ASK_MANY = [
  "Could you give me your {list}?",
  "Please share your {list}.",
  "I'll need a few details: your {list}. Could you provide them?",
  "What are your {list}?",
];
const ASK_TWO_SENTENCES = [
  "Could you tell me your {a}? And what is your {b}?",
  "First, what is your {a}? Also, please give me your {b}.",
  "Please share your {a}. I'll also need your {b}.",
];
const LEAD = ["", "Here's what I can do: ", "Thanks for waiting. ", "All right. "];
const PLAN_LEAD = ["Here's the plan: ", "Thanks. Here is what I'd do: ", "Okay, so: "];
const CONFIRM = [
  "Shall I go ahead?",
  "Do you want me to proceed?",
  "Would you like me to go ahead with this?",
  "Can you confirm you'd like me to do this?",
  "Is that OK with you? Please confirm.",
];
const REFUSE = [
  "I'm sorry, but I can't do that: {reason}.",
  "Unfortunately, I'm not able to do that: {reason}.",
  "I'm afraid that isn't allowed: {reason}.",
  "Sorry, I have to decline this request, because {reason}.",
];
const TRANSFER = [
  "I'm transferring you to a human agent now.",
  "I'll transfer you to a human agent who can help with this. Please hold.",
];
const DONE_LEAD = ["", "All done. ", "Thanks for your patience. "];

// The playbook's fixed question after a proposal ("Shall I go ahead? Please answer yes or no.").
function stripQuestion(text: string): string {
  return text.replace(/\s*Shall I go ahead\?.*$/s, "").replace(/\.\s*$/, "");
}

// "I will ..." in one of its other forms.
function restate(statement: string, rng: Rng): string {
  const form = rng.pick(["I will", "I'll", "I can", "I'm going to", "I'd like to"]);
  return statement.replace(/^I will\b/, form);
}

function describeRecord(template: string, record: Record<string, Json>): string | null {
  let ok = true;
  const out = template.replace(/\{(\w+)\}/g, (_, key: string) => {
    const v = record[key];
    if (typeof v !== "string" && typeof v !== "number") ok = false;
    return String(v);
  });
  return ok ? out : null;
}

function fill(template: string, values: Record<string, string>): string {
  let out = template;
  for (const [k, v] of Object.entries(values)) out = out.replace(`{${k}}`, v);
  return out;
}

function list(names: readonly string[]): string {
  return names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

function capital(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
