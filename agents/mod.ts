/**
 * Agents under test. The scripted ones (`oracle`, `noisy`, `reckless`, `literal`) have
 * known failure behaviour, so every metric can be checked against ground truth; the sanity
 * baselines (`idle`, `apologist`, `broken`) must fail every task;
 * `adaptSolver` is how they retry after faults and follow a perturbed interface's hints, with
 * the perturbations' encoder and decoder (`encodeArgs`, `decodeResult`, …) beside it;
 * `llmAgent` drives a language model, `llmUser` plays the customer with one, and
 * `generateParaphrases` writes more openings; `remoteAgent` asks an HTTP server for every step.
 *
 * @module
 */
import type { AgentFactory } from "../envs/mod.ts";
import { DEFAULT_RATES, type ErrorRates, literal, noisy, oracle, reckless } from "./scripted.ts";
import { llmAgent } from "./llm.ts";
import { apologist, broken, idle } from "./baselines.ts";
import { checkpoint, CHECKPOINT_LEVELS, type CheckpointLevel } from "./checkpoint.ts";
import { promptOnly } from "./prompt_only.ts";
import type { ModelClient } from "./model/types.ts";
import { isRemoteSpec, remoteAgent } from "./remote.ts";
import { TEXT_MODE, textMode, textModeOf } from "./text_mode.ts";

export { DEFAULT_RATES, type ErrorRates, literal, noisy, type NoisyOptions, oracle, reckless } from "./scripted.ts";
export { apologist, APOLOGY, broken, idle, POLITE_CLOSING } from "./baselines.ts";
export { type AdaptedSolver, type AdaptOptions, adaptSolver } from "./adapt.ts";
export {
  camelCase,
  columnRenames,
  ENV_PRESET_NAMES,
  ENV_PRESETS,
  type EnvPreset,
  type KeyOrder,
  type Perturbation,
  type PerturbationHints,
  perturbationHints,
  presetHints,
  seededKeyOrder,
} from "./perturbation.ts";
export {
  decodeArgs,
  decodeResult,
  encodeArgs,
  type EncodeOptions,
  encodeResult,
  encodeSchema,
  encodeText,
  formatNumber,
} from "./perturbation_codec.ts";
export { llmAgent, type LlmAgentOptions, parseConfidence } from "./llm.ts";
export {
  type Block,
  checkpoint,
  CHECKPOINT_LEVELS,
  CheckpointAgent,
  type CheckpointLevel,
  type CheckpointOptions,
  GAP_LABEL,
} from "./checkpoint.ts";
export { isRemoteSpec, remoteAgent, type RemoteAgentOptions } from "./remote.ts";
export { TEXT_MODE, textMode, textModeOf } from "./text_mode.ts";

/** The prefix of an agent spec that puts the agent behind the checkpoint (`"checkpoint:reckless"`). */
export const CHECKPOINT = "checkpoint:";
export { ABSTENTION_INSTRUCTION, promptOnly } from "./prompt_only.ts";
/**
 * The prefix of an agent spec that adds the abstention instruction to the agent's policy
 * (`"prompt_only:openai:gpt-4o"`), the `prompt_only` condition of abstention experiments.
 */
export const PROMPT_ONLY = "prompt_only:";

// The wrappers an agent spec may put around one agent ("checkpoint:reckless", "checkpoint@strict:reckless"),
// each with the prefixes it takes.
const WRAPPERS = [
  ...CHECKPOINT_LEVELS.map((level) => ({
    prefix: level === "default" ? CHECKPOINT : `checkpoint@${level}:`,
    name: "checkpoint" as const,
    level,
    wrap: (inner: AgentFactory) => checkpoint(inner, { level }),
    example: level === "default" ? "checkpoint:reckless" : `checkpoint@${level}:reckless`,
  })),
  {
    prefix: PROMPT_ONLY,
    name: "prompt_only" as const,
    wrap: promptOnly,
    example: "prompt_only:openai:gpt-4o",
  },
];
/**
 * The checkpoint level of an agent spec or name: `"strict"` for `"checkpoint@strict:AGENT"`,
 * `"default"` for `"checkpoint:AGENT"`, `null` for an agent not behind the checkpoint.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { checkpointLevel } from "./mod.ts";
 * assertEquals([checkpointLevel("checkpoint@lenient:reckless"), checkpointLevel("checkpoint:oracle"), checkpointLevel("oracle")], ["lenient", "default", null]);
 * ```
 */
export function checkpointLevel(spec: string): CheckpointLevel | null {
  const w = outermost(spec);
  return w !== undefined && "level" in w ? w.level : null;
}

