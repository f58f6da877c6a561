/**
 * An agent whose every decision comes from an HTTP server, so an agent written in any language
 * can be measured by `deno task eval --agents http://HOST/PATH`. The protocol (also in
 * docs/remote_agents.md) is one URL taking JSON `POST`s; each body names its episode:
 *
 * - `{"type":"start","episode":ID,"domain","policy","tools":[{"type":"function","function":
 *   {"name","description","parameters"}}],"now","hints"}` → `200 {}`;
 * - `{"type":"step","episode":ID,"observation":{"step","message"?:{"role","text"},"tool"?:
 *   {"name","arguments","ok","result"?,"error"?:{"code","message"}}}}` → `200` with the action:
 *   `{"type":"tool","name","arguments":{…}}`, `{"type":"message","text"}` or
 *   `{"type":"end","confidence"?}`;
 * - `{"type":"finish","episode":ID}` → `200 {"confidence"?}` (in [0, 1]), once the episode is over;
 * - `{"type":"ping"}` → any HTTP answer: the check made before a run (`eval/preflight.ts`).
 *
 * The episode id is derived from the task, the run and the episode's generator, so a rerun sends
 * the same ids. Observations carry text only, as a language model sees them (no scripted intents).
 * A malformed answer, an HTTP error or a time-out (after bounded retries with backoff, for time-outs,
 * 429 and 5xx) ends the episode with an agent error; a server that cannot be reached at all (its
 * connection refused, its host unknown) stops the run with a `ModelError` of code `"unreachable"`,
 * as an unreachable model endpoint does.
 *
 * @module
 */
import { z } from "zod";
import { type AgentFactory, type Json, type Observation, toolSchema } from "../envs/mod.ts";
import type { Agent, AgentAction, AgentContext, AgentReport } from "../envs/mod.ts";
import { fetchFailure, type Resilience, resolveResilience } from "./model/resilience.ts";
import { ModelError } from "./model/mod.ts";

/** Options of `remoteAgent()`. */
export interface RemoteAgentOptions {
  /**
   * Milliseconds the server has to answer one request before it is abandoned and retried.
   * @default {30000}
   */
  timeoutMs?: number;
  /**
   * Retries of a request after a time-out, a 429 or a 5xx answer, or a lost connection.
   * @default {2}
   */
  retries?: number;
  /**
   * Waits between attempts (250 ms × 2ⁿ before retry n, from 0); tests pass a fake.
   * @default {a timer}
   */
  sleep?: (ms: number) => Promise<void>;
}

/** The resolved `RemoteAgentOptions`. */
type Resolved = Pick<Resilience, "timeoutMs" | "retries" | "sleep">;

const BACKOFF_MS = 250;

/**
 * Whether an agent spec names a remote agent: it starts with `http://` or `https://`.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { isRemoteSpec } from "./remote.ts";
 * assertEquals([isRemoteSpec("http://127.0.0.1:8765/agent"), isRemoteSpec("oracle")], [true, false]);
 * ```
 */
export function isRemoteSpec(spec: string): boolean {
  return /^https?:\/\//i.test(spec);
}

const ACTION = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("tool"),
    name: z.string().min(1),
    arguments: z.record(z.string(), z.json()).default({}),
  }),
  z.object({ type: z.literal("message"), text: z.string() }),
  z.object({ type: z.literal("end"), confidence: z.number().min(0).max(1).optional() }),
], { error: 'expected "type" to be "tool", "message" or "end"' });

const STARTED = z.looseObject({});
const FINISHED = z.looseObject({ confidence: z.number().min(0).max(1).optional() });

/**
 * An agent factory whose agents ask the server at `url` for every decision (see the module doc
 * for the protocol). The agent is named by its URL. A bad URL is a `TypeError`, bad options a
 * `RangeError`.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { remoteAgent } from "./remote.ts";
 * assertEquals(typeof remoteAgent("http://127.0.0.1:8765/agent", { timeoutMs: 5000 }), "function");
 * ```
 */
export function remoteAgent(url: string, options: RemoteAgentOptions = {}): AgentFactory {
  if (!isRemoteSpec(url) || !URL.canParse(url)) {
    throw new TypeError(`Invalid agent URL "${url}": expected an http:// or https:// URL`);
  }
  const resolved = resolveOptions(options);
  return ({ rng, task, run = 0 }) => {
    const tag = rng.child("remote-episode").int(0, 0xffffffff).toString(16).padStart(8, "0");
    return new RemoteAgent(url, { episode: `${task.id}#${run}-${tag}`, where: `${task.id} run ${run}`, ...resolved });
  };
}

function resolveOptions(options: RemoteAgentOptions): Resolved {
  const { timeoutMs, retries, sleep } = resolveResilience(options, { timeoutMs: 30_000, retries: 2 });
  return { timeoutMs, retries, sleep };
}

/** Why a request gave no usable answer; `fatal` when the server cannot be reached at all. */
class Failed extends Error {
  constructor(message: string, readonly fatal = false) {
    super(message);
  }
}

class RemoteAgent implements Agent {
  readonly name: string;
  readonly #url: string;
  readonly #episode: string;
  readonly #where: string;
  readonly #options: Resolved;
  #retries = 0;
  #error: string | null = null;
  #confidence: number | undefined;

