/**
 * Checks made before any episode starts: every language model the config names
 * has its API key (unless its endpoint is on this machine) and its endpoint
 * answers, and every agent server it names (`--agents http://…`) answers. A run
 * that cannot work stops here with one line, not after an hour.
 *
 * @module
 */
import { innerSpec, isRemoteSpec, modelSpec } from "../agents/mod.ts";
import { fetchFailure } from "../agents/model/resilience.ts";
import type { ResolvedConfig } from "./config.ts";
import { baseUrlOf, KEY_VARS, modelSpecs } from "./models.ts";

/** Why a run cannot start: a missing API key, or an endpoint that does not answer. */
export class PreflightError extends Error {
  /** What is wrong: `"no_key"`, an API key variable is unset; `"unreachable"`, an endpoint does not answer. */
  readonly code: "no_key" | "unreachable";

  /** Makes an error with a code and a one-line message. */
  constructor(code: PreflightError["code"], message: string) {
    super(message);
    this.name = "PreflightError";
    this.code = code;
  }
}

/** Options of `preflight()`. */
export interface PreflightOptions {
  /**
   * Reads an environment variable (the API keys).
   * @default {no keys}
   */
  env?: (name: string) => string | undefined;
  /**
   * Milliseconds an endpoint has to answer.
   * @default {5000}
   */
  timeoutMs?: number;
}

/**
 * Whether a URL points at this machine (`localhost`, `127.0.0.0/8`, `::1`): such endpoints need no key.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { isLoopback } from "./preflight.ts";
 * assertEquals([isLoopback("http://localhost:11434/v1"), isLoopback("https://api.openai.com/v1")], [true, false]);
 * ```
 */
export function isLoopback(url: string): boolean {
  const host = new URL(url).hostname.toLowerCase();
  return host === "localhost" || host.endsWith(".localhost") || /^127\.\d+\.\d+\.\d+$/.test(host) ||
    host === "[::1]";
}

/**
 * Checks every model the config names: its provider's key is set (`OPENAI_API_KEY`,
 * `ANTHROPIC_API_KEY`) unless its endpoint is a loopback address, then its endpoint gives
 * any HTTP answer to `GET {base}/models` (OpenAI-compatible) or `GET {base}/v1/models`
 * (Anthropic) within the timeout; and every agent server the config's agents name gives any HTTP
 * answer to a `POST` of `{"type":"ping"}`. Throws a `PreflightError` with one line for the first
 * problem. The key is not sent: any answer, even 401, proves the endpoint is there.
 *
 * @example
 * ```ts
 * import { assertRejects } from "@std/assert";
 * import { preflight } from "./preflight.ts";
 * import { resolveConfig } from "./config.ts";
 * // Scripted agents and user: nothing to check, nothing contacted.
 * await preflight(resolveConfig({ domains: ["airline"] }), { env: () => undefined });
 * // A model without its key is refused before any episode starts.
 * await assertRejects(() => preflight(resolveConfig({ domains: ["airline"], agents: ["openai:gpt-4o-mini"] }), { env: () => undefined }));
 * ```
 */
export async function preflight(config: ResolvedConfig, options: PreflightOptions = {}): Promise<void> {
  const specs = modelSpecs(config);
  for (const spec of specs) {
    const { provider } = modelSpec(spec)!;
    const base = baseUrlOf(config, provider);
    if (!isLoopback(base) && !options.env?.(KEY_VARS[provider])) {
      throw new PreflightError("no_key", `Cannot run "${spec}": ${KEY_VARS[provider]} is not set`);
    }
  }
  const endpoints = new Map<string, string>();
  for (const spec of specs) {
    const { provider } = modelSpec(spec)!;
    const base = baseUrlOf(config, provider);
    const url = provider === "anthropic" ? `${base}/v1/models` : `${base}/models`;
    if (!endpoints.has(url)) endpoints.set(url, spec);
  }
  const timeoutMs = options.timeoutMs ?? 5000;
  const problems = await Promise.all(
    [...endpoints].map(async ([url, spec]) => {
      const why = await unreachable(url, timeoutMs);
      return why === null
        ? null
        : `Cannot reach "${baseUrlOf(config, modelSpec(spec)!.provider)}" for "${spec}": ${why}`;
    }),
  );
  const servers = await Promise.all(
    agentServers(config.agents).map(async (url) => {
      const why = await unreachable(url, timeoutMs, { method: "POST", body: PING, headers: JSON_TYPE });
      return why === null ? null : `Cannot reach agent server "${url}": ${why}`;
    }),
  );
  const first = [...problems, ...servers].find((p) => p !== null);
  if (first) throw new PreflightError("unreachable", first);
}

const PING = JSON.stringify({ type: "ping" });
const JSON_TYPE = { "content-type": "application/json" };

// The URLs of the agent servers among the agents, also behind the checkpoint or the abstention prompt.
function agentServers(agents: readonly string[]): string[] {
  return [...new Set(agents.map(innerSpec).filter(isRemoteSpec))];
}

// Null when the URL gives any HTTP answer, else why not, in a few words.
async function unreachable(url: string, timeoutMs: number, init: RequestInit = {}): Promise<string | null> {
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    await response.body?.cancel();
    return null;
  } catch (err) {
    return fetchFailure(err, timeoutMs).why;
  }
}
