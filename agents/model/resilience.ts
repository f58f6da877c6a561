/**
 * What every HTTP client of ark shares (the model clients, the remote agent, the preflight): its
 * resilience settings with their defaults, and the sorting of the errors a `fetch` throws.
 *
 * @module
 */
import { Rng } from "../../envs/mod.ts";
import type { ConcurrencyLimiter } from "./limiter.ts";

/** Resilience settings every HTTP client resolves its options into. */
export interface Resilience {
  timeoutMs: number;
  retries: number;
  sleep: (ms: number) => Promise<void>;
  now: () => number;
  rng: Rng;
  limiter: ConcurrencyLimiter | undefined;
}

/**
 * Checks the options shared by the HTTP clients and fills in their defaults: `defaults` gives the
 * time-out and the retries when the options do not (60 s and 4 for the model clients).
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { resolveResilience } from "./resilience.ts";
 * assertEquals(resolveResilience({ retries: 2 }).timeoutMs, 60000);
 * ```
 */
export function resolveResilience(options: {
  timeoutMs?: number;
  retries?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  rng?: Rng;
  limiter?: ConcurrencyLimiter;
}, defaults: { timeoutMs: number; retries: number } = { timeoutMs: 60_000, retries: 4 }): Resilience {
  const timeoutMs = options.timeoutMs ?? defaults.timeoutMs;
  if (!(Number.isFinite(timeoutMs) && timeoutMs > 0)) {
    throw new RangeError(`Invalid timeoutMs ${timeoutMs}: expected a positive number of milliseconds`);
  }
  const retries = options.retries ?? defaults.retries;
  if (!Number.isInteger(retries) || retries < 0) {
    throw new RangeError(`Invalid retries ${retries}: expected a non-negative integer`);
  }
  return {
    timeoutMs,
    retries,
    sleep: options.sleep ?? delay,
    now: options.now ?? (() => performance.now()),
    rng: options.rng ?? new Rng(0),
    limiter: options.limiter,
  };
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** How a `fetch` that threw failed (see `fetchFailure()`). */
export interface FetchFailure {
  /**
   * `timeout`, no answer in time (or aborted); `not_allowed`, no network permission; `refused`, nothing
   * listens there; `host_not_found`, the name does not resolve; `tls`, the handshake failed; `reset`,
   * the connection was dropped; `other`, anything else.
   */
  kind: "timeout" | "not_allowed" | "refused" | "host_not_found" | "tls" | "reset" | "other";
  /** In a few words: `"no answer within 5 s"`, `"connection refused"`, …, or the error's first line. */
  why: string;
}

/**
 * Sorts the error a `fetch` threw, for every HTTP client here (the model clients, the remote agent,
 * the preflight): `timeoutMs` is the time-out it was sent with, named when it ran out.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { fetchFailure } from "./resilience.ts";
 * assertEquals(fetchFailure(new TypeError("error sending request: Connection refused (os error 111)"), 5000).kind, "refused");
 * ```
 */
export function fetchFailure(err: unknown, timeoutMs: number): FetchFailure {
  if (err instanceof DOMException && (err.name === "TimeoutError" || err.name === "AbortError")) {
    return { kind: "timeout", why: `no answer within ${timeoutMs / 1000} s` };
  }
  if (err instanceof Deno.errors.NotCapable || err instanceof Deno.errors.PermissionDenied) {
    return { kind: "not_allowed", why: "network access is not allowed (run deno with --allow-net)" };
  }
  const text = [err instanceof Error ? err.message : String(err), String((err as Error)?.cause ?? "")].join(" ");
  if (/refused/i.test(text)) return { kind: "refused", why: "connection refused" };
  if (/dns|lookup|resolve|name or service|no address|not known|ENOTFOUND/i.test(text)) {
    return { kind: "host_not_found", why: "host not found" };
  }
  if (/certificate|tls|ssl/i.test(text)) return { kind: "tls", why: "TLS handshake failed" };
  if (/reset|closed before|connection closed/i.test(text)) return { kind: "reset", why: "connection reset" };
  return { kind: "other", why: text.split("\n")[0].trim() };
}