  constructor(url: string, options: Resolved & { episode: string; where: string }) {
    this.name = url;
    this.#url = url;
    this.#episode = options.episode;
    this.#where = options.where;
    this.#options = options;
  }

  async start(ctx: AgentContext): Promise<void> {
    this.#retries = 0;
    this.#error = null;
    this.#confidence = undefined;
    const tools = ctx.tools.map((t) => toolSchema(t, "openai"));
    const body = { domain: ctx.domain, policy: ctx.policy, tools, now: ctx.now, hints: ctx.hints ?? {} };
    await this.#ask("start", body, STARTED);
  }

  async step(obs: Observation): Promise<AgentAction> {
    if (this.#error !== null) return { type: "end", error: this.#error };
    const action = await this.#ask("step", { observation: observationJson(obs) }, ACTION, ` at step ${obs.step}`);
    if (action === null) return { type: "end", error: this.#error! };
    if (action.type === "tool") return { type: "tool", name: action.name, args: action.arguments };
    if (action.type === "message") return { type: "message", text: action.text };
    this.#confidence = action.confidence;
    return action.confidence === undefined ? { type: "end" } : { type: "end", confidence: action.confidence };
  }

  async finish(): Promise<AgentReport> {
    // Sent even after a failure, so the server can drop the episode's state.
    const answer = await this.#ask("finish", {}, FINISHED);
    const confidence = answer?.confidence ?? this.#confidence;
    const report: AgentReport = { retries: this.#retries };
    if (confidence !== undefined) Object.assign(report, { confidence, confidenceSource: "stated" });
    if (this.#error !== null) report.error = this.#error;
    return report;
  }

  /** One exchange; an unusable answer becomes the episode's error and gives `null`. */
  async #ask<T>(type: string, fields: object, schema: z.ZodType<T>, at = ""): Promise<T | null> {
    const body = JSON.stringify({ type, episode: this.#episode, ...fields });
    try {
      const json = await this.#post(body);
      const parsed = schema.safeParse(json);
      if (!parsed.success) throw new Failed(`gave a malformed answer to "${type}"${at}: ${issueText(parsed.error)}`);
      return parsed.data;
    } catch (err) {
      if (!(err instanceof Failed)) throw err;
      if (err.fatal) {
        throw new ModelError(
          "unreachable",
          `Cannot reach agent server "${this.#url}" on ${this.#where}: ${err.message}`,
        );
      }
      this.#error ??= `Agent server "${this.#url}" ${err.message}`;
      return null;
    }
  }

  /** POSTs `body` until a 2xx answer with JSON, retrying time-outs, 429, 5xx and lost connections. */
  async #post(body: string): Promise<unknown> {
    const { timeoutMs, retries, sleep } = this.#options;
    for (let attempt = 0;; attempt++) {
      const outcome = await attemptOnce(this.#url, body, timeoutMs);
      if (outcome.ok) return outcome.json;
      if (!outcome.retryable || attempt >= retries) {
        const tries = attempt === 0 ? "" : ` (after ${attempt + 1} attempts)`;
        throw new Failed(`${outcome.why}${tries}`, outcome.unreachable);
      }
      this.#retries++;
      await sleep(BACKOFF_MS * 2 ** attempt);
    }
  }
}

type Outcome = { ok: true; json: unknown } | { ok: false; why: string; retryable: boolean; unreachable: boolean };

async function attemptOnce(url: string, body: string, timeoutMs: number): Promise<Outcome> {
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
      signal: AbortSignal.timeout(timeoutMs),
    });
    text = await response.text();
  } catch (err) {
    return failure(err, timeoutMs);
  }
  if (!response.ok) {
    const retryable = response.status === 429 || response.status >= 500;
    return { ok: false, why: `answered HTTP ${response.status}`, retryable, unreachable: false };
  }
  try {
    return { ok: true, json: JSON.parse(text) };
  } catch {
    return { ok: false, why: "answered with a body that is not JSON", retryable: false, unreachable: false };
  }
}

// A time-out is the server's slowness (the episode's error); a refused connection or an unknown
// host means there is no server (the run's error); a reset is retried, then the episode's.
function failure(err: unknown, timeoutMs: number): Outcome {
  const { kind, why } = fetchFailure(err, timeoutMs);
  switch (kind) {
    case "timeout":
      return { ok: false, why: `gave ${why}`, retryable: true, unreachable: false };
    case "not_allowed":
    case "host_not_found":
      return { ok: false, why, retryable: false, unreachable: true };
    case "refused":
      return { ok: false, why, retryable: true, unreachable: true };
    default:
      return { ok: false, why: `lost the connection: ${why}`, retryable: true, unreachable: false };
  }
}

function issueText(error: z.ZodError): string {
  const issue = error.issues[0];
  const path = issue.path.map(String).join(".");
  return path === "" ? issue.message : `"${path}": ${issue.message}`;
}

// The observation as the protocol sends it: text and tool results, no scripted intents.
function observationJson(obs: Observation): Record<string, Json> {
  const out: Record<string, Json> = { step: obs.step };
  if (obs.message) out.message = { role: obs.message.role, text: obs.message.text };
  if (obs.tool) {
    const { name, args, ok, result, error } = obs.tool;
    const tool: Record<string, Json> = { name, arguments: (args ?? {}) as Json, ok };
    if (ok) tool.result = result ?? null;
    if (error) tool.error = { code: error.code, message: error.message };
    out.tool = tool;
  }
  return out;
}