// Refuses a "checkpoint@…" spec whose level the checkpoint does not have, or that wraps nothing, in
// one line (before any other reading of the spec takes "checkpoint@x" for a model provider).
function checkLevel(spec: string): void {
  const m = /^checkpoint@([^:]*)(:?)/.exec(spec);
  if (m === null) return;
  const levels = CHECKPOINT_LEVELS.filter((l) => l !== "default");
  const accepted = `expected "checkpoint:AGENT" or ${levels.map((l) => `"checkpoint@${l}:AGENT"`).join(" or ")}`;
  if (!(levels as readonly string[]).includes(m[1])) {
    throw new RangeError(`Invalid agent "${spec}": unknown checkpoint level "${m[1]}"; ${accepted}`);
  }
  if (m[2] === "") throw new RangeError(`Invalid agent "${spec}": no agent behind the checkpoint; ${accepted}`);
}
const outermost = (spec: string) => WRAPPERS.find((w) => spec.startsWith(w.prefix));

/**
 * The agent spec inside every wrapper of a spec (`"checkpoint:AGENT"`, `"prompt_only:AGENT"`): the
 * spec itself when it has none.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { innerSpec } from "./mod.ts";
 * assertEquals(innerSpec("checkpoint:prompt_only:openai:gpt-4o"), "openai:gpt-4o");
 * assertEquals(innerSpec("reckless"), "reckless");
 * ```
 */
export function innerSpec(spec: string): string {
  for (let w = outermost(spec); w !== undefined; w = outermost(spec)) spec = spec.slice(w.prefix.length);
  return spec;
}

/**
 * The outermost wrapper of an agent spec: `"checkpoint"` for `"checkpoint:AGENT"`, `"prompt_only"` for
 * `"prompt_only:AGENT"`, `null` for a spec without one.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { wrapperOf } from "./mod.ts";
 * assertEquals([wrapperOf("checkpoint:prompt_only:oracle"), wrapperOf("prompt_only:oracle"), wrapperOf("oracle")], ["checkpoint", "prompt_only", null]);
 * ```
 */
export function wrapperOf(spec: string): "checkpoint" | "prompt_only" | null {
  return outermost(spec)?.name ?? null;
}

export { llmUser, type LlmUserOptions, STOP_MARKER } from "./llm_user.ts";
export { factTokens, generateParaphrases, type ParaphraseOptions } from "./paraphrase.ts";
export type { ModelClient } from "./model/mod.ts";

/** The scripted agents by name, each a function of its options. */
export const scriptedAgents: Readonly<
  Record<"oracle" | "noisy" | "reckless" | "literal", (options?: object) => AgentFactory>
> = Object.freeze({ oracle, noisy, reckless, literal });

/** The sanity baselines by name: agents that must score 0 on every task (docs/metrics.md "Grading"). */
export const baselineAgents: Readonly<Record<"idle" | "apologist" | "broken", () => AgentFactory>> = Object
  .freeze({ idle, apologist, broken });

/** The language-model providers an agent spec `"provider:model"` may name. */
export const MODEL_PROVIDERS: readonly ("openai" | "anthropic")[] = ["openai", "anthropic"];

/** A language model named by a spec: its provider and the model id the provider knows. */
export interface ModelSpec {
  /** Which API the model is called through: `"openai"` for any OpenAI-compatible endpoint. */
  provider: "openai" | "anthropic";
  /** The model id the provider knows, e.g. `"gpt-4o-mini"` or `"llama3.1:8b"`. */
  model: string;
}

/**
 * The provider and model of a spec `"provider:model"` (split at the first colon, so
 * `"openai:llama3.1:8b"` names the model `"llama3.1:8b"`), or `null` for a name without a
 * colon or for an agent server's URL (`"http://…"`). A model behind the checkpoint
 * (`"checkpoint:openai:gpt-4o"`) is that model. An unknown provider or an empty model is a `RangeError`.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { modelSpec } from "./mod.ts";
 * assertEquals(modelSpec("anthropic:claude-3-5-haiku-latest"), { provider: "anthropic", model: "claude-3-5-haiku-latest" });
 * assertEquals(modelSpec("oracle"), null);
 * ```
 */
export function modelSpec(spec: string): ModelSpec | null {
  checkLevel(spec);
  spec = innerSpec(spec);
  if (isRemoteSpec(spec)) return null;
  const colon = spec.indexOf(":");
  if (colon < 0) return null;
  const provider = spec.slice(0, colon), model = spec.slice(colon + 1);
  if (!(MODEL_PROVIDERS as readonly string[]).includes(provider) || model.trim() === "") {
    const providers = MODEL_PROVIDERS.map((p) => `"${p}"`).join(" or ");
    throw new RangeError(`Unknown model "${spec}": expected "PROVIDER:MODEL" with PROVIDER ${providers}`);
  }
  return { provider: provider as ModelSpec["provider"], model };
}

/** Options of `agentFactory()`; only language-model specs use them. */
export interface AgentFactoryOptions {
  /** The model a `"provider:model"` spec runs on (already wrapped in a cache, if any); required for those. */
  client?: ModelClient;
  /**
   * Sampling temperature.
   * @default {undefined} (the provider's default)
   */
  temperature?: number;
  /**
   * Output token limit per call.
   * @default {undefined} (the client's default)
   */
  maxTokens?: number;
}

