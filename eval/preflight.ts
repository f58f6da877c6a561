/**
 * Checks made before any episode starts: every language model the config names
 * has its API key (unless its endpoint is on this machine) and its endpoint
 * answers. A run that cannot work stops here with one line, not after an hour.
 *
 * @module
 */
import { modelSpec } from "../agents/mod.ts";
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
 * import { isLoopback } from "./preflight.ts";
 * [isLoopback("http://localhost:11434/v1"), isLoopback("https://api.openai.com/v1")]; // [true, false]
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
 * (Anthropic) within the timeout. Throws a `PreflightError` with one line for the first
 * problem. The key is not sent: any answer, even 401, proves the endpoint is there.
 *
 * @example
 * ```ts ignore
 * import { preflight } from "./preflight.ts";
 * await preflight(config, { env: (name) => Deno.env.get(name) });
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
      return why === null ? null : { spec, base: baseUrlOf(config, modelSpec(spec)!.provider), why };
    }),
  );
  const first = problems.find((p) => p !== null);
  if (first) throw new PreflightError("unreachable", `Cannot reach "${first.base}" for "${first.spec}": ${first.why}`);
}

// Null when the URL gives any HTTP answer, else why not, in a few words.
async function unreachable(url: string, timeoutMs: number): Promise<string | null> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    await response.body?.cancel();
    return null;
  } catch (err) {
    return reason(err, timeoutMs);
  }
}

function reason(err: unknown, timeoutMs: number): string {
  if (err instanceof DOMException && (err.name === "TimeoutError" || err.name === "AbortError")) {
    return `no answer within ${timeoutMs / 1000} s`;
  }
  if (err instanceof Deno.errors.NotCapable || err instanceof Deno.errors.PermissionDenied) {
    return "network access is not allowed (run deno with --allow-net)";
  }
  const text = [err instanceof Error ? err.message : String(err), String((err as Error)?.cause ?? "")].join(" ");
  if (/refused/i.test(text)) return "connection refused";
  if (/dns|lookup|resolve|name or service|no address|not known/i.test(text)) return "host not found";
  if (/certificate|tls|ssl/i.test(text)) return "TLS handshake failed";
  if (/reset/i.test(text)) return "connection reset";
  return text.split("\n")[0].trim();
}
