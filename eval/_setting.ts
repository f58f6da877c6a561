// What a setting's declaration is (`SettingSpec`), and what is made of one: its flags with their
// help lines, its entry in docs/config.md, and the schema of an object of settings, each with its
// default. The declarations are in `settings.ts` and `condition_settings.ts`. Private to eval/.
import type { z } from "zod";
import type { Fields } from "./_fields.ts";

/** A flag of a setting: how the usage text shows it and how its text becomes the setting's value. */
export interface SettingFlag {
  /** The flag, e.g. `"--max-steps"`. */
  name: string;
  /** Its argument in the usage text, e.g. `"N"`; `""` for none. */
  arg: string;
  /** What it does, for the usage text: one line, or several. */
  help: string | readonly string[];
  /** Its text as the setting's value, which the config's schema then checks like a file's field. */
  read: (text: string, flag: string) => unknown;
  /** Where the value goes in the config, e.g. `["conditions", "fault", "p_fault"]`. */
  path: readonly string[];
}

/**
 * One setting as a declaration: the schema of its value (its default added from `default`), its
 * default, the flags that set it, the environment variable read when neither a file nor a flag
 * does, and what docs/config.md says of it.
 */
export interface SettingSpec<In> {
  /** The schema of the value as given (a file's field, or a flag's text as `read` gives it). */
  schema: (f: Fields) => z.ZodType<unknown, In>;
  /** The value when none is given; absent when another rule fills it (a condition's runs: K). */
  default?: Exclude<In, undefined>;
  /** The flags that set it; a help line's `{default}` is the default, as JSON. */
  flags?: readonly FlagSpec[];
  /** The environment variable read when neither a file nor a flag sets it. */
  env?: string;
  /** What docs/config.md says it is (Markdown, one line). */
  doc: string;
  /** docs/config.md's default when the value alone does not say it (e.g. "every registered domain"). */
  docDefault?: string;
}

/** A flag as a setting declares it; `SETTING_FLAGS` adds where its value goes. */
export type FlagSpec = Omit<SettingFlag, "path">;

/**
 * A flag as the usage text shows it ("--tasks N"), what it does, and how its text becomes the
 * setting's value (`read`: the text itself unless given).
 */
export function flag(usage: string, help: SettingFlag["help"], read?: SettingFlag["read"]): FlagSpec {
  const [name, arg = ""] = usage.split(" ");
  return { name, arg, help, read: read ?? ((text) => text) };
}

/** The default of a setting, as JSON (`{default}` in a help line, docs/config.md's default column). */
export function shownDefault(value: unknown): string {
  return Array.isArray(value) ? `[${value.map((v) => JSON.stringify(v)).join(", ")}]` : JSON.stringify(value);
}

/** A setting's flags, each with where its value goes and `{default}` in its help filled in. */
export function flagsOf(path: readonly string[], spec: SettingSpec<unknown>): SettingFlag[] {
  const fill = (line: string) => "default" in spec ? line.replace("{default}", shownDefault(spec.default)) : line;
  return (spec.flags ?? []).map((flag) => {
    const help = typeof flag.help === "string" ? fill(flag.help) : flag.help.map(fill);
    return { ...flag, help, path };
  });
}

/** One setting as docs/config.md lists it: where it goes, its flags and variable, its default, what it is. */
export interface SettingDoc {
  /** Where it goes in the config, e.g. `["tasks"]` or `["conditions", "fault", "p_fault"]`. */
  path: readonly string[];
  /** Its flags. */
  flags: readonly SettingFlag[];
  /** The environment variable that sets it, if any. */
  env?: string;
  /** Its default, as Markdown. */
  default: string;
  /** What it is, as Markdown. */
  doc: string;
}

/** A setting as docs/config.md lists it. */
export function docOf(path: readonly string[], spec: SettingSpec<unknown>): SettingDoc {
  const shown = spec.docDefault ?? ("default" in spec ? `\`${shownDefault(spec.default)}\`` : "");
  return {
    path,
    flags: flagsOf(path, spec),
    ...(spec.env === undefined ? {} : { env: spec.env }),
    default: shown,
    doc: spec.doc,
  };
}

type Specs = Record<string, { schema: (f: Fields) => z.ZodType }>;
type Shape<T extends Specs> = {
  [K in keyof T]: ReturnType<T[K]["schema"]>;
};

/** The schemas of settings by key, each with its declared default. */
export function shapeOf<T extends Specs>(specs: T, f: Fields): Shape<T> {
  return Object.fromEntries(
    Object.entries(specs).map(([key, spec]) => {
      const schema = spec.schema(f) as z.ZodType;
      return [key, "default" in spec ? schema.default(spec.default as never) : schema];
    }),
  ) as Shape<T>;
}
