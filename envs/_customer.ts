/**
 * The customer behind `scriptedUser()` (envs/user.ts): what it answers to a scripted agent's intent
 * and to plain text, read with the domain's vocabulary, and when it ends the talk.
 *
 * @module
 */
import { canonicalJson, scalars } from "./json.ts";
import type { Rng } from "./rng.ts";
import type { AgentReading } from "./reading.ts";
import { readAgent } from "./_read_agent.ts";
import { wordsOf } from "./_read_words.ts";
import { checkProposal, isRecord } from "./_user_match.ts";
import { changesIn } from "./_read_proposal.ts";
import { mentions, sentencesOf } from "./text.ts";
import { fieldOf, type ResolvedVocabulary } from "./vocabulary.ts";
import type { Json } from "./json.ts";
import type { Intent, Message, UserRead } from "./message.ts";
import type { Task } from "./task.ts";
import type { ToolCall } from "./tool.ts";
import type { UserReport } from "./user_sim.ts";
import {
  ACCEPT_NO,
  AGAIN,
  answers,
  CANNOT_CHECK,
  describe,
  GIVE_UP,
  GO_ON,
  NO,
  NO_BECAUSE,
  NOT_WHAT_I_ASKED,
  NOT_YET,
  NUDGE,
  OTHER_DONE,
  PROVIDE,
  read,
  requestsOf,
  REST,
  spoken,
  THANKS,
  UNKNOWN,
  UNREAD,
  type UserRequest,
  WHAT_EXACTLY,
  YES,
} from "./_user_replies.ts";

/** What `scriptedUser()` resolved of its options. */
export interface CustomerOptions {
  patience: number;
  opening: string;
  trust: number;
  vocabulary: ResolvedVocabulary;
}

// A reply before it is a message: its templates and fills, its intent, how the agent's message was read.
interface Reply {
  templates: readonly string[];
  fill?: Record<string, string>;
  intent: Intent;
  read: UserRead;
}

/** The scripted user of one task (`ScriptedUser`). */
export class Customer {
  readonly #task: Task;
  readonly #rng: Rng;
  readonly #options: CustomerOptions;
  #trustRng: Rng | undefined;
  #stuck = 0;
  // Agent messages read as text, and those it could not read.
  #texts = 0;
  #unread = 0;
  // The agent's statements since the user's last reply that moved on: a proposal split over two
  // messages names its change in the first.
  #earlier: string[] = [];
  // The change the first of those statements said the agent will make.
  #planned: string | null = null;
  // Whether it approved a proposal: a done-claim after it is about the change approved.
  #approved = false;
  // What it asked for (`requestsOf()`), the facts of each that are its own (its record), which of them it
  // approved a proposal of, and which are settled: told done, or declined as not decided.
  readonly #requests: readonly UserRequest[];
  readonly #own: readonly (readonly string[])[];
  #yes = new Set<number>();
  #settled = new Set<number>();
  #lastUserText = "";

