// Shared by the HTTP clients: one POST of JSON with a per-attempt timeout, retries with
// seeded exponential backoff honouring Retry-After, and failures sorted into ModelError codes.
import { canonicalJson, type Rng } from "../../envs/mod.ts";
import { limiterFor } from "./limiter.ts";
import { fetchFailure, type Resilience, resolveResilience } from "./resilience.ts";
import { DEFAULT_PRICES, priceFor, type PriceLookup } from "./prices.ts";
import { type ClientOptions, ModelError, type ModelErrorCode } from "./types.ts";

export const BACKOFF_BASE_MS = 500;
export const BACKOFF_CAP_MS = 30_000;
// A server asking for longer than this is waited for this long, then asked again.
export const RETRY_AFTER_CAP_MS = 120_000;

/** What both HTTP clients derive from their options before the first call. */
export interface ClientSetup {
  model: string;
  baseUrl: string;
  apiKey: string | undefined;
  resilience: Resilience;
  price: PriceLookup;
  /** Names the endpoint in error messages. */
  label: string;
  /** Said with an authentication failure when no key was given. */
  keyHint: string | undefined;
}

/**
 * Checks a client's model and base URL, takes the key (from the environment only for the
 * provider's own endpoint, so a key never goes to another host unasked), and resolves the
 * resilience settings and the price.
 */
export function clientSetup(
  options: ClientOptions & { model?: unknown; baseUrl?: string; apiKey?: string },
  provider: { name: "openai" | "anthropic"; title: string; defaultUrl: string; keyVar: string },
): ClientSetup {
  if (typeof options?.model !== "string" || options.model === "") {
    throw new TypeError(`Invalid ${provider.title} client options: "model" must be a non-empty string`);
  }
  const model = options.model;
  const baseUrl = (options.baseUrl ?? provider.defaultUrl).replace(/\/+$/, "");
  if (!URL.canParse(baseUrl)) throw new TypeError(`Invalid baseUrl "${baseUrl}": expected an http(s) URL`);
  const apiKey = options.apiKey ?? (baseUrl === provider.defaultUrl ? envKey(provider.keyVar) : undefined);
  const host = new URL(provider.defaultUrl).host;
  return {
    model,
    baseUrl,
    apiKey,
    resilience: resolveResilience({ ...options, limiter: options.limiter ?? limiterFor(baseUrl) }),
    price: priceFor(provider.name, model, { prices: { ...DEFAULT_PRICES, ...options.prices } }),
    label: `${provider.title} endpoint "${baseUrl}"`,
    keyHint: apiKey ? undefined : `no API key was given (pass apiKey, or set ${provider.keyVar} for ${host})`,
  };
}

/** An API key from the environment, when reading it is allowed; never prompts. */
export function envKey(name: string): string | undefined {
  const state = Deno.permissions.querySync({ name: "env", variable: name }).state;
  return state === "granted" ? Deno.env.get(name) || undefined : undefined;
}

/** Thrown by a response parser when the body is not what the protocol promises. */
export class Malformed extends Error {}

/** Fails the parse of a response: `detail` says what was missing. */
export function malformed(detail: string): never {
  throw new Malformed(detail);
}

/** One JSON POST to a model endpoint. */
export interface Call<T> {
  /** Names the endpoint in messages, e.g. `OpenAI-compatible endpoint "http://…/v1"`. */
  label: string;
  model: string;
  url: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
  /** Whether an API key was sent: a 401 without one says how to give one. */
  keyHint?: string;
  parse(json: unknown): T;
}

/**
 * A parsed answer with the latency of its attempt, the failed attempts before it, and the
 * milliseconds from the first attempt's start to the answering attempt's start (the failed
 * attempts, the backoff waits and any queueing for a retry): time the network took, not the model.
 */
export interface Answer<T> {
  value: T;
  latencyMs: number;
  retries: number;
  retryWaitMs: number;
}

interface Failure {
  code: ModelErrorCode;
  retryable: boolean;
  detail: string;
  status?: number;
  retryAfterMs?: number;
}

type Sent<T> = { ok: true; value: T; latencyMs: number } | { ok: false; failure: Failure };
/** An attempt's outcome and when it was sent (`Resilience.now`). */
type Outcome<T> = Sent<T> & { start: number };

/** Posts `call.body` until it succeeds, a failure is final, or the retries are spent. */
export async function postJson<T>(call: Call<T>, options: Resilience & { signal?: AbortSignal }): Promise<Answer<T>> {
  // Jitter depends only on the request, never on the order in which concurrent calls ran.
  const rng = options.rng.child(call.label, call.model, canonicalJson(call.body));
  const payload = JSON.stringify(call.body);
  let failed = 0;
  let malformedSeen = 0;
  let first: number | undefined;
  for (;;) {
    const attempt = () => attemptOnce(call, payload, options);
    const outcome = options.limiter ? await options.limiter.run(attempt) : await attempt();
    first ??= outcome.start;
    if (outcome.ok) {
      const retryWaitMs = Math.max(0, Math.round(outcome.start - first));
      return { value: outcome.value, latencyMs: outcome.latencyMs, retries: failed, retryWaitMs };
    }
    const { failure } = outcome;
    if (failure.code === "malformed") malformedSeen++;
    if (!failure.retryable || failed >= options.retries || malformedSeen > 1) {
      throw new ModelError(failure.code, describe(call, failure, failed + 1));
    }
    failed++;
    await options.sleep(Math.max(backoffMs(failed - 1, rng), failure.retryAfterMs ?? 0));
    options.signal?.throwIfAborted();
  }
}

