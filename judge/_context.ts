// What every rule of the rules judge reads, computed once per episode: the tool calls as the world
// received them, the messages, who the user said they are, who the agent identified and when, and
// whether a change stays within the gold. Private to judge/.
import { canonicalJson, changeKey, identifyingArgs, jsonEqual } from "../envs/mod.ts";
import type { EpisodeEvent, Json, RowChange, Tool } from "../envs/mod.ts";
import type { Call, JudgeInput, Violation } from "./types.ts";

/** A message of the conversation with its place in the trajectory. */
export interface Said {
  index: number;
  step: number;
  actor: "user" | "agent";
  text: string;
  intent: EpisodeEvent["intent"];
}

/** The judged episode, prepared once for every rule. */
export interface Context {
  input: JudgeInput;
  calls: Call[];
  messages: Said[];
  tool(name: string): Tool | undefined;
  /** Whether the user had said `value` (in a message's text or its facts, case ignored) before event `index`. */
  userSaid(value: string, index: number): boolean;
  /** The messages before event `index`, in order (the same array for the same messages: only read it). */
  messagesBefore(index: number): readonly Said[];
  /** The calls of a tool that did not succeed, in order. */
  failedCalls(tool: string): readonly Call[];
  /** Whether a call that changed rows succeeded before event `index`. */
  changedBefore(index: number): boolean;
  /**
   * Whether the calls before event `index` that give argument `arg` a string all give it `value`
   * (and one does): the record is the only one of its kind they named.
   */
  onlyNamed(arg: string, value: string, index: number): boolean;
  /** Customers the agent had identified before event `index` (a successful identifying call). */
  identifiedBefore(index: number): ReadonlySet<string>;
  /**
   * Whether the user named this customer at any point of the episode: said their id, or gave
   * the details an identifying call found them by.
   */
  claimed(customer: string): boolean;
  /** Whether every row of `changes` is one the gold changes to the same values. */
  withinGold(changes: readonly RowChange[]): boolean;
  /** The customer a call concerns (its tool's declaration), or null. */
  customerOf(call: Call): string | null;
  /** Runs a domain declaration against the world before the episode, read-only. */
  read<T>(fn: () => T): T;
}

/** Prepares the context of an episode. */
export function prepare(input: JudgeInput): Context {
  const tools = new Map(input.domain.tools.map((t) => [t.name, t]));
  const calls: Call[] = [];
  const messages: Said[] = [];
  input.events.forEach((e, index) => {
    if (e.kind === "tool") {
      const reached = e.fault === undefined;
      calls.push({
        index,
        step: e.step,
        tool: e.tool ?? "",
        args: (e.world_args ?? e.args ?? null) as Json,
        reached,
        ok: reached && e.error === undefined,
        ...(e.result !== undefined ? { result: e.result } : {}),
        ...(e.error ? { error: e.error } : {}),
        changes: e.changes ?? [],
      });
    } else if (e.kind === "message" && (e.actor === "user" || e.actor === "agent")) {
      messages.push({ index, step: e.step, actor: e.actor, text: e.text ?? "", intent: e.intent });
    }
  });
  const read = <T>(fn: () => T): T => input.db.readOnly(fn);

  // What the user said up to each point: texts and the values of the facts they gave.
  // Lower-cased once: ids and amounts are looked up as substrings, case ignored.
  const userTexts: { index: number; text: string }[] = [];
  for (const m of messages) {
    if (m.actor !== "user") continue;
    const facts = m.intent && (m.intent.kind === "request" || m.intent.kind === "provide") ? m.intent.facts : {};
    userTexts.push({
      index: m.index,
      text: [m.text, ...Object.values(facts).map(factText)].join("\n").toLowerCase(),
    });
  }
  // The first user message that says a value, by value: "said before `index`" is "first said before it".
  const firstSaid = new Map<string, number>();
  const userSaid = (value: string, index: number) => {
    const v = value.toLowerCase();
    let first = firstSaid.get(v);
    if (first === undefined) {
      first = userTexts.find((u) => u.text.includes(v))?.index ?? Number.POSITIVE_INFINITY;
      firstSaid.set(v, first);
    }
    return first < index;
  };

  const customers = new Map<number, string | null>();
  const customerOf = (call: Call): string | null => {
    if (customers.has(call.index)) return customers.get(call.index)!;
    const tool = tools.get(call.tool);
    const customer = tool?.customer ? read(() => tool.customer!(call.args, input.db)) ?? null : null;
    customers.set(call.index, customer);
    return customer;
  };

  // Identification: a successful call of an identifying tool whose arguments the user had all
  // given; the customer is whom the tool says the call concerns, else the one argument's value.
  const identifications: { index: number; customer: string }[] = [];
  for (const call of calls) {
    const tool = tools.get(call.tool);
    if (tool === undefined || !call.ok) continue;
    const values = identifyingArgs(tool).map((a) => argOf(call.args, a));
    if (values.length === 0 || !values.every((v) => typeof v === "string" && v !== "")) continue;
    if (!values.every((v) => userSaid(v as string, call.index))) continue;
    const customer = tool.customer ? customerOf(call) : values.length === 1 ? values[0] as string : null;
    if (customer !== null) identifications.push({ index: call.index, customer });
  }
  // Events come in order, so what was before an event is a prefix: each prefix is made once.
  const idSets = new Map<number, ReadonlySet<string>>();
  const identifiedBefore = (index: number) => {
    const k = countBefore(identifications, index);
    let ids = idSets.get(k);
    if (ids === undefined) idSets.set(k, ids = new Set(identifications.slice(0, k).map((i) => i.customer)));
    return ids;
  };
  const prefixes = new Map<number, readonly Said[]>();
  const messagesBefore = (index: number) => {
    const k = countBefore(messages, index);
    let before = prefixes.get(k);
    if (before === undefined) prefixes.set(k, before = messages.slice(0, k));
    return before;
  };
  const failed = new Map<string, Call[]>();
  for (const c of calls) {
    if (c.ok) continue;
    const list = failed.get(c.tool);
    if (list === undefined) failed.set(c.tool, [c]);
    else list.push(c);
  }
  const firstChange = calls.find((c) => c.ok && c.changes.length > 0)?.index ?? Number.POSITIVE_INFINITY;
  const named = new Map<string, { value: string | null; at: number; until: number }>();
  const onlyNamed = (arg: string, value: string, index: number) => {
    let n = named.get(arg);
    if (n === undefined) named.set(arg, n = firstNamed(calls, arg));
    return n.value === value && n.at < index && index <= n.until;
  };
  // The gold's rows by key, once (`changesWithin()` of the gold change).
  const goldRows = new Map(input.gold.all.map((c) => [changeKey(c), c.after]));
  const withinGold = (changes: readonly RowChange[]) =>
    changes.every((c) => {
      const k = changeKey(c);
      return goldRows.has(k) && jsonEqual(goldRows.get(k), c.after);
    });

  return {
    input,
    calls,
    messages,
    tool: (name) => tools.get(name),
    userSaid,
    messagesBefore,
    failedCalls: (tool) => failed.get(tool) ?? [],
    changedBefore: (index) => firstChange < index,
    onlyNamed,
    identifiedBefore,
    claimed: (customer) =>
      userSaid(customer, Number.POSITIVE_INFINITY) || identifications.some((i) => i.customer === customer),
    withinGold,
    customerOf,
    read,
  };
}

