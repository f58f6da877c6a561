/**
 * The `env` condition: semantics-preserving perturbations of the tool interface, the same for
 * a whole episode. The agent is shown copies of the tools whose JSON Schema (`Tool.parameters`)
 * uses the perturbed names and formats, and hints (`AgentContext.hints.perturbation`, see
 * `PerturbationHints`) describing them. The dispatcher accepts only the perturbed names and
 * formats, maps the arguments back, calls the world, then perturbs the result.
 *
 * Perturbations, and the presets that turn them on:
 *
 * | perturbation | what changes                                                    | low | medium | high |
 * | ------------ | --------------------------------------------------------------- | --- | ------ | ---- |
 * | `names`      | parameter names in camelCase (`user_id` → `userId`), any depth  |  x  |   x    |  x   |
 * | `reorder`    | keys of schemas and results in a seeded order                   |  x  |   x    |  x   |
 * | `wrap`       | results wrapped as `{ status: "ok", data }`                     |     |   x    |  x   |
 * | `dates`      | dates as `MM/DD/YYYY` in arguments, results and messages        |     |   x    |  x   |
 * | `numbers`    | numbers in results as strings with separators (`"1,234.5"`)     |     |        |  x   |
 * | `columns`    | result keys that are the world's column names renamed (`flight_number` → `flightNo`) | | | x |
 *
 * @module
 */
import { deriveSeed, type EpisodeCondition, type Json, type Store, type Tool } from "../../envs/mod.ts";
import { toolParameters } from "../../envs/mod.ts";
import type { PerturbationHints } from "../../agents/mod.ts";

/** One perturbation of the tool interface. */
export type Perturbation = "names" | "reorder" | "wrap" | "dates" | "numbers" | "columns";

/** A preset of the `env` condition. */
export type EnvPreset = "low" | "medium" | "high";

/** The presets' names, mildest first. */
export const ENV_PRESET_NAMES: readonly EnvPreset[] = ["low", "medium", "high"];

/** Which perturbations each preset turns on. */
export const ENV_PRESETS: Readonly<Record<EnvPreset, readonly Perturbation[]>> = Object.freeze({
  low: ["names", "reorder"],
  medium: ["names", "reorder", "wrap", "dates"],
  high: ["names", "reorder", "wrap", "dates", "numbers", "columns"],
});

const ABBREVIATIONS: Readonly<Record<string, string>> = { Number: "No", Amount: "Amt", Quantity: "Qty" };
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?=$|[T ])/;
const US_DATE = /^(\d{2})\/(\d{2})\/(\d{4})(?=$|[T ])/;

/**
 * A snake_case name in camelCase (`reservation_id` → `reservationId`).
 *
 * @example
 * ```ts
 * import { camelCase } from "./perturb.ts";
 * camelCase("scheduled_departure_time_est"); // "scheduledDepartureTimeEst"
 * ```
 */
