/**
 * The language-model agent: a tool-calling loop over any `ModelClient`, with the
 * model's own confidence asked for at the end.
 *
 * @module
 */
import { toolParameters } from "../envs/mod.ts";
import type {
  Agent,
  AgentAction,
  AgentContext,
  AgentFactory,
  AgentReport,
  Observation,
  ToolResult,
} from "../envs/mod.ts";
import { ModelError } from "./model/types.ts";
import type { ChatMessage, ChatRequest, ChatResponse, ModelClient, ModelTool, ModelToolCall } from "./model/types.ts";
import { UsageMeter } from "./_guard.ts";

/** Options of the language-model agent. */
export interface LlmAgentOptions {
  /**
   * Sampling temperature, passed to the model.
   * @default {undefined} (the provider's default)
   */
  temperature?: number;
  /**
   * Sampling seed, passed to the model (OpenAI-compatible servers only).
   * @default {undefined}
   */
  seed?: number;
  /**
   * Output token limit per call.
   * @default {undefined} (the client's default)
   */
  maxTokens?: number;
  /**
   * Ask the model, once the episode is over, how confident it is that it did the task right.
   * @default {true}
   */
  elicitConfidence?: boolean;
}

/** The question asked at the end of an episode; the reply's first number 0–100 is the confidence. */
export const ELICIT_PROMPT =
  "The conversation is over. How confident are you that the customer's task was completed correctly " +
  "and within the policy? Answer with a single number from 0 to 100 and nothing else.";

/**
 * An agent driven by a language model through tool calling.
 *
 * Transcript rules (valid for both OpenAI and Anthropic):
 * - The model sees text only: a user message's `text` (never its `intent`); a tool result as a
 *   tool message holding the result's JSON text, or `Error: <message>` for a failed call.
 * - A response with tool calls is kept whole as one assistant turn; its calls are returned one
 *   per step in order (text beside them is not said to the user). Each call's result is
 *   appended as its tool message; the model is called again only once every call of that turn
 *   has its result. Arguments that are not JSON are passed on as the raw string (the world
 *   answers `invalid_args`); empty arguments mean `{}`.
 * - A text-only response is a message to the user; an empty response ends the episode; a
 *   `ModelError` ends it with `error: "<code>: <message>"`.
 * - Each call carries `runIndex` = the factory's `run`, so K runs are K samples.
 *
 * Confidence: when `elicitConfidence`, `finish()` makes one more call (no tools) with the
 * transcript as text and `ELICIT_PROMPT`; the reply's first number in [0, 100] gives
 * `confidence = n / 100` ("85", "85%", "Confidence: 85/100"; a decimal below 1 without "%" is
 * read as a fraction). Otherwise, or when that fails, the heuristic: 0.1 if the episode ended
 * in an agent error (then no call is made), else 0.5 minus 0.1 per failed tool call, at least 0.1.
 *
 * Resources: `api_calls` counts every model call (failed ones too, the elicitation included),
 * `tokens` input plus output, `cost` the sum, `call_latency` the mean latency of answered calls (ms).
 *
 * @example
 * ```ts
 * import { assertEquals, assertThrows } from "@std/assert";
 * import { FakeModelClient } from "./model/mod.ts";
 * import { llmAgent } from "./llm.ts";
 * const factory = llmAgent(new FakeModelClient([]), { temperature: 0 });
 * assertEquals(factory({ run: 0 } as never).name, "fake:fake-model"); // the client's provider and model
 * assertThrows(() => llmAgent(new FakeModelClient([]), { temperature: -1 }), RangeError, "Invalid temperature -1");
 * ```
 */
export function llmAgent(client: ModelClient, options: LlmAgentOptions = {}): AgentFactory {
  const { temperature, seed, maxTokens } = options;
  if (temperature !== undefined && !(temperature >= 0)) {
    throw new RangeError(`Invalid temperature ${temperature}: expected a number of at least 0`);
  }
  if (maxTokens !== undefined && !(Number.isInteger(maxTokens) && maxTokens > 0)) {
    throw new RangeError(`Invalid maxTokens ${maxTokens}: expected a positive integer`);
  }
  const sampling: Sampling = {};
  if (temperature !== undefined) sampling.temperature = temperature;
  if (seed !== undefined) sampling.seed = seed;
  if (maxTokens !== undefined) sampling.maxTokens = maxTokens;
  const elicit = options.elicitConfidence ?? true;
  return ({ run }) => new LlmAgent(client, sampling, elicit, run ?? 0);
}

/** The system prompt of the agent: the policy, the time, and one action per turn. */
export function agentSystemPrompt(ctx: AgentContext): string {
  return [
    ctx.policy.trim(),
    `The current time is ${ctx.now}.`,
    "Each turn, do exactly one thing: either call one tool, or write one message to the user. " +
    "Never call more than one tool at once.",
  ].join("\n\n");
}

type Sampling = Pick<ChatRequest, "temperature" | "seed" | "maxTokens">;

class LlmAgent implements Agent {
  readonly name: string;
  readonly #client: ModelClient;
  readonly #sampling: Sampling;
  readonly #elicit: boolean;
  readonly #run: number;
  #messages: ChatMessage[] = [];
  #tools: ModelTool[] = [];
  #queue: ModelToolCall[] = [];
  #inFlight: ModelToolCall | null = null;
  #failedCalls = 0;
  #callIds = 0;
  #error: string | null = null;
  #meter = new UsageMeter();

  constructor(client: ModelClient, sampling: Sampling, elicit: boolean, run: number) {
    this.name = `${client.provider}:${client.model}`;
    this.#client = client;
    this.#sampling = sampling;
    this.#elicit = elicit;
    this.#run = run;
  }

