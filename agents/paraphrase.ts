/**
 * Paraphrases of a task's opening request, written by a language model and kept
 * only when they carry every fact of the original.
 *
 * @module
 */
import type { ModelClient } from "./model/types.ts";

/** Options of `generateParaphrases()`. */
export interface ParaphraseOptions {
  /** How many paraphrases to return (a positive integer). */
  count: number;
  /**
   * The run index passed to the model (part of a cache key).
   * @default {0}
   */
  runIndex?: number;
}

/**
 * The tokens of a text that carry facts: words holding a digit (ids, dates, amounts),
 * snake_case identifiers, and codes of three or more capitals (e.g. airports).
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { factTokens } from "./paraphrase.ts";
 * assertEquals(factTokens("Move ZH45RN to 2024-05-16 from DFW, please"), ["ZH45RN", "2024-05-16", "DFW"]);
 * ```
 */
export function factTokens(text: string): string[] {
  const words = text.match(/[A-Za-z0-9_]+(?:-[A-Za-z0-9_]+)*/g) ?? [];
  return words.filter((w) => /\d/.test(w) || w.includes("_") || /^[A-Z][A-Z0-9]{2,}$/.test(w));
}

/** The request sent to the model for `count` paraphrases of `text`. */
export function paraphrasePrompt(text: string, count: number): string {
  return [
    `Write ${count} different paraphrases of the customer message below, each as the same customer might say it.`,
    "Keep every fact exactly as written, character for character: ids, codes, dates, numbers and names. " +
    "Write numbers as digits, as in the message. Do not add any fact.",
    "Write one paraphrase per line, with no numbering, no quotes and nothing else.",
    "",
    `Message: ${text}`,
  ].join("\n");
}

/**
 * Asks a model for `count` paraphrases of an opening request that keep its facts.
 *
 * The reply is read one paraphrase per line (numbering, bullets and quotes removed; lines
 * ending in ":" skipped). A line is kept when it holds every fact token of the original
 * (`factTokens()`, compared exactly) and no new token with a digit; repeats and the original
 * itself are dropped. The first `count` kept are returned, in the model's order.
 *
 * @throws {RangeError} when `count` is not a positive integer.
 * @throws {Error} when fewer than `count` paraphrases pass.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { FakeModelClient } from "./model/mod.ts";
 * import { generateParaphrases } from "./paraphrase.ts";
 * const model = new FakeModelClient([{ content: "1. Please cancel ZH45RN.\n2. Cancel ZH45RN on 2024-05-17\n3. Cancel ZH45RN for me" }]);
 * // The second line adds a date: dropped.
 * assertEquals(await generateParaphrases(model, "I want to cancel ZH45RN", { count: 2 }), ["Please cancel ZH45RN.", "Cancel ZH45RN for me"]);
 * ```
 */
export async function generateParaphrases(
  client: ModelClient,
  text: string,
  options: ParaphraseOptions,
): Promise<string[]> {
  const { count } = options;
  if (!(Number.isInteger(count) && count > 0)) {
    throw new RangeError(`Invalid paraphrase count ${count}: expected a positive integer`);
  }
  if (text.trim() === "") throw new TypeError("Cannot paraphrase an empty text: expected an opening request");
  const response = await client.chat({
    messages: [
      { role: "system", content: "You rewrite customer service requests in other words without changing any fact." },
      { role: "user", content: paraphrasePrompt(text, count) },
    ],
  }, { runIndex: options.runIndex ?? 0 });

  const facts = factTokens(text);
  const known = new Set(facts);
  const seen = new Set([normalize(text)]);
  const kept: string[] = [];
  for (const line of (response.content ?? "").split("\n")) {
    const candidate = cleanLine(line);
    if (candidate === "" || candidate.endsWith(":")) continue;
    const tokens = new Set(factTokens(candidate));
    if (!facts.every((t) => tokens.has(t))) continue;
    if ([...tokens].some((t) => /\d/.test(t) && !known.has(t))) continue;
    const key = normalize(candidate);
    if (seen.has(key)) continue;
    seen.add(key);
    kept.push(candidate);
  }
  if (kept.length < count) {
    throw new Error(
      `Cannot paraphrase "${text}": model "${client.model}" gave ${kept.length} paraphrases that keep every fact, expected ${count}`,
    );
  }
  return kept.slice(0, count);
}

function cleanLine(line: string): string {
  let s = line.trim().replace(/^(?:\(?\d+[.):]|[-*•])\s+/, "").trim();
  const quoted = s.match(/^["“'](.*)["”']$/);
  if (quoted) s = quoted[1].trim();
  return s;
}

function normalize(s: string): string {
  return s.toLowerCase().replace(/\s+/g, " ").trim();
}
