// The server's perimeter, checked before any route: the Host and Origin a request may come with.
// Without a token the server trusts this machine only, so a request must name it: a loopback Host on
// the bound port (a DNS-rebinding page sends its own name, e.g. Host: evil.example:8787), and a
// browser's cross-site request must come from a loopback page on that port (the Origin is compared
// with the bound port, not with the Host, which such a page chooses). With a token anyone may reach
// the server, and a browser's request must come from the server's own pages.
import type { Context, MiddlewareHandler } from "hono";

/** The names of this machine a request without a token may give as its Host (IPv6 in brackets there). */
export const LOOPBACK_NAMES = ["localhost", "127.0.0.1", "::1"] as const;

/** What the perimeter checks against. */
export interface PerimeterOptions {
  /** The server's token; `null`: only this machine may talk to the server. */
  token: string | null;
  /** The port the server listens on; `null`: any port (an app used through `app.request()`). */
  port: number | null;
  /** Where each refusal is told, in one line. */
  log: (line: string) => void;
}

const LOOPBACK = new RegExp(
  `^(${LOOPBACK_NAMES.map((n) => n.includes(":") ? `\\[${n}\\]` : n).join("|").replaceAll(".", "\\.")})` +
    `(?::(\\d{1,5}))?$`,
  "i",
);

/** The middleware that refuses, with a 403 and one log line, a request from outside the perimeter. */
export function perimeter(options: PerimeterOptions): MiddlewareHandler {
  return async (c, next) => {
    const problem = options.token === null ? loopbackProblem(c, options.port) : originProblem(c);
    if (problem === null) return await next();
    options.log(`Refused ${c.req.method} ${clip(c.req.path)}: ${problem}`);
    return c.json({ error: `Forbidden: ${problem}` }, 403);
  };
}

// A GET or HEAD changes nothing, and a page of another site cannot read its answer: its Origin is not checked.
const SAFE_METHODS = new Set(["GET", "HEAD"]);

function loopbackProblem(c: Context, bound: number | null): string | null {
  const host = hostOf(c);
  const at = loopbackPort(host);
  if (at === null || (bound !== null && at !== bound)) {
    const accepted = bound === null ? `${namesOn("")} (any port)` : namesOn(`:${bound}`);
    return `Host ${quote(host)} is not this machine: without a token the server answers only Host ${accepted}`;
  }
  const origin = c.req.header("origin");
  if (origin === undefined || SAFE_METHODS.has(c.req.method)) return null;
  const from = origin.toLowerCase().startsWith("http://") ? loopbackPort(origin.slice("http://".length)) : null;
  if (from !== at) {
    return `requests from Origin ${quote(origin)} are not accepted: expected ${namesOn(`:${at}`, "http://")}`;
  }
  return null;
}

function originProblem(c: Context): string | null {
  const origin = c.req.header("origin");
  if (origin === undefined || SAFE_METHODS.has(c.req.method)) return null;
  const host = hostOf(c);
  // `null` and other unparsable Origins are refused, never thrown.
  if (URL.parse(origin)?.host === host) return null;
  return `requests from Origin ${quote(origin)} are not accepted: expected ${quote(`http://${host}`)}`;
}

// The Host a request names: its header, or, without one (`app.request()`), its URL's.
function hostOf(c: Context): string {
  return c.req.header("host") ?? new URL(c.req.url).host;
}

// The port of a loopback `name[:port]` (80 when none is given), or `null` when it names anything else.
function loopbackPort(text: string): number | null {
  const match = LOOPBACK.exec(text);
  if (match === null) return null;
  return match[2] === undefined ? 80 : Number(match[2]);
}

function namesOn(port: string, scheme = ""): string {
  const names = LOOPBACK_NAMES.map((n) => `${scheme}${n.includes(":") ? `[${n}]` : n}${port}`);
  return `${names.slice(0, -1).join(", ")} or ${names.at(-1)}`;
}

function quote(value: string): string {
  return JSON.stringify(clip(value));
}

function clip(value: string): string {
  return value.length > 200 ? `${value.slice(0, 200)}…` : value;
}
