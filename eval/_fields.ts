// The building blocks of the config's schema (`config.ts`): how each kind of value is checked,
// how a flag's text becomes one, and how a refused one is reported. Private to eval/.
import { z } from "zod";

/** A field given as text by name: by a flag or an environment variable. */
export interface GivenText {
  /** Where it goes in the config, e.g. `["conditions", "fault", "p_fault"]`. */
  path: readonly string[];
  /** The name that gave it, e.g. `"--p-fault"`. */
  name: string;
  /** The text given. */
  text: string;
}

/**
 * How a message ends after what is accepted: a config file's with the value it holds (`, got 0`);
 * one about text given by name (a flag) with nothing, as it quotes the text already.
 */
export type Got = (input: unknown) => string;

/** A config file's messages end with the value it holds. */
export const GOT_VALUE: Got = (v) => `, got ${shown(v)}`;
/** Messages about text given by name end with what is accepted. */
export const GOT_NOTHING: Got = () => "";

const shown = (v: unknown) => {
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
};

/** The schemas of values, each saying what it accepts, with messages ending as `got` says. */
export function fieldsWith(got: Got) {
  const expected = (what: string) => (i: { input?: unknown }) => `expected ${what}${got(i.input)}`;
  // A name refused by `check` gets the thrower's own message ("Unknown agent ...: expected one of ...").
  const known = (check: (name: string) => unknown): z.ZodType<string, string> =>
    z.string({ error: expected("a name") }).superRefine((name, ctx) => {
      try {
        check(name);
      } catch (err) {
        if (!(err instanceof RangeError || err instanceof TypeError)) throw err;
        ctx.addIssue({ code: "custom", message: err.message, input: name, params: { named: true } });
      }
    });
  const count = (what: string) => {
    const error = expected(`${what}, a whole number of at least 1`);
    return z.number({ error }).int({ error }).positive({ error });
  };
  return {
    expected,
    known,
    count,
    amount: (what: string, example: string) => {
      const error = expected(`${what}, a number of at least 0, e.g. ${example}`);
      return z.number({ error }).min(0, { error });
    },
    probability: () => {
      const error = expected("a probability in [0, 1]");
      return z.number({ error }).min(0, { error }).max(1, { error });
    },
    text: (what: string) =>
      z.string({ error: expected(`${what} as a non-empty string`) }).min(1, {
        error: `expected ${what} as a non-empty string`,
      }),
    url: (what: string) =>
      z.string({ error: expected(`${what} as an http(s) URL`) }).refine(isHttpUrl, {
        error: expected(`${what} as an http(s) URL, e.g. "http://localhost:11434/v1"`),
        params: { shape: true },
      }).transform((s) => s.replace(/\/+$/, "")),
    seed: (what: string) =>
      z.union([z.string(), z.number()], { error: expected(`${what} as a string or number`) }).transform(String),
    // Names of a kind, at least one, each once.
    names: (what: string, check: (name: string) => unknown) =>
      z.array(known(check), { error: expected(`a list of ${what} names`) })
        .min(1, { error: `expected at least one ${what}` }).transform((d) => [...new Set(d)]),
    // `false` (off), `true` (the defaults) or the condition's object; the object's own issues are
    // reported at their own paths (a union would hide them behind one "invalid input").
    toggle: <T extends z.ZodType<object>>(example: string, inner: T) =>
      z.unknown().transform((v, ctx): false | z.output<T> => {
        if (v === false) return false;
        if (v !== null && typeof v === "object" && !Array.isArray(v) || v === true) {
          const parsed = inner.safeParse(v === true ? {} : v);
          if (parsed.success) return parsed.data;
          for (const issue of parsed.error.issues) ctx.issues.push({ ...issue, input: undefined } as never);
          return z.NEVER;
        }
        ctx.issues.push({
          code: "custom",
          message: `expected false (off), true, or an object such as ${example}${got(v)}`,
          input: v,
          params: { shape: true },
        });
        return z.NEVER;
      }),
  };
}

/** The schemas `fieldsWith()` makes. */
export type Fields = ReturnType<typeof fieldsWith>;

const isHttpUrl = (s: string) => URL.canParse(s) && /^https?:$/.test(new URL(s).protocol);
/** Names quoted and joined: `"low", "medium", "high"`. */
export function quoted(names: readonly string[]): string {
  return names.map((n) => `"${n}"`).join(", ");
}

/** A flag's text as a number when it is one; other text stays text, for the schema to refuse. */
export function numberText(text: string): unknown {
  return /^-?(\d+\.?\d*|\.\d+)$/.test(text) ? Number(text) : text;
}
/** A flag's comma-separated items, trimmed; an empty one is a `TypeError` saying what is accepted. */
export function listText(what: string): (text: string, flag: string) => string[] {
  return (text, flag) => {
    const items = text.split(",").map((a) => a.trim());
    if (items.some((a) => a === "")) {
      throw new TypeError(`Invalid value "${text}" for ${flag}: expected ${what} separated by commas`);
    }
    return items;
  };
}

function pathText(path: readonly PropertyKey[]): string {
  return path.map((p, i) => typeof p === "number" ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`).join("");
}

/** One line per bad field; an unknown key lists the keys `accepted` at its path (`""` at the top). */
export function issueLines(issues: readonly z.core.$ZodIssue[], accepted: (at: string) => readonly string[]): string[] {
  return issues.flatMap((issue) => {
    const at = pathText(issue.path);
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((k) =>
        `"${at ? `${at}.` : ""}${k}": unknown field; expected one of ${accepted(at).join(", ")}`
      );
    }
    return [at ? `"${at}": ${issue.message}` : issue.message];
  });
}

/** A malformed value (a URL that is not one, a condition that is not an object): a wrong shape. */
export function isMalformed(issue: z.core.$ZodIssue): boolean {
  return issue.code === "custom" && issue.params?.shape === true;
}

/** In a file, a value of the wrong type is a wrong shape too; an unknown name or a number out of range is not. */
export function isRange(issue: z.core.$ZodIssue): boolean {
  return issue.code === "too_small" || issue.code === "too_big" || (issue.code === "custom" && !isMalformed(issue)) ||
    issue.code === "invalid_value" || (issue.code === "invalid_type" && issue.expected === "int");
}

/**
 * `Invalid value "0" for --tasks: ...`: the name that gave the field (the most precise, the last of
 * equals) and the text given, or the bad item of a list; `null` when no name gave it.
 */
export function givenLine(issue: z.core.$ZodIssue, input: unknown, given: readonly GivenText[]): string | null {
  let by: GivenText | undefined;
  for (const g of given) {
    if (g.path.every((p, i) => issue.path[i] === p) && g.path.length >= (by?.path.length ?? 0)) by = g;
  }
  if (by === undefined) return null;
  // A refused name's message quotes it already.
  if (issue.code === "custom" && issue.params?.named === true) return `Invalid value for ${by.name}: ${issue.message}`;
  const item = issue.path.reduce((v: unknown, k) => (v as Record<PropertyKey, unknown> | undefined)?.[k], input);
  const text = issue.path.length > by.path.length ? String(item) : by.text;
  return `Invalid value "${text}" for ${by.name}: ${issue.message}`;
}