  start(ctx: AgentContext): void {
    this.#messages = [{ role: "system", content: agentSystemPrompt(ctx) }];
    this.#tools = ctx.tools.map((t) => ({ name: t.name, description: t.description, parameters: toolParameters(t) }));
    this.#queue = [];
    this.#inFlight = null;
    this.#failedCalls = 0;
    this.#callIds = 0;
    this.#error = null;
    this.#meter = new UsageMeter();
  }

  async step(obs: Observation): Promise<AgentAction> {
    if (obs.tool) this.#toolResult(obs.tool);
    else if (obs.message) this.#messages.push({ role: "user", content: obs.message.text });
    if (this.#queue.length > 0) return this.#nextCall();

    const response = await this.#chat({ messages: [...this.#messages], ...this.#tooling() });
    if (!response) return { type: "end", error: this.#error! };
    const calls = response.toolCalls.map((c) => c.id ? c : { ...c, id: `call_${++this.#callIds}` });
    this.#messages.push(
      calls.length > 0
        ? { role: "assistant", content: response.content, toolCalls: calls }
        : { role: "assistant", content: response.content },
    );
    if (calls.length > 0) {
      this.#queue = [...calls];
      return this.#nextCall();
    }
    const text = response.content?.trim() ?? "";
    return text ? { type: "message", text } : { type: "end" };
  }

  async finish(): Promise<AgentReport> {
    this.#closeOpenCalls();
    let confidence: number | null = null;
    if (this.#elicit && this.#error === null) {
      const transcript = renderTranscript(this.#messages.slice(1));
      const response = await this.#chat({
        messages: [this.#messages[0], { role: "user", content: `${transcript}\n\n${ELICIT_PROMPT}` }],
      }, false);
      confidence = response ? parseConfidence(response.content ?? "") : null;
    }
    const report: AgentReport = {
      confidence: confidence ?? (this.#error !== null ? 0.1 : Math.max(0.1, (5 - this.#failedCalls) / 10)),
      confidenceSource: confidence === null ? "heuristic" : "elicited",
      resources: this.#meter.resources(),
      retries: this.#meter.retries(),
    };
    if (this.#error !== null) report.error = this.#error;
    return report;
  }

  #tooling(): Pick<ChatRequest, "tools"> {
    return this.#tools.length > 0 ? { tools: this.#tools } : {};
  }

  /** One model call; a `ModelError` is recorded (as the episode's error when `fatal`) and gives `null`. */
  async #chat(request: ChatRequest, fatal = true): Promise<ChatResponse | null> {
    try {
      const response = await this.#client.chat({ ...request, ...this.#sampling }, { runIndex: this.#run });
      this.#meter.record(response);
      return response;
    } catch (err) {
      if (!(err instanceof ModelError)) throw err;
      this.#meter.record(null);
      if (fatal) this.#error = `${err.code}: ${err.message}`;
      return null;
    }
  }

  #nextCall(): AgentAction {
    const call = this.#queue.shift()!;
    this.#inFlight = call;
    return { type: "tool", name: call.name, args: parseArguments(call.arguments) };
  }

  #toolResult(result: ToolResult): void {
    const call = this.#inFlight;
    // A result the agent did not ask for cannot be placed in the transcript.
    if (!call) return;
    this.#inFlight = null;
    if (!result.ok) this.#failedCalls++;
    const content = result.ok ? JSON.stringify(result.result ?? null) : `Error: ${result.error?.message ?? "failed"}`;
    this.#messages.push({ role: "tool", toolCallId: call.id, name: call.name, content });
  }

  // The episode can end right after a tool call (a hand-over, the step limit): every call of the
  // last assistant turn still gets a result, so the transcript stays valid.
  #closeOpenCalls(): void {
    const open = [...(this.#inFlight ? [this.#inFlight] : []), ...this.#queue];
    for (const call of open) {
      const content = call === this.#inFlight
        ? "The conversation ended after this call."
        : "Not run: the conversation ended.";
      this.#messages.push({ role: "tool", toolCallId: call.id, name: call.name, content });
    }
    this.#inFlight = null;
    this.#queue = [];
  }
}

/** A tool call's arguments: parsed JSON, `{}` when empty, or the raw text when not JSON. */
export function parseArguments(text: string): unknown {
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * The confidence in a model's answer: its first number, read as a percentage when in [0, 100].
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { parseConfidence } from "./llm.ts";
 * assertEquals(parseConfidence("Confidence: 85/100"), 0.85);
 * ```
 */
export function parseConfidence(text: string): number | null {
  const m = text.match(/-?\d+(?:\.\d+)?(\s*%)?/);
  if (!m) return null;
  const n = Number(m[0].replace("%", ""));
  if (!(n >= 0 && n <= 100)) return null;
  if (!m[1] && m[0].includes(".") && n <= 1) return n;
  return n / 100;
}

// The transcript as plain text: a request holding tool calls must offer tools on Anthropic,
// and the elicitation offers none.
function renderTranscript(messages: readonly ChatMessage[]): string {
  const lines = messages.map((m) => {
    switch (m.role) {
      case "user":
        return `User: ${m.content}`;
      case "assistant": {
        const calls = (m.toolCalls ?? []).map((c) => `Agent called tool ${c.name}(${c.arguments})`);
        return [...(m.content?.trim() ? [`Agent: ${m.content.trim()}`] : []), ...calls].join("\n");
      }
      case "tool":
        return `Tool ${m.name} returned: ${m.content}`;
      default:
        return `System: ${m.content}`;
    }
  });
  return `Here is the conversation you just had:\n\n${lines.filter((l) => l).join("\n")}`;
}