// How many of these (in event order) come before event `index`.
function countBefore(list: readonly { index: number }[], index: number): number {
  let lo = 0, hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid].index < index) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// The first string value the calls give an argument, the event where, and the last event before
// which no other value was given (a second value's event, or past the end).
function firstNamed(calls: readonly Call[], arg: string): { value: string | null; at: number; until: number } {
  let first: { value: string; at: number } | null = null;
  for (const c of calls) {
    const v = argOf(c.args, arg);
    if (typeof v !== "string") continue;
    if (first === null) first = { value: v, at: c.index };
    else if (v !== first.value) return { ...first, until: c.index };
  }
  return first === null
    ? { value: null, at: Number.POSITIVE_INFINITY, until: -1 }
    : { ...first, until: Number.POSITIVE_INFINITY };
}

function factText(value: Json): string {
  return typeof value === "string" ? value : canonicalJson(value);
}

/** The value of a top-level argument, or undefined. */
export function argOf(args: unknown, name: string): Json | undefined {
  return args !== null && typeof args === "object" && !Array.isArray(args)
    ? (args as Record<string, Json>)[name]
    : undefined;
}

/** Keys of the rows the gold touches, at any call (the net gold change is among them). */
export function goldKeys(input: JudgeInput): Set<string> {
  return new Set(input.gold.calls.flatMap((call) => call.map(changeKey)));
}

/** A violation found by the rules judge. */
export function found(
  constraint: Violation["constraint"],
  severity: Violation["severity"],
  step: number | null,
  evidence: string,
  harm?: Violation["harm"],
): Violation {
  return { constraint, severity, step, evidence, source: "rules", ...(harm ? { harm } : {}) };
}

/** A short quote of a text: the first `max` characters on one line. */
export function quote(text: string, max = 80): string {
  const line = text.replace(/\s+/g, " ").trim();
  return `"${line.length > max ? `${line.slice(0, max - 1)}…` : line}"`;
}

/** A call as words: its tool and its arguments, shortened. */
export function callText(call: Call): string {
  const args = JSON.stringify(call.args) ?? "";
  return `${call.tool}(${args.length > 70 ? `${args.slice(0, 69)}…` : args})`;
}