  constructor(task: Task, rng: Rng, options: CustomerOptions) {
    this.#task = task;
    this.#rng = rng;
    this.#options = options;
    this.#requests = requestsOf(task);
    this.#own = this.#requests.map((r, i) =>
      Object.keys(r.facts).filter((f) =>
        this.#requests.some((o, j) => j !== i && canonicalJson(o.facts[f] ?? null) !== canonicalJson(r.facts[f]))
      )
    );
  }

  open(): Message {
    const task = this.#task;
    const facts: Record<string, Json> = {};
    for (const f of task.volunteered) if (f in task.facts) facts[f] = task.facts[f];
    this.#lastUserText = this.#options.opening;
    const also = task.also?.map((r) => ({ goal: r.goal, facts: r.facts }));
    return {
      role: "user",
      text: this.#options.opening,
      intent: { kind: "request", goal: task.goal, facts, ...(also !== undefined ? { also } : {}) },
    };
  }

  reply(message: Message): Message {
    const reply = message.intent ? this.#toIntent(message.intent, message.text) : this.#toText(message.text);
    let text = this.#rng.pick(reply.templates);
    for (const [k, v] of Object.entries(reply.fill ?? {})) text = text.replace(`{${k}}`, v);
    text = text.charAt(0).toUpperCase() + text.slice(1);
    this.#lastUserText = text;
    return { role: "user", text, intent: reply.intent, read: reply.read };
  }

  finish(): UserReport {
    return this.#texts > 0 ? { misread: { messages: this.#texts, unread: this.#unread } } : {};
  }

  // A message of a scripted agent: its intent says what it is.
  #toIntent(intent: Intent, text: string): Reply {
    switch (intent.kind) {
      case "ask":
        return this.#provide(intent.fields, { kind: "ask", fields: [...intent.fields], action: null }, (f) => f);
      case "propose":
        return this.#answer(text, this.#actionOf(intent.call), intent.call);
      case "refuse":
        return this.#stop(ACCEPT_NO, false, read("refuse"));
      case "transfer":
        return this.#stop(ACCEPT_NO, false, read("transfer"));
      case "inform": {
        const gaveUp = intent.facts?.outcome === "not_done";
        return gaveUp ? this.#stop(ACCEPT_NO, false, read("inform")) : this.#done(text);
      }
      default:
        return this.#noProgress(read("inform"));
    }
  }

  // A message in words only, read as a customer reads it.
  #toText(text: string): Reply {
    this.#texts++;
    const r = readAgent(this.#options.vocabulary, text, { previous: this.#lastUserText, earlier: this.#earlier });
    if (r.unread) {
      this.#unread++;
      return this.#noProgress(read("unread"), UNREAD);
    }
    // A proposal made in two messages is of the change its first one stated.
    if (r.proposes) return this.#answer([...this.#earlier, text].join("\n"), this.#planned ?? r.action);
    this.#earlier = [];
    this.#planned = null;
    if (r.claims_done) return this.#done(text);
    if (r.refuses) return this.#stop(ACCEPT_NO, false, read("refuse"));
    if (r.transfers) return this.#stop(ACCEPT_NO, false, read("transfer"));
    if (r.asks.length > 0) return this.#askedInWords(r);
    if (r.greets) return this.#again(read("greet"));
    if (r.gives_up) return this.#stop(ACCEPT_NO, false, read("inform"));
    return this.#informed(r, text);
  }

  // Asked for fields in words: the facts of those fields it has (those named by their own names first).
  #askedInWords(r: AgentReading): Reply {
    const v = this.#options.vocabulary;
    const mine = Object.keys(this.#task.facts);
    const named = r.facts.filter((f) => mine.includes(f) || this.#lacks(f));
    const byField = r.asks.filter((field) => !named.some((f) => fieldOf(v, f) === field));
    const asked = [...named, ...mine.filter((f) => byField.includes(fieldOf(v, f)) && !named.includes(f))];
    for (const f of this.#task.lacks ?? []) {
      if (byField.includes(fieldOf(v, f)) && !asked.includes(f)) asked.push(f);
    }
    if (asked.length === 0) {
      // Asked only what it wants, or things no fact of its answers: it says its request again.
      return r.asks.every((f) => f === "other")
        ? this.#again(read("ask", r.asks))
        : this.#provide(r.asks, read("ask", r.asks));
    }
    return this.#provide(asked, read("ask", asked));
  }

  // Told something that is not a done-claim: the answer to a question it asked, a plan stated before
  // a proposal, or something that leaves its request open.
  #informed(r: AgentReading, text: string): Reply {
    const question = Object.hasOwn(this.#options.vocabulary.goals, this.#task.goal) &&
      this.#options.vocabulary.goals[this.#task.goal] === null;
    if (question && answers(this.#options.vocabulary, this.#task, text)) {
      return this.#stop(THANKS, true, read("inform"));
    }
    if (r.plans !== null && this.#earlier.length === 0) {
      this.#earlier.push(text);
      this.#planned = r.plans;
      return { templates: GO_ON, intent: { kind: "provide", facts: {} }, read: read("inform") };
    }
    return this.#noProgress(read("inform"));
  }

  // The facts asked for that it has, or that it has none of them (`name` says a missing one's name).
  #provide(fields: readonly string[], how: UserRead, name: (fact: string) => string = spoken): Reply {
    const task = this.#task;
    const shuffled = this.#rng.shuffle(fields);
    const known = shuffled.filter((f) => f in task.facts);
    const unknown = shuffled.filter((f) => !(f in task.facts));
    if (known.length === 0) {
      this.#stuck++;
      return {
        templates: UNKNOWN,
        fill: { fields: unknown.map(name).join(" or ") },
        intent: { kind: "unknown", fields: unknown },
        read: how,
      };
    }
    this.#stuck = 0;
    const facts = Object.fromEntries(known.map((f) => [f, task.facts[f]]));
    const text = this.#saying(known);
    return { templates: PROVIDE, fill: { facts: text }, intent: { kind: "provide", facts }, read: how };
  }

  // A proposal, with the call when the agent gave one: yes when it matches the request.
  #answer(text: string, action: string | null, call?: ToolCall): Reply {
    this.#earlier = [];
    this.#planned = null;
    // Whether what was said names a change itself, not only through the customer's request before it.
    const own = readAgent(this.#options.vocabulary, text, {});
    const named = own.action !== null || own.plans !== null || (call !== undefined && own.proposes);
    // Of several requests, the proposal is of the one it matches on the most facts, of those one it has
    // not approved yet (a record named only by a description is the next one), the first of them; else it
    // is read against the first request.
    const requests = this.#requests;
    const checks = requests.map((r) =>
      checkProposal(wordsOf(this.#options.vocabulary), r, { text, action, call, named })
    );
    const better = (i: number, j: number): boolean => {
      const [a, b] = [checks[i], checks[j]];
      if ((a.verdict === "matches") !== (b.verdict === "matches")) return a.verdict === "matches";
      if (a.verdict !== "matches") return false;
      if (a.facts.length !== b.facts.length) return a.facts.length > b.facts.length;
      return !this.#yes.has(i) && this.#yes.has(j);
    };
    const k = checks.reduce((best, _, i) => better(i, best) ? i : best, 0);
    const check = checks[k];
    const how: UserRead = {
      kind: "propose",
      fields: check.facts,
      action,
      ...("conflicts" in check ? { conflicts: check.conflicts } : {}),
    };
    // A proposal that names a request it has not decided on (by a fact of that request's own: its record)
    // gets "not yet", whatever else it proposes with it: one yes for both changes is no yes to that one.
    const undecided = requests.findIndex((r, i) =>
      r.undecided && checks[i].verdict === "matches" && checks[i].facts.some((f) => this.#own[i].includes(f))
    );
    if (requests[k].undecided || undecided !== -1) {
      this.#settled.add(undecided !== -1 ? undecided : k);
      return this.#decline(NOT_YET, {}, how);
    }
    if (check.verdict === "matches") {
      this.#yes.add(k);
      return this.#approve(how);
    }
    if (check.verdict === "vague") return this.#noProgress(how, WHAT_EXACTLY);
    if (check.verdict !== "other_change" && this.#trusts()) return this.#approve(how);
    if (check.verdict === "contradicts") {
      const fix = this.#saying(check.conflicts);
      const corrections = Object.fromEntries(check.conflicts.map((f) => [f, this.#task.facts[f]]));
      return this.#decline(NO_BECAUSE, { fix }, how, corrections);
    }
    if (check.verdict === "unknown") {
      return this.#decline(CANNOT_CHECK, { fields: check.conflicts.map(spoken).join(" or ") }, how);
    }
    return this.#decline(NO, {}, how);
  }

  // Told the request was done: thanks, unless what it says was done states a detail otherwise than
  // the user knows it (another card charged), which it does not take as its request met.
  #done(text: string): Reply {
    const requests = this.#requests;
    if (requests.length > 1) {
      // Of several requests, each is met once a claim names its own record (or it said "not yet" to it);
      // a claim that leaves one open gets a nudge about the rest.
      requests.forEach((r, i) => {
        const own = this.#own[i].flatMap((f) => scalars(r.facts[f]));
        if (own.length > 0 && own.every((v) => mentions(text, v))) this.#settled.add(i);
      });
      if (requests.some((_, i) => !this.#settled.has(i))) return this.#noProgress(read("done"), REST);
    }
    // A claim fine for one of them is taken as met (it reports them all).
    const replies = requests.map((r) => this.#doneFor(text, r));
    return replies.find((r) => r.intent.kind === "stop" && r.intent.satisfied) ?? replies[0];
  }

  #doneFor(text: string, request: UserRequest): Reply {
    const words = wordsOf(this.#options.vocabulary);
    const v = this.#options.vocabulary;
    const check = checkProposal(words, request, { text, action: null, named: true });
    // The changes it says were made, unasked: one of them must be the one asked for ("I've added two
    // bags" is not the upgrade asked for), unless the claim states more of the request than one id
    // (the record and its new date: what else it names, bags carried over, follows from it). After a
    // yes, the claim is about the change approved.
    const said = this.#approved ? [] : [...new Set(changesIn(words, sentencesOf(text).join(" ")))];
    // Of the request's facts it states, those of the change itself (not how it is paid, or why).
    const core = check.facts.map((f) => fieldOf(v, f)).filter((f) => !words.terms.has(f));
    const states = core.length >= 2 || core.some((f) => !isRecord(v, f));
    const other = said.length > 0 && !states &&
      said.every((action) => checkProposal(words, request, { text, action, named: true }).verdict === "other_change");
    if (other) {
      return {
        templates: OTHER_DONE,
        fill: { opening: this.#options.opening },
        intent: { kind: "stop", satisfied: false },
        read: { ...read("done"), action: said[0] ?? null },
      };
    }
    if (check.verdict !== "contradicts") return this.#stop(THANKS, true, read("done"));
    return {
      templates: NOT_WHAT_I_ASKED,
      fill: { fix: this.#saying(check.conflicts) },
      intent: { kind: "stop", satisfied: false },
      read: {
        ...read("done"),
        conflicts: check.conflicts,
      },
    };
  }

  #approve(how: UserRead): Reply {
    this.#stuck = 0;
    this.#approved = true;
    return { templates: YES, intent: { kind: "confirm" }, read: how };
  }

  // No to a proposal: a reply without progress, so the last one its patience allows ends the talk.
  #decline(
    templates: readonly string[],
    fill: Record<string, string>,
    how: UserRead,
    facts?: Record<string, Json>,
  ): Reply {
    this.#stuck++;
    if (this.#stuck >= this.#options.patience) return this.#stop(GIVE_UP, false, how);
    return { templates, fill, intent: { kind: "decline", ...(facts ? { facts } : {}) }, read: how };
  }

  // Whether a trusting user lets a wrong proposal through this time.
  #trusts(): boolean {
    if (this.#options.trust <= 0) return false;
    this.#trustRng ??= this.#rng.child("trust");
    return this.#trustRng.next() < this.#options.trust;
  }

  // Its request said again, a reply without progress.
  #again(how: UserRead): Reply {
    return this.#noProgress(how, AGAIN, { opening: this.#options.opening });
  }

  #noProgress(how: UserRead, templates: readonly string[] = NUDGE, fill?: Record<string, string>): Reply {
    this.#stuck++;
    if (this.#stuck >= this.#options.patience) return this.#stop(GIVE_UP, false, how);
    return { templates, ...(fill ? { fill } : {}), intent: { kind: "provide", facts: {} }, read: how };
  }

  // Facts as the user says them: "my payment id is credit_card_1111111, my cabin is business".
  #saying(facts: readonly string[]): string {
    return facts.map((f) => `my ${spoken(f)} is ${describe(this.#task.facts[f])}`).join(", ");
  }

  #stop(templates: readonly string[], satisfied: boolean, how: UserRead): Reply {
    return { templates, intent: { kind: "stop", satisfied }, read: how };
  }

  #lacks(fact: string): boolean {
    return (this.#task.lacks ?? []).includes(fact);
  }

  // The change a call makes, in the vocabulary's words (the first change its tool makes).
  #actionOf(call: ToolCall): string | null {
    for (const [name, a] of Object.entries(this.#options.vocabulary.actions)) {
      if (a.tools.includes(call.name)) return name;
    }
    return null;
  }
}