/** Exponential backoff before retry `n` (from 0): 500 ms × 2ⁿ capped at 30 s, plus up to 500 ms of seeded jitter. */
export function backoffMs(n: number, rng: Rng): number {
  return Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** n) + Math.floor(rng.next() * BACKOFF_BASE_MS);
}

/**
 * Milliseconds a `Retry-After` header asks for: delay-seconds or an HTTP date,
 * the latter measured from the response's own `Date` header when it has one.
 */
export function parseRetryAfter(headers: Headers): number | undefined {
  const ms = Number(headers.get("retry-after-ms") ?? NaN);
  if (Number.isFinite(ms) && ms >= 0) return Math.min(ms, RETRY_AFTER_CAP_MS);
  const value = headers.get("retry-after")?.trim();
  if (!value) return undefined;
  let wait: number;
  if (/^\d+(\.\d+)?$/.test(value)) wait = Number(value) * 1000;
  else {
    const at = Date.parse(value);
    if (Number.isNaN(at)) return undefined;
    // The wait is wall-clock by nature and never reaches a record.
    const serverNow = Date.parse(headers.get("date") ?? "");
    wait = at - (Number.isNaN(serverNow) ? Date.now() : serverNow);
  }
  return Math.min(Math.max(0, wait), RETRY_AFTER_CAP_MS);
}

async function attemptOnce<T>(
  call: Call<T>,
  payload: string,
  options: Resilience & { signal?: AbortSignal },
): Promise<Outcome<T>> {
  options.signal?.throwIfAborted();
  const start = options.now();
  return { ...await send(call, payload, options, start), start };
}

async function send<T>(
  call: Call<T>,
  payload: string,
  options: Resilience & { signal?: AbortSignal },
  start: number,
): Promise<Sent<T>> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  let response: Response;
  let text: string;
  try {
    response = await fetch(call.url, {
      method: "POST",
      headers: { "content-type": "application/json", ...call.headers },
      body: payload,
      signal,
    });
    text = await response.text();
  } catch (err) {
    if (options.signal?.aborted) throw options.signal.reason;
    if (timeout.aborted) {
      return fail("timeout", true, `no answer within ${options.timeoutMs} ms`);
    }
    return fail("unreachable", true, connectionDetail(err, options.timeoutMs));
  }
  const latencyMs = Math.round(options.now() - start);
  const status = response.status;
  if (status === 401 || status === 403) {
    const hint = call.keyHint ? `; ${call.keyHint}` : "";
    return fail("auth", false, `${errorText(text)}${hint}`, status);
  }
  if (status === 429 || status >= 500) {
    const code = status === 429 ? "rate_limited" : "server";
    return {
      ok: false,
      failure: {
        code,
        retryable: true,
        detail: errorText(text),
        status,
        retryAfterMs: parseRetryAfter(response.headers),
      },
    };
  }
  if (status >= 400) return fail("bad_request", false, errorText(text), status);
  if (status < 200 || status >= 300) return fail("malformed", true, `unexpected HTTP ${status}`, status);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return fail("malformed", true, text.trim() === "" ? "empty body" : "the body is not JSON or is truncated");
  }
  try {
    return { ok: true, value: call.parse(json), latencyMs };
  } catch (err) {
    if (err instanceof Malformed) return fail("malformed", true, err.message);
    if (err instanceof ModelError) {
      return fail(err.code, err.code === "rate_limited" || err.code === "server", err.message);
    }
    throw err;
  }
}

function fail<T>(code: ModelErrorCode, retryable: boolean, detail: string, status?: number): Sent<T> {
  return { ok: false, failure: { code, retryable, detail, status } };
}

// One line, at most 200 characters, of the error a server sent back.
function errorText(text: string): string {
  let message = text;
  try {
    const json = JSON.parse(text);
    const error = json?.error;
    message = typeof error === "string" ? error : typeof error?.message === "string" ? error.message : text;
  } catch {
    // not JSON: show it as it came
  }
  const line = message.replace(/\s+/g, " ").trim();
  if (line === "") return "no details given";
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

function connectionDetail(err: unknown, timeoutMs: number): string {
  const { kind, why } = fetchFailure(err, timeoutMs);
  return kind === "other" ? errorText(err instanceof Error ? err.message : String(err)) : why;
}

function describe(call: Call<unknown>, failure: Failure, attempts: number): string {
  const where = `model "${call.model}", ${attempts} attempt${attempts === 1 ? "" : "s"}`;
  const http = failure.status ? `HTTP ${failure.status}, ` : "";
  switch (failure.code) {
    case "unreachable":
      return `${call.label} is unreachable (${where}): ${failure.detail}`;
    case "timeout":
      return `${call.label} timed out (${where}): ${failure.detail}`;
    case "rate_limited":
      return `${call.label} is still rate limiting (${http}${where}): ${failure.detail}`;
    case "server":
      return `${call.label} failed with a server error (${http}${where}): ${failure.detail}`;
    case "auth":
      return `${call.label} refused the credentials (${http}${where}): ${failure.detail}`;
    case "bad_request":
      return `${call.label} rejected the request (${http}${where}): ${failure.detail}`;
    default:
      return `${call.label} sent a malformed response (${http}${where}): ${failure.detail}`;
  }
}