/**
 * An agent factory from its spec as given on the command line: a scripted agent's name
 * (`oracle`, `noisy`, `reckless`, `literal`), a sanity baseline's (`idle`, `apologist`, `broken`), `"noisy@Fx"` for `noisy` with every default error rate
 * times F (e.g. `"noisy@2x"` doubles them; see `noisyRateFactor()`), or `"provider:model"`
 * for a language-model agent (`llmAgent`) on `options.client`, or an `http://` or `https://` URL
 * for an agent server (`remoteAgent`, docs/remote_agents.md). Each episode's model calls
 * carry a sampling seed drawn from the episode's generator (honoured by OpenAI-compatible
 * servers). Records name the agent by its spec, so `noisy` and `noisy@2x` stay apart (and
 * `deno task compare --pair noisy=noisy@2x` compares them).
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { agentFactory } from "./mod.ts";
 * import { FakeModelClient } from "./model/mod.ts";
 * assertEquals(typeof agentFactory("oracle"), "function");
 * assertEquals(typeof agentFactory("openai:gpt-4o-mini", { client: new FakeModelClient([]) }), "function");
 * ```
 */
export function agentFactory(spec: string, options: AgentFactoryOptions = {}): AgentFactory {
  checkLevel(spec);
  const wrapper = outermost(spec);
  if (wrapper !== undefined) {
    const { prefix, wrap, example, name } = wrapper;
    const inner = spec.slice(prefix.length);
    if (inner === "" || outermost(inner)?.name === name) {
      throw new RangeError(`Invalid agent "${spec}": expected "${prefix}AGENT" around one agent, e.g. "${example}"`);
    }
    return wrap(agentFactory(inner, options));
  }
  if (isRemoteSpec(spec)) return remoteAgent(spec);
  const inWords = textModeOf(spec);
  if (inWords !== null) {
    if (!isScriptedSpec(inWords)) {
      throw new RangeError(
        `Invalid agent "${spec}": "${TEXT_MODE}" follows a scripted agent or baseline, e.g. "oracle${TEXT_MODE}"`,
      );
    }
    return textMode(agentFactory(inWords, options));
  }
  if (Object.hasOwn(scriptedAgents, spec)) return scriptedAgents[spec as keyof typeof scriptedAgents]();
  if (Object.hasOwn(baselineAgents, spec)) return baselineAgents[spec as keyof typeof baselineAgents]();
  const factor = noisyRateFactor(spec);
  if (factor !== null) return noisy({ rates: scaledRates(factor) });
  if (modelSpec(spec) !== null) {
    const { client, temperature, maxTokens } = options;
    if (client === undefined) throw new TypeError(`Cannot make agent "${spec}": a model client is required`);
    return (episode) => {
      const seed = episode.rng.child("model-seed").int(0, 2 ** 31 - 1);
      return llmAgent(client, { temperature, maxTokens, seed })(episode);
    };
  }
  const known = [...Object.keys(scriptedAgents), ...Object.keys(baselineAgents)].map((n) => `"${n}"`).join(", ");
  throw new RangeError(
    `Unknown agent "${spec}": expected one of ${known}, "noisy@Fx" (e.g. "noisy@2x"), any of them in text mode ("oracle@text"), "PROVIDER:MODEL" for a language model, or an http(s) URL of an agent server`,
  );
}

// Whether a spec names a scripted agent or a baseline (`noisy@Fx` among them), which text mode can wrap.
function isScriptedSpec(spec: string): boolean {
  if (Object.hasOwn(scriptedAgents, spec) || Object.hasOwn(baselineAgents, spec)) return true;
  return spec.startsWith("noisy@") && noisyRateFactor(spec) !== null;
}

/**
 * The factor F of an agent spec `"noisy@Fx"` (`noisy` with every default error rate times F),
 * or `null` for a spec without "@". F is a decimal number above 0, e.g. `"noisy@2x"` or
 * `"noisy@0.5x"`; a malformed factor, or "@" after another agent (only `noisy` has error
 * rates), is a `RangeError`. Rates that then add up to more than 1 are refused by `noisy()`.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { noisyRateFactor } from "./mod.ts";
 * assertEquals(noisyRateFactor("noisy@2x"), 2);
 * assertEquals(noisyRateFactor("noisy"), null);
 * ```
 */
export function noisyRateFactor(spec: string): number | null {
  const at = spec.indexOf("@");
  if (at < 0) return null;
  const name = spec.slice(0, at), factor = /^(\d+\.?\d*|\.\d+)x$/.exec(spec.slice(at + 1));
  if (name !== "noisy" || factor === null || !(Number(factor[1]) > 0)) {
    throw new RangeError(`Invalid agent "${spec}": expected "noisy@Fx" with F a number above 0, e.g. "noisy@2x"`);
  }
  return Number(factor[1]);
}

/** `DEFAULT_RATES` with every rate times `factor`. */
function scaledRates(factor: number): ErrorRates {
  const scaled = Object.entries(DEFAULT_RATES).map(([kind, rate]) => [kind, rate * factor]);
  return Object.fromEntries(scaled) as unknown as ErrorRates;
}