export function camelCase(name: string): string {
  return name.replace(/_+([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/**
 * The renamed columns of a world: every column of its tables whose name has more than one
 * word, in camelCase with a final "number", "amount" or "quantity" abbreviated
 * (`flight_number` → `flightNo`). A rename that would clash with another column is left out.
 *
 * @example
 * ```ts
 * import { Store } from "../../envs/mod.ts";
 * import { columnRenames } from "./perturb.ts";
 * using db = Store.open("CREATE TABLE f (flight_number TEXT PRIMARY KEY, price INTEGER)");
 * columnRenames(db); // { flight_number: "flightNo" }
 * ```
 */
export function columnRenames(db: Store): Record<string, string> {
  const tables = db.all<{ name: string }>(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
  );
  const names = new Set(tables.flatMap((t) => db.columns(t.name).map((c) => c.name)));
  const out: Record<string, string> = {};
  for (const name of [...names].sort()) {
    if (!/^[a-z][a-z0-9]*(_[a-z0-9]+)+$/.test(name)) continue;
    const renamed = camelCase(name).replace(/(Number|Amount|Quantity)$/, (w) => ABBREVIATIONS[w]);
    if (!names.has(renamed)) out[name] = renamed;
  }
  return out;
}

/** What `envCondition()` takes. */
export interface EnvOptions {
  preset: EnvPreset;
  /** The domain's tools, as the world knows them. */
  tools: readonly Tool[];
  /** The world's renamed columns (`columnRenames()`); used by the `columns` perturbation. */
  columns: Record<string, string>;
  /** The episode's seed: the order of reordered keys. */
  seed: string;
}

/** The `env` condition of one episode: perturbed tools, their hints, and a translating dispatcher. */
export interface EnvCondition extends EpisodeCondition {
  tools: readonly Tool[];
  hints: { perturbation: PerturbationHints & Record<string, Json> };
}

/**
 * The `env` condition of a preset for one episode.
 *
 * @example
 * ```ts ignore
 * const condition = envCondition({ preset: "high", tools: domain.tools, columns: columnRenames(world.store), seed });
 * await runEpisode(world, { task, agent, user, rng, condition });
 * ```
 */
export function envCondition(options: EnvOptions): EnvCondition {
  if (!ENV_PRESET_NAMES.includes(options.preset)) {
    throw new RangeError(`Unknown env preset "${options.preset}": expected one of "low", "medium", "high"`);
  }
  const on = new Set(ENV_PRESETS[options.preset]);
  const schemas = options.tools.map(parametersOf);
  const names = on.has("names") ? parameterRenames(schemas) : {};
  const hints: PerturbationHints = {
    names,
    dates: on.has("dates") ? "MM/DD/YYYY" : null,
    wrapped: on.has("wrap"),
    numbers: on.has("numbers") ? "formatted" : null,
    columns: on.has("columns") ? { ...options.columns } : {},
    reordered: on.has("reorder"),
  };
  const codec = new Codec(hints, options.seed);
  const tools = options.tools.map((tool, i): Tool => ({
    ...tool,
    description: codec.text(tool.description),
    parameters: codec.schema(schemas[i]) as Record<string, unknown>,
  }));
  return {
    tools,
    hints: { perturbation: hints as PerturbationHints & Record<string, Json> },
    dispatch(call, next) {
      const decoded = codec.args(call.args);
      if ("error" in decoded) {
        const message = `Invalid arguments for "${call.name}": ${decoded.error}`;
        return { name: call.name, args: call.args, ok: false, error: { code: "invalid_args", message } };
      }
      const r = next(call.name, decoded.args);
      if (!r.ok) {
        return { ...r, args: call.args, error: { code: r.error!.code, message: codec.text(r.error!.message) } };
      }
      return { ...r, args: call.args, result: codec.result(r.result ?? null) };
    },
  };
}

const PARAMETERS = new WeakMap<Tool, Record<string, unknown>>();

// A tool's JSON Schema, derived once per tool (read only: the codec copies what it changes).
function parametersOf(tool: Tool): Record<string, unknown> {
  let schema = PARAMETERS.get(tool);
  if (schema === undefined) PARAMETERS.set(tool, schema = toolParameters(tool));
  return schema;
}

// Every property name of the tools' schemas, at any depth, that camelCase changes.
function parameterRenames(schemas: readonly unknown[]): Record<string, string> {
  const found = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (node === null || typeof node !== "object") return;
    for (const [k, v] of Object.entries(node)) {
      if (k === "properties" && v !== null && typeof v === "object") Object.keys(v).forEach((p) => found.add(p));
      walk(v);
    }
  };
  schemas.forEach(walk);
  const out: Record<string, string> = {};
  for (const name of [...found].sort()) {
    const renamed = camelCase(name);
    if (renamed !== name && !found.has(renamed)) out[name] = renamed;
  }
  return out;
}

/** The world side of a perturbation: arguments back to canonical, results and schemas perturbed. */
class Codec {
  readonly #hints: PerturbationHints;
  readonly #seed: string;
  readonly #shownToCanonical: Map<string, string>;
  readonly #rank = new Map<string, string>();

  constructor(hints: PerturbationHints, seed: string) {
    this.#hints = hints;
    this.#seed = seed;
    this.#shownToCanonical = new Map(Object.entries(hints.names).map(([c, s]) => [s, c]));
  }

  /** Keys in the episode's order: the same key always ranks the same. */
  #order(keys: string[]): string[] {
    if (!this.#hints.reordered) return keys;
    const rank = (k: string) => {
      let r = this.#rank.get(k);
      if (r === undefined) this.#rank.set(k, r = deriveSeed(this.#seed, "key", k));
      return r;
    };
    return [...keys].sort((a, b) => rank(a) < rank(b) ? -1 : rank(a) > rank(b) ? 1 : 0);
  }

  #date(s: string): string {
    return this.#hints.dates === null ? s : s.replace(ISO_DATE, "$2/$3/$1");
  }

  /** Free text (descriptions, error messages): parameter names and dates as shown. */
  text(s: string): string {
    let out = s;
    for (const [canonical, shown] of Object.entries(this.#hints.names)) {
      out = out.replace(new RegExp(`\\b${canonical}\\b`, "g"), shown);
    }
    if (this.#hints.dates !== null) {
      out = out.replaceAll("YYYY-MM-DD", "MM/DD/YYYY").replace(
        /\b(\d{4})-(\d{2})-(\d{2})\b/g,
        "$2/$3/$1",
      );
    }
    return out;
  }

  /** A JSON Schema with renamed properties, reordered keys, and descriptions in the shown formats. */
  schema(node: unknown): unknown {
    if (Array.isArray(node)) return node.map((n) => this.schema(n));
    if (node === null || typeof node !== "object") return node;
    const src = node as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(src)) {
      if (k === "properties" && v !== null && typeof v === "object") {
        const props = v as Record<string, unknown>;
        const renamed = Object.keys(props).map((p) => [this.#hints.names[p] ?? p, p] as const);
        const order = this.#order(renamed.map(([shown]) => shown));
        const byShown = new Map(renamed);
        out[k] = Object.fromEntries(order.map((shown) => [shown, this.schema(props[byShown.get(shown)!])]));
      } else if (k === "required" && Array.isArray(v)) {
        out[k] = v.map((p) => typeof p === "string" ? this.#hints.names[p] ?? p : p);
      } else if (k === "description" && typeof v === "string") {
        out[k] = this.text(v);
      } else if (k === "format" && v === "date" && this.#hints.dates !== null) {
        out.pattern = "^\\d{2}/\\d{2}/\\d{4}$";
      } else {
        out[k] = this.schema(v);
      }
    }
    return out;
  }

  /** Arguments as the agent gave them, back in canonical names and formats; canonical names are refused. */
  args(args: unknown): { args: unknown } | { error: string } {
    const errors: string[] = [];
    const walk = (v: unknown, path: string): unknown => {
      if (Array.isArray(v)) return v.map((x, i) => walk(x, `${path}[${i}]`));
      if (v !== null && typeof v === "object") {
        const out: Record<string, unknown> = {};
        for (const [k, x] of Object.entries(v)) {
          const at = path ? `${path}.${k}` : k;
          if (this.#hints.names[k] !== undefined) {
            errors.push(`"${at}": unknown field, expected "${this.#hints.names[k]}"`);
          }
          out[this.#shownToCanonical.get(k) ?? k] = walk(x, at);
        }
        return out;
      }
      if (typeof v === "string" && this.#hints.dates !== null) {
        if (ISO_DATE.test(v)) errors.push(`"${path}": expected a date as MM/DD/YYYY, got "${v}"`);
        return v.replace(US_DATE, "$3-$1-$2");
      }
      return v;
    };
    const canonical = walk(args, "");
    return errors.length > 0 ? { error: errors.join("; ") } : { args: canonical };
  }

  /** A world's result as shown: numbers formatted, dates reformatted, columns renamed, keys reordered, wrapped. */
  result(result: Json): Json {
    const { numbers, columns } = this.#hints;
    const walk = (v: Json): Json => {
      if (Array.isArray(v)) return v.map(walk);
      if (v !== null && typeof v === "object") {
        const entries = Object.entries(v).map(([k, x]) => [this.#date(columns[k] ?? k), walk(x)] as const);
        const byKey = new Map(entries);
        return Object.fromEntries(this.#order(entries.map(([k]) => k)).map((k) => [k, byKey.get(k)!]));
      }
      if (typeof v === "number") {
        return numbers === null || !Number.isFinite(v) || /e/i.test(String(v)) ? v : formatNumber(v);
      }
      if (typeof v === "string") return this.#date(v);
      return v;
    };
    const shown = walk(result);
    return this.#hints.wrapped ? { status: "ok", data: shown } : shown;
  }
}

/**
 * A number with thousands separators, its fraction as JavaScript writes it (`1234.5` → `"1,234.5"`);
 * a number JavaScript writes with an exponent is written as JavaScript writes it.
 *
 * @example
 * ```ts
 * import { formatNumber } from "./perturb.ts";
 * formatNumber(-1234567.25); // "-1,234,567.25"
 * ```
 */
export function formatNumber(n: number): string {
  const text = String(n);
  if (!/^-?\d+(\.\d+)?$/.test(text)) return text;
  const [whole, fraction] = text.split(".");
  const sign = whole.startsWith("-") ? "-" : "";
  const digits = sign ? whole.slice(1) : whole;
  const grouped = digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${sign}${grouped}${fraction === undefined ? "" : `.${fraction}`}`;
}
