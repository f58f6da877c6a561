/**
 * What model calls cost: a default price table in dollars per million tokens,
 * look-up by `provider:model` (dated ids match their family), JSON overrides,
 * and the cost formula.
 *
 * @module
 */
import { z } from "zod";
import type { Price, PriceTable, Usage } from "./types.ts";

export type { Price, PriceTable };

/** A price found for a model; `known: false` means none was (the price is then 0). */
export interface PriceLookup extends Price {
  /** Whether the table has a price for the model. */
  known: boolean;
  /** The table key that matched, or `null`. */
  key: string | null;
}

/**
 * DEFAULT prices in dollars per million tokens, copied from the providers' price
 * pages in 2025. They may be out of date: check them and override them with
 * `loadPrices()` before quoting a cost.
 */
export const DEFAULT_PRICES: PriceTable = Object.freeze({
  "openai:gpt-4o": { input: 2.5, output: 10 },
  "openai:gpt-4o-mini": { input: 0.15, output: 0.6 },
  "openai:gpt-4.1": { input: 2, output: 8 },
  "openai:gpt-4.1-mini": { input: 0.4, output: 1.6 },
  "openai:gpt-4.1-nano": { input: 0.1, output: 0.4 },
  "anthropic:claude-3-5-haiku": { input: 0.8, output: 4 },
  "anthropic:claude-3-5-sonnet": { input: 3, output: 15 },
  "anthropic:claude-3-7-sonnet": { input: 3, output: 15 },
  "anthropic:claude-sonnet-4": { input: 3, output: 15 },
  "anthropic:claude-opus-4": { input: 15, output: 75 },
});

// A dated or aliased id of a model family: "-2024-08-06", "-20241022", "-latest".
const DATED_SUFFIX = /^-(\d{4}-\d{2}-\d{2}|\d{8}|latest)$/;

/**
 * The price of `model` at `provider`: an exact key, else the family a dated id
 * belongs to (`gpt-4o-2024-08-06` → `gpt-4o`), else 0 with `known: false`.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { priceFor } from "./prices.ts";
 * assertEquals(priceFor("anthropic", "claude-3-5-haiku-20241022").input, 0.8);
 * assertEquals(priceFor("openai", "llama3.1:8b").known, false);
 * ```
 */
export function priceFor(provider: string, model: string, options: { prices?: PriceTable } = {}): PriceLookup {
  const table = options.prices ?? DEFAULT_PRICES;
  const id = `${provider}:${model}`;
  const exact = Object.hasOwn(table, id) ? table[id] : undefined;
  if (exact) return { input: exact.input, output: exact.output, known: true, key: id };
  for (const [key, price] of Object.entries(table)) {
    if (id.startsWith(key) && DATED_SUFFIX.test(id.slice(key.length))) {
      return { input: price.input, output: price.output, known: true, key };
    }
  }
  return { input: 0, output: 0, known: false, key: null };
}

/**
 * Dollars for a call: `(inputTokens * input + outputTokens * output) / 1e6`, computed exactly that way.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { costOf } from "./prices.ts";
 * assertEquals(costOf({ inputTokens: 1000, outputTokens: 100 }, { input: 2.5, output: 10 }), 0.0035);
 * ```
 */
export function costOf(usage: Usage, price: Price): number {
  return (usage.inputTokens * price.input + usage.outputTokens * price.output) / 1e6;
}

/**
 * Dollars of a call whose model may have no price: `null` when the look-up found none, since
 * `0` would read as free.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { callCost, priceFor } from "./prices.ts";
 * const usage = { inputTokens: 1000, outputTokens: 0 };
 * assertEquals(callCost(usage, priceFor("openai", "gpt-4o")), 0.0025);
 * assertEquals(callCost(usage, priceFor("openai", "llama3.1")), null);
 * ```
 */
export function callCost(usage: Usage, price: PriceLookup): number | null {
  return price.known ? costOf(usage, price) : null;
}

/**
 * A sum of dollars that stays `null` (unknown) once one of its terms is.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { addCost } from "./prices.ts";
 * assertEquals([addCost(0.5, 0.25), addCost(0.5, null), addCost(null, 0.25)], [0.75, null, null]);
 * ```
 */
export function addCost(total: number | null, cost: number | null): number | null {
  return total === null || cost === null ? null : total + cost;
}

const priceSchema = z.strictObject({
  input: z.number().finite().nonnegative(),
  output: z.number().finite().nonnegative(),
});
const fileSchema = z.record(
  z.string().regex(/^[^:\s]+:\S+$/, 'expected a key "provider:model"'),
  priceSchema,
);

/**
 * Reads a JSON price file `{ "openai:my-model": { "input": 0.5, "output": 1.5 } }`
 * and returns it merged over `DEFAULT_PRICES`. Unparsable JSON is a `SyntaxError`,
 * a wrong shape a `TypeError` and a negative price a `RangeError`, each naming the
 * file and the field.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { loadPrices, priceFor } from "./prices.ts";
 * const path = await Deno.makeTempFile({ suffix: ".json" });
 * await Deno.writeTextFile(path, '{ "openai:my-model": { "input": 0.5, "output": 1.5 } }');
 * assertEquals(priceFor("openai", "my-model", { prices: await loadPrices(path) }).output, 1.5);
 * await Deno.remove(path);
 * ```
 */
export async function loadPrices(path: string): Promise<PriceTable> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) {
      throw new Deno.errors.NotFound(`Cannot read price file "${path}": no such file`);
    }
    throw err;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new SyntaxError(`Cannot parse price file "${path}": ${(err as Error).message}`);
  }
  const parsed = fileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue.path.map(String).join(".");
    const where = field ? ` at "${field}"` : "";
    const detail = issue.code === "invalid_key" ? 'a key must be "provider:model"' : issue.message;
    const message = `Invalid price file "${path}"${where}: ${detail}; expected ` +
      '{ "provider:model": { "input": dollars per million tokens, "output": dollars per million tokens } }';
    throw issue.code === "too_small" ? new RangeError(message) : new TypeError(message);
  }
  return Object.freeze({ ...DEFAULT_PRICES, ...parsed.data });
}
